package model

import (
	"fmt"

	"github.com/mkvet/mkvet/symbolic"
)

// Piecewise arithmetic for costs. Every point-to-point model's pieces have
// pairwise disjoint guards covering all message sizes m >= 0, so sums of
// such values, taken piece by piece over the product of the guards, are
// again such values; products whose guards contradict each other are
// dropped by Piecewise.Simplify.

// pwScale returns k*pw.
func pwScale(pw symbolic.Piecewise, k symbolic.Expr) symbolic.Piecewise {
	out := symbolic.Piecewise{Pieces: make([]symbolic.Piece, len(pw.Pieces))}
	for i, p := range pw.Pieces {
		out.Pieces[i] = symbolic.Piece{Guard: p.Guard, Value: p.Value.Mul(k)}
	}
	return out
}

// pwAddExpr returns pw + e, e being defined everywhere.
func pwAddExpr(pw symbolic.Piecewise, e symbolic.Expr) symbolic.Piecewise {
	out := symbolic.Piecewise{Pieces: make([]symbolic.Piece, len(pw.Pieces))}
	for i, p := range pw.Pieces {
		out.Pieces[i] = symbolic.Piece{Guard: p.Guard, Value: p.Value.Add(e)}
	}
	return out
}

// pwAdd returns a + b over the product of their guards, dropping pieces
// whose combined guard is provably empty.
func pwAdd(a, b symbolic.Piecewise) symbolic.Piecewise {
	var out symbolic.Piecewise
	for _, pa := range a.Pieces {
		for _, pb := range b.Pieces {
			g := append(append([]symbolic.Relation(nil), pa.Guard...), pb.Guard...)
			out.Pieces = append(out.Pieces, symbolic.Piece{Guard: g, Value: pa.Value.Add(pb.Value)})
		}
	}
	out = out.Simplify(symbolic.NewAssumptions())
	for i, pc := range out.Pieces {
		out.Pieces[i].Guard = pruneGuard(pc.Guard)
	}
	return out
}

// pruneGuard drops relations implied by the others: m <= 1399 goes when
// 2*m <= 1399 is also required.
func pruneGuard(g []symbolic.Relation) []symbolic.Relation {
	for i := 0; i < len(g); i++ {
		others := append(append([]symbolic.Relation(nil), g[:i]...), g[i+1:]...)
		if symbolic.NewAssumptions(others...).Prove(g[i]) == symbolic.True {
			g = others
			i--
		}
	}
	return g
}

// cases builds a Piecewise from guard/value pairs on the message size m and
// simplifies it under m >= 0, so that a constant m selects its piece and
// guards that always hold disappear.
func cases(m symbolic.Expr, pieces ...symbolic.Piece) symbolic.Piecewise {
	pw := symbolic.Piecewise{Pieces: pieces}
	return pw.Simplify(symbolic.NewAssumptions(symbolic.Rel(m, ">=", symbolic.Int(0))))
}

// EvalFloat evaluates pw in floating point at env: the value of the first
// piece whose guard holds, 0 where none holds (the Piecewise convention). A
// guard relation that cannot be evaluated is an error.
func EvalFloat(pw symbolic.Piecewise, env map[string]float64) (float64, error) {
next:
	for _, p := range pw.Pieces {
		for _, r := range p.Guard {
			v, err := r.E.EvalFloat(env)
			if err != nil {
				return 0, fmt.Errorf("model: guard %v: %w", r, err)
			}
			if !holdsFloat(r.Op, v) {
				continue next
			}
		}
		v, err := p.Value.EvalFloat(env)
		if err != nil {
			return 0, fmt.Errorf("model: %v: %w", p.Value, err)
		}
		return v, nil
	}
	return 0, nil
}

// holdsFloat decides e op 0 for a float value of e, with a relative
// tolerance for equality so that rounded integer arithmetic still selects
// the right piece.
func holdsFloat(op symbolic.RelOp, v float64) bool {
	const eps = 1e-9
	switch op {
	case symbolic.GE:
		return v >= -eps
	case symbolic.GT:
		return v > eps
	case symbolic.EQ:
		return v >= -eps && v <= eps
	}
	return false
}
