package trace

import (
	"fmt"

	"github.com/mkvet/mkvet/frontend/apt"
)

// Kind says what an event is.
type Kind uint8

// Event kinds. A Comm event is one MPI call from its entry to its exit; Enter
// and Exit mark a timed region (a routine, a loop nest) of the program, which
// PerWiz's parallel regions are made of (seed 003 §2.1).
const (
	Comm Kind = iota
	Enter
	Exit
	numKinds
)

func (k Kind) String() string {
	switch k {
	case Comm:
		return "comm"
	case Enter:
		return "enter"
	case Exit:
		return "exit"
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Peer values that are not ranks.
const (
	// NoPeer: the side does not exist (a send's receive side) or names
	// MPI_PROC_NULL: nothing moves.
	NoPeer = -2
	// AnySource: a receive from MPI_ANY_SOURCE whose actual source was not
	// recorded (no status to read it from).
	AnySource = -1
	// AnyTag: a receive with MPI_ANY_TAG whose tag was not recorded.
	AnyTag = -1
)

// Event is one event of one rank. Times are nanoseconds on the trace's
// common clock (every rank's clock corrected to rank 0's, the trace's first
// event at or after 0); Enter and Exit events have Begin == End.
//
// A Comm event's send side is Peer, Tag, Bytes, its receive side RPeer,
// RTag, RBytes (a send has RPeer == NoPeer, a receive Peer == NoPeer, a
// sendrecv both); peers are ranks of MPI_COMM_WORLD whatever the
// communicator. Group is the index of the communicator's group in
// Trace.Groups (0: MPI_COMM_WORLD) and Root a rooted collective's root (a
// world rank). Req is the request handle an isend or irecv returned; a wait
// completes the requests Reqs[ReqLo:ReqLo+NReq] of its rank.
type Event struct {
	Begin, End int64
	Bytes      int64
	RBytes     int64
	Req        int64
	Node       int32
	Peer, Tag  int32
	RPeer      int32
	RTag       int32
	Group      int32
	Root       int32
	ReqLo      int32
	NReq       int32
	Op         apt.CommOp
	Kind       Kind
}

// Rank is one rank's events in program order, with the program's start (from
// MPI_INIT's return) and finish (MPI_FINALIZE's call) on the common clock.
type Rank struct {
	Start, Finish int64
	Events        []Event
	// Reqs are the request handles the rank's waits complete, in order.
	Reqs []int64
}

// Trace is the event trace of one run of a program, measured or predicted.
type Trace struct {
	// Source is "measured" (an instrumented run) or "predicted" (the
	// static model executed at a point).
	Source  string           `json:"source"`
	Program string           `json:"program,omitempty"`
	Run     string           `json:"run,omitempty"`
	Params  map[string]int64 `json:"params,omitempty"`
	P       int              `json:"P"`
	// Nodes are the APT node IDs events refer to by index.
	Nodes []string `json:"nodes"`
	// Groups are the member world ranks of each communicator group in
	// communicator rank order; Groups[0] is MPI_COMM_WORLD, left empty.
	Groups [][]int32 `json:"groups"`
	// Notes say what the trace leaves out or approximates (events dropped,
	// clocks that drifted).
	Notes []string `json:"notes,omitempty"`
	Ranks []Rank   `json:"-"`
}

// NumEvents returns the number of events of all ranks.
func (t *Trace) NumEvents() int {
	n := 0
	for i := range t.Ranks {
		n += len(t.Ranks[i].Events)
	}
	return n
}

// Span returns the earliest start and the latest finish over the ranks: the
// run's completion time is their difference.
func (t *Trace) Span() (start, finish int64) {
	for i, r := range t.Ranks {
		if i == 0 || r.Start < start {
			start = r.Start
		}
		if i == 0 || r.Finish > finish {
			finish = r.Finish
		}
	}
	return start, finish
}

// NodeName returns the APT node ID of event e.
func (t *Trace) NodeName(e *Event) string {
	if e.Node >= 0 && int(e.Node) < len(t.Nodes) {
		return t.Nodes[e.Node]
	}
	return fmt.Sprintf("node#%d", e.Node)
}

// isSend reports whether a Comm event has a send side that moves data.
func (e *Event) isSend() bool { return e.Peer >= 0 }

// isRecv reports whether a Comm event has a receive side that expects data
// (a known source, or MPI_ANY_SOURCE unresolved).
func (e *Event) isRecv() bool { return e.RPeer >= 0 || e.RPeer == AnySource }

// Validate checks the invariants readers and replay rely on: ranks and
// groups in range, events in time order with End >= Begin, request ranges
// inside the rank's Reqs, node indices inside Nodes.
func (t *Trace) Validate() error {
	if t.P < 1 || t.P != len(t.Ranks) {
		return fmt.Errorf("trace: P = %d but %d ranks", t.P, len(t.Ranks))
	}
	for g, m := range t.Groups {
		if g == 0 {
			continue
		}
		for _, w := range m {
			if w < 0 || int(w) >= t.P {
				return fmt.Errorf("trace: group %d holds rank %d outside 0..%d", g, w, t.P-1)
			}
		}
	}
	for ri := range t.Ranks {
		r := &t.Ranks[ri]
		if r.Finish < r.Start {
			return fmt.Errorf("trace: rank %d finishes before it starts", ri)
		}
		last := r.Start
		reqAt := int32(0)
		for i := range r.Events {
			e := &r.Events[i]
			bad := ""
			switch {
			case e.Kind >= numKinds:
				bad = "unknown kind"
			case e.Begin < last:
				bad = "out of time order"
			case e.End < e.Begin:
				bad = "ends before it begins"
			case e.End > r.Finish:
				bad = "ends after the rank finishes"
			case e.Node < 0 || int(e.Node) >= len(t.Nodes):
				bad = "node index out of range"
			case e.Kind != Comm && (e.Begin != e.End):
				bad = "a region mark with a duration"
			case e.Kind != Comm && (e.Peer != NoPeer || e.RPeer != NoPeer || e.Root != -1 || e.Bytes != 0 || e.RBytes != 0 ||
				e.Tag != 0 || e.RTag != 0 || e.Group != 0 || e.Req != 0 || e.NReq != 0):
				bad = "a region mark with communication fields"
			case e.Kind == Comm && (int(e.Group) >= max(len(t.Groups), 1) || e.Group < 0):
				bad = "group index out of range"
			case e.Kind == Comm && (e.Peer >= int32(t.P) || e.RPeer >= int32(t.P) || e.Peer < NoPeer || e.RPeer < NoPeer):
				bad = "peer out of range"
			case e.Kind == Comm && (e.Root < -1 || e.Root >= int32(t.P)):
				bad = "root out of range"
			case e.Bytes < 0 || e.RBytes < 0:
				bad = "negative size"
			case e.NReq < 0 || e.ReqLo < 0 || int(e.ReqLo)+int(e.NReq) > len(r.Reqs):
				bad = "request range out of range"
			case e.NReq > 0 && e.ReqLo != reqAt || e.NReq == 0 && e.ReqLo != 0:
				bad = "requests not taken in order"
			}
			if bad != "" {
				return fmt.Errorf("trace: rank %d event %d: %s", ri, i, bad)
			}
			last = e.End
			reqAt += e.NReq
		}
		if int(reqAt) != len(r.Reqs) {
			return fmt.Errorf("trace: rank %d: %d requests, %d taken by waits", ri, len(r.Reqs), reqAt)
		}
	}
	return nil
}
