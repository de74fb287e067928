package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// The formulas of domains and guards are built through the helpers below,
// which fold what is decided on the way: a relation between constants is
// true or false, true drops out of a conjunction and false out of a
// disjunction. In an evaluation at a point most conditions on P and the
// problem sizes become constants, so the domains shrink to what depends on
// the rank and the loop variables.

var (
	formulaTrue  counting.Formula = counting.And{}
	formulaFalse counting.Formula = counting.Or{}
)

func isTrue(f counting.Formula) bool {
	a, ok := f.(counting.And)
	return f == nil || ok && len(a) == 0
}

func isFalse(f counting.Formula) bool {
	o, ok := f.(counting.Or)
	return ok && len(o) == 0
}

// rel returns the formula of x op y, op one of >=, >, <=, <, ==, folded when
// the difference is a constant.
func rel(x symbolic.Expr, op string, y symbolic.Expr) counting.Formula {
	r := symbolic.Rel(x, op, y)
	if t, ok := constTruth(r); ok {
		return truth(t)
	}
	return counting.Rel{R: r}
}

// constTruth decides a relation whose expression is a constant.
func constTruth(r symbolic.Relation) (bool, bool) {
	c, ok := r.E.Const()
	if !ok {
		return false, false
	}
	switch r.Op {
	case symbolic.GE:
		return c.Sign() >= 0, true
	case symbolic.GT:
		return c.Sign() > 0, true
	case symbolic.EQ:
		return c.Sign() == 0, true
	}
	return false, false
}

func truth(b bool) counting.Formula {
	if b {
		return formulaTrue
	}
	return formulaFalse
}

func and(fs ...counting.Formula) counting.Formula {
	var out counting.And
	for _, f := range fs {
		switch g := f.(type) {
		case nil:
		case counting.And:
			out = append(out, g...)
		case counting.Or:
			if len(g) == 0 {
				return formulaFalse
			}
			out = append(out, g)
		default:
			out = append(out, g)
		}
	}
	switch len(out) {
	case 0:
		return nil
	case 1:
		return out[0]
	}
	return out
}

func or(fs ...counting.Formula) counting.Formula {
	var out counting.Or
	for _, f := range fs {
		if isTrue(f) {
			return formulaTrue
		}
		if g, ok := f.(counting.Or); ok {
			out = append(out, g...)
		} else {
			out = append(out, f)
		}
	}
	if len(out) == 1 {
		return out[0]
	}
	return out
}

func not(f counting.Formula) counting.Formula {
	switch {
	case isTrue(f):
		return formulaFalse
	case isFalse(f):
		return formulaTrue
	}
	if n, ok := f.(counting.Not); ok {
		return n.F
	}
	return counting.Not{F: f}
}

// decide returns the truth of f when every relation in it is decided by
// constants (after folding), and ok false otherwise.
func decide(f counting.Formula) (bool, bool) {
	switch g := f.(type) {
	case nil:
		return true, true
	case counting.Rel:
		return constTruth(g.R)
	case counting.And:
		all := true
		for _, x := range g {
			t, ok := decide(x)
			if ok && !t {
				return false, true
			}
			all = all && ok
		}
		return true, all
	case counting.Or:
		all := true
		for _, x := range g {
			t, ok := decide(x)
			if ok && t {
				return true, true
			}
			all = all && ok
		}
		return false, all
	case counting.Not:
		t, ok := decide(g.F)
		return !t, ok
	}
	return false, false
}

// substFormula replaces symbols in every relation of f and folds the
// relations that become constant.
func substFormula(f counting.Formula, sub map[string]symbolic.Expr) (counting.Formula, error) {
	switch g := f.(type) {
	case nil:
		return nil, nil
	case counting.Rel:
		e, err := g.R.E.Subst(sub)
		if err != nil {
			return nil, err
		}
		r := symbolic.Relation{E: e, Op: g.R.Op}
		if t, ok := constTruth(r); ok {
			return truth(t), nil
		}
		return counting.Rel{R: r}, nil
	case counting.And:
		out := make([]counting.Formula, len(g))
		for i, x := range g {
			y, err := substFormula(x, sub)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		if r := and(out...); r != nil {
			return r, nil
		}
		return formulaTrue, nil
	case counting.Or:
		out := make([]counting.Formula, len(g))
		for i, x := range g {
			y, err := substFormula(x, sub)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return or(out...), nil
	case counting.Not:
		y, err := substFormula(g.F, sub)
		if err != nil {
			return nil, err
		}
		return not(y), nil
	}
	return f, nil
}

// formulaMentions reports whether f mentions the symbol s.
func formulaMentions(f counting.Formula, s string) bool {
	switch g := f.(type) {
	case counting.Rel:
		return g.R.E.Has(s)
	case counting.And:
		for _, x := range g {
			if formulaMentions(x, s) {
				return true
			}
		}
	case counting.Or:
		for _, x := range g {
			if formulaMentions(x, s) {
				return true
			}
		}
	case counting.Not:
		return formulaMentions(g.F, s)
	}
	return false
}
