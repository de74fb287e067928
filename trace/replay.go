package trace

import (
	"errors"
	"fmt"
	"math"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/phase"
)

// Params are the LogGPS parameters of a replay (Ino et al., seed 003 §2):
// latency L, overhead O and gap per byte G in seconds, and the threshold S
// in bytes above which a message is synchronous (its sender waits for the
// receiver's call). Net, when set, costs collectives in the model mode.
type Params struct {
	Name    string
	L, O, G float64
	S       float64
	Net     model.PointToPoint
}

// ParamsFrom takes the replay parameters from a machine profile: its
// LogGPS model, else LogGP (the eager limit as S, the first regime's o and
// G), LogP, or Hockney (t_s as L, t_c as G, every message asynchronous).
func ParamsFrom(p *model.Profile) (Params, error) {
	f := func(r interface{ Float64() float64 }) float64 { return r.Float64() }
	out := Params{Name: p.Name, S: math.Inf(1)}
	net, err := p.Network()
	if err != nil {
		return out, err
	}
	out.Net = net
	switch {
	case p.LogGPS != nil:
		g := p.LogGPS
		out.L, out.O, out.G, out.S = f(g.L), f(g.O), f(g.G), f(g.S)
	case p.LogGP != nil && len(p.LogGP.Regimes) > 0:
		g := p.LogGP
		out.L, out.O, out.G = f(g.L), f(g.Regimes[0].O), f(g.Regimes[0].G)
		if !g.EagerLimit.IsZero() {
			out.S = f(g.EagerLimit)
		}
	case p.LogP != nil:
		out.L, out.O = f(p.LogP.L), f(p.LogP.O)
	case p.Hockney != nil:
		out.L, out.G = f(p.Hockney.Ts), f(p.Hockney.Tc)
	default:
		return out, fmt.Errorf("machine %s has no point-to-point model", p.Name)
	}
	return out, nil
}

// latency is the time from a send's call to its message's arrival, in ns:
// o + L + m*G.
func (p *Params) latency(bytes int64) float64 { return (p.O + p.L + float64(bytes)*p.G) * 1e9 }

// Mode says where a replay takes the cost of communication calls from.
type Mode int

const (
	// Measured keeps the trace's own times as far as it can (PerWiz §4):
	// computation as measured, and each call's measured duration less its
	// waiting time, which LogGPS separates (a receive waits from its call
	// to the message's arrival, a synchronous send from the REQ's arrival
	// to the receiver's call). Replaying without a change reproduces the
	// trace.
	Measured Mode = iota
	// Modelled costs every call by LogGPS (o per side, collectives by the
	// algorithm model.Collective assumes): a predicted trace, or a measured
	// run moved to another network.
	Modelled
)

// Options change a replay: PerWiz's what-if hypotheses (F2).
type Options struct {
	Params Params
	Mode   Mode
	// ZeroWait[r][i] set: event i of rank r waits for nothing (its
	// partner is assumed to have been scheduled early enough).
	ZeroWait [][]bool
	// Gap, when set for a rank, replaces the computation before each
	// event (Gap[r][i], ns) and, at index len(events), before the finish.
	Gap [][]float64
	// Record keeps each event's replayed times and waiting time.
	Record bool
}

// Causes splits waiting time by what was waited for.
type Causes struct {
	LateSender   float64 // a receive (or a wait for an irecv) before its message arrived
	LateReceiver float64 // a synchronous send before its receive was called
	Collective   float64 // a collective before its last member (or its root) arrived
}

// Total is the sum of the causes.
func (c Causes) Total() float64 { return c.LateSender + c.LateReceiver + c.Collective }

func (c *Causes) add(o Causes) {
	c.LateSender += o.LateSender
	c.LateReceiver += o.LateReceiver
	c.Collective += o.Collective
}

// Result is a replay's outcome; times in ns on the trace's clock.
type Result struct {
	Start, Finish []float64
	// Completion is the latest finish less the earliest start.
	Completion float64
	Waits      []Causes // per rank
	// With Options.Record: each event's replayed begin, end and waiting
	// time, and the event that bound its wait ({-1, -1}: none).
	Begin, End, Wait [][]float64
	By               [][][2]int32
}

// Replayer replays one trace many times (what-ifs replay it once per
// hypothesis): the per-event costs are computed once.
type Replayer struct {
	G      *Graph
	params Params
	mode   Mode
	gap    [][]float64 // measured computation before each event; [len] before the finish
	own    [][]float64 // each call's own time in ns
	lat    []float64   // per message, ns
	ack    []float64   // per synchronous message: receiver's call to the sender's release, ns
	sync   []bool
	comp   [][]int32 // per rank: CSR of the events each wait completes
	compLo [][]int32
	// deps[r][depLo[r][i]:depLo[r][i+1]] are what event i of rank r
	// waits for besides a collective's members: a partner call's begin
	// plus an offset (CSR, compiled once for every replay).
	deps  [][]depOn
	depLo [][]int32
	// syncColl[r][i]: the collective event waits for every member of its
	// instance (all but bcast and scatter, and the non-roots of reduce and
	// gather).
	syncColl [][]bool
}

// depOn is one dependency: the call time of event j of rank q plus off ns.
type depOn struct {
	q, j  int32
	off   float64
	cause uint8
}

// NewReplayer prepares the replay of g's trace under p.
func NewReplayer(g *Graph, p Params, mode Mode) *Replayer {
	t := g.T
	rp := &Replayer{G: g, params: p, mode: mode}
	n := len(t.Ranks)
	rp.gap = make([][]float64, n)
	rp.comp = make([][]int32, n)
	rp.compLo = make([][]int32, n)
	for r := range t.Ranks {
		rk := &t.Ranks[r]
		gp := make([]float64, len(rk.Events)+1)
		prev := rk.Start
		for i := range rk.Events {
			gp[i] = float64(rk.Events[i].Begin - prev)
			prev = rk.Events[i].End
		}
		gp[len(rk.Events)] = float64(rk.Finish - prev)
		rp.gap[r] = gp
		// Completion lists: the nonblocking events each wait completes.
		cnt := make([]int32, len(rk.Events)+1)
		for _, w := range g.WaitOf[r] {
			if w >= 0 {
				cnt[w+1]++
			}
		}
		for i := 1; i < len(cnt); i++ {
			cnt[i] += cnt[i-1]
		}
		list := make([]int32, cnt[len(cnt)-1])
		fill := append([]int32(nil), cnt...)
		for j, w := range g.WaitOf[r] {
			if w >= 0 {
				list[fill[w]] = int32(j)
				fill[w]++
			}
		}
		rp.comp[r], rp.compLo[r] = list, cnt
	}
	// Per message: the latency and protocol; in the measured mode the
	// latency is capped by what the trace shows (the message had arrived
	// when its receive returned), so that every wait stays within the
	// call's measured duration.
	rp.lat = make([]float64, len(g.Msgs))
	rp.ack = make([]float64, len(g.Msgs))
	rp.sync = make([]bool, len(g.Msgs))
	for m, msg := range g.Msgs {
		rp.lat[m] = p.latency(msg.Bytes)
		rp.ack[m] = p.L * 1e9
		if msg.RecvIdx < 0 {
			continue
		}
		s := &t.Ranks[msg.Src].Events[msg.SendIdx]
		rp.sync[m] = float64(msg.Bytes) > p.S || s.Op == apt.MPISsend || s.Op == apt.MPIIssend
		if mode != Measured {
			continue
		}
		rdone := rp.doneOf(int(msg.Dst), int(msg.RecvIdx))
		if lim := float64(rdone - s.Begin); lim < rp.lat[m] {
			rp.lat[m] = math.Max(lim, 0)
		}
		if rp.sync[m] {
			post := t.Ranks[msg.Dst].Events[msg.RecvIdx].Begin
			sdone := rp.doneOf(int(msg.Src), int(msg.SendIdx))
			switch {
			case sdone < post:
				rp.sync[m] = false // the send returned before the receive was called: it was buffered
			case float64(sdone-post) < rp.ack[m]:
				rp.ack[m] = float64(sdone - post)
			}
		}
	}
	rp.compile()
	rp.own = make([][]float64, n)
	for r := range t.Ranks {
		ev := t.Ranks[r].Events
		own := make([]float64, len(ev))
		for i := range ev {
			e := &ev[i]
			if e.Kind != Comm {
				continue
			}
			if mode == Modelled {
				own[i] = rp.modelOwn(e)
				continue
			}
			dep := rp.measuredDep(r, i)
			dur := float64(e.End - e.Begin)
			w := 0.0
			if dep > float64(e.Begin) {
				w = math.Min(dep-float64(e.Begin), dur)
			}
			own[i] = dur - w
		}
		rp.own[r] = own
	}
	return rp
}

// doneOf returns the measured end of the event that completes event i of
// rank r: i itself, or the wait of a nonblocking call.
func (rp *Replayer) doneOf(r, i int) int64 {
	ev := rp.G.T.Ranks[r].Events
	if w := rp.G.WaitOf[r][i]; w >= 0 {
		return ev[w].End
	}
	return ev[i].End
}

// modelOwn is a call's cost under LogGPS: o per side (seed 003 Fig. 2), a
// collective's algorithm time once its members have arrived.
func (rp *Replayer) modelOwn(e *Event) float64 {
	p := &rp.params
	switch {
	case e.Op.IsCollective():
		c, ok := phase.CollectiveOf(e.Op)
		if !ok || p.Net == nil {
			return 2 * p.O * 1e9
		}
		size := rp.G.T.P
		if e.Group > 0 {
			size = len(rp.G.T.Groups[e.Group])
		}
		m := float64(max(e.Bytes, e.RBytes))
		return c.Seconds(p.Net, size, m, 0) * 1e9
	case e.Op.Completes():
		return 0
	}
	o := 0.0
	if e.isSend() {
		o += p.O
	}
	if e.isRecv() {
		o += p.O
	}
	return o * 1e9
}

// compile turns the graph into per-event dependency lists: a receive
// (or a wait for an irecv) waits for its message, o + L + m*G after the
// send's call; a synchronous send (or its wait) for the receive's call
// plus the acknowledgement's latency; a bcast or scatter for its root's
// call. Collectives that wait for every member are flagged (syncColl): the
// replay takes the latest member's call of their instance.
func (rp *Replayer) compile() {
	g := rp.G
	t := g.T
	n := len(t.Ranks)
	rp.deps = make([][]depOn, n)
	rp.depLo = make([][]int32, n)
	rp.syncColl = make([][]bool, n)
	for r := range t.Ranks {
		ev := t.Ranks[r].Events
		lo := make([]int32, len(ev)+1)
		var list []depOn
		sc := make([]bool, len(ev))
		recv := func(m int32) {
			if m >= 0 && g.Msgs[m].SendIdx >= 0 {
				msg := &g.Msgs[m]
				list = append(list, depOn{msg.Src, msg.SendIdx, rp.lat[m], causeSender})
			}
		}
		send := func(m int32) {
			if m >= 0 && rp.sync[m] && g.Msgs[m].RecvIdx >= 0 {
				msg := &g.Msgs[m]
				list = append(list, depOn{msg.Dst, msg.RecvIdx, rp.ack[m], causeReceiver})
			}
		}
		for i := range ev {
			lo[i] = int32(len(list))
			e := &ev[i]
			if e.Kind != Comm {
				continue
			}
			if e.Op.IsBlocking() {
				recv(g.RecvMsg[r][i])
				send(g.SendMsg[r][i])
			}
			for _, j := range rp.comp[r][rp.compLo[r][i]:rp.compLo[r][i+1]] {
				recv(g.RecvMsg[r][j])
				send(g.SendMsg[r][j])
			}
			if c := g.Coll[r][i]; c >= 0 {
				fromRoot, toRoot := rooted(e.Op)
				switch {
				case fromRoot:
					for _, m := range g.Colls[c] {
						if m[0] == e.Root && int(m[0]) != r {
							list = append(list, depOn{m[0], m[1], 0, causeCollective})
						}
					}
				case toRoot && int32(r) != e.Root:
				default:
					sc[i] = true
				}
			}
		}
		lo[len(ev)] = int32(len(list))
		rp.deps[r], rp.depLo[r], rp.syncColl[r] = list, lo, sc
	}
}

// measuredDep is the time before which event i of rank r could not
// complete in the trace itself: its dependencies at the measured call
// times.
func (rp *Replayer) measuredDep(r, i int) float64 {
	t := rp.G.T
	d := math.Inf(-1)
	for _, x := range rp.deps[r][rp.depLo[r][i]:rp.depLo[r][i+1]] {
		d = math.Max(d, float64(t.Ranks[x.q].Events[x.j].Begin)+x.off)
	}
	if rp.syncColl[r][i] {
		for _, m := range rp.G.Colls[rp.G.Coll[r][i]] {
			d = math.Max(d, float64(t.Ranks[m[0]].Events[m[1]].Begin))
		}
	}
	return d
}

const (
	causeSender = iota
	causeReceiver
	causeCollective
)

// ErrDeadlock is returned when no rank can go on: the trace's calls wait
// for each other (a synchronous send the model makes wait for a receive
// that the measured run had buffered, or an inconsistent trace).
var ErrDeadlock = errors.New("replay: every remaining rank waits for another")

// Replay replays the trace under the options. The ranks advance in turns,
// each as far as it can: a call's time is known once its predecessor
// completed, and a call completes once every partner's call time it
// depends on is known (PerWiz's critical-path evaluation of the
// happened-before DAG, seed 003 §2.2, without building the DAG).
func (rp *Replayer) Replay(opt *Options) (*Result, error) {
	t := rp.G.T
	g := rp.G
	n := len(t.Ranks)
	res := &Result{Start: make([]float64, n), Finish: make([]float64, n), Waits: make([]Causes, n)}
	begin := make([][]float64, n)
	end := make([][]float64, n)
	known := make([]int32, n) // begins known for events < known[r]
	pos := make([]int, n)     // next event to complete
	for r := range t.Ranks {
		begin[r] = make([]float64, len(t.Ranks[r].Events))
		end[r] = make([]float64, len(t.Ranks[r].Events))
		res.Start[r] = float64(t.Ranks[r].Start)
	}
	// Collective instances: members arrived, the latest call and whose.
	arrived := make([]int32, len(g.Colls))
	latest := make([]float64, len(g.Colls))
	latestBy := make([][2]int32, len(g.Colls))
	var wait [][]float64
	var by [][][2]int32
	if opt.Record {
		wait = make([][]float64, n)
		by = make([][][2]int32, n)
		for r := range wait {
			wait[r] = make([]float64, len(t.Ranks[r].Events))
			by[r] = make([][2]int32, len(t.Ranks[r].Events))
		}
	}
	left := n
	for left > 0 {
		progress := false
		for r := 0; r < n; r++ {
			ev := t.Ranks[r].Events
			gap := rp.gap[r]
			if opt.Gap != nil && opt.Gap[r] != nil {
				gap = opt.Gap[r]
			}
			var zero []bool
			if opt.ZeroWait != nil {
				zero = opt.ZeroWait[r]
			}
			own, deps, depLo, coll, sc := rp.own[r], rp.deps[r], rp.depLo[r], g.Coll[r], rp.syncColl[r]
			bg, en := begin[r], end[r]
			i := pos[r]
			if i > len(ev) {
				continue
			}
			for i < len(ev) {
				if int(known[r]) <= i {
					prev := res.Start[r]
					if i > 0 {
						prev = en[i-1]
					}
					bg[i] = prev + gap[i]
					known[r] = int32(i + 1)
					progress = true
					if c := coll[i]; c >= 0 {
						if arrived[c] == 0 || bg[i] > latest[c] {
							latest[c], latestBy[c] = bg[i], [2]int32{int32(r), int32(i)}
						}
						arrived[c]++
					}
				}
				b := bg[i]
				if ev[i].Kind != Comm {
					en[i] = b
					i++
					continue
				}
				d := math.Inf(-1)
				cause := uint8(0)
				var bind [2]int32
				blocked := false
				for _, x := range deps[depLo[i]:depLo[i+1]] {
					if known[x.q] <= x.j {
						blocked = true
						break
					}
					if v := begin[x.q][x.j] + x.off; v > d {
						d, cause, bind = v, x.cause, [2]int32{x.q, x.j}
					}
				}
				if !blocked && sc[i] {
					c := coll[i]
					if int(arrived[c]) < len(g.Colls[c]) {
						blocked = true
					} else if latest[c] > d {
						d, cause, bind = latest[c], causeCollective, latestBy[c]
					}
				}
				if blocked {
					break
				}
				w := 0.0
				if d > b && (zero == nil || !zero[i]) {
					w = d - b
					switch cause {
					case causeSender:
						res.Waits[r].LateSender += w
					case causeReceiver:
						res.Waits[r].LateReceiver += w
					default:
						res.Waits[r].Collective += w
					}
				}
				en[i] = b + w + own[i]
				if wait != nil {
					wait[r][i] = w
					by[r][i] = [2]int32{-1, -1}
					if w > 0 {
						by[r][i] = bind
					}
				}
				i++
				progress = true
			}
			pos[r] = i
			if i == len(ev) {
				last := res.Start[r]
				if i > 0 {
					last = en[i-1]
				}
				res.Finish[r] = last + gap[len(ev)]
				pos[r] = len(ev) + 1
				left--
				progress = true
			}
		}
		if !progress {
			var at []string
			for r := 0; r < n && len(at) < 4; r++ {
				if pos[r] < len(t.Ranks[r].Events) {
					e := &t.Ranks[r].Events[pos[r]]
					at = append(at, fmt.Sprintf("rank %d at %s (%s)", r, e.Op, t.NodeName(e)))
				}
			}
			return nil, fmt.Errorf("%w: %v", ErrDeadlock, at)
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for r := range t.Ranks {
		lo = math.Min(lo, res.Start[r])
		hi = math.Max(hi, res.Finish[r])
	}
	res.Completion = hi - lo
	if opt.Record {
		res.Begin, res.End, res.Wait, res.By = begin, end, wait, by
	}
	return res, nil
}
