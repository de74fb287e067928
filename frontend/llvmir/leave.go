package llvmir

import (
	"github.com/llir/llvm/ir"
)

// Paths that leave loops. clang places the code a loop's exit runs before
// it goes on (an error message and exit, a found value returned, a break
// that records something first) in blocks of its own, after the loops:
// reached from inside a loop, such a path is written where it is reached,
// followed by the EXIT or RETURN it ends in, instead of being a jump the
// structure cannot hold.

// leavesBy reports whether every path from block b, outside loop l,
// reaches stop (-1: none) or returns or ends the program (unreachable,
// after exit or abort) within a few blocks: such a path can be written
// where it is reached, as often as it is. A loop on the way (a shift
// before a break) is allowed on a path to stop where b is reached from
// one block and dominates it: the loop is written once, so the
// instrumented run counts it as the analysis does.
func (x *fn) leavesBy(b int, l *loop, stop int) bool {
	seen := map[int]bool{}
	work := []int{b}
	once := stop >= 0 && len(x.g.pred[b]) == 1
	loops, ends := false, false
	for len(work) > 0 {
		v := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[v] || v == stop {
			continue
		}
		seen[v] = true
		if len(seen) > maxLeaveBlocks || l.contains(v) {
			return false
		}
		if x.g.header[v] != nil {
			if !once || !x.g.dominates(b, v) {
				return false
			}
			loops = true
		}
		switch x.g.blocks[v].Term.(type) {
		case *ir.TermUnreachable, *ir.TermRet:
			ends = true
		case *ir.TermBr, *ir.TermCondBr, *ir.TermSwitch, *ir.TermInvoke:
			// An invoke goes on to its normal target (targets): the
			// message a C++ error path writes before it ends the run.
			work = append(work, x.g.succ[v]...)
		default:
			return false
		}
	}
	// A path with a loop must go on to stop: one that returns after it
	// (a found entry updated, then returned) stays a jump not modelled.
	return !loops || !ends
}

// maxLeaveBlocks bounds the blocks of a path leavesBy writes in place: an
// error message and its exit, a found value and the return are a few.
const maxLeaveBlocks = 32

// joinExit is where the code after a loop with several exits starts: the
// target of an exit the others reach (through a few blocks written in
// place before their EXIT, arrive) or that returns or ends the program,
// else the first exit's that does not return; -1 where every exit
// returns.
func (x *fn) joinExit(nl *loop, stop int) int {
	first := -1
	for _, e := range nl.exits {
		if x.forward(e.to) == x.retB {
			continue
		}
		if first < 0 {
			first = e.to
		}
		_, after := x.chain(e.to, stop)
		joins := true
		for _, o := range nl.exits {
			if x.forward(o.to) != x.forward(e.to) && x.forward(o.to) != x.retB &&
				!x.leavesBy(o.to, nl, after) && !x.leavesBy(o.to, nl, -1) {
				joins = false
				break
			}
		}
		if joins {
			return e.to
		}
	}
	return first
}

// chainHasPhis reports whether a block from b to final along the blocks
// that only jump on (forward) has phis: copies the edge into b brings.
func (x *fn) chainHasPhis(b, final int) bool {
	for range maxLeaveBlocks {
		if hasPhis(x.g.blocks[b]) {
			return true
		}
		br, ok := x.g.blocks[b].Term.(*ir.TermBr)
		if b == final || !ok {
			return false
		}
		b = x.g.index[blockOf(br.Target)]
	}
	return true
}
