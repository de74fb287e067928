package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// The input list of a READ as the run takes it (Fortran 2008 9.6.3): its
// items in order, an implied-DO list (a(i), i = 1, n) expanded over its
// known bounds with its variable set before each pass, so that the
// values of a deck's record go to the array elements they are for.

// inputStep is one step of an input list: an item a value is stored in,
// or an implied-DO variable taking a value.
type inputStep struct {
	target apt.Expr // the item; nil for a step that sets a variable
	set    string
	val    int64
}

// maxInputItems bounds the items one READ takes from a file: a deck's
// settings, not a data set.
const maxInputItems = 4096

// inputSteps flattens a READ's items: scalar variables and array elements
// of a type input sets (character ones of known length), implied-DO lists
// with known bounds. false where an item is anything else (a whole array,
// a parameter the user gave), a bound is not known, or there are more
// than maxInputItems.
func (ev *evaluator) inputSteps(items []apt.Expr) ([]inputStep, bool) {
	var out []inputStep
	count := 0
	var walk func(items []apt.Expr) bool
	walk = func(items []apt.Expr) bool {
		for _, it := range items {
			switch x := it.(type) {
			case *apt.Name:
				if ev.paramName(x.Name) != "" {
					return false
				}
				if d := ev.prog.Resolve(ev.frame().routine, x.Name); x.Array || d != nil && d.IsArray() {
					// A whole array: its elements in array element order.
					ix := &apt.Index{Pos: x.Pos, Name: x.Name, Type: x.Type}
					if d != nil {
						for range d.Dims {
							ix.Subs = append(ix.Subs, &apt.Section{Pos: x.Pos})
						}
					}
					if !ev.sectionSteps(ix, &out, &count) {
						return false
					}
					continue
				}
			case *apt.Index:
				if x.Base != nil || x.Substring || ev.paramName(x.Name) != "" {
					return false
				}
				if slices.ContainsFunc(x.Subs, isSection) {
					// A section: its elements in array element order.
					if !ev.sectionSteps(x, &out, &count) {
						return false
					}
					continue
				}
			case *apt.Component:
				// A scalar field (fscanf(f, "%d", &p.nx)).
				if _, ok := ev.refKey(x); !ok {
					return false
				}
			case *apt.ImpliedDo:
				lo, ok1 := ev.value(x.Lo).Single()
				hi, ok2 := ev.value(x.Hi).Single()
				step := symbolic.Int(1)
				ok3 := true
				if x.Step != nil {
					step, ok3 = ev.value(x.Step).Single()
				}
				l, ok4 := lo.Int64()
				h, ok5 := hi.Int64()
				s, ok6 := step.Int64()
				if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || s == 0 {
					return false
				}
				// The variable holds each value while the items inside
				// are flattened (an inner list's bounds may use it), and
				// its own value again after.
				k := ev.key(x.Var)
				old, had := ev.env.lookup(k)
				v := l
				ok := true
				for ; ok && (s > 0 && v <= h || s < 0 && v >= h); v += s {
					if count++; count > maxInputItems {
						ok = false
						break
					}
					out = append(out, inputStep{set: x.Var, val: v})
					ev.env.set(k, Known(symbolic.Int(v)))
					ok = walk(x.Items)
				}
				if had {
					ev.env.set(k, old)
				} else {
					ev.env.del(k)
				}
				if !ok {
					return false
				}
				out = append(out, inputStep{set: x.Var, val: v}) // its value after the list
				continue
			default:
				return false
			}
			if !inputType(apt.TypeOf(it).Base) {
				return false
			}
			if count++; count > maxInputItems {
				return false
			}
			out = append(out, inputStep{target: it})
		}
		return true
	}
	if !walk(items) {
		return nil, false
	}
	return out, true
}

// inputType reports whether input sets a value of type b.
func inputType(b apt.BaseType) bool {
	switch b {
	case apt.TypeInteger, apt.TypeReal, apt.TypeLogical, apt.TypeCharacter:
		return true
	}
	return false
}

// targets returns the items of steps.
func targets(steps []inputStep) []apt.Expr {
	var out []apt.Expr
	for _, s := range steps {
		if s.target != nil {
			out = append(out, s.target)
		}
	}
	return out
}

// storeSteps runs steps: each item takes the next of vals (or keeps its
// value where keep says so: a null value), each implied-DO variable its
// value.
func (ev *evaluator) storeSteps(steps []inputStep, vals []Value, keep []bool) {
	i := 0
	for _, s := range steps {
		if s.target == nil {
			ev.store(s.set, Known(symbolic.Int(s.val)))
			continue
		}
		if keep == nil || !keep[i] {
			ev.assign(s.target, vals[i])
		}
		i++
	}
}

// itemName is the variable an item stores into, for messages and -D.
func itemName(e apt.Expr) (name string, scalar bool) {
	switch x := e.(type) {
	case *apt.Name:
		return x.Name, true
	case *apt.Index:
		return x.Name, false
	case *apt.Component:
		return x.Field, false
	}
	return "", false
}

// sectionSteps appends the elements of the section ix (a whole array
// written as one) to an input list, false where its bounds are not known
// numbers, its type is not one input sets, or the list grows past
// maxInputItems.
func (ev *evaluator) sectionSteps(ix *apt.Index, out *[]inputStep, count *int) bool {
	decl := ev.storedDecl(ix)
	if decl == nil || !decl.IsArray() || len(decl.Dims) != len(ix.Subs) || !inputType(ix.Type.Base) {
		return false
	}
	subs, total, ok := ev.sectionSubs(ix, decl, maxInputItems-*count)
	if !ok {
		return false
	}
	for _, el := range sectionElements(ix, subs, total) {
		*out = append(*out, inputStep{target: el})
	}
	*count += total
	return true
}
