package apt

import (
	"strconv"
	"strings"
)

// IntConstant evaluates an integer constant expression in routine r:
// integer literals (with a kind suffix), named constants (PARAMETER), and
// unary +/-, + - * / of them. It fails on anything else, or on a chain of
// named constants deeper than 16.
func (p *Program) IntConstant(r *Routine, e Expr) (int64, bool) {
	return p.intConstant(r, e, 0)
}

func (p *Program) intConstant(r *Routine, e Expr, depth int) (int64, bool) {
	if depth > 16 {
		return 0, false
	}
	switch e := e.(type) {
	case *Const:
		if e.Kind != ConstInt {
			return 0, false
		}
		text, _, _ := strings.Cut(e.Text, "_") // a kind suffix
		v, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		return v, err == nil
	case *Name:
		v := p.Resolve(r, e.Name)
		if v == nil || v.Param == nil {
			return 0, false
		}
		return p.intConstant(r, v.Param, depth+1)
	case *Unary:
		x, ok := p.intConstant(r, e.X, depth+1)
		if e.Op == OpNeg {
			x = -x
		}
		return x, ok && (e.Op == OpNeg || e.Op == OpPlus)
	case *Binary:
		x, ok1 := p.intConstant(r, e.X, depth+1)
		y, ok2 := p.intConstant(r, e.Y, depth+1)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch e.Op {
		case OpAdd:
			return x + y, true
		case OpSub:
			return x - y, true
		case OpMul:
			return x * y, true
		case OpDiv:
			if y != 0 {
				return x / y, true
			}
		}
	}
	return 0, false
}
