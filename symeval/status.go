package symeval

import (
	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Statuses. A receive or a probe that finds its message leaves in its
// status where it came from, its tag and its size (MPI 3.1 §3.2.5), which
// a program reads to size what it receives next: MPI_PROBE, then
// MPI_GET_COUNT, then a buffer of that many elements and the receive. At a
// point the evaluation knows, rank by rank, the send a receive or probe
// finds (p2p.go), so the status holds the sender's rank, tag and bytes:
// the source and tag in the status's own elements (Fortran's
// status(MPI_SOURCE), C's st.MPI_SOURCE), the bytes under a key of their
// own that MPI_GET_COUNT divides by the datatype's size.

// envelope is what rank's receive or probe found: the source, the tag and
// the bytes (nil where not known).
type envelope struct {
	rank, src, tag int64
	bytes          *symbolic.Expr
}

// statusBytes is the key that holds the bytes of the message a status
// describes.
func statusBytes(key string) string { return key + "#bytes" }

// statusKey is the storage of a status argument; "" for MPI_STATUS_IGNORE
// and what the evaluation does not follow.
func (ev *evaluator) statusKey(st apt.Expr) string {
	nm, ok := st.(*apt.Name)
	if !ok {
		return ""
	}
	if d := ev.prog.Resolve(ev.frame().routine, nm.Name); d == nil || d.Predefined != "" {
		return ""
	}
	return ev.key(nm.Name)
}

// setStatus fills a status from the envelopes the ranks of the path found
// (envs nil: not every rank's is known, and the status is unknown).
func (ev *evaluator) setStatus(st apt.Expr, envs []envelope) {
	key := ev.statusKey(st)
	if key == "" {
		return
	}
	pos := st.At()
	unknownAll := func() {
		ev.env.set(statusBytes(key), unknownValue("count", "the size of the message the status at "+pos.String()+" describes", false))
		ev.statusFields(st, unknownValue("source", "the source in the status at "+pos.String(), false),
			unknownValue("tag", "the tag in the status at "+pos.String(), false))
	}
	if len(envs) == 0 {
		unknownAll()
		return
	}
	byRank := func(f func(e envelope) (symbolic.Expr, bool)) (Value, bool) {
		np := ev.values[Size]
		if _, fixed := ev.values[Rank]; fixed {
			e, ok := f(envs[0])
			return Known(e), ok
		}
		alts := make([]Alt, 0, len(envs))
		sets := make([][]bool, 0, len(envs))
		for _, en := range envs {
			e, ok := f(en)
			if !ok {
				return Value{}, false
			}
			set := make([]bool, np)
			set[en.rank] = true
			alts = append(alts, Alt{Guard: counting.Rel{R: symbolic.Rel(symbolic.Sym(Rank), "==", symbolic.Int(en.rank))}, E: e})
			sets = append(sets, set)
		}
		out := ev.rankAltsOn(alts, sets, np)
		return Value{Alts: out}, ev.fits(out)
	}
	bytes, ok := byRank(func(e envelope) (symbolic.Expr, bool) {
		if e.bytes == nil {
			return symbolic.Expr{}, false
		}
		return *e.bytes, true
	})
	if !ok {
		bytes = unknownValue("count", "the size of the message the status at "+pos.String()+" describes", false)
	}
	ev.env.set(statusBytes(key), bytes)
	src, ok1 := byRank(func(e envelope) (symbolic.Expr, bool) { return symbolic.Int(e.src), true })
	tag, ok2 := byRank(func(e envelope) (symbolic.Expr, bool) { return symbolic.Int(e.tag), true })
	if !ok1 || !ok2 {
		unknownAll()
		return
	}
	ev.statusFields(st, src, tag)
}

// statusFields stores the source and tag into a status: Fortran's
// status(MPI_SOURCE) and status(MPI_TAG) (1 and 2 in Open MPI's mpif.h),
// C's MPI_SOURCE and MPI_TAG members.
func (ev *evaluator) statusFields(st apt.Expr, src, tag Value) {
	nm := st.(*apt.Name)
	d := ev.prog.Resolve(ev.frame().routine, nm.Name)
	switch {
	case d.Type.Base == apt.TypeDerived:
		for field, v := range map[string]Value{"mpi_source": src, "mpi_tag": tag} {
			ev.assign(&apt.Component{Pos: nm.Pos, Base: nm, Field: field, Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}, v)
		}
	case d.IsArray() && d.Type.Base == apt.TypeInteger:
		for k, v := range []Value{src, tag} {
			ev.assign(&apt.Index{Pos: nm.Pos, Name: nm.Name, Type: d.Type, Subs: []apt.Expr{intConst(int64(k + 1))}}, v)
		}
	}
}

// probe evaluates MPI_PROBE and MPI_IPROBE: the status describes the
// message a receive of the same envelope would find, which stays to be
// received; an iprobe's flag is true, the message taken to have arrived.
func (ev *evaluator) probe(c *apt.Comm, pos apt.Pos) {
	if c.Flag != nil {
		ev.assign(c.Flag, Known(symbolic.Int(1)))
		ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: pos,
			What: "MPI_IPROBE is taken to find its message at its first call (it has arrived): a loop that polls it counts one pass"})
	}
	if c.Status == nil || c.Probe == nil {
		return
	}
	ev.matchPending() // receives posted before it match first
	sp, ok := ev.recvSpecOf(&apt.Comm{Recv: c.Probe})
	if !ok {
		ev.setStatus(c.Status, nil)
		return
	}
	np := ev.values[Size]
	envs := make([]envelope, 0, len(sp.ranks))
	for _, r := range sp.ranks {
		sub := map[string]symbolic.Expr{Rank: symbolic.Int(r)}
		s, ok1 := numberAt(sp.src, sub)
		t, ok2 := numberAt(sp.tag, sub)
		if ok1 && s == procNull {
			zero := symbolic.Int(0)
			envs = append(envs, envelope{rank: r, src: procNull, tag: -1, bytes: &zero})
			continue
		}
		if !ok1 || !ok2 || s < 0 || s >= np {
			envs = nil
			break
		}
		mt, found := ev.mail.first(s, r, t)
		if !found {
			envs = nil
			break
		}
		envs = append(envs, envelope{rank: r, src: s, tag: mt.tag, bytes: mt.bytes})
	}
	ev.setStatus(c.Status, envs)
}

// getCount evaluates MPI_GET_COUNT (and MPI_GET_ELEMENTS) of a status the
// evaluation filled: the message's bytes over the datatype's size.
func (ev *evaluator) getCount(st, dtype, out apt.Expr) {
	if out == nil {
		return
	}
	v := unknownValue("count", "the count MPI_GET_COUNT gives at "+out.At().String(), false)
	if key := ev.statusKey(st); key != "" {
		if bytes, ok := ev.env.lookup(statusBytes(key)); ok && bytes.IsKnown() {
			if size, ok := ev.datatypeSize(dtype); ok && size > 0 {
				if q, ok := lift1(bytes, func(e symbolic.Expr) (symbolic.Expr, bool) {
					return e.Div(symbolic.Int(size)), true
				}); ok {
					v = q
				}
			}
		}
	}
	ev.assign(out, toInteger(v))
}

// datatypeSize is the size in bytes of a predefined datatype or one the
// program made whose size is a number.
func (ev *evaluator) datatypeSize(dtype apt.Expr) (int64, bool) {
	if nm, ok := dtype.(*apt.Name); ok {
		if n, ok := apt.MPITypeSize(nm.Name); ok {
			return int64(n), true
		}
	}
	v := ev.value(dtype)
	if v.dtype != "" {
		n, ok := apt.MPITypeSize(v.dtype)
		return int64(n), ok
	}
	if v.dbytes != nil {
		if e, ok := v.dbytes.Single(); ok {
			return e.Int64()
		}
	}
	return 0, false
}
