package model

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/mkvet/mkvet/symbolic"
)

// Collective is an MPI collective operation with the algorithm mkvet
// assumes for it. Each constant's comment states the algorithm and its time
// in p processes, m bytes per process (the per-destination block for
// all-to-all) and a point-to-point model T(m); K = ceil(log2(p)) is the
// depth of a binomial tree, so every formula holds for p that is not a power
// of two and is 0 at p = 1. combine is the time to apply the reduction
// operator to one incoming m-byte buffer (m/8 * t_a for doubles).
type Collective int

const (
	// Bcast is a binomial-tree broadcast: in stage k every process that has
	// the data sends it to one that has not, so the last process receives
	// after K stages: K*T(m).
	Bcast Collective = iota + 1 // bcast
	// Reduce is a binomial-tree reduction, the tree-structured global sum
	// of Pacheco (seed 004 §11.6, ch. 5): K stages of a message and a
	// combine, K*(T(m) + combine); for one double this is Pacheco's
	// log2(p)*(t_s + t_c + t_a).
	Reduce // reduce
	// Allreduce is a reduction to one process followed by a broadcast
	// (both binomial trees), the algorithm that is right for any p and any
	// m: K*(2*T(m) + combine).
	Allreduce // allreduce
	// AllreduceRecursiveDoubling exchanges and combines with partner
	// rank XOR 2^k in stage k, each exchange costing one message time (a
	// full-duplex exchange). For p not a power of two the p - 2^floor(log2 p)
	// extra processes first fold their data into partners and get the
	// result back at the end, two more stages:
	// floor(log2 p)*(T(m) + combine) + 2*(K - floor(log2 p))*T(m) + (K - floor(log2 p))*combine.
	AllreduceRecursiveDoubling // allreduce-recursive-doubling
	// Barrier is the dissemination barrier: K rounds of zero-byte messages
	// in which process i signals i + 2^k (mod p): K*T(0).
	Barrier // barrier
	// GatherLinear has the root receive the p-1 blocks one after the
	// other: (p-1)*T(m).
	GatherLinear // gather-linear
	// ScatterLinear has the root send the p-1 blocks one after the other:
	// (p-1)*T(m).
	ScatterLinear // scatter-linear
	// GatherBinomial gathers along a binomial tree: in stage k the root
	// receives the min(2^k, p - 2^k) blocks collected by its child, K
	// messages and (p-1)*m bytes in all. For the linear Hockney model this
	// is K*t_s + (p-1)*m*t_c for every p; other models need a constant p,
	// when the stages are summed exactly.
	GatherBinomial // gather-binomial
	// ScatterBinomial is GatherBinomial reversed, with the same time.
	ScatterBinomial // scatter-binomial
	// Allgather is the ring algorithm: p-1 steps in which every process
	// passes the block it received last to its right neighbour:
	// (p-1)*T(m).
	Allgather // allgather
	// Alltoall is the pairwise exchange: p-1 steps in which process i
	// sends its block for i + k and receives from i - k (mod p), each a
	// full-duplex exchange of m bytes: (p-1)*T(m).
	Alltoall // alltoall
	// Scan is the linear chain of Open MPI's basic scan (and exscan):
	// process i receives the prefix from i-1, combines its own and passes
	// it to i+1, so the last process has it after p-1 steps:
	// (p-1)*(T(m) + combine).
	Scan // scan
)

var collectiveNames = [...]string{
	Bcast: "bcast", Reduce: "reduce", Allreduce: "allreduce",
	AllreduceRecursiveDoubling: "allreduce-recursive-doubling", Barrier: "barrier",
	GatherLinear: "gather-linear", ScatterLinear: "scatter-linear",
	GatherBinomial: "gather-binomial", ScatterBinomial: "scatter-binomial",
	Allgather: "allgather", Alltoall: "alltoall", Scan: "scan",
}

// Collectives lists every collective, in declaration order.
var Collectives = []Collective{Bcast, Reduce, Allreduce, AllreduceRecursiveDoubling, Barrier,
	GatherLinear, ScatterLinear, GatherBinomial, ScatterBinomial, Allgather, Alltoall, Scan}

// String returns the collective's name as in its declaration's line comment.
func (c Collective) String() string {
	if c >= 1 && int(c) < len(collectiveNames) {
		return collectiveNames[c]
	}
	return fmt.Sprintf("Collective(%d)", int(c))
}

// Time returns the collective's time in seconds as a Piecewise value in p,
// m and whatever symbols combine holds, its guards those of net's size
// regimes. It returns an error only for a binomial gather or scatter with a
// non-linear model (not Hockney) and a p that is not a constant.
func (c Collective) Time(net PointToPoint, p, m, combine symbolic.Expr) (symbolic.Piecewise, error) {
	K := symbolic.Ceil(symbolic.Log2(p))
	F := symbolic.Floor(symbolic.Log2(p))
	if pc, ok := p.Int64(); ok && pc >= 1 {
		// Exact stage counts: symbolic leaves ceil(log2(3)) unevaluated.
		K, F = symbolic.Int(int64(ceilLog2(int(pc)))), symbolic.Int(int64(bits.Len64(uint64(pc))-1))
	}
	pm1 := p.Sub(symbolic.Int(1))
	t := net.Time(m)
	switch c {
	case Bcast:
		return pwScale(t, K), nil
	case Reduce:
		return pwScale(pwAddExpr(t, combine), K), nil
	case Allreduce:
		return pwScale(pwAddExpr(pwScale(t, symbolic.Int(2)), combine), K), nil
	case AllreduceRecursiveDoubling:
		extra := K.Sub(F)
		return pwAddExpr(pwScale(t, F.Add(extra.Scale(symbolic.RatInt(2)))), combine.Mul(K)), nil
	case Barrier:
		return pwScale(net.Time(symbolic.Int(0)), K), nil
	case GatherLinear, ScatterLinear, Allgather, Alltoall:
		return pwScale(t, pm1), nil
	case Scan:
		return pwScale(pwAddExpr(t, combine), pm1), nil
	case GatherBinomial, ScatterBinomial:
		if h, ok := net.(Hockney); ok {
			return symbolic.PiecewiseOf(K.Mul(cnst(h.Ts)).Add(pm1.Mul(m).Mul(cnst(h.Tc)))), nil
		}
		pc, ok := p.Int64()
		if !ok {
			return symbolic.Piecewise{}, fmt.Errorf("model: %v with a size-regime model needs a constant process count, not %v", c, p)
		}
		if pc < 1 {
			return symbolic.Piecewise{}, fmt.Errorf("model: %v on %d processes", c, pc)
		}
		var sum symbolic.Piecewise
		for k, first := int64(0), true; int64(1)<<k < pc; k++ {
			blocks := min(int64(1)<<k, pc-int64(1)<<k)
			stage := net.Time(m.Mul(symbolic.Int(blocks)))
			if first {
				sum, first = stage, false
			} else {
				sum = pwAdd(sum, stage)
			}
		}
		return sum, nil
	}
	panic(fmt.Sprintf("model: Time of unknown %v", c))
}

// Seconds is Time evaluated in floating point for p processes and m bytes,
// without building expressions: the fast path for sweeps over p.
func (c Collective) Seconds(net PointToPoint, p int, m, combine float64) float64 {
	if p < 1 {
		return math.NaN()
	}
	K := float64(ceilLog2(p))
	F := float64(bits.Len(uint(p)) - 1)
	pm1 := float64(p - 1)
	switch c {
	case Bcast:
		return K * net.Seconds(m)
	case Reduce:
		return K * (net.Seconds(m) + combine)
	case Allreduce:
		return K * (2*net.Seconds(m) + combine)
	case AllreduceRecursiveDoubling:
		return (F+2*(K-F))*net.Seconds(m) + K*combine
	case Barrier:
		return K * net.Seconds(0)
	case GatherLinear, ScatterLinear, Allgather, Alltoall:
		return pm1 * net.Seconds(m)
	case Scan:
		return pm1 * (net.Seconds(m) + combine)
	case GatherBinomial, ScatterBinomial:
		if h, ok := net.(Hockney); ok {
			return K*f64(h.Ts) + pm1*m*f64(h.Tc)
		}
		var s float64
		for k := 0; 1<<k < p; k++ {
			s += net.Seconds(m * float64(min(1<<k, p-1<<k)))
		}
		return s
	}
	panic(fmt.Sprintf("model: Seconds of unknown %v", c))
}

// ceilLog2 returns ceil(log2(p)) for p >= 1.
func ceilLog2(p int) int { return bits.Len(uint(p - 1)) }
