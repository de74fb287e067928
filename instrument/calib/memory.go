package calib

import (
	"fmt"
	"math"
	"slices"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// Memory levels (issue 14, item 3).
//
// A node's fitted per-iteration cost holds for the memory level its loops
// ran from in the calibration runs: small sizes, so the caches. Each
// innermost loop's traffic (cost.Stream: body executions times the bytes
// an iteration reads and writes) comes from the level its nest's footprint
// fits in, per process (a shared level's capacity divided between the
// processes on the node). A prediction whose footprint falls in a level
// deeper than any the node's calibration reached is extrapolating: it is
// flagged with the level and the size, and, where the machine's streaming
// times per level were measured (mkvet membench), the missing cost is
// estimated as the traffic times the difference of the two levels' times
// per byte, added to the node. A nest that fits where it was calibrated is
// left as fitted.

// stream is an innermost loop's traffic at one rank.
type stream struct {
	traffic float64 // bytes read and written
	fp      float64 // the nest's footprint, bytes
	why     string  // why the footprint is unknown ("" when known)
}

// streamsAt evaluates a region's streams at every rank of a point.
func (ev *evaluator) streamsAt(r *region, pt Point, extra map[string]float64) [][]stream {
	if len(r.streams) == 0 {
		return nil
	}
	if ev.streams == nil {
		ev.streams = map[string]map[string][][]stream{}
	}
	key := pt.key()
	if c, ok := ev.streams[key][r.id]; ok {
		return c
	}
	env := Env(ev.m.rep, pt, extra)
	out := make([][]stream, pt.P)
	for i, s := range r.streams {
		byRank := slices.Contains(s.Iterations.Symbols(), cost.Rank)
		for rank := 0; rank < pt.P; rank++ {
			if rank > 0 && !byRank {
				out[rank] = append(out[rank], out[0][i])
				continue
			}
			env[cost.Rank] = symbolic.RatInt(int64(rank))
			st := stream{traffic: evalPW(s.Iterations, env) * float64(s.Bytes)}
			if math.IsNaN(st.traffic) {
				st.traffic = 0
			}
			switch fp := s.Footprint; {
			case fp == nil:
				st.why = "its loop nest has no footprint"
			case fp.Unknown != "":
				st.why = fp.Unknown
			default:
				if v, ok := fp.FootprintBytes(env); ok {
					st.fp = v
				} else {
					st.why = "its footprint has no value at this point"
				}
			}
			out[rank] = append(out[rank], st)
		}
	}
	if ev.streams[key] == nil {
		ev.streams[key] = map[string][][]stream{}
	}
	ev.streams[key][r.id] = out
	return out
}

// reached records the deepest memory level a node's streams ran from at a
// calibration point, and the largest footprint there.
func (nm *NodeModel) reached(mem *model.Memory, ss [][]stream, p int) {
	procs := mem.OnNode(p)
	for _, rank := range ss {
		if mem.Measured() {
			switch {
			case nm.Rates == nil: // the first point
				nm.Rates = make([]float64, len(rank))
			case len(nm.Rates) != len(rank):
				nm.Rates = []float64{} // the points disagree on the streams: Rate alone
			}
		}
		for i, s := range rank {
			if s.traffic <= 0 {
				continue
			}
			if s.why != "" {
				if nm.FootprintUnknown == "" {
					nm.FootprintUnknown = s.why
				}
				continue
			}
			l := mem.Level(s.fp, procs) + 1
			if l > nm.Level || l == nm.Level && s.fp > nm.Footprint {
				nm.Level, nm.Footprint = l, s.fp
			}
			if mem.Measured() {
				r := mem.SecPerByteAt(s.fp, procs)
				nm.Rate = max(nm.Rate, r)
				if len(nm.Rates) == len(rank) {
					nm.Rates[i] = max(nm.Rates[i], r)
				}
			}
		}
	}
}

// memoryExtra is what a node's streams at one rank cost beyond the
// working sets its calibration ran with: the time estimated from the
// measured streaming times (0 when they were not measured), and the
// deepest level and its largest footprint among the streams beyond (level
// 0 when none is). A stream is beyond in a deeper level than the
// calibration reached, or in the same level filled further past the half
// where its rate was measured (model.Memory.SecPerByteAt); with measured
// times, also where its rate is slower than the one its loop ran at in
// the calibration (NodeModel.Rates; Rate, the node's slowest, where the
// runs' reports gave the node different loops). Its traffic costs the
// difference of the two rates.
//
// The reference is a rate, not a working set: a shared level's capacity
// per process shrinks with the processes on the node, so the footprint a
// one-process run streamed from half of L3 fills a two-process share of
// it, and the same bytes at the target's process count would hide the
// slower rate the fit never saw.
func memoryExtra(mem *model.Memory, nm *NodeModel, ss []stream, p int) (extra float64, level int, fp float64) {
	if nm.Level == 0 {
		return 0, 0, 0
	}
	procs := mem.OnNode(p)
	ref := nm.Level - 1
	for i, s := range ss {
		if s.traffic <= 0 || s.why != "" {
			continue
		}
		l := mem.Level(s.fp, procs)
		rate := nm.Rate
		if len(nm.Rates) == len(ss) && nm.Rates[i] > 0 {
			rate = nm.Rates[i]
		}
		slower := false
		if mem.Measured() && rate > 0 {
			slower = l >= ref && mem.SecPerByteAt(s.fp, procs) > rate
		}
		if !slower && (l < ref || l == ref && (s.fp <= mem.Capacity(l, procs)/2 || s.fp <= nm.Footprint)) {
			continue
		}
		if l+1 > level || l+1 == level && s.fp > fp {
			level, fp = l+1, s.fp
		}
		if mem.Measured() {
			base := rate
			if base <= 0 {
				base = mem.SecPerByteAt(nm.Footprint, procs)
			}
			extra += s.traffic * math.Max(mem.SecPerByteAt(s.fp, procs)-base, 0)
		}
	}
	return extra, level, fp
}

// memoryWarning says that a node's prediction leaves the memory levels it
// was calibrated in.
func memoryWarning(mem *model.Memory, nm *NodeModel, level int, fp, extra, share float64, p int) string {
	procs := mem.OnNode(p)
	where := mem.Levels[level-1].Name
	if mem.Levels[level-1].Size > 0 {
		where += fmt.Sprintf(" (%s per process here)", model.FormatBytes(mem.Capacity(level-1, procs)))
	}
	s := fmt.Sprintf("%s: working set %s per process is in %s; its calibration ran in %s at most (largest %s)",
		nm.Node, model.FormatBytes(fp), where, mem.Levels[nm.Level-1].Name, model.FormatBytes(nm.Footprint))
	switch {
	case level == nm.Level && fp <= nm.Footprint:
		// The same bytes, in a smaller share of a shared level.
		s = fmt.Sprintf("%s: working set %s per process fills %s more than half with %d processes on the node, "+
			"where its calibration ran in less of it", nm.Node, model.FormatBytes(fp), where, procs)
	case level == nm.Level:
		s = fmt.Sprintf("%s: working set %s per process fills %s more than half, where its rate blends into the next level's; "+
			"its calibration ran with %s at most", nm.Node, model.FormatBytes(fp), where, model.FormatBytes(nm.Footprint))
	}
	if mem.Measured() {
		return s + fmt.Sprintf(": %+.3g s (%.0f%% of the time) estimated from the measured streaming times", extra, 100*share)
	}
	return s + ": not estimated (no streaming times measured: calibrate with -memory auto), the time is likely too low"
}
