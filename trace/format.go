package trace

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/mkvet/mkvet/frontend/apt"
)

// The trace file (.mkt) is columnar: a magic line, a JSON header (the
// Trace's fields and per-rank event counts), then per rank its start and
// finish and one column per event field, each a run of varints. Times are
// deltas (an event's begin from the previous event's end, its duration),
// nodes and request handles deltas from the previous event's, so that a
// typical event takes 15 to 25 bytes: a run of a million events fits in
// tens of megabytes without a compressor, and a column can be read without
// the others.
const magic = "MKVTRACE1\n"

// maxHeader bounds the JSON header a reader accepts.
const maxHeader = 64 << 20

type header struct {
	*Trace
	Events []int `json:"events"`
	Reqs   []int `json:"reqs"`
}

// Write writes t in the trace file format.
func Write(w io.Writer, t *Trace) error {
	if err := t.Validate(); err != nil {
		return err
	}
	h := header{Trace: t}
	for _, r := range t.Ranks {
		h.Events = append(h.Events, len(r.Events))
		h.Reqs = append(h.Reqs, len(r.Reqs))
	}
	hj, err := json.Marshal(h)
	if err != nil {
		return err
	}
	var b []byte
	b = append(b, magic...)
	b = binary.AppendUvarint(b, uint64(len(hj)))
	b = append(b, hj...)
	for ri := range t.Ranks {
		b = appendRank(b, &t.Ranks[ri])
	}
	_, err = w.Write(b)
	return err
}

func appendRank(b []byte, r *Rank) []byte {
	ev := r.Events
	b = binary.AppendVarint(b, r.Start)
	b = binary.AppendUvarint(b, uint64(r.Finish-r.Start))
	col := func(f func(b []byte, i int, e *Event) []byte) {
		for i := range ev {
			b = f(b, i, &ev[i])
		}
	}
	col(func(b []byte, _ int, e *Event) []byte { return append(b, byte(e.Kind), byte(e.Op)) })
	col(func(b []byte, i int, e *Event) []byte {
		prev := int32(0)
		if i > 0 {
			prev = ev[i-1].Node
		}
		return binary.AppendVarint(b, int64(e.Node-prev))
	})
	// Region marks have no duration, and only Comm events have the
	// communication fields: those columns skip them.
	comm := func(f func(b []byte, i int, e *Event) []byte) {
		col(func(b []byte, i int, e *Event) []byte {
			if e.Kind != Comm {
				return b
			}
			return f(b, i, e)
		})
	}
	comm(func(b []byte, _ int, e *Event) []byte { return binary.AppendUvarint(b, uint64(e.End-e.Begin)) })
	col(func(b []byte, i int, e *Event) []byte {
		prev := r.Start
		if i > 0 {
			prev = ev[i-1].End
		}
		return binary.AppendUvarint(b, uint64(e.Begin-prev))
	})
	comm(func(b []byte, _ int, e *Event) []byte {
		b = binary.AppendVarint(b, int64(e.Peer))
		return binary.AppendVarint(b, int64(e.RPeer))
	})
	comm(func(b []byte, _ int, e *Event) []byte {
		b = binary.AppendVarint(b, int64(e.Tag))
		return binary.AppendVarint(b, int64(e.RTag))
	})
	comm(func(b []byte, _ int, e *Event) []byte {
		b = binary.AppendUvarint(b, uint64(e.Bytes))
		return binary.AppendUvarint(b, uint64(e.RBytes))
	})
	comm(func(b []byte, _ int, e *Event) []byte {
		b = binary.AppendUvarint(b, uint64(e.Group))
		return binary.AppendVarint(b, int64(e.Root))
	})
	var prevReq int64
	comm(func(b []byte, _ int, e *Event) []byte {
		b = binary.AppendVarint(b, e.Req-prevReq)
		prevReq = e.Req
		return binary.AppendUvarint(b, uint64(e.NReq))
	})
	prevReq = 0
	for _, q := range r.Reqs {
		b = binary.AppendVarint(b, q-prevReq)
		prevReq = q
	}
	return b
}

// FormatError is a malformed trace or raw event file: the byte offset at
// which reading stopped and why.
type FormatError struct {
	File   string
	Offset int64
	Msg    string
}

func (e *FormatError) Error() string { return fmt.Sprintf("%s:%d: %s", e.File, e.Offset, e.Msg) }

// decoder reads varints from a byte slice, remembering the first error
// with its offset; after an error every read returns 0.
type decoder struct {
	file string
	b    []byte
	off  int
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = &FormatError{File: d.file, Offset: int64(d.off), Msg: fmt.Sprintf(format, args...)}
	}
}

// uvarint and varint read an unsigned and a signed varint.
func (d *decoder) uvarint() uint64 { return readVar(d, binary.Uvarint) }
func (d *decoder) varint() int64   { return readVar(d, binary.Varint) }

func readVar[T uint64 | int64](d *decoder, read func([]byte) (T, int)) T {
	if d.err != nil {
		return 0
	}
	v, n := read(d.b[d.off:])
	if n <= 0 {
		if n == 0 {
			d.fail("truncated")
		} else {
			d.fail("varint overflows 64 bits")
		}
		return 0
	}
	d.off += n
	return v
}

// i32 reads a varint that must fit in an int32 within [lo, hi].
func (d *decoder) i32(what string, lo, hi int64) int32 {
	at := d.off
	v := d.varint()
	if d.err == nil && (v < lo || v > hi) {
		d.off = at
		d.fail("%s %d out of range %d..%d", what, v, lo, hi)
		return 0
	}
	return int32(v)
}

// nonneg reads a uvarint that must fit in an int64.
func (d *decoder) nonneg(what string) int64 {
	at := d.off
	v := d.uvarint()
	if d.err == nil && v > 1<<62 {
		d.off = at
		d.fail("%s %d too large", what, v)
		return 0
	}
	return int64(v)
}

// ReadFile reads a trace file.
func ReadFile(path string) (*Trace, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Read(path, b)
}

// Read decodes a trace file's contents; name is the file name errors give.
// A malformed file gives a *FormatError at the offset where it goes wrong.
func Read(name string, b []byte) (*Trace, error) {
	d := &decoder{file: name, b: b}
	if !bytes.HasPrefix(b, []byte(magic)) {
		d.fail("not an mkvet trace file (it starts %q, not %q)", prefix(b, len(magic)), magic)
		return nil, d.err
	}
	d.off = len(magic)
	n := d.uvarint()
	if d.err != nil {
		return nil, d.err
	}
	if n > maxHeader || n > uint64(len(b)-d.off) {
		d.off = len(magic)
		d.fail("a header of %d bytes does not fit in the %d bytes left", n, len(b)-len(magic))
		return nil, d.err
	}
	t := &Trace{}
	h := header{Trace: t}
	if err := json.Unmarshal(b[d.off:d.off+int(n)], &h); err != nil {
		d.fail("header: %v", err)
		return nil, d.err
	}
	hdrAt := d.off
	d.off += int(n)
	bad := func(format string, args ...any) (*Trace, error) {
		return nil, &FormatError{File: name, Offset: int64(hdrAt), Msg: "header: " + fmt.Sprintf(format, args...)}
	}
	if t.P < 1 || t.P > 1<<24 {
		return bad("P = %d", t.P)
	}
	if len(h.Events) != t.P || len(h.Reqs) != t.P {
		return bad("%d event counts and %d request counts for P = %d", len(h.Events), len(h.Reqs), t.P)
	}
	if len(t.Groups) == 0 {
		t.Groups = [][]int32{nil}
	}
	for g, m := range t.Groups {
		for _, w := range m {
			if g > 0 && (w < 0 || int(w) >= t.P) {
				return bad("group %d holds rank %d", g, w)
			}
		}
	}
	t.Ranks = make([]Rank, t.P)
	for ri := range t.Ranks {
		ne, nq := h.Events[ri], h.Reqs[ri]
		// Every event takes at least three bytes and every request one:
		// counts beyond the bytes left are corrupt, not an allocation to
		// attempt.
		if ne < 0 || nq < 0 || ne > (len(b)-d.off)/3 || nq > len(b)-d.off {
			d.fail("rank %d: %d events and %d requests cannot fit in the %d bytes left", ri, ne, nq, len(b)-d.off)
			return nil, d.err
		}
		if err := readRank(d, t, &t.Ranks[ri], ne, nq); err != nil {
			return nil, err
		}
	}
	if d.off != len(b) {
		d.fail("%d bytes after the last rank", len(b)-d.off)
		return nil, d.err
	}
	if err := t.Validate(); err != nil {
		return nil, &FormatError{File: name, Offset: int64(d.off), Msg: err.Error()}
	}
	return t, nil
}

func prefix(b []byte, n int) []byte {
	if len(b) > n {
		return b[:n]
	}
	return b
}

func readRank(d *decoder, t *Trace, r *Rank, ne, nq int) error {
	const big = 1 << 62
	r.Start = d.varint()
	if r.Start < -big || r.Start > big {
		d.fail("start %d out of range", r.Start)
	}
	r.Finish = r.Start + d.nonneg("duration")
	r.Events = make([]Event, ne)
	ev := r.Events
	for i := range ev {
		if d.off+2 > len(d.b) {
			d.fail("truncated")
			return d.err
		}
		k, op := d.b[d.off], d.b[d.off+1]
		if Kind(k) >= numKinds || op > 127 {
			d.fail("event %d: kind %d op %d", i, k, op)
			return d.err
		}
		ev[i].Kind, ev[i].Op = Kind(k), apt.CommOp(op)
		// Region marks have no communication fields: none are stored,
		// and they read as "no peer, no root".
		ev[i].Peer, ev[i].RPeer, ev[i].Root = NoPeer, NoPeer, -1
		d.off += 2
	}
	prevNode := int64(0)
	for i := range ev {
		prevNode += d.varint()
		if prevNode < 0 || prevNode >= int64(len(t.Nodes)) {
			d.fail("event %d: node %d of %d", i, prevNode, len(t.Nodes))
			return d.err
		}
		ev[i].Node = int32(prevNode)
	}
	for i := range ev {
		if ev[i].Kind == Comm {
			ev[i].End = d.nonneg("duration") // the duration, until the begin is known
		}
	}
	at := r.Start
	for i := range ev {
		gap := d.nonneg("gap")
		dur := ev[i].End
		if at > big-gap || at+gap > big-dur {
			d.fail("event %d: time overflows", i)
			return d.err
		}
		ev[i].Begin = at + gap
		ev[i].End = ev[i].Begin + dur
		at = ev[i].End
	}
	p := int64(t.P)
	for i := range ev {
		if ev[i].Kind == Comm {
			ev[i].Peer = d.i32("peer", NoPeer, p-1)
			ev[i].RPeer = d.i32("peer", NoPeer, p-1)
		}
	}
	for i := range ev {
		if ev[i].Kind == Comm {
			ev[i].Tag = d.i32("tag", -1<<31, 1<<31-1)
			ev[i].RTag = d.i32("tag", -1<<31, 1<<31-1)
		}
	}
	for i := range ev {
		if ev[i].Kind == Comm {
			ev[i].Bytes = d.nonneg("size")
			ev[i].RBytes = d.nonneg("size")
		}
	}
	for i := range ev {
		if ev[i].Kind == Comm {
			at := d.off
			g := d.uvarint()
			if d.err == nil && g >= uint64(len(t.Groups)) {
				d.off = at
				d.fail("event %d: group %d of %d", i, g, len(t.Groups))
			}
			ev[i].Group = int32(g)
			ev[i].Root = d.i32("root", -1, p-1)
		}
	}
	var prevReq int64
	for i := range ev {
		if ev[i].Kind == Comm {
			prevReq += d.varint()
			ev[i].Req = prevReq
			at := d.off
			k := d.uvarint()
			if d.err == nil && k > uint64(nq) {
				d.off = at
				d.fail("event %d: %d requests of the rank's %d", i, k, nq)
			}
			ev[i].NReq = int32(k)
		}
	}
	if d.err != nil {
		return d.err
	}
	r.Reqs = make([]int64, nq)
	prevReq = 0
	for i := range r.Reqs {
		prevReq += d.varint()
		r.Reqs[i] = prevReq
	}
	// Waits take their requests in order.
	lo := int32(0)
	for i := range ev {
		if ev[i].NReq > 0 {
			if int(lo)+int(ev[i].NReq) > nq {
				d.fail("event %d: %d requests beyond the rank's %d", i, ev[i].NReq, nq)
				return d.err
			}
			ev[i].ReqLo = lo
			lo += ev[i].NReq
		}
	}
	return d.err
}
