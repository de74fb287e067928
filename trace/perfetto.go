package trace

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
)

// Limits of a timeline: beyond MaxSlices slices, consecutive MPI calls of a
// rank (up to a region's entry or exit) are drawn as one slice per group of
// calls (each slice says how many calls), and flows go one per group of
// messages, so that the file stays well under 256 MB (about 150 bytes a
// slice) and nothing is left out.
const (
	MaxSlices = 600_000
	maxFlows  = 400_000
)

// TimelineOptions choose what a timeline shows.
type TimelineOptions struct {
	// Title names the process track ("measured: lu.S.4").
	Title string
	// Replay, when set (recorded), draws the replayed times instead of the
	// trace's.
	Replay *Result
	// Phases, when set, adds a track per rank with the phase each run of
	// calls belongs to.
	Phases []Phase
	// MaxSlices bounds the call slices before calls are grouped (0:
	// MaxSlices).
	MaxSlices int
}

// WriteTimeline writes the trace in the Chrome trace event format (JSON
// object form) that Perfetto's UI and chrome://tracing import: one thread
// per rank with its MPI calls and timed regions as complete ("X") slices,
// a flow arrow per message from the send to its receive, and the CPG's
// phases as slices on a second process. Times are in microseconds.
func WriteTimeline(w io.Writer, g *Graph, opt TimelineOptions) error {
	t := g.T
	bw := bufio.NewWriterSize(w, 1<<20)
	begin := func(r, i int) float64 {
		if opt.Replay != nil {
			return opt.Replay.Begin[r][i]
		}
		return float64(t.Ranks[r].Events[i].Begin)
	}
	end := func(r, i int) float64 {
		if opt.Replay != nil {
			return opt.Replay.End[r][i]
		}
		return float64(t.Ranks[r].Events[i].End)
	}
	us := func(ns float64) string { return strconv.FormatFloat(ns/1e3, 'f', 3, 64) }
	first := true
	emit := func(s string) {
		if !first {
			bw.WriteString(",\n")
		}
		first = false
		bw.WriteString(s)
	}
	bw.WriteString(`{"displayTimeUnit":"ns","traceEvents":[` + "\n")
	title := opt.Title
	if title == "" {
		title = t.Source
	}
	emit(fmt.Sprintf(`{"ph":"M","name":"process_name","pid":0,"tid":0,"args":{"name":%s}}`, strconv.Quote(title)))
	for r := range t.Ranks {
		emit(fmt.Sprintf(`{"ph":"M","name":"thread_name","pid":0,"tid":%d,"args":{"name":"rank %d"}}`, r, r))
		emit(fmt.Sprintf(`{"ph":"M","name":"thread_sort_index","pid":0,"tid":%d,"args":{"sort_index":%d}}`, r, r))
	}
	calls := 0
	for r := range t.Ranks {
		for i := range t.Ranks[r].Events {
			if t.Ranks[r].Events[i].Kind == Comm {
				calls++
			}
		}
	}
	limit := opt.MaxSlices
	if limit <= 0 {
		limit = MaxSlices
	}
	group := max(1, (calls+limit-1)/limit)
	// Regions: enter/exit pairs become complete slices; one left open is
	// closed at the rank's finish.
	for r := range t.Ranks {
		ev := t.Ranks[r].Events
		var stack []int
		finish := float64(t.Ranks[r].Finish)
		if opt.Replay != nil {
			finish = opt.Replay.Finish[r]
		}
		closeAt := func(i int, at float64) {
			emit(fmt.Sprintf(`{"ph":"X","cat":"region","name":%s,"pid":0,"tid":%d,"ts":%s,"dur":%s}`,
				strconv.Quote(t.NodeName(&ev[i])), r, us(begin(r, i)), us(max(at-begin(r, i), 0))))
		}
		for i := range ev {
			switch ev[i].Kind {
			case Enter:
				stack = append(stack, i)
			case Exit:
				for k := len(stack) - 1; k >= 0; k-- {
					if ev[stack[k]].Node == ev[i].Node {
						for len(stack) > k {
							closeAt(stack[len(stack)-1], begin(r, i))
							stack = stack[:len(stack)-1]
						}
						break
					}
				}
			}
		}
		for len(stack) > 0 {
			closeAt(stack[len(stack)-1], finish)
			stack = stack[:len(stack)-1]
		}
		// Calls, one slice each or grouped.
		for i := 0; i < len(ev); {
			if ev[i].Kind != Comm {
				i++
				continue
			}
			// A group ends at a region mark, so that it nests in
			// the regions' slices.
			j, n := i, 0
			last := i
			for j < len(ev) && n < group && ev[j].Kind == Comm {
				n++
				last = j
				j++
			}
			e := &ev[i]
			name := e.Op.String()
			args := fmt.Sprintf(`{"node":%s`, strconv.Quote(t.NodeName(e)))
			if n == 1 {
				if e.isSend() {
					args += fmt.Sprintf(`,"to":%d,"bytes":%d,"tag":%d`, e.Peer, e.Bytes, e.Tag)
				}
				if e.isRecv() {
					args += fmt.Sprintf(`,"from":%d,"recv_bytes":%d`, e.RPeer, e.RBytes)
				}
				if e.Op.IsCollective() {
					args += fmt.Sprintf(`,"bytes":%d`, max(e.Bytes, e.RBytes))
				}
				if opt.Replay != nil && opt.Replay.Wait != nil {
					args += fmt.Sprintf(`,"wait_us":%s`, us(opt.Replay.Wait[r][i]))
				}
			} else {
				name = fmt.Sprintf("%d MPI calls", n)
				args += fmt.Sprintf(`,"calls":%d`, n)
			}
			args += "}"
			emit(fmt.Sprintf(`{"ph":"X","cat":"mpi","name":%s,"pid":0,"tid":%d,"ts":%s,"dur":%s,"args":%s}`,
				strconv.Quote(name), r, us(begin(r, i)), us(max(end(r, last)-begin(r, i), 0)), args))
			i = j
		}
	}
	// Flows: one per message, or per group and peer when grouped.
	flowLimit := max(1, limit*maxFlows/MaxSlices)
	stride := max(1, (len(g.Msgs)+flowLimit-1)/flowLimit)
	stride = max(stride, group)
	for m := 0; m < len(g.Msgs); m += stride {
		msg := &g.Msgs[m]
		if msg.RecvIdx < 0 {
			continue
		}
		s := int(msg.SendIdx)
		rv := int(msg.RecvIdx)
		args := ""
		if stride > 1 {
			args = fmt.Sprintf(`,"args":{"messages":%d}`, min(stride, len(g.Msgs)-m))
		}
		emit(fmt.Sprintf(`{"ph":"s","cat":"msg","name":"message","id":%d,"pid":0,"tid":%d,"ts":%s%s}`,
			m, msg.Src, us(begin(int(msg.Src), s)), args))
		// The arrow ends in the call that completes the receive (the
		// receive, or the wait of an irecv), just before it returns:
		// flow ends bind to the slice around their time.
		done := rv
		if w := g.WaitOf[msg.Dst][rv]; w >= 0 {
			done = int(w)
		}
		at := end(int(msg.Dst), done)
		if at-begin(int(msg.Dst), done) >= 2 {
			at--
		}
		emit(fmt.Sprintf(`{"ph":"f","bp":"e","cat":"msg","name":"message","id":%d,"pid":0,"tid":%d,"ts":%s}`,
			m, msg.Dst, us(at)))
	}
	// Phases: each rank's runs of calls of one phase.
	if len(opt.Phases) > 0 {
		phaseOf := map[string]int{}
		for k, ph := range opt.Phases {
			for _, c := range ph.Calls {
				phaseOf[c] = k
			}
		}
		emit(`{"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"communication phases (CPG)"}}`)
		for r := range t.Ranks {
			emit(fmt.Sprintf(`{"ph":"M","name":"thread_name","pid":1,"tid":%d,"args":{"name":"rank %d phases"}}`, r, r))
			ev := t.Ranks[r].Events
			cur, lo, hi, n := -1, 0, 0, 0
			flush := func() {
				if cur < 0 {
					return
				}
				ph := &opt.Phases[cur]
				emit(fmt.Sprintf(`{"ph":"X","cat":"phase","name":%s,"pid":1,"tid":%d,"ts":%s,"dur":%s,"args":{"calls":%d,"ancestor":%s}}`,
					strconv.Quote(string(ph.Type)+" "+ph.Ancestor), r, us(begin(r, lo)), us(max(end(r, hi)-begin(r, lo), 0)), n, strconv.Quote(ph.Ancestor)))
			}
			for i := range ev {
				if ev[i].Kind != Comm {
					continue
				}
				k, ok := phaseOf[t.NodeName(&ev[i])]
				if !ok {
					continue
				}
				if k != cur {
					flush()
					cur, lo, n = k, i, 0
				}
				hi = i
				n++
			}
			flush()
		}
	}
	bw.WriteString("\n]}\n")
	return bw.Flush()
}
