package analyzer

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Figure is one APT node's per-rank figures: what annotate prints beside
// it and check -json lists for it.
type Figure struct {
	Node *cost.Node
	// Head names the node ("loop", "call trap", "send"); Unit is what Count
	// counts ("iterations", "calls", "messages of 8*n bytes").
	Head, Unit string
	// Count is the per-rank count, tidied (symbolic.Piecewise.Tidy) under
	// the report's assumptions; CountAt its values at the point. When
	// CountMissing, the count has no closed form within the analysis's
	// limits and Count is empty: unknown, never 0.
	Count        symbolic.Piecewise
	CountMissing bool
	CountAt      *cost.Values
	// HasWork is set for the nodes whose work is theirs (loops and calls,
	// not MPI calls); Work is then the node's inclusive work per rank
	// (tidied in what Figures returns), WorkAt its values at the point,
	// WorkMissing set when it has no closed form.
	HasWork     bool
	Work        symbolic.Piecewise
	WorkMissing bool
	WorkAt      *cost.Values
	// Share is the node's share of the program's predicted time (its work
	// and, where the machine has a memory hierarchy, the time its loops
	// wait for memory beyond their computation): at the point, of
	// the totals over ranks; else its limit as the sizes grow, when that
	// limit is a number. RoutineShare is its share of its routine's work,
	// for a node of a routine other than the entry (MK's per-routine
	// breakdown).
	Share, RoutineShare Share
	// Exact is false when the count rests on an approximation; Note says
	// which.
	Exact bool
	Note  string
	// Memory is, for an innermost loop at a point, its memory term; nil
	// when it moves no data beyond the nearest cache.
	Memory *MemoryFigure

	count symbolic.Piecewise // as derived, for howMany
}

// MemoryFigure is an innermost loop's memory term at a point
// (roofline.Loop).
type MemoryFigure struct {
	// Bound is set when its data transfer takes longer than its
	// computation and most of it comes from beyond the nearest cache
	// (that cache's bandwidth is the processor's side); Level is the
	// level most of the data comes from,
	// WorkingSet the largest working set per process served there (bytes).
	Bound      bool
	Level      string
	WorkingSet float64
	// Data and Core are its data transfer and computation in seconds,
	// summed over ranks.
	Data, Core float64
}

// Share is a fraction of some work; Known is false when there is none to
// give (no point and a symbolic limit, or no work).
type Share struct {
	Known bool
	Value float64
	// Limit is set when Value is the limit as the sizes grow rather than
	// the share at the point.
	Limit bool
}

// Figures returns the per-rank figures of every loop, call and MPI call of
// the report, in the report's node order.
func Figures(r *cost.Report, pt *cost.Point, opt Options) []Figure {
	return figures(newPass(r, pt, opt.withDefaults()), true)
}

// figures returns the figures of every node; the work forms are tidied only
// when tidyWork is set (annotate prints counts and shares, not the work's
// forms, and tidying them was half its time on NPB SP).
func figures(p *pass, tidyWork bool) []Figure {
	r, pt := p.r, p.pt
	prog, progV := p.programTime()
	if p.counted {
		// (At a partial point whose work rests on values of the data
		// no share of the program's time is known.)
		progV = nil
	}
	var forms []symbolic.Piecewise
	for _, n := range r.Nodes {
		forms = append(forms, n.Count, n.Iterations)
		if tidyWork {
			forms = append(forms, n.Work)
		}
		if n.Comm != nil {
			forms = append(forms, n.Comm.Messages, n.Comm.Received)
		}
	}
	p.tidyAll(forms)
	var out []Figure
	for _, n := range r.Nodes {
		f := Figure{Node: n, Exact: n.Exact}
		if !n.Exact {
			f.Note = noteOf(n)
		} else if note := p.pt.StandInNote(n); note != "" {
			f.Exact, f.Note = false, note
		}
		fig := cost.FigCount
		v := p.values(n)
		switch a := n.Node.(type) {
		case *apt.Loop:
			f.Head, f.count, f.Unit, fig, f.HasWork = "loop", n.Iterations, "iterations", cost.FigIterations, true
			if v != nil {
				f.CountAt = &v.Iterations
			}
		case *apt.Call:
			f.Head, f.count, f.Unit, f.HasWork = "call "+a.Callee, n.Count, "calls", true
			if v != nil {
				f.CountAt = &v.Count
			}
		case *apt.Comm:
			if n.Comm == nil {
				continue
			}
			fig = cost.FigComm | cost.FigCount
			f.Head, f.count, f.Unit = a.Op.String(), n.Comm.Messages, "messages"
			if v != nil {
				f.CountAt = &v.Messages
			}
			switch {
			case a.Op == apt.MPIRecv || a.Op == apt.MPIIrecv:
				f.count = n.Comm.Received
				if v != nil {
					rv, ok := p.evalPerRank(f.count)
					if !ok {
						rv = v.Count // one message per call
					}
					f.CountAt = &rv
				}
			case a.Op.IsCollective() || len(n.Comm.Messages.Pieces) == 0:
				f.count, f.Unit = n.Count, "calls"
				if v != nil {
					f.CountAt = &v.Count
				}
			}
			if n.Comm.MsgBytes != nil && f.Unit == "messages" {
				f.Unit += " of " + n.Comm.MsgBytes.String() + " bytes"
			}
		default:
			continue
		}
		if f.CountMissing = n.Missing.Has(fig); f.CountMissing {
			// Nothing is given that could be read as the count.
			f.count, f.CountAt = symbolic.Piecewise{}, nil
		} else {
			f.Count = p.tidy(f.count)
		}
		if f.HasWork {
			f.WorkMissing = n.Missing.Has(cost.FigWork) || r.WorkMissing
			if !f.WorkMissing {
				f.Work = n.Work
				if tidyWork {
					f.Work = p.tidy(n.Work)
				}
				if v != nil {
					f.WorkAt = &v.Work
				}
				num, numV := p.nodeTime(n, n.Work, f.WorkAt)
				f.Share = p.shareOf(p.share(num, numV, prog, progV))
				if rn := r.ByID[n.Routine.ID]; rn != nil && n.Routine != r.Entry && !rn.Missing.Has(cost.FigWork) {
					var rv *cost.Values
					if pt != nil {
						if x := pt.Nodes[rn]; x != nil {
							rv = &x.Work
						}
					}
					den, denV := p.nodeTime(rn, rn.Work, rv)
					f.RoutineShare = p.shareOf(p.share(num, numV, den, denV))
				}
				if t := p.memory(); t != nil && t.at != nil {
					if lp := t.at.Loops[n]; lp != nil && lp.Level != "" {
						f.Memory = &MemoryFigure{Bound: lp.MemoryBound() && lp.Level != t.m.Mem.Levels[0].Name,
							Level: lp.Level, WorkingSet: lp.WorkingSet, Data: lp.Data, Core: lp.Core}
					}
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// shareOf is a share as Figure gives it: numeric ones only.
func (p *pass) shareOf(f fraction) Share {
	if !f.known || !f.numeric {
		return Share{}
	}
	return Share{Known: true, Value: f.value, Limit: p.pt == nil}
}

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
	for _, f := range figures(p, false) {
		if f.CountMissing {
			out[f.Node] = f.Head + ": " + p.missingMark()
			continue
		}
		s := f.Head + ": " + p.howMany(f.count, f.Unit)
		if f.CountAt != nil {
			s += " = " + spread(*f.CountAt, "", r.Parallel)
		}
		if f.Share.Known {
			s += "; " + percent(f.Share.Value) + " of the " + p.measure()
			if f.Share.Limit && len(sizes(r.Work)) > 0 {
				s += " as the sizes grow"
			}
		}
		if f.RoutineShare.Known {
			s += ", " + percent(f.RoutineShare.Value) + " of " + f.Node.Routine.Name
		}
		if m := f.Memory; m != nil && m.Bound {
			s += "; memory-bound from " + m.Level + " (" + model.FormatBytes(m.WorkingSet) + " per process)"
		}
		if !f.Exact {
			s += " [approximate: " + f.Note + "]"
		}
		out[f.Node] = s
	}
	return out
}

// Closed prints a closed form of report r on one line, as the messages do:
// the expression, or its cases "(v if guard; w if guard)", without guard
// relations the assumptions make redundant.
func Closed(r *cost.Report, pw symbolic.Piecewise) string {
	return (&pass{r: r}).closed(pw)
}

// Tidy is pw as the messages and annotations print it: tidied under the
// report's assumptions (symbolic.Piecewise.TidySimplified); OneLine prints
// the result as Closed does, without tidying it again.
func Tidy(r *cost.Report, pw symbolic.Piecewise) symbolic.Piecewise {
	return (&pass{r: r}).tidy(pw)
}

// OneLine prints an already tidied form on one line, as Closed does (the
// figures of Figures are tidied).
func OneLine(pw symbolic.Piecewise) string { return closed(pw) }

// Round keeps 4 significant digits of a figure, as the facts do.
func Round(x float64) float64 { return round(x) }

// Point formats the point pt of report r as the messages do: the
// parameters in the report's order, then P ("n=1024, P=8"); empty for nil.
func Point(r *cost.Report, pt *cost.Point) string {
	return (&pass{r: r, pt: pt}).at()
}
