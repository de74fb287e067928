package analyzer

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Summaries returns a one-line account of the predicted cost of every loop,
// call and MPI call of the report, by node, for annotating the source:
//
//	loop: n/P - 1 iterations per rank = 127; 98% of the work
//	recv: P - 1 messages of 8 bytes where rank == 0 = 7 on rank 0, 0 on ranks 1-7
//	call trap: 1 call per rank; 100% of the work as the sizes grow
//
// that is: the per-rank count as a closed form; at the point (which Point
// formats) its value, the largest and smallest with their ranks when ranks
// differ; and the node's share of the program's work, at the point of the
// total over ranks, else its limit as the sizes grow when that is a number.
func Summaries(r *cost.Report, pt *cost.Point, opt Options) map[*cost.Node]string {
	p := newPass(r, pt, opt.withDefaults())
	p.whole = true // annotate is where the whole closed forms are
	out := map[*cost.Node]string{}
	var progV *cost.Values
	if pt != nil {
		progV = &pt.Work
	}
	for _, n := range r.Nodes {
		var head string
		var count symbolic.Piecewise
		var unit string
		var vals *cost.Values
		fig := cost.FigCount
		v := p.values(n)
		withWork := true
		switch a := n.Node.(type) {
		case *apt.Loop:
			head, count, unit, fig = "loop", n.Iterations, "iterations", cost.FigIterations
			if v != nil {
				vals = &v.Iterations
			}
		case *apt.Call:
			head, count, unit = "call "+a.Callee, n.Count, "calls"
			if v != nil {
				vals = &v.Count
			}
		case *apt.Comm:
			if n.Comm == nil {
				continue
			}
			withWork = false
			fig = cost.FigComm | cost.FigCount
			head, count, unit = a.Op.String(), n.Comm.Messages, "messages"
			if v != nil {
				vals = &v.Messages
			}
			switch {
			case a.Op == apt.MPIRecv || a.Op == apt.MPIIrecv:
				count = n.Comm.Received
				if v != nil {
					rv, ok := p.evalPerRank(count)
					if !ok {
						rv = v.Count // one message per call
					}
					vals = &rv
				}
			case a.Op.IsCollective() || len(n.Comm.Messages.Pieces) == 0:
				count, unit = n.Count, "calls"
				if v != nil {
					vals = &v.Count
				}
			}
			if n.Comm.MsgBytes != nil && unit == "messages" {
				unit += " of " + n.Comm.MsgBytes.String() + " bytes"
			}
		default:
			continue
		}
		if n.Missing.Has(fig) {
			// Nothing is printed that could be read as the count.
			out[n] = head + ": " + p.missingMark()
			continue
		}
		s := head + ": " + p.howMany(count, unit)
		if vals != nil {
			s += " = " + spread(*vals, "", r.Parallel)
		}
		if withWork && !n.Missing.Has(cost.FigWork) && !r.WorkMissing {
			var nv *cost.Values
			if v != nil {
				nv = &v.Work
			}
			if f := p.share(n.Work, nv, r.Work, progV); f.known && f.numeric {
				s += "; " + percent(f.value) + " of the work"
				if pt == nil && len(sizes(r.Work)) > 0 {
					s += " as the sizes grow"
				}
			}
			// And of its routine's, for a node of a routine other than the
			// entry (MK's per-routine breakdown).
			if rn := r.ByID[n.Routine.ID]; rn != nil && n.Routine != r.Entry && !rn.Missing.Has(cost.FigWork) {
				var rv *cost.Values
				if pt != nil {
					if x := pt.Nodes[rn]; x != nil {
						rv = &x.Work
					}
				}
				if f := p.share(n.Work, nv, rn.Work, rv); f.known && f.numeric {
					s += ", " + percent(f.value) + " of " + n.Routine.Name
				}
			}
		}
		if !n.Exact {
			s += " [approximate: " + noteOf(n) + "]"
		}
		out[n] = s
	}
	return out
}

// Closed prints a closed form of report r on one line, as the messages do:
// the expression, or its cases "(v if guard; w if guard)", without guard
// relations the assumptions make redundant.
func Closed(r *cost.Report, pw symbolic.Piecewise) string {
	return (&pass{r: r}).closed(pw)
}

// Round keeps 4 significant digits of a figure, as the facts do.
func Round(x float64) float64 { return round(x) }

// Point formats the point pt of report r as the messages do: the
// parameters in the report's order, then P ("n=1024, P=8"); empty for nil.
func Point(r *cost.Report, pt *cost.Point) string {
	return (&pass{r: r, pt: pt}).at()
}
