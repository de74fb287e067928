package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"
)

// liveness of one SSA value: the blocks it is live out of, and its uses
// within blocks (positions, after inlining: a use by an inlined
// instruction counts where that instruction's own user is).
type liveness struct {
	defBlock, defIndex int
	out                map[int]bool
	local              map[int][]int // block -> use positions in it
}

// effective returns the sites where v's value is read once inlined
// expressions are written into their users; a counted loop's test is
// evaluated on entry, at the end of the block before the loop.
func (x *fn) effective(v value.Value, depth int) []use {
	var out []use
	for _, u := range x.uses[v] {
		w, isVal := u.user.(value.Value)
		switch {
		case isVal && x.inline[w] && depth < 64:
			out = append(out, x.effective(w, depth+1)...)
		case isVal && x.skip[w]:
			if s, ok := x.site[w]; ok {
				if l := x.g.header[s.block]; l != nil {
					for _, p := range x.g.pred[s.block] {
						if !l.blocks[p] {
							out = append(out, use{user: u.user, block: p, index: len(x.g.blocks[p].Insts)})
						}
					}
					continue
				}
			}
			out = append(out, u)
		default:
			out = append(out, u)
		}
		if isVal && !x.inline[w] && depth < 64 {
			// A load or store through an address computed from v is
			// written as an element of v's name (location: *--e = 0
			// becomes e(-1) = 0), so v is read there too, wherever the
			// address is named: a later value of v's name must not be
			// given the name before then.
			out = append(out, x.derefUses(w, depth+1)...)
		}
	}
	return out
}

// derefUses are the loads and stores through the address w, directly or
// through further address computations and casts of it, where location
// writes w's expression in terms of its operands.
func (x *fn) derefUses(w value.Value, depth int) []use {
	switch w.(type) {
	case *ir.InstGetElementPtr, *ir.InstBitCast:
	default:
		return nil
	}
	var out []use
	for _, u := range x.uses[w] {
		switch i := u.user.(type) {
		case *ir.InstLoad:
			if i.Src == w {
				out = append(out, u)
			}
		case *ir.InstStore:
			if i.Dst == w {
				out = append(out, u)
			}
		case *ir.InstGetElementPtr, *ir.InstBitCast:
			if depth < 64 && !x.inline[i.(value.Value)] {
				out = append(out, x.derefUses(i.(value.Value), depth+1)...)
			}
		}
	}
	return out
}

func (x *fn) liveness(v value.Value) *liveness {
	lv := &liveness{defBlock: 0, defIndex: -2, out: map[int]bool{}, local: map[int][]int{}}
	if s, ok := x.site[v]; ok {
		lv.defBlock, lv.defIndex = s.block, s.index
	}
	var work []int
	liveIn := map[int]bool{}
	for _, u := range x.effective(v, 0) {
		_, phiUse := u.user.(*ir.InstPhi)
		if phiUse {
			// Read on the edge: live out of the incoming block.
			if !lv.out[u.block] {
				lv.out[u.block] = true
				if u.block != lv.defBlock {
					work = append(work, u.block)
				}
			}
			continue
		}
		lv.local[u.block] = append(lv.local[u.block], u.index)
		if u.block != lv.defBlock {
			work = append(work, u.block)
		}
	}
	// Live-in at every block reached backwards from a use before the
	// definition's block.
	for len(work) > 0 {
		b := work[len(work)-1]
		work = work[:len(work)-1]
		if liveIn[b] || b == lv.defBlock {
			continue
		}
		liveIn[b] = true
		for _, p := range x.g.pred[b] {
			if x.g.order[p] < 0 {
				continue
			}
			lv.out[p] = true
			if p != lv.defBlock {
				work = append(work, p)
			}
		}
	}
	return lv
}

// liveAfter reports whether the value is live just after position i of
// block b.
func (lv *liveness) liveAfter(b, i int) bool {
	if b == lv.defBlock && i < lv.defIndex {
		return false
	}
	for _, j := range lv.local[b] {
		if j > i {
			return true
		}
	}
	return lv.out[b] && (b != lv.defBlock || i >= lv.defIndex)
}

// interfere reports whether v and w are live at once: one is live where
// the other is defined.
func (x *fn) interfere(v, w value.Value, lv func(value.Value) *liveness) bool {
	sv, sw := lv(v), lv(w)
	return sv.liveAfter(sw.defBlock, sw.defIndex) || sw.liveAfter(sv.defBlock, sv.defIndex)
}
