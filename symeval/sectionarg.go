package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// sectionArg is an array section handed to an array dummy the routine may
// assign: its elements, to store the dummy's back into after the call.
type sectionArg struct {
	formal string
	refs   []*apt.Index
}

// sectionActual evaluates an array section given as the actual argument
// of an array dummy (CALL use(act(:, t)), a column of a table) where its
// bounds are numbers and it has a few elements: the dummy gets a copy of
// them in array element order, as sequence association gives them
// (Fortran 2018 15.5.2.11), an element the evaluation does not know
// unknown there too. It returns the section's element references, for
// copyOut. ok is false where the evaluation does not follow the section.
func (ev *evaluator) sectionActual(ix *apt.Index) (Value, []*apt.Index, bool) {
	if ev.prog.FromIR || ix.Base != nil || ix.Substring || !hasSection(ix) || !tracked(ix.Type) {
		return Value{}, nil, false
	}
	decl := ev.declOf(ix)
	if decl == nil || !decl.IsArray() || len(decl.Dims) != len(ix.Subs) {
		return Value{}, nil, false
	}
	subs, total, ok := ev.sectionSubs(ix, decl, maxBlockCopy)
	if !ok {
		return Value{}, nil, false
	}
	refs := sectionElements(ix, subs, total)
	out := &arrayState{}
	for k, el := range refs {
		key, off, ok := ev.arrayRef(el)
		o, single := off.Single()
		if key == "" || !ok || !single {
			return Value{}, nil, false
		}
		val := Value{} // unknown: read, it is asked for as before
		if alts, ok := ev.readOffset(ev.arrayOf(key, decl), o); ok {
			val = Value{Alts: alts}
		}
		out.stores = append(out.stores, &arrayStore{off: symbolic.Int(int64(k)), val: val})
	}
	return Value{arr: out}, refs, true
}

// copyOut stores the elements of the dummy at key back into the section's
// elements refs after the call, as a compiler that passed a copy of a
// noncontiguous section does (and as the section's own storage holds
// where it passed its address): an element the evaluation does not know
// there is unknown in the section.
func (ev *evaluator) copyOut(key string, refs []*apt.Index) {
	st := ev.arrayOf(key, nil)
	for k, el := range refs {
		v := Value{}
		if alts, ok := ev.readOffset(st, symbolic.Int(int64(k))); ok {
			v = Value{Alts: alts}
		}
		ev.assign(el, v)
	}
}
