package cost

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval"
)

// TransferCount is one side of an MPI call under one alternative of its peer
// and size (a symeval.Transfer) with how often each rank performs it: the
// per-transfer counts behind a Comm node's Messages and Received, which sum
// them over the alternatives. Phase analysis (package model/phase) needs
// them apart: an MPI_Sendrecv to `up` that is rank+1 on most ranks and
// MPI_PROC_NULL on the last has one transfer, guarded.
type TransferCount struct {
	Occ  *symeval.Occ
	Send bool // the send side; false for the receive side
	symeval.Transfer
	// Messages is how many times a rank performs the transfer and Volume
	// the bytes it moves, per rank, as closed forms in the parameters, P and
	// rank (Volume is empty when the size is unknown).
	Messages, Volume symbolic.Piecewise
}

// Transfers returns the counts of every point-to-point transfer of every
// Comm occurrence the report costed, in the order of the occurrences, as
// CountTransfers gives them for the report's evaluation, but from the
// counts the costing made: counting them again, in a fresh analysis
// without the report's memos and (at a point) without its split of the
// ranks into classes, took a third of a what-if over P on NPB SP. The error
// is the first count that failed; its transfer is left out.
func (r *Report) Transfers() ([]TransferCount, error) {
	if r.an == nil {
		return CountTransfers(r.Eval)
	}
	if !r.an.transfersDone {
		r.an.finishTransfers()
	}
	return r.an.transfers, r.an.transferErr
}

// transferFailed records the first transfer count that failed during the
// costing, and where: the place of the next transfer recorded (a transfer
// whose message count fails is not recorded; one whose byte count fails
// was recorded just before).
func (an *analysis) transferFailed(err error) {
	if an.transferErr == nil {
		an.transferErr, an.transferErrAt = err, len(an.transfers)
	}
}

// CountTransfers counts every point-to-point transfer of every Comm
// occurrence of res, with the same counting and simplification Analyze
// applies to a node's totals. Collectives and transfers whose count fails
// are left out; the error of the first failure is returned with the counts
// that succeeded.
func CountTransfers(res *symeval.Result) ([]TransferCount, error) {
	an := &analysis{
		assume: assumptions(res.Assume),
		counts: map[string]countResult{},
		w:      DefaultWeights(),
		rep:    &Report{ByID: map[string]*Node{}},
		byNode: map[apt.Node]*Node{},
	}
	var out []TransferCount
	var first error
	var walk func(o *symeval.Occ)
	walk = func(o *symeval.Occ) {
		if c, ok := o.Node.(*apt.Comm); ok && !c.Op.IsCollective() {
			for _, side := range []struct {
				ts   []symeval.Transfer
				send bool
			}{{o.Sends, true}, {o.Recvs, false}} {
				for _, t := range side.ts {
					msgs, err := an.count(o.Dom, t.Guard, nil)
					if err != nil {
						if first == nil {
							first = err
						}
						continue
					}
					tc := TransferCount{Occ: o, Send: side.send, Transfer: t,
						Messages: msgs.SimplifyWithin(an.assume, simplifyBudget)}
					if t.Bytes != nil {
						b, err := an.count(o.Dom, t.Guard, t.Bytes)
						if err == nil {
							tc.Volume = b.SimplifyWithin(an.assume, simplifyBudget)
						} else if first == nil {
							first = err
						}
					}
					out = append(out, tc)
				}
			}
		}
		for _, c := range o.Children {
			walk(c)
		}
	}
	walk(res.Root)
	return out, first
}
