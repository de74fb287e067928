package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/symbolic"
)

// Arrays compared and joined element by element. A program resets a flag
// array to the same values wherever it goes (fields = 0; fields(FIELD_P) =
// 1, in several arms and on every iteration of a solver): two states of
// the array that hold the same values are the same value, whichever
// statements made them, and where a test of data chose between two
// states, the elements they agree on keep their value and only the others
// become unknown. Elements compared are those the states store at
// constant offsets without a guard; states with other stores are the same
// only where they are made of the same stores, and are not joined element
// by element. A clobbered state is only ever itself: its elements are
// unknowns of their own (loadAt), which another state's are not.

// plainStores returns the stores of st by offset, when every store is to a
// constant offset without a guard.
func plainStores(st *arrayState) (map[int64]Value, bool) {
	out := map[int64]Value{}
	for _, s := range st.stores {
		c, ok := s.off.Int64()
		if !ok || s.upTo != nil || s.guard != nil {
			return nil, false
		}
		out[c] = s.val // storeAt keeps one store per such offset
	}
	return out, true
}

// sameBase reports whether two states hold the same value where they store
// nothing.
func sameBase(a, b *arrayState) bool {
	if a.base == nil || b.base == nil {
		return a.base == nil && b.base == nil
	}
	return sameValue(*a.base, *b.base)
}

// sameArray reports whether two states of an array hold the same
// elements.
func sameArray(a, b *arrayState) bool {
	if a == b {
		return true
	}
	if a.clobbered || b.clobbered || !sameBase(a, b) {
		return false
	}
	pa, ok1 := plainStores(a)
	pb, ok2 := plainStores(b)
	if ok1 && ok2 {
		if len(pa) != len(pb) {
			return false
		}
		for o, v := range pa {
			if w, ok := pb[o]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	}
	return slices.EqualFunc(a.stores, b.stores, func(x, y *arrayStore) bool {
		return x == y || symbolic.Equal(x.off, y.off) && sameFormula(x.guard, y.guard) && sameValue(x.val, y.val) &&
			(x.upTo == nil) == (y.upTo == nil) && (x.upTo == nil || symbolic.Equal(*x.upTo, *y.upTo))
	})
}

// joinOnData joins two states of the array at key after a branch on data
// (eitherOf for each element): the elements both hold keep their value,
// the others are unknown. False where the states are not compared element
// by element.
func (ev *evaluator) joinOnData(key string, a, b *arrayState) (*arrayState, bool) {
	if a.clobbered || b.clobbered || !sameBase(a, b) {
		return nil, false
	}
	pa, ok1 := plainStores(a)
	pb, ok2 := plainStores(b)
	if !ok1 || !ok2 {
		return nil, false
	}
	offs := slices.Sorted(func(yield func(int64) bool) {
		for o := range pa {
			if !yield(o) {
				return
			}
		}
		for o := range pb {
			if _, dup := pa[o]; !dup && !yield(o) {
				return
			}
		}
	})
	out := &arrayState{base: a.base}
	for _, o := range offs {
		v, inA := pa[o]
		w, inB := pb[o]
		switch {
		case !inA && a.base != nil:
			v, inA = *a.base, true
		case !inB && b.base != nil:
			w, inB = *b.base, true
		}
		val := v
		switch {
		case !inA:
			val = w // undefined on one side: Fortran reads the other's
		case inB && !sameValue(v, w):
			val = ev.eitherOf(keyName(key), v, w)
		}
		out.stores = append(out.stores, &arrayStore{off: symbolic.Int(o), val: val})
	}
	return out, true
}
