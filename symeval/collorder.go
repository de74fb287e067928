package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Broadcasts across the arms of a branch on the rank. A program often
// writes its set-up as `if (rank == 0) { read; pack; bcast } else { bcast;
// unpack }`: the root and the others reach the same broadcast through
// different statements. MPI matches the collective calls of a communicator
// by their order, so the k-th collective one arm makes is the k-th the
// other makes: the evaluation counts the collectives of the path (colls;
// each arm of an IF starts from the count before it), keeps what the root
// sends at each count where the root runs the path (rootSent), and a
// broadcast on a path the root does not run takes what the root sent at
// the same count. The arm the root runs is walked first (rootArmFirst).
// The two calls match only where their paths part at the arms of one IF
// (armStep): after that IF the count is the arms' largest, which is each
// path's only where the arms make as many collectives, so calls on paths
// that part at different IFs are left unmatched (the value unknown).

// armStep is one IF whose arm a path runs, and which arm.
type armStep struct {
	n   *apt.If
	arm int
}

// rootBcast is what the root sent by one broadcast: its communicator and
// root, the arms its path ran, and the buffer's value there (a scalar, a
// text, or an array's stores).
type rootBcast struct {
	comm any
	root symbolic.Expr
	arms []armStep
	val  Value
}

// maxRootSent bounds the broadcasts kept: the set-up of a program makes a
// few; past it the older ones are dropped.
const maxRootSent = 256

// keepRootBcast records the root's value of a broadcast buffer at the
// path's collective count, on a path inside an IF's arm (a broadcast every
// rank makes needs no match).
func (ev *evaluator) keepRootBcast(c *apt.Comm, v Value) {
	if ev.probing > 0 || c.Root == nil || len(ev.armPath) == 0 || !v.IsKnown() && v.arr == nil && v.str == nil {
		return
	}
	root, ok := ev.value(c.Root).Single()
	if !ok || root.Has(Rank) {
		return
	}
	if ev.rootSent == nil || len(ev.rootSent) >= maxRootSent {
		ev.rootSent = map[int]rootBcast{}
	}
	ev.rootSent[ev.colls] = rootBcast{comm: ev.commID(c.Comm), root: root, arms: slices.Clone(ev.armPath), val: v}
}

// rootBcastAt is what the root sent by the broadcast this one matches: the
// same count of collectives, communicator and root, made on a path that
// parted from this one at another arm of one IF.
func (ev *evaluator) rootBcastAt(c *apt.Comm) (Value, bool) {
	rec, ok := ev.rootSent[ev.colls]
	if !ok || ev.probing > 0 || c.Root == nil || rec.comm != ev.commID(c.Comm) || !partAtArms(rec.arms, ev.armPath) {
		return Value{}, false
	}
	root, ok := ev.value(c.Root).Single()
	if !ok || !root.Equal(rec.root) {
		return Value{}, false
	}
	return rec.val, true
}

// partAtArms reports whether two paths' arms first differ at two arms of
// one IF.
func partAtArms(a, b []armStep) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return a[i].n == b[i].n
		}
	}
	return false
}

// dropRootSent forgets the broadcasts kept from count colls on (a run
// undone: the counts will be reached again).
func (ev *evaluator) dropRootSent(colls int) {
	for k := range ev.rootSent {
		if k >= colls {
			delete(ev.rootSent, k)
		}
	}
}

// rootArmFirst reports whether the ELSE of a two-armed IF on the rank
// (cond the THEN's condition) is the arm the root of the THEN's first
// broadcast runs, the THEN a path it does not: walking the ELSE first
// keeps what the root sends for the THEN's matching broadcast.
func (ev *evaluator) rootArmFirst(n *apt.If, cond counting.Formula) bool {
	var first *apt.Comm
	for _, x := range n.Branches[0].Body {
		apt.Inspect(x, func(y apt.Node) bool {
			if c, ok := y.(*apt.Comm); ok && first == nil && c.Op == apt.MPIBcast && c.Root != nil {
				first = c
			}
			return first == nil
		})
	}
	if first == nil {
		return false
	}
	taken, dec := ev.decideAtRoot(cond, first.Root)
	return dec && !taken
}

// decideAtRoot decides f at the rank the root expression names (a number,
// no rank in it), P the point's: holds, and whether it is decided.
func (ev *evaluator) decideAtRoot(f counting.Formula, root apt.Expr) (holds, decided bool) {
	if root == nil {
		return false, false
	}
	rv, ok := ev.value(root).Single()
	if !ok || rv.Has(Rank) {
		return false, false
	}
	sub := map[string]symbolic.Expr{Rank: rv}
	if p, ok := ev.values[Size]; ok {
		sub[Size] = symbolic.Int(p)
	}
	g, err := substFormula(f, sub)
	if err != nil {
		return false, false
	}
	return decide(g)
}

// commID identifies a communicator argument: the one the program made, or
// the predefined handle's value (the world when absent), or the argument as
// written.
func (ev *evaluator) commID(e apt.Expr) any {
	if e == nil {
		return int64(mpiCommWorld)
	}
	v := ev.value(e)
	if v.comm != nil {
		return v.comm
	}
	if c, ok := v.Single(); ok {
		if n, ok := c.Int64(); ok {
			return n
		}
	}
	return apt.FormatExpr(e)
}

// textAtRoot is the text a character variable holds at the root, from the
// texts it holds under conditions (a setting read on the root only): the
// first whose guard holds at the root's rank.
func (ev *evaluator) textAtRoot(texts []guardedText, root apt.Expr) (Value, bool) {
	for _, t := range texts {
		if t.guard != nil {
			holds, dec := ev.decideAtRoot(t.guard, root)
			if !dec {
				return Value{}, false
			}
			if !holds {
				continue
			}
		}
		text := t.text
		return Value{str: &text}, true
	}
	return Value{}, false
}
