package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/symbolic"
)

// Range stores with values. A DO loop evaluated symbolically (its trip
// count a value the run reads) that fills an array by A(i + c) = f(i),
// f a closed form of i, leaves every element of the range its value: the
// process table a program builds before it has the number of processes,
// do i = 1, n / tids(i) = i - 1. Such a loop's stores are kept as range
// stores (arrayStore.upTo) whose value is f at the element's offset, with
// offSym standing for the offset read (atOffset substitutes it).

// offSym stands, in the value of a range store, for the offset of the
// element read.
const offSym = "#off"

// atOffset is the value of a store at offset o: a range store's value has
// offSym for the offset.
func atOffset(v Value, o symbolic.Expr) Value {
	if !mentions(v, []string{offSym}) {
		return v
	}
	w, ok := substValue(v, map[string]symbolic.Expr{offSym: o})
	if !ok {
		return Value{}
	}
	return w
}

// loopRange is what a symbolic DO loop with unit step left in one array.
type loopRange struct {
	v      string   // the loop's domain variable (its DO variable)
	lo, hi Value    // its first and last values
	others []string // the variables of the loops inside it
}

// valuedRanges returns the state a symbolic DO loop leaves in an array it
// stores to only through A(v + c) (loopStores): pre is the state before
// the loop, entry the state its body started from (pre and the range the
// loop reaches, unknown) and end the state the body ended in. Each of the
// body's stores, unguarded, to offset v + b with a known value f(v) free of
// the inner loops' variables, becomes a store of f(#off - b) to the
// offsets lo+b..hi+b. The element at offset o is last written by the
// iteration o - b with the least b whose range holds o (the latest
// iteration), and within one iteration by the later statement: the ranges
// are ordered by decreasing b, statement order within one b, the newest
// last as stores are. It fails where the body's stores are not all of
// that form.
func valuedRanges(pre, entry, end *arrayState, r loopRange) (*arrayState, bool) {
	if pre == nil || entry == nil || end == nil || end.clobbered != entry.clobbered || end.base != entry.base {
		return nil, false
	}
	n := len(entry.stores)
	if len(end.stores) <= n {
		return nil, false
	}
	for i, s := range entry.stores {
		if end.stores[i] != s {
			return nil, false
		}
	}
	lo, ok1 := r.lo.Single()
	hi, ok2 := r.hi.Single()
	if !ok1 || !ok2 {
		return nil, false
	}
	type ranged struct {
		b   symbolic.Expr
		val Value
	}
	var rs []ranged
	for _, s := range end.stores[n:] {
		if s.upTo != nil || s.guard != nil || !s.val.IsKnown() {
			return nil, false
		}
		a, b, ok := s.off.Linear(r.v)
		if !ok || !symbolic.Equal(a, symbolic.Int(1)) || b.Has(r.v) || mentionsExpr(b, r.others) {
			return nil, false
		}
		if mentions(s.val, r.others) || mentions(s.val, []string{offSym}) || mentionsProbe(s.val) {
			return nil, false
		}
		f, ok := substValue(s.val, map[string]symbolic.Expr{r.v: symbolic.Sym(offSym).Sub(b)})
		if !ok {
			return nil, false
		}
		rs = append(rs, ranged{b, f})
	}
	// The order of the ranges needs their offsets' differences to be
	// numbers (c - c' for subscripts v + c and v + c').
	var fail bool
	slices.SortStableFunc(rs, func(x, y ranged) int {
		d, ok := y.b.Sub(x.b).Const()
		if !ok {
			fail = true
			return 0
		}
		return d.Sign() // the larger b first: the older
	})
	if fail {
		return nil, false
	}
	out := &arrayState{clobbered: pre.clobbered, base: pre.base, tab: pre.tab, stores: slices.Clip(pre.stores)}
	for _, x := range rs {
		to := hi.Add(x.b)
		out.stores = append(out.stores, &arrayStore{off: lo.Add(x.b), upTo: &to, val: x.val})
	}
	return out, len(out.stores) <= maxArrayStores
}

// mentionsExpr reports whether e has any of the symbols.
func mentionsExpr(e symbolic.Expr, syms []string) bool {
	for _, s := range syms {
		if e.Has(s) {
			return true
		}
	}
	return false
}
