package calib

import (
	"math"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/phase"
	"github.com/mkvet/mkvet/symbolic"
)

// Network models the messages of a calibration's MPI calls on a network
// the calibration runs did not use: a calibration made on one node passes
// its messages through shared memory, and a prediction for a cluster must
// not extrapolate those times to P beyond the node (issue 14 item 4). The
// computation stays calibrated (measured seconds per unit of the exact
// counts); each MPI call that moves messages gets, per rank and from the
// same exact counts, the machine profile's time:
//
//	point-to-point    sent·s(m_s) + received·(τ(m_r) + r(m_r))
//	collective        calls · the algorithm's time at P (model.Collective)
//
// with τ, s, r MK's split of the point-to-point model per size regime
// (seed 000 §4.1, phase.SplitTime) and m the rank's mean message size. A
// message's transmission τ lands on its receiver, the overheads on each
// end; a Sendrecv pays s + τ + r = T(m). What the split leaves out is
// waiting: for a partner still computing (the slowest rank's total covers
// it when every rank waits for it) and in a pipeline's fill (the phase
// model of mkvet whatif without -runs has it). MPI calls that move no
// messages of their own (MPI_Wait, MPI_Init, MPI_Comm_size) keep their
// calibrated time, and so does a call whose counts are unknown.
type Network struct {
	// Name names the profile in messages.
	Name string
	Net  model.PointToPoint
	// splits caches τ, s, r by message size: most ranks of a sweep share
	// a few sizes, and a split is a symbolic simplification.
	splits map[float64][3]float64
}

// NewNetwork returns the network model of a machine profile.
func NewNetwork(prof *model.Profile) (*Network, error) {
	net, err := prof.Network()
	if err != nil {
		return nil, err
	}
	if _, err := phase.SplitTime(net, symbolic.Int(0)); err != nil {
		return nil, err
	}
	return &Network{Name: prof.Name, Net: net}, nil
}

// split returns τ, s and r of an m-byte message.
func (nw *Network) split(m float64) [3]float64 {
	if v, ok := nw.splits[m]; ok {
		return v
	}
	var out [3]float64
	for i := range out {
		out[i] = math.NaN()
	}
	if ss, err := phase.SplitTime(nw.Net, symbolic.Const(ratOf(m))); err == nil && len(ss) == 1 && len(ss[0].Guard) == 0 {
		for i, e := range []symbolic.Expr{ss[0].Tau, ss[0].S, ss[0].R} {
			if v, err := e.Eval(nil); err == nil {
				out[i] = v.Float64()
			}
		}
	}
	if nw.splits == nil {
		nw.splits = map[float64][3]float64{}
	}
	nw.splits[m] = out
	return out
}

// seconds is the modelled time of one rank's calls of an MPI operation
// with features f on p processes, and the mean size in bytes of its
// messages; ok is false when the operation moves no messages of its own
// or its counts are unknown (the calibrated time then stands).
func (nw *Network) seconds(op apt.CommOp, f features, p int) (t, size float64, ok bool) {
	sent, recv, bs, br := f.sides[0], f.sides[1], f.sides[2], f.sides[3]
	for _, v := range f.sides {
		if math.IsNaN(v) {
			return 0, 0, false
		}
	}
	if alg, isColl := phase.CollectiveOf(op); isColl {
		calls := f.x[0]
		if calls <= 0 {
			return 0, 0, true
		}
		m := 0.0
		if op != apt.MPIBarrier {
			m = math.Max(bs, br) / calls
		}
		return calls * alg.Seconds(nw.Net, p, m, 0), m, true
	}
	if sent+recv <= 0 {
		return 0, 0, false
	}
	if sent > 0 {
		ms := bs / sent
		t += sent * nw.split(ms)[1]
		size = ms
	}
	if recv > 0 {
		mr := br / recv
		sp := nw.split(mr)
		t += recv * (sp[0] + sp[2])
		size = math.Max(size, mr)
	}
	if math.IsNaN(t) {
		return 0, 0, false
	}
	return t, size, true
}
