package cost

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// latencyFactor is how much longer a floating-point operation that waits
// for the one before it takes than the unit the weights count: an add or
// multiply has a latency of about four cycles on current cores, which
// issue one or two of them each cycle when they are independent.
const latencyFactor = 4

// maxCarried bounds the scalars a loop body may carry for its recurrences
// to be searched for cycles through several of them; beyond it only the
// scalars that feed themselves are looked at.
const maxCarried = 12

// loopBodies returns the blocks that are the whole body of a DO loop (with
// at most CONTINUE statements beside them): the blocks whose statements are
// one iteration of their loop, so that a recurrence among them bounds the
// loop's rate.
func loopBodies(prog *apt.Program) map[*apt.Block]bool {
	bodies := map[*apt.Block]bool{}
	for _, r := range prog.Routines {
		apt.Inspect(r, func(n apt.Node) bool {
			l, ok := n.(*apt.Loop)
			if !ok || l.Var == "" {
				return true
			}
			var only *apt.Block
			for _, b := range l.Body {
				switch x := b.(type) {
				case *apt.Continue:
				case *apt.Block:
					if only != nil {
						return true
					}
					only = x
				default:
					return true
				}
			}
			if only != nil {
				bodies[only] = true
			}
			return true
		})
	}
	return bodies
}

// recurrence returns the work per iteration of a loop whose body is the
// statements stmts when a chain of dependent floating-point operations runs
// from a scalar's value at the start of an iteration to its value at the
// end (a random-number generator's x = f(x)): the processor overlaps the
// work of independent iterations but not the links of such a chain, so an
// iteration takes at least latencyFactor times the weight of the chain, the
// recurrence-constrained minimum initiation interval of modulo scheduling
// (Rau's RecMII: the largest ratio of a dependence cycle's delay to the
// iterations it spans). ok is false when no such chain exists.
//
// Only scalar chains are followed: a value carried through an array element
// depends on subscripts, and integer operations (one cycle) never bound
// the rate the weights already count.
func (w Weights) recurrence(stmts []*apt.Stmt) (perIter symbolic.Rat, ok bool) {
	assigned := map[string]bool{}
	for _, s := range stmts {
		if s.Kind != apt.StmtAssign || s.Mask != nil || s.Ops.Vector {
			return symbolic.Rat{}, false // array statements: no per-iteration chain
		}
		if t, isName := s.Target.(*apt.Name); isName && !t.Array {
			assigned[t.Name] = true
		}
	}
	if len(assigned) == 0 {
		return symbolic.Rat{}, false
	}
	// cur maps each scalar assigned so far in the iteration to the longest
	// delay from each carried scalar's start value to its value.
	cur := map[string]delays{}
	for _, s := range stmts {
		t, isName := s.Target.(*apt.Name)
		if !isName || t.Array {
			continue
		}
		d, _ := w.delays(s.Value, assigned, cur)
		cur[t.Name] = d
	}
	var carried []string
	for v := range assigned {
		if _, fed := cur[v][v]; fed {
			carried = append(carried, v)
			continue
		}
		for _, d := range cur {
			if _, ok := d[v]; ok {
				carried = append(carried, v)
				break
			}
		}
	}
	best := symbolic.Rat{}
	for _, v := range carried {
		if d, ok := cur[v][v]; ok && d.Cmp(best) > 0 {
			best = d
		}
	}
	if len(carried) > 1 && len(carried) <= maxCarried {
		best = maxRatio(best, carried, cur)
	}
	if best.Sign() <= 0 {
		return symbolic.Rat{}, false
	}
	return best.Mul(symbolic.RatInt(latencyFactor)), true
}

// delays maps a carried scalar to the longest delay, in weight units, from
// its value at the start of an iteration to a value computed from it.
type delays map[string]symbolic.Rat

// delays returns the delays of the value of e, and whether e is a
// floating-point value (whose operations wait on their operands).
func (w Weights) delays(e apt.Expr, assigned map[string]bool, cur map[string]delays) (delays, bool) {
	switch x := e.(type) {
	case *apt.Name:
		if x.Array || !assigned[x.Name] {
			return nil, isFloat(x.Type)
		}
		if d, ok := cur[x.Name]; ok {
			return d, isFloat(x.Type)
		}
		return delays{x.Name: {}}, isFloat(x.Type)
	case *apt.Const:
		return nil, isFloat(x.Type)
	case *apt.Binary:
		dx, fx := w.delays(x.X, assigned, cur)
		dy, fy := w.delays(x.Y, assigned, cur)
		fl := fx || fy
		var op symbolic.Rat
		switch {
		case x.Op == apt.OpAdd || x.Op == apt.OpSub:
			op = w.Add
		case x.Op == apt.OpMul:
			op = w.Mul
		case x.Op == apt.OpDiv:
			op = w.Div
		case x.Op == apt.OpPow:
			op = w.Pow
		case x.Op.IsRelational():
			op, fl = w.Cmp, false
		case x.Op.IsLogical():
			op, fl = w.Logic, false
		}
		if !fl {
			op = symbolic.Rat{}
		}
		return join(dx, dy, op), fl && !x.Op.IsRelational()
	case *apt.Unary:
		d, fl := w.delays(x.X, assigned, cur)
		if x.Op == apt.OpNeg && fl {
			return join(d, nil, w.Neg), true
		}
		return d, fl
	case *apt.FuncCall:
		if !x.Intrinsic {
			return nil, isFloat(x.Type)
		}
		var d delays
		fl := isFloat(x.Type)
		for _, a := range x.Args {
			da, fa := w.delays(a, assigned, cur)
			d = join(d, da, symbolic.Rat{})
			fl = fl || fa
		}
		if fl {
			// A conversion or elementary function on a floating-point
			// value waits for it whatever type it returns (int(x)).
			d = join(d, nil, w.Intrinsic)
		}
		return d, isFloat(x.Type)
	}
	// Array elements and components: a value carried through memory is
	// not followed.
	return nil, false
}

// join returns the delays of an operation of weight op on values with
// delays a and b: the longer of the two, plus op.
func join(a, b delays, op symbolic.Rat) delays {
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	out := make(delays, len(a)+len(b))
	for _, d := range []delays{a, b} {
		for v, t := range d {
			t = t.Add(op)
			if old, ok := out[v]; !ok || t.Cmp(old) > 0 {
				out[v] = t
			}
		}
	}
	return out
}

func isFloat(t apt.Type) bool { return t.Base == apt.TypeReal || t.Base == apt.TypeComplex }

// maxRatio returns the largest delay per iteration of the cycles through
// the carried scalars (a cycle through k of them spans k iterations), at
// least best: the walks of exactly k steps in the max-plus algebra, for
// k up to the number of scalars, whose diagonal holds each cycle's delay.
func maxRatio(best symbolic.Rat, carried []string, cur map[string]delays) symbolic.Rat {
	n := len(carried)
	// edge[i][j]: the delay from carried[i]'s start value to carried[j]'s
	// end value, when one depends on the other.
	type cell struct {
		d  symbolic.Rat
		ok bool
	}
	edge := make([][]cell, n)
	for i, from := range carried {
		edge[i] = make([]cell, n)
		for j, to := range carried {
			if d, ok := cur[to][from]; ok {
				edge[i][j] = cell{d, true}
			}
		}
	}
	walk := edge
	for k := 2; k <= n; k++ {
		next := make([][]cell, n)
		for i := range n {
			next[i] = make([]cell, n)
			for m := range n {
				if !walk[i][m].ok {
					continue
				}
				for j := range n {
					if !edge[m][j].ok {
						continue
					}
					d := walk[i][m].d.Add(edge[m][j].d)
					if c := next[i][j]; !c.ok || d.Cmp(c.d) > 0 {
						next[i][j] = cell{d, true}
					}
				}
			}
		}
		walk = next
		for i := range n {
			if walk[i][i].ok {
				if r := walk[i][i].d.Mul(symbolic.RatFrac(1, int64(k))); r.Cmp(best) > 0 {
					best = r
				}
			}
		}
	}
	return best
}
