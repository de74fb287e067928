package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// Bit intrinsics (IAND, IOR, IEOR, NOT, ISHFT, SHIFTL, SHIFTR, SHIFTA,
// IBSET, IBCLR, IBITS; the C frontend's &, |, ^ become the first three,
// its shifts by a variable the SHIFT ones). They have no closed form in
// the symbolic algebra, but a partner rank in a hypercube or butterfly
// exchange (ieor(rank, 2**k)) is one number per rank: of numbers they are
// computed, and at a point (P a number) of values of the rank alone they
// are computed rank by rank, the ranks' numbers then one value (closed
// forms in the rank where they fit, rankAltsOn).

// bitOps computes a bit intrinsic of numbers (false for another name, or
// arguments out of its domain).
// bitArgs is how many arguments each bit intrinsic reads.
var bitArgs = map[string]int{"iand": 2, "ior": 2, "ieor": 2, "not": 1, "ishft": 2, "ibset": 2, "ibclr": 2, "ibits": 3,
	"shiftl": 2, "shiftr": 2, "shifta": 2}

func bitOps(name string, a []int64, kind int) (int64, bool) {
	need := bitArgs[name]
	if need == 0 || len(a) < need {
		return 0, false
	}
	switch name {
	case "iand":
		return a[0] & a[1], true
	case "ior":
		return a[0] | a[1], true
	case "ieor":
		return a[0] ^ a[1], true
	case "not":
		return ^a[0], true
	case "ishft":
		// A logical shift of the integer's bits: left for positive
		// counts.
		s := a[1]
		if kind == 8 {
			switch {
			case s >= 64 || s <= -64:
				return 0, true
			case s >= 0:
				return int64(uint64(a[0]) << s), true
			default:
				return int64(uint64(a[0]) >> -s), true
			}
		}
		switch {
		case s >= 32 || s <= -32:
			return 0, true
		case s >= 0:
			return int64(int32(uint32(a[0]) << s)), true
		default:
			return int64(int32(uint32(a[0]) >> -s)), true
		}
	case "shiftl", "shiftr", "shifta":
		// Fortran 2008 13.7.155-157: the shift must lie in 0..bits; the
		// value is of the kind's width.
		bits := int64(32)
		if kind == 8 {
			bits = 64
		}
		s := a[1]
		if s < 0 || s > bits {
			return 0, false
		}
		if s == bits {
			if name == "shifta" && a[0] < 0 {
				return -1, true
			}
			return 0, true
		}
		if kind == 8 {
			switch name {
			case "shiftl":
				return int64(uint64(a[0]) << s), true
			case "shiftr":
				return int64(uint64(a[0]) >> s), true
			}
			return a[0] >> s, true
		}
		switch name {
		case "shiftl":
			return int64(int32(uint32(a[0]) << s)), true
		case "shiftr":
			return int64(int32(uint32(a[0]) >> s)), true
		}
		return int64(int32(a[0]) >> s), true
	case "ibset", "ibclr":
		if a[1] < 0 || a[1] > 62 {
			return 0, false
		}
		if name == "ibset" {
			return a[0] | 1<<a[1], true
		}
		return a[0] &^ (1 << a[1]), true
	case "ibits":
		if a[1] < 0 || a[2] < 0 || a[1]+a[2] > 63 {
			return 0, false
		}
		return (a[0] >> a[1]) & (1<<a[2] - 1), true
	}
	return 0, false
}

// bitIntrinsic evaluates a bit intrinsic of numbers, or at a point of
// values of the rank alone, rank by rank.
func (ev *evaluator) bitIntrinsic(name string, args []Value, kind int) (Value, bool) {
	if n, ok := bitArgs[name]; !ok || len(args) < n {
		return Value{}, false
	}
	nums := make([]int64, len(args))
	constant := true
	for i, a := range args {
		e, ok := a.Single()
		if !ok {
			constant = false
			break
		}
		if nums[i], ok = e.Int64(); !ok {
			constant = false
			break
		}
	}
	if constant {
		x, ok := bitOps(name, nums, kind)
		if !ok {
			return Value{}, false
		}
		return Known(symbolic.Int(x)), true
	}
	if v, ok := ev.bitsOverLoop(name, args, kind); ok {
		return v, true
	}
	np, ok := ev.values[Size]
	if _, fixed := ev.values[Rank]; !ok || fixed || np < 1 || np > maxTabulatedP {
		return Value{}, false
	}
	for _, a := range args {
		if !a.IsKnown() || !onlyRankValue(a) {
			return Value{}, false
		}
	}
	alts := make([]Alt, 0, np)
	sets := make([][]bool, 0, np)
	for r := range np {
		x, ok := bitsAt(name, args, nums, kind, map[string]symbolic.Expr{Rank: symbolic.Int(r)})
		if !ok {
			return Value{}, false
		}
		set := make([]bool, np)
		set[r] = true
		alts = append(alts, Alt{Guard: counting.Rel{R: symbolic.Rel(symbolic.Sym(Rank), "==", symbolic.Int(r))}, E: symbolic.Int(x)})
		sets = append(sets, set)
	}
	out := ev.rankAltsOn(alts, sets, np)
	if len(out) > maxAlts && !ev.fits(out) {
		return Value{}, false
	}
	return Value{Alts: out}, true
}

// onlyRankValue reports whether v's alternatives mention no symbol but the
// rank.
func onlyRankValue(v Value) bool {
	for _, a := range v.Alts {
		if a.Guard != nil && !onlyRank(a.Guard) {
			return false
		}
		for _, s := range a.E.Symbols() {
			if s != Rank {
				return false
			}
		}
	}
	return true
}

// bitsOverLoop computes a bit intrinsic of numbers and the variable of one
// loop around it, evaluated for all its iterations at once, whose few
// values are numbers (a grid's extent at level l, nx >> l): one value per
// iteration, each guarded by the variable's value, so that the counts
// under it are summed over the iterations exactly.
func (ev *evaluator) bitsOverLoop(name string, args []Value, kind int) (Value, bool) {
	var sym string
	for _, a := range args {
		e, ok := a.Single()
		if !ok {
			return Value{}, false
		}
		for _, s := range e.Symbols() {
			if sym != "" && s != sym {
				return Value{}, false
			}
			sym = s
		}
	}
	if sym == "" {
		return Value{}, false
	}
	var lo, hi int64
	found := false
	for _, lf := range ev.frame().loopFrames {
		if lf == nil || lf.v != sym || !lf.unit {
			continue
		}
		l, ok1 := valueInt(lf.lo)
		h, ok2 := valueInt(lf.hi)
		if !ok1 || !ok2 || h-l+1 > maxAlts {
			return Value{}, false
		}
		lo, hi, found = l, h, true
	}
	if !found {
		return Value{}, false
	}
	nums := make([]int64, len(args))
	var alts []Alt
	for k := lo; k <= hi; k++ {
		x, ok := bitsAt(name, args, nums, kind, map[string]symbolic.Expr{sym: symbolic.Int(k)})
		if !ok {
			return Value{}, false
		}
		alts = append(alts, Alt{Guard: counting.Rel{R: symbolic.Rel(symbolic.Sym(sym), "==", symbolic.Int(k))}, E: symbolic.Int(x)})
	}
	if len(alts) == 0 {
		return Value{}, false
	}
	return Value{Alts: alts}, true
}

// bitsAt computes the bit intrinsic name of the arguments' numbers with
// the symbols sub gives (nums is scratch of len(args)).
func bitsAt(name string, args []Value, nums []int64, kind int, sub map[string]symbolic.Expr) (int64, bool) {
	for i, a := range args {
		n, ok := numberAt(a, sub)
		if !ok {
			return 0, false
		}
		nums[i] = n
	}
	return bitOps(name, nums, kind)
}
