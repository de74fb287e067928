package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// procNull is MPI_PROC_NULL as the frontend's mpif.h and module mpi define
// it (Open MPI's value); a transfer to it moves nothing.
const procNull = -2

// comm evaluates an MPI call: the size and rank define P and rank, transfers
// get their sizes and peers, received buffers become unknown.
func (ev *evaluator) comm(c *apt.Comm, parent *Occ) {
	o := ev.newOcc(c, parent)
	pos := c.Span.Start()
	switch c.Op {
	case apt.MPICommSize:
		ev.res.Parallel = true
		ev.assign(c.Result, Known(symbolic.Sym(Size)))
		return
	case apt.MPICommRank:
		ev.res.Parallel = true
		ev.assign(c.Result, Known(symbolic.Sym(Rank)))
		return
	case apt.MPIAbort:
		ev.cur.dead, ev.cur.cycled = true, false
		return
	}
	p2p := !c.Op.IsCollective()
	if c.Send != nil && sends(c.Op) {
		o.Sends = ev.transfers(c.Send, p2p, pos)
	}
	if c.Recv != nil {
		o.Recvs = ev.transfers(c.Recv, p2p, pos)
	}
	if c.Op == apt.MPIBcast && c.Send != nil {
		// Every rank ends with the root's value: unchanged when the value
		// does not depend on the rank.
		if nm, ok := c.Send.Buffer.(*apt.Name); ok && !nm.Array {
			v := ev.load(nm.Name)
			if !v.IsKnown() || mentions(v, []string{Rank}) {
				ev.store(nm.Name, unknownValue(nm.Name, "the value of "+nm.Name+" broadcast at "+pos.String(), true))
			}
		}
	}
	if c.Recv != nil {
		if nm, ok := c.Recv.Buffer.(*apt.Name); ok && !nm.Array {
			ev.store(nm.Name, unknownValue(nm.Name, "the value of "+nm.Name+" received at "+pos.String(), true))
		}
	}
}

func sends(op apt.CommOp) bool {
	switch op {
	case apt.MPIRecv, apt.MPIIrecv:
		return false
	}
	return true
}

// transfers expands one side of a call over the alternatives of its count and
// peer, dropping those to MPI_PROC_NULL.
func (ev *evaluator) transfers(m *apt.Msg, p2p bool, pos apt.Pos) []Transfer {
	counts := ev.sides(m.Count, pos)
	peers := []side{{}}
	if p2p && m.Peer != nil {
		peers = ev.sides(m.Peer, pos)
	}
	var out []Transfer
	for _, ca := range counts {
		for _, pa := range peers {
			if pa.e != nil {
				if n, ok := pa.e.Int64(); ok && n == procNull {
					continue
				}
			}
			t := Transfer{Guard: and(ca.guard, pa.guard), Peer: pa.e}
			if m.TypeSize > 0 && ca.e != nil {
				b := ca.e.Mul(symbolic.Int(int64(m.TypeSize)))
				t.Bytes = &b
			}
			out = append(out, t)
		}
	}
	return out
}

// side is one alternative of a count or peer; e is nil when unknown.
type side struct {
	guard counting.Formula
	e     *symbolic.Expr
}

func (ev *evaluator) sides(x apt.Expr, pos apt.Pos) []side {
	if x == nil {
		return []side{{}}
	}
	v := ev.closedInt(ev.value(x), pos)
	if !v.IsKnown() {
		return []side{{}}
	}
	out := make([]side, len(v.Alts))
	for i, a := range v.Alts {
		e := a.E
		out[i] = side{guard: a.Guard, e: &e}
	}
	return out
}
