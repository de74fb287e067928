package cost

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Weights are the costs of one operation of each kind in operation units, the
// unit of Work before a machine profile or calibration turns it into seconds
// (MK's basic-block cost, seed 000 §2.1; Pacheco's counting statements, seed
// 004 §11.2).
type Weights struct {
	Add, Mul, Div, Pow, Neg, Cmp, Logic symbolic.Rat
	// IntDiv is added to Div for each integer division.
	IntDiv symbolic.Rat
	// Intrinsic is one call of an intrinsic function (sqrt, exp, mod, min).
	Intrinsic symbolic.Rat
	// Load and Store are one array element reference; Subscript one
	// arithmetic operation inside a subscript.
	Load, Store, Subscript symbolic.Rat
	// Call is the linkage overhead of one call of a user routine (its body is
	// costed separately, in the caller's context).
	Call symbolic.Rat
}

// DefaultWeights are the weights used when none are given. They count a
// floating-point add or multiply as one unit, a division as four and a power or
// intrinsic as eight (the usual latency ratios of current cores, a rough guide
// that calibration replaces); an array element load as one unit and a store as
// two (a core issues two loads and two arithmetic operations per cycle but one
// store: a loop that only stores, clearing a buffer, takes two to three times
// its share at one unit per store against measured time per nest, NPB MG);
// integer subscript arithmetic and negation as free (compilers fold or
// strength-reduce them), a comparison or logical operation as one, and a call
// as two.
func DefaultWeights() Weights {
	one := symbolic.RatInt(1)
	return Weights{
		Add: one, Mul: one, Div: symbolic.RatInt(4), Pow: symbolic.RatInt(8),
		Neg: symbolic.Rat{}, Cmp: one, Logic: one,
		IntDiv:    symbolic.Rat{},
		Intrinsic: symbolic.RatInt(8),
		Load:      one, Store: symbolic.RatInt(2), Subscript: symbolic.Rat{},
		Call: symbolic.RatInt(2),
	}
}

// Of returns the work of one execution of a statement with operation counts o,
// without the cost of the user functions it calls.
func (w Weights) Of(o apt.Ops) symbolic.Rat {
	n := func(k int) symbolic.Rat { return symbolic.RatInt(int64(k)) }
	sum := n(o.Adds).Mul(w.Add)
	sum = sum.Add(n(o.Muls).Mul(w.Mul))
	sum = sum.Add(n(o.Divs).Mul(w.Div))
	sum = sum.Add(n(o.IntDivs).Mul(w.IntDiv))
	sum = sum.Add(n(o.Pows).Mul(w.Pow))
	sum = sum.Add(n(o.Negs).Mul(w.Neg))
	sum = sum.Add(n(o.Cmps).Mul(w.Cmp))
	sum = sum.Add(n(o.Logic).Mul(w.Logic))
	sum = sum.Add(n(o.Loads).Mul(w.Load))
	sum = sum.Add(n(o.Stores).Mul(w.Store))
	sum = sum.Add(n(o.SubscriptOps).Mul(w.Subscript))
	for _, k := range o.Intrinsics {
		sum = sum.Add(n(k).Mul(w.Intrinsic))
	}
	for _, k := range o.Calls {
		sum = sum.Add(n(k).Mul(w.Call))
	}
	return sum
}

// iterationWork is the work of one iteration of an innermost loop's own
// statements: each block's scalar statements (a loop-carried chain of
// dependent operations where it bounds the rate more, as blockWork
// counts), a branch's costliest arm, calls at their linkage cost (their
// bodies are costed where they run). Array statements inside the loop are
// left out: their element counts are not per iteration.
//
// kind is the loop's kind: a chain where a recurrence bounds a block's
// work, else complex where a statement computes a complex value by
// arithmetic (a copy of one is no complex operation).
func (an *analysis) iterationWork(l *apt.Loop) (work symbolic.Rat, kind LoopKind) {
	chain, complexArith := false, false
	var body func(ns []apt.Node) symbolic.Rat
	body = func(ns []apt.Node) symbolic.Rat {
		sum := symbolic.Rat{}
		for _, n := range ns {
			switch x := n.(type) {
			case *apt.Block:
				scalar := symbolic.Rat{}
				for _, s := range x.Stmts {
					scalar = scalar.Add(an.w.Of(s.Ops))
					if o := s.Ops; s.Kind == apt.StmtAssign && s.Value != nil && apt.TypeOf(s.Value).Base == apt.TypeComplex &&
						o.Adds+o.Muls+o.Divs+o.Pows > 0 {
						complexArith = true
					}
				}
				// A chain as long as the rest of the work bounds the
				// loop as well (a dot product's add waits for the last).
				if rec, ok := an.w.recurrence(x.Stmts); ok && rec.Cmp(scalar) >= 0 {
					scalar, chain = rec, true
				}
				sum = sum.Add(scalar)
			case *apt.If:
				most := symbolic.Rat{}
				for _, b := range x.Branches {
					if w := body(b.Body); w.Cmp(most) > 0 {
						most = w
					}
				}
				sum = sum.Add(most)
			case *apt.Call:
				sum = sum.Add(an.w.Call)
			}
		}
		return sum
	}
	work = body(l.Body)
	switch {
	case chain:
		kind = LoopChain
	case complexArith:
		kind = LoopComplex
	}
	return work, kind
}
