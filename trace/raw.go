package trace

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
)

// The raw event file is what an instrumented program's runtime writes, one
// per rank (mkvet.<rank>.evt in $MKVET_OUT): Fortran stream output in the
// machine's byte order (little-endian here), records of six 64-bit integers
// and a time, flushed in chunks as its buffer fills:
//
//	header   "MKVTRAW1", int64 version, rank, P, number of slots; per slot
//	         int64 MPI operation (apt.CommOp, 0 for regions), int64 length,
//	         the APT node ID
//	chunk    int64 n > 0, n records of six int64, n real64 times (s)
//	trailer  int64 -1, real64 start, finish, then two clock syncs
//	         (local time, offset to rank 0's clock), int64 events dropped
//
// Record types, the first integer (the second is the slot, the rest the
// type's fields). The instrumentation's runtime writes them
// (instrument/events.go), with RawMagic and RawVersion in the header.
const (
	RawEnter  = 1 // timed region or MPI call entered (time)
	RawExit   = 2 // left (time)
	RawSend   = 3 // send side: peer (world rank, -2 none), tag, bytes
	RawRecv   = 4 // receive side: peer (-1 any), tag (-1 any), bytes
	RawColl   = 5 // collective: group id (0 world), root (world rank, -1 none)
	RawReq    = 6 // request handle an isend/irecv returned
	RawWait   = 7 // request handle a wait completes (one record per request)
	RawStatus = 8 // status of a receive: source (world rank), tag
	RawMember = 9 // group member: group id, communicator rank, world rank, size
)

// The raw file's magic, its format version (2: six integers a record)
// and the integers of a record.
const (
	RawMagic   = "MKVTRAW1"
	RawVersion = 2
	RawFields  = 6
)

// RawFile is the name of rank's raw event file.
func RawFile(rank int) string { return "mkvet." + strconv.Itoa(rank) + ".evt" }

var rawName = regexp.MustCompile(`^mkvet\.(\d+)\.evt$`)

// ReadRawDir reads the raw event files of one run from dir (every rank's)
// and returns the run's trace on rank 0's clock.
func ReadRawDir(dir string) (*Trace, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var files []string
	for _, e := range ents {
		if rawName.MatchString(e.Name()) {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no raw event files (%s); was the program instrumented with -events and run to MPI_FINALIZE?", dir, RawFile(0))
	}
	var raws []*rawRank
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		r, err := parseRaw(f, b)
		if err != nil {
			return nil, err
		}
		raws = append(raws, r)
	}
	return assemble(raws)
}

// rawRank is one raw file, decoded but not yet on the common clock.
type rawRank struct {
	file          string
	rank, p       int
	ops           []apt.CommOp // per slot (index 0 unused)
	names         []string
	recs          []int64 // RawFields per record
	times         []float64
	recAt         []int64 // file offset of each record, for errors
	start, finish float64
	sync          [2][2]float64 // (local time, offset) at start and end
	dropped       int64
}

// parseRaw decodes one raw event file.
func parseRaw(name string, b []byte) (*rawRank, error) {
	d := &rawReader{file: name, b: b}
	if !bytes.HasPrefix(b, []byte(RawMagic)) {
		return nil, d.errf(0, "not an mkvet raw event file")
	}
	d.off = len(RawMagic)
	if v := d.i64(); v != RawVersion && d.err == nil {
		return nil, d.errf(d.off-8, "raw event format version %d; this mkvet reads %d", v, RawVersion)
	}
	r := &rawRank{file: name}
	rank, p, ns := d.i64(), d.i64(), d.i64()
	if d.err != nil {
		return nil, d.err
	}
	if p < 1 || p > 1<<24 || rank < 0 || rank >= p || ns < 0 || ns > int64(len(b)/16) {
		return nil, d.errf(len(RawMagic)+8, "rank %d of %d with %d slots", rank, p, ns)
	}
	r.rank, r.p = int(rank), int(p)
	r.ops = make([]apt.CommOp, ns+1)
	r.names = make([]string, ns+1)
	for k := 1; k <= int(ns); k++ {
		op, n := d.i64(), d.i64()
		if d.err != nil {
			return nil, d.err
		}
		if op < 0 || op > 127 || n < 0 || n > int64(len(b)-d.off) {
			return nil, d.errf(d.off-16, "slot %d: operation %d, name of %d bytes", k, op, n)
		}
		r.ops[k] = apt.CommOp(op)
		r.names[k] = string(b[d.off : d.off+int(n)])
		d.off += int(n)
	}
	for {
		at := d.off
		n := d.i64()
		if d.err != nil {
			return nil, d.errf(at, "truncated: no trailer (did the rank reach MPI_FINALIZE?)")
		}
		if n == -1 {
			break
		}
		size := int64(RawFields*8 + 8)
		if n <= 0 || n > int64(len(b)-d.off)/size {
			return nil, d.errf(at, "chunk of %d records does not fit in the %d bytes left", n, len(b)-d.off)
		}
		base := d.off
		for i := int64(0); i < n; i++ {
			r.recAt = append(r.recAt, int64(base)+i*RawFields*8)
			for f := 0; f < RawFields; f++ {
				r.recs = append(r.recs, d.i64())
			}
		}
		for i := int64(0); i < n; i++ {
			r.times = append(r.times, d.f64())
		}
	}
	at := d.off
	r.start, r.finish = d.f64(), d.f64()
	for i := range r.sync {
		r.sync[i][0], r.sync[i][1] = d.f64(), d.f64()
	}
	r.dropped = d.i64()
	if d.err != nil {
		return nil, d.err
	}
	for _, x := range []float64{r.start, r.finish, r.sync[0][0], r.sync[0][1], r.sync[1][0], r.sync[1][1]} {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 1e12 {
			return nil, d.errf(at, "trailer time %g", x)
		}
	}
	if r.finish < r.start || r.dropped < 0 {
		return nil, d.errf(at, "finish %g before start %g, or %d events dropped", r.finish, r.start, r.dropped)
	}
	if d.off != len(b) {
		return nil, d.errf(d.off, "%d bytes after the trailer", len(b)-d.off)
	}
	for i, t := range r.times {
		if math.IsNaN(t) || math.IsInf(t, 0) || math.Abs(t) > 1e12 {
			return nil, d.errf(int(r.recAt[i]), "record time %g", t)
		}
	}
	return r, nil
}

type rawReader struct {
	file string
	b    []byte
	off  int
	err  error
}

func (d *rawReader) errf(off int, format string, args ...any) error {
	return &FormatError{File: d.file, Offset: int64(off), Msg: fmt.Sprintf(format, args...)}
}

func (d *rawReader) i64() int64 {
	if d.err != nil {
		return 0
	}
	if d.off+8 > len(d.b) {
		d.err = d.errf(d.off, "truncated")
		return 0
	}
	v := int64(binary.LittleEndian.Uint64(d.b[d.off:]))
	d.off += 8
	return v
}

func (d *rawReader) f64() float64 { return math.Float64frombits(uint64(d.i64())) }

// assemble puts the ranks' records on rank 0's clock and turns them into
// events.
func assemble(raws []*rawRank) (*Trace, error) {
	slices.SortFunc(raws, func(a, b *rawRank) int { return a.rank - b.rank })
	p := raws[0].p
	for i, r := range raws {
		if r.p != p {
			return nil, fmt.Errorf("%s: rank %d of %d, but %s says P = %d", r.file, r.rank, r.p, raws[0].file, p)
		}
		if r.rank != i {
			if i > 0 && raws[i-1].rank == r.rank {
				return nil, fmt.Errorf("%s and %s: both rank %d", raws[i-1].file, r.file, r.rank)
			}
			return nil, fmt.Errorf("rank %d's raw event file %s is missing", i, RawFile(i))
		}
	}
	if len(raws) != p {
		return nil, fmt.Errorf("rank %d's raw event file %s is missing", len(raws), RawFile(len(raws)))
	}
	t := &Trace{Source: "measured", P: p, Groups: [][]int32{nil}}
	nodeIdx := map[string]int32{}
	node := func(name string) int32 {
		if i, ok := nodeIdx[name]; ok {
			return i
		}
		i := int32(len(t.Nodes))
		t.Nodes = append(t.Nodes, name)
		nodeIdx[name] = i
		return i
	}
	groupIdx := map[string]int32{}
	// Each rank's clock, corrected linearly between its two syncs with
	// rank 0 (Cristian's method: the offset at the round trip's middle).
	clock := func(r *rawRank) func(float64) float64 {
		l0, o0, l1, o1 := r.sync[0][0], r.sync[0][1], r.sync[1][0], r.sync[1][1]
		if l1 <= l0 {
			return func(x float64) float64 { return x + o0 }
		}
		return func(x float64) float64 { return x + o0 + (o1-o0)*(x-l0)/(l1-l0) }
	}
	epoch := math.Inf(1)
	for _, r := range raws {
		epoch = math.Min(epoch, clock(r)(r.start))
	}
	ns := func(x float64) int64 { return int64(math.Round(x * 1e9)) }
	var drift float64
	for _, r := range raws {
		if r.dropped > 0 {
			t.Notes = append(t.Notes, fmt.Sprintf("rank %d: %d events before MPI_INIT returned were dropped (buffer full)", r.rank, r.dropped))
		}
		drift = math.Max(drift, math.Abs(r.sync[1][1]-r.sync[0][1]))
		c := clock(r)
		t.Ranks = append(t.Ranks, Rank{Start: ns(c(r.start) - epoch), Finish: ns(c(r.finish) - epoch)})
		out := &t.Ranks[len(t.Ranks)-1]
		if err := r.events(t, out, func(x float64) int64 { return ns(c(x) - epoch) }, node, groupIdx); err != nil {
			return nil, err
		}
	}
	if drift > 1e-6 {
		t.Notes = append(t.Notes, fmt.Sprintf("clocks drifted up to %.3g s against rank 0's over the run; corrected linearly", drift))
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	return t, nil
}

// events turns one rank's records into events.
func (r *rawRank) events(t *Trace, out *Rank, at func(float64) int64, node func(string) int32, groupIdx map[string]int32) error {
	members := map[int64][]int32{} // this rank's group ids
	gid := map[int64]int32{}
	group := func(id int64) (int32, error) {
		if id == 0 {
			return 0, nil
		}
		if g, ok := gid[id]; ok {
			return g, nil
		}
		m, ok := members[id]
		if !ok || slices.Contains(m, -1) {
			return 0, fmt.Errorf("group %d's members were not all recorded", id)
		}
		key := fmt.Sprint(m)
		g, ok := groupIdx[key]
		if !ok {
			g = int32(len(t.Groups))
			t.Groups = append(t.Groups, m)
			groupIdx[key] = g
		}
		gid[id] = g
		return g, nil
	}
	var pend Event
	reset := func() {
		pend = Event{Peer: NoPeer, RPeer: NoPeer, Root: -1}
	}
	reset()
	var pendReqs []int64
	var cur *Event
	clamp := func(x int64) int64 { return min(max(x, out.Start), out.Finish) }
	for i := 0; i*RawFields < len(r.recs); i++ {
		f := r.recs[i*RawFields : (i+1)*RawFields]
		ty, slot := f[0], f[1]
		bad := func(format string, args ...any) error {
			return &FormatError{File: r.file, Offset: r.recAt[i], Msg: fmt.Sprintf(format, args...)}
		}
		if ty != RawMember && (slot < 1 || slot >= int64(len(r.ops))) {
			return bad("record type %d: slot %d of %d", ty, slot, len(r.ops)-1)
		}
		peer := func(v int64, any bool) (int32, error) {
			switch {
			case v >= 0 && v < int64(r.p):
				return int32(v), nil
			case v == -1 && any:
				return AnySource, nil
			case v == -2 || v < 0 && !any:
				return NoPeer, nil
			}
			return 0, bad("peer %d", v)
		}
		var err error
		switch ty {
		case RawEnter:
			tm := clamp(at(r.times[i]))
			if r.ops[slot] == 0 {
				out.Events = append(out.Events, Event{Kind: Enter, Node: node(r.names[slot]), Begin: tm, End: tm, Peer: NoPeer, RPeer: NoPeer, Root: -1})
				continue
			}
			e := pend
			e.Kind, e.Op, e.Node, e.Begin, e.End = Comm, r.ops[slot], node(r.names[slot]), tm, tm
			if len(pendReqs) > 0 {
				e.ReqLo, e.NReq = int32(len(out.Reqs)), int32(len(pendReqs))
				out.Reqs = append(out.Reqs, pendReqs...)
			}
			out.Events = append(out.Events, e)
			cur = &out.Events[len(out.Events)-1]
			reset()
			pendReqs = pendReqs[:0]
		case RawExit:
			tm := clamp(at(r.times[i]))
			if r.ops[slot] == 0 {
				out.Events = append(out.Events, Event{Kind: Exit, Node: node(r.names[slot]), Begin: tm, End: tm, Peer: NoPeer, RPeer: NoPeer, Root: -1})
				continue
			}
			if cur == nil {
				return bad("exit of MPI call %s that was not entered", r.names[slot])
			}
			cur.End = max(tm, cur.Begin)
			cur = nil
		case RawSend:
			if pend.Peer, err = peer(f[2], false); err != nil {
				return err
			}
			pend.Tag, pend.Bytes = int32(f[3]), max(f[4], 0)
		case RawRecv:
			if pend.RPeer, err = peer(f[2], true); err != nil {
				return err
			}
			pend.RTag, pend.RBytes = int32(f[3]), max(f[4], 0)
		case RawColl:
			if pend.Group, err = group(f[2]); err != nil {
				return bad("%v", err)
			}
			pend.Root = -1
			if f[3] >= 0 && f[3] < int64(r.p) {
				pend.Root = int32(f[3])
			}
		case RawReq, RawStatus:
			if cur == nil {
				return bad("record type %d outside an MPI call", ty)
			}
			if ty == RawReq {
				cur.Req = f[2]
				continue
			}
			// The status of a receive (or of the wait that
			// completes an irecv) names the actual source and tag
			// of a wildcard receive.
			target := cur
			if cur.Op == apt.MPIWait && cur.NReq == 1 {
				target = nil
				h := out.Reqs[cur.ReqLo]
				for j := len(out.Events) - 2; j >= 0; j-- {
					if e := &out.Events[j]; e.Kind == Comm && e.Op == apt.MPIIrecv && e.Req == h {
						target = e
						break
					}
				}
			}
			if target == nil || cur.Op == apt.MPIWait && target == cur {
				continue
			}
			if target.RPeer == AnySource && f[2] >= 0 && f[2] < int64(r.p) {
				target.RPeer = int32(f[2])
			}
			if target.RTag == AnyTag {
				target.RTag = int32(f[3])
			}
		case RawWait:
			pendReqs = append(pendReqs, f[2])
		case RawMember:
			id, k, w, size := f[1], f[2], f[3], f[4]
			if size < 1 || size > int64(r.p) || k < 0 || k >= size || w < 0 || w >= int64(r.p) {
				return bad("group %d: member %d of %d is rank %d", id, k, size, w)
			}
			m := members[id]
			if len(m) != int(size) {
				m = make([]int32, size)
				for j := range m {
					m[j] = -1
				}
				members[id] = m
			}
			m[k] = int32(w)
		default:
			return bad("unknown record type %d", ty)
		}
	}
	if cur != nil {
		// The rank finished inside an MPI call (MPI_ABORT's last
		// call): it ends at the finish.
		cur.End = out.Finish
	}
	return nil
}
