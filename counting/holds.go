package counting

import (
	"github.com/mkvet/mkvet/symbolic"
)

// CompiledFormula is a formula prepared for deciding at many integer points,
// each relation's expression compiled once (symbolic.Compile).
type CompiledFormula struct {
	op   byte // 'r' relation, '&' and, '|' or, '!' not
	rel  symbolic.Relation
	f    *symbolic.Func
	kids []*CompiledFormula
}

// CompileFormula compiles f over vars, the order of the points Holds takes.
// Every symbol of f must be among vars.
func CompileFormula(f Formula, vars []string) (*CompiledFormula, error) {
	switch g := f.(type) {
	case nil:
		return &CompiledFormula{op: '&'}, nil
	case Rel:
		fn, err := g.R.E.Compile(vars)
		if err != nil {
			return nil, err
		}
		return &CompiledFormula{op: 'r', rel: g.R, f: fn}, nil
	case And, Or:
		var xs []Formula
		op := byte('&')
		if a, ok := g.(And); ok {
			xs = a
		} else {
			xs, op = g.(Or), '|'
		}
		c := &CompiledFormula{op: op}
		for _, x := range xs {
			k, err := CompileFormula(x, vars)
			if err != nil {
				return nil, err
			}
			c.kids = append(c.kids, k)
		}
		return c, nil
	case Not:
		k, err := CompileFormula(g.F, vars)
		if err != nil {
			return nil, err
		}
		return &CompiledFormula{op: '!', kids: []*CompiledFormula{k}}, nil
	}
	panic("counting: unknown formula type")
}

// Holds reports whether the formula holds at point (values in the order of
// the variables it was compiled over). It fails where a relation's value is
// undefined (a division by zero).
func (c *CompiledFormula) Holds(point []int64) (bool, error) {
	switch c.op {
	case 'r':
		v, err := c.f.EvalInt(point)
		if err != nil {
			return false, err
		}
		switch c.rel.Op {
		case symbolic.GE:
			return v.Sign() >= 0, nil
		case symbolic.GT:
			return v.Sign() > 0, nil
		default:
			return v.Sign() == 0, nil
		}
	case '&':
		for _, k := range c.kids {
			ok, err := k.Holds(point)
			if err != nil || !ok {
				return false, err
			}
		}
		return true, nil
	case '|':
		for _, k := range c.kids {
			ok, err := k.Holds(point)
			if err != nil {
				return false, err
			}
			if ok {
				return true, nil
			}
		}
		return false, nil
	default:
		ok, err := c.kids[0].Holds(point)
		return !ok, err
	}
}
