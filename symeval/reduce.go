package symeval

import (
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Values through reductions (MPI-3.1 §5.9). An MPI_ALLREDUCE of one value
// every process knows gives every process the reduction of those values,
// as the run does: the value itself for MPI_MAX, MPI_MIN, MPI_LAND and
// MPI_LOR when it is the same on every process, the communicator's size
// times it for MPI_SUM; and where the value is a closed form of the rank
// of MPI_COMM_WORLD at a known number of processes, the reduction over the
// ranks. A set-up's global maximum of a size, its sum of counts, is then a
// number, not a value of the run.

// maxReduceProcs bounds the processes a reduction over the ranks visits.
const maxReduceProcs = 1 << 14

// reductionOf is the value an MPI_ALLREDUCE of one element gives: send is
// the value sent (the receive buffer's, for MPI_IN_PLACE); false where the
// operation, the communicator or the value do not settle it.
func (ev *evaluator) reductionOf(c *apt.Comm, send Value) (Value, bool) {
	op, ok := c.Reduce.(*apt.Name)
	if !ok || !send.IsKnown() {
		return Value{}, false
	}
	if d := ev.prog.Resolve(ev.frame().routine, op.Name); d == nil || d.Predefined == "" {
		return Value{}, false // an operation passed in a variable, or user-defined
	}
	if n, ok := ev.value(c.Send.Count).Single(); !ok || !symbolic.Equal(n, symbolic.Int(1)) {
		return Value{}, false
	}
	cm := ev.communicator(c.Comm)
	size, sized := cm.size.Single()
	if !mentions(send, []string{Rank}) {
		switch op.Name {
		case "mpi_max", "mpi_min", "mpi_land", "mpi_lor":
			return send, true
		case "mpi_sum":
			if !sized {
				return Value{}, false
			}
			return lift1(send, func(e symbolic.Expr) (symbolic.Expr, bool) { return e.Mul(size), true })
		}
		return Value{}, false
	}
	// A closed form of the rank: over the ranks of MPI_COMM_WORLD.
	r, ok := cm.rank.Single()
	np, ok2 := size.Int64()
	if !ok || !sized || !ok2 || !symbolic.Equal(r, symbolic.Sym(Rank)) || np < 1 || np > maxReduceProcs {
		return Value{}, false
	}
	var acc symbolic.Rat
	for rank := int64(0); rank < np; rank++ {
		at, ok := ev.atRoot(send, &apt.Const{Kind: apt.ConstInt, Text: strconv.FormatInt(rank, 10), Type: apt.Type{Base: apt.TypeInteger}})
		if !ok {
			return Value{}, false
		}
		e, ok := at.Single()
		if !ok {
			return Value{}, false
		}
		x, ok := e.Const()
		if !ok {
			return Value{}, false
		}
		if acc, ok = combineRat(op.Name, acc, x, rank == 0); !ok {
			return Value{}, false
		}
	}
	return Known(symbolic.Const(acc)), true
}

// combineRat is acc combined with x by the predefined operation op (x
// itself where first).
func combineRat(op string, acc, x symbolic.Rat, first bool) (symbolic.Rat, bool) {
	switch {
	case first:
		return x, true
	case op == "mpi_sum":
		return acc.Add(x), true
	case op == "mpi_prod":
		return acc.Mul(x), true
	case op == "mpi_max", op == "mpi_lor":
		if x.Cmp(acc) > 0 {
			return x, true
		}
		return acc, true
	case op == "mpi_min", op == "mpi_land":
		if x.Cmp(acc) < 0 {
			return x, true
		}
		return acc, true
	}
	return acc, false
}

// scanOf is the value an MPI_SCAN (MPI_EXSCAN: exclusive) of one element
// gives each rank of MPI_COMM_WORLD at a point: the reduction of the
// values of the ranks up to it (before it), a value per rank (MPI-3.1
// §5.11). Rank 0's buffer after an exscan is undefined; it keeps old, the
// value it held.
func (ev *evaluator) scanOf(c *apt.Comm, send, old Value, exclusive bool) (Value, bool) {
	op, ok := c.Reduce.(*apt.Name)
	if !ok || !send.IsKnown() {
		return Value{}, false
	}
	if d := ev.prog.Resolve(ev.frame().routine, op.Name); d == nil || d.Predefined == "" {
		return Value{}, false
	}
	if n, ok := ev.value(c.Send.Count).Single(); !ok || !symbolic.Equal(n, symbolic.Int(1)) {
		return Value{}, false
	}
	cm := ev.communicator(c.Comm)
	size, sized := cm.size.Single()
	r, ok := cm.rank.Single()
	np, ok2 := size.Int64()
	if _, fixed := ev.values[Rank]; fixed || !ok || !sized || !ok2 || !symbolic.Equal(r, symbolic.Sym(Rank)) || np < 1 || np > maxTabulatedP {
		return Value{}, false
	}
	at := func(v Value, rank int64) (symbolic.Rat, bool) {
		x, ok := ev.atRoot(v, &apt.Const{Kind: apt.ConstInt, Text: strconv.FormatInt(rank, 10), Type: apt.Type{Base: apt.TypeInteger}})
		if !ok {
			return symbolic.Rat{}, false
		}
		e, ok := x.Single()
		if !ok {
			return symbolic.Rat{}, false
		}
		return e.Const()
	}
	groups := newRankGroups(np)
	var acc symbolic.Rat
	for rank := range np {
		x, ok := at(send, rank)
		if !ok {
			return Value{}, false
		}
		var result symbolic.Rat
		switch {
		case !exclusive:
			if acc, ok = combineRat(op.Name, acc, x, rank == 0); !ok {
				return Value{}, false
			}
			result = acc
		case rank == 0:
			if result, ok = at(old, 0); !ok {
				return Value{}, false
			}
			acc = x
		default:
			result = acc
			if acc, ok = combineRat(op.Name, acc, x, false); !ok {
				return Value{}, false
			}
		}
		groups.of(symbolic.Const(result)).ranks[rank] = true
	}
	alts, ok := groups.alts(ev)
	if !ok || !ev.fits(alts) {
		return Value{}, false
	}
	return Value{Alts: alts}, true
}
