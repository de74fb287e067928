package phase

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mkvet/mkvet/model/cost"
)

// Print writes the analysis in readable form: one block per phase (kind,
// calls, offset, stages, message size, depth, overlapped work), the
// composition steps with MK's overlap decisions, the collectives and the
// notes.
func (a *Analysis) Print(w io.Writer) {
	for _, g := range a.Phases {
		fmt.Fprintf(w, "%s (%s)\n", g.Name, g.Pos())
		for _, s := range append(append([]*Side(nil), g.Sends...), g.Recvs...) {
			fmt.Fprintf(w, "  %s at %s: %s messages per rank\n", s, s.Pos(), flat(pwText(s.Messages)))
		}
		if g.Offset != nil {
			fmt.Fprintf(w, "  offset %v\n", *g.Offset)
		}
		if g.Root != nil {
			fmt.Fprintf(w, "  root %v\n", *g.Root)
		}
		fmt.Fprintf(w, "  stages B = %s (%s)\n", flat(pwText(g.Stages.Value)), maxText(g.Stages))
		mean := ""
		if g.MsgMean {
			mean = " (mean)"
		}
		fmt.Fprintf(w, "  message m = %s bytes%s\n", flat(pwText(g.MsgBytes)), mean)
		if g.Kind == Pipeline {
			fmt.Fprintf(w, "  depth: %s\n", g.DepthFit)
		}
		if len(g.Overlapped) > 0 {
			var ids []string
			for _, n := range g.Overlapped {
				ids = append(ids, n.Node.Base().ID)
			}
			fmt.Fprintf(w, "  overlapped work W in %s: %s\n", strings.Join(ids, ", "), flat(pwText(g.Work)))
		}
		if g.FanInNote != "" {
			fmt.Fprintf(w, "  note: %s\n", g.FanInNote)
		}
		if p := a.largestSample(); p > 0 {
			fmt.Fprintf(w, "  at P=%d: senders %s, receivers %s\n", p, rankList(g.Senders[p]), rankList(g.Receivers[p]))
		}
	}
	for _, wf := range a.Wavefronts {
		fmt.Fprintf(w, "%s: %s along offset %v (D = %v) and %s along offset %v (D = %v)\n", wf.Name,
			wf.X.Name, *wf.X.Offset, wf.X.Depth, wf.Y.Name, *wf.Y.Offset, wf.Y.Depth)
	}
	for _, o := range a.Overlaps {
		verdict := "dependent"
		if o.Overlaps() {
			verdict = "overlap"
		}
		fmt.Fprintf(w, "%s then %s: %s (%s)\n", o.First.Name, o.Second.Name, verdict, o.Note)
	}
	for _, c := range a.Collectives {
		in := ""
		if c.Input {
			in = " (distributes input)"
		}
		fmt.Fprintf(w, "collective %s at %s%s\n", c.Comm.Op, c.Comm.Span.Start(), in)
	}
	for _, s := range a.Unmatched {
		fmt.Fprintf(w, "unmatched: %s at %s\n", s, s.Pos())
	}
	for _, n := range a.Notes {
		fmt.Fprintf(w, "note: %s\n", n)
	}
}

func (a *Analysis) largestSample() int64 {
	var p int64
	for _, s := range a.samples {
		p = max(p, s.P)
	}
	if p > 16 {
		// Lists at P <= 16 stay short.
		for _, s := range a.samples {
			if s.P <= 16 && s.P > 0 {
				p = s.P
			}
		}
	}
	return p
}

// flat prints a Piecewise on one line, its cases separated by "; ".
func flat(pw string) string {
	lines := strings.Split(pw, "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.Join(lines, "; ")
}

// rankList prints ranks as "0-3,5" (cost.Ranks), or "none".
func rankList(rs []int64) string {
	if len(rs) == 0 {
		return "none"
	}
	ints := make([]int, len(rs))
	for i, r := range rs {
		ints[i] = int(r)
	}
	slices.Sort(ints)
	return cost.Ranks(ints)
}
