package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// sentMemo keeps what matching found out about one kept send for a
// sending rank: whether the send is that rank's, its destinations there,
// and whether its conditions hold on a trip. None of it depends on the
// receiver, yet each of P receivers asks again for every send kept before
// the one it takes (at P = 1024 a whole application's receives spent a
// quarter of its evaluation substituting the same ranks).
type sentMemo struct {
	from  map[int64]*fromRank
	holds map[[3]int64]int8 // (sender, destination alternative, trip): 1 holds, 2 not, 3 undecided
}

// fromRank is a send seen from one sending rank.
type fromRank struct {
	decided bool            // whether the sender is decided there
	sends   bool            // the rank makes the send
	dests   []symbolic.Expr // each destination alternative at the rank
	ok      []bool          // whether its substitution succeeded
	off     []bool          // whether its guard is false at the rank
	free    [][]string      // the send's loop variables it has
	num     []int64         // its value where a number (isNum)
	isNum   []bool
}

// fromRank returns the send seen from rank s.
func (x *sent) fromRank(s int64) *fromRank {
	if f, ok := x.memo.from[s]; ok {
		return f
	}
	if x.memo.from == nil {
		x.memo.from = map[int64]*fromRank{}
	}
	f := &fromRank{}
	x.memo.from[s] = f
	sub := map[string]symbolic.Expr{Rank: symbolic.Int(s)}
	if name, isSym := x.sender.SymName(); isSym && name == Rank {
		f.decided, f.sends = true, true // a send every rank makes
	} else if n, ok := substNumber(x.sender, sub); ok {
		f.decided, f.sends = true, n == s
	} else {
		return f
	}
	if !f.sends || !x.dest.IsKnown() {
		return f
	}
	for j, d := range x.dest.Alts {
		// A destination per rank (a table of neighbours) has one
		// alternative a rank's guard selects: the others are not
		// substituted.
		if x.destIdx != nil && (s < 0 || s >= int64(len(x.destIdx)) || x.destIdx[s] != int32(j)) {
			f.add(symbolic.Expr{}, true, true, nil)
			continue
		}
		e, err := d.E.Subst(sub)
		var free []string
		for _, v := range x.vars {
			if e.Has(v) {
				free = append(free, v)
			}
		}
		f.add(e, err == nil, false, free)
	}
	return f
}

// holdsAt reports whether the send's conditions and the guard of its
// destination alternative alt hold at at (the rank s, trip k).
func (x *sent) holdsAt(s int64, alt int, k int64, guard counting.Formula, at map[string]symbolic.Expr) (holds, ok bool) {
	key := [3]int64{s, int64(alt), k}
	if x.memo.holds == nil {
		x.memo.holds = map[[3]int64]int8{}
	}
	switch x.memo.holds[key] {
	case 1:
		return true, true
	case 2:
		return false, true
	case 3:
		return false, false
	}
	conds := append(x.conds[:len(x.conds):len(x.conds)], guard)
	holds, ok = allHold(conds, at)
	switch {
	case !ok:
		x.memo.holds[key] = 3
	case holds:
		x.memo.holds[key] = 1
	default:
		x.memo.holds[key] = 2
	}
	return holds, ok
}

func (f *fromRank) add(e symbolic.Expr, ok, off bool, free []string) {
	n, isNum := e.Int64()
	f.dests, f.ok, f.off, f.free = append(f.dests, e), append(f.ok, ok), append(f.off, off), append(f.free, free)
	f.num, f.isNum = append(f.num, n), append(f.isNum, isNum && ok && !off)
}
