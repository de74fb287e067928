package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// DO loops whose step is one of several constants by case. A sweep in
// either direction sets its bounds and step by the case it is in (i0 =
// it, i1 = 1, i2 = -1 for one octant, i0 = 1, i1 = it, i2 = +1 for
// another) and runs DO i = i0, i1, i2: evaluated for all the cases at
// once, the step is a value with one constant per case. The loop's domain
// is then the union over the cases, each its own loop under its guard:
// the DO variable between lo and hi in the case's direction where every
// step is +1 or -1, else the iteration number k >= 0 with the DO variable
// lo + c*k within hi.

// steppedLoop is the domain of such a loop, as the loop evaluation needs
// it.
type steppedLoop struct {
	cond                          counting.Formula // the body's condition on the domain variable
	varValue, index, trips, after Value
}

// stepCases returns the domain of a DO loop whose step is step, a value
// each of whose alternatives is a nonzero constant, with lo and hi its
// bounds and v its domain variable. ok is false when the step is not of
// that form or the cases' formulas grow past the alternatives' limits.
func stepCases(v string, lo, hi, step Value) (steppedLoop, bool) {
	if len(step.Alts) < 2 {
		return steppedLoop{}, false
	}
	unit := true
	for _, a := range step.Alts {
		c, ok := a.E.Int64()
		if !ok || c == 0 {
			return steppedLoop{}, false
		}
		unit = unit && (c == 1 || c == -1)
	}
	x := symbolic.Sym(v)
	var out steppedLoop
	var cases []counting.Formula
	// span is the range the DO variable covers in every case so far,
	// where each case's bounds are one expression; same stays true while
	// the cases all cover the same range.
	var span [2]symbolic.Expr
	same := unit
	var varAlts, indexAlts, tripAlts, afterAlts []Alt
	for _, a := range step.Alts {
		c, _ := a.E.Int64()
		s := symbolic.Int(c)
		// The bounds of this case: set by the same branches as the step,
		// the other cases' alternatives contradict its guard.
		lo, hi := within(lo, a.Guard), within(hi, a.Guard)
		toward := apt.OpLe // the DO variable's side of hi
		if c < 0 {
			toward = apt.OpGe
		}
		// Fortran's trip count, fixed on entry: max((hi - lo + c)/c, 0).
		t, ok := lift2(lo, hi, func(l, h symbolic.Expr) (symbolic.Expr, bool) {
			return symbolic.Max(symbolic.FloorDiv(h.Sub(l).Add(s), s), symbolic.Int(0)), true
		})
		if !ok {
			return steppedLoop{}, false
		}
		af, ok := lift2(lo, t, func(l, n symbolic.Expr) (symbolic.Expr, bool) { return l.Add(n.Mul(s)), true })
		if !ok {
			return steppedLoop{}, false
		}
		var dv Value // the DO variable in this case
		if unit {
			dv = Known(x)
			from := apt.OpGe // the DO variable's side of lo
			if c < 0 {
				from = apt.OpLe
			}
			f1, ok1 := relation(dv, lo, from)
			f2, ok2 := relation(dv, hi, toward)
			k, ok3 := lift1(lo, func(l symbolic.Expr) (symbolic.Expr, bool) { return x.Sub(l).Mul(s), true })
			if !ok1 || !ok2 || !ok3 {
				return steppedLoop{}, false
			}
			cases = append(cases, and(a.Guard, f1, f2))
			indexAlts = appendGuarded(indexAlts, a.Guard, k)
			if same {
				l, okl := lo.Single()
				h, okh := hi.Single()
				if c < 0 {
					l, h = h, l
				}
				switch {
				case !okl || !okh:
					same = false
				case span[0].NumTerms() == 0 && span[1].NumTerms() == 0 && len(cases) == 1:
					span = [2]symbolic.Expr{l, h}
				default:
					same = symbolic.Equal(span[0], l) && symbolic.Equal(span[1], h)
				}
			}
		} else {
			dv, ok = lift1(lo, func(l symbolic.Expr) (symbolic.Expr, bool) { return l.Add(s.Mul(x)), true })
			if !ok {
				return steppedLoop{}, false
			}
			f, ok := relation(dv, hi, toward)
			if !ok {
				return steppedLoop{}, false
			}
			cases = append(cases, and(a.Guard, f))
			varAlts = appendGuarded(varAlts, a.Guard, dv)
		}
		tripAlts = appendGuarded(tripAlts, a.Guard, t)
		afterAlts = appendGuarded(afterAlts, a.Guard, af)
	}
	out.cond = or(cases...)
	if same {
		// A sweep that runs the same range up or down by case (SNAP's
		// DO k = klo, khi, kst with the bounds swapped with the step's
		// sign): the DO variable's range is one, whatever the case, and
		// the domain need not name the cases (their guards cover every
		// path, as a value's alternatives do).
		out.cond = and(rel(x, ">=", span[0]), rel(x, "<=", span[1]))
	}
	if unit {
		out.varValue = Known(x)
		out.index = Value{Alts: mergeAlts(indexAlts)}
	} else {
		out.cond = and(rel(x, ">=", symbolic.Int(0)), out.cond)
		out.varValue = Value{Alts: mergeAlts(varAlts)}
		out.index = Known(x)
	}
	out.trips = Value{Alts: mergeAlts(tripAlts)}
	out.after = Value{Alts: mergeAlts(afterAlts)}
	for _, w := range []Value{out.varValue, out.index, out.trips, out.after} {
		if len(w.Alts) > maxAlts {
			return steppedLoop{}, false
		}
	}
	return out, true
}

// appendGuarded appends v's alternatives, each also under g, dropping
// those g contradicts.
func appendGuarded(out []Alt, g counting.Formula, v Value) []Alt {
	for _, a := range v.Alts {
		if h := and(g, a.Guard); !isFalse(h) {
			out = append(out, Alt{Guard: h, E: a.E})
		}
	}
	return out
}

// within returns the alternatives of v whose guards may hold where g does.
func within(v Value, g counting.Formula) Value {
	if g == nil {
		return v
	}
	var out []Alt
	for _, a := range v.Alts {
		if !isFalse(and(g, a.Guard)) {
			out = append(out, a)
		}
	}
	if len(out) == 1 {
		out[0].Guard = nil // the only one left where g holds
	}
	return Value{Alts: out}
}
