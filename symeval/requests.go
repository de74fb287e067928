package symeval

import (
	"slices"
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Request handles as the run holds them. A nonblocking operation makes its
// request active; a wait or a test completes it and sets it to
// MPI_REQUEST_NULL (MPI 3.1 §3.7.3), which a program compares against: a
// wait guarded by `req /= MPI_REQUEST_NULL`, a scheduler that picks the
// next task among those whose receives are done (MPI_TESTSOME, then a scan
// for null requests). A test is taken to find its requests complete at its
// first call, as if the messages had arrived: the counts of the work a
// program schedules that way do not depend on the order, and a loop that
// polls a test counts one pass, which the evaluation states once
// (Result.Assumed).

// requestNull is MPI_REQUEST_NULL's value in the evaluation: the handle
// MPI defines, equal to itself alone (handleValue).
func requestNull() Value { return Known(symbolic.Int(handleValue("mpi_request_null"))) }

// requestActive is the value of a request a nonblocking operation made:
// a handle distinct from MPI_REQUEST_NULL.
func requestActive() Value { return Known(symbolic.Int(handleValue("(an active request)"))) }

// activate gives the request of a nonblocking operation its value.
func (ev *evaluator) activate(c *apt.Comm) {
	if c.Request != nil && !c.Blocking {
		ev.assign(ev.oneRequest(c.Request), requestActive())
	}
}

// oneRequest is the request a single-request argument designates: an
// array named there (C's &req[0], decayed) is its first element.
func (ev *evaluator) oneRequest(e apt.Expr) apt.Expr {
	if nm, ok := e.(*apt.Name); ok {
		if d := ev.prog.Resolve(ev.frame().routine, nm.Name); d != nil && d.IsArray() {
			if refs, ok := ev.sequenceRefs(e, 1); ok {
				return refs[0]
			}
		}
	}
	return e
}

// complete evaluates a wait or a test: the requests it names become
// MPI_REQUEST_NULL, a test's flag true, and the index (waitany, testany)
// or outcount and indices (waitsome, testsome) what the requests' values
// make them, rank by rank where they differ by rank; unknown where a
// request's value is.
func (ev *evaluator) complete(c *apt.Comm, pos apt.Pos) {
	name := "MPI_" + strings.ToUpper(c.Op.String())
	switch c.Op {
	case apt.MPITest, apt.MPITestall, apt.MPITestany, apt.MPITestsome:
		ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: pos,
			What: name + " is taken to find its requests complete at its first call (the messages have arrived): a loop that polls it counts one pass"})
	case apt.MPIWaitany:
		ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: pos,
			What: name + " is taken to complete its requests in the order they are listed (the run's order is the messages' arrival)"})
	case apt.MPIWaitsome:
		ev.res.Assumed = appendAssumption(ev.res.Assumed, Assumption{Pos: pos,
			What: name + " is taken to complete every active request at once: a loop that calls it until all are done counts one pass"})
	}
	if c.Flag != nil {
		ev.assign(c.Flag, Known(symbolic.Int(1)))
	}
	refs, ok := ev.requestRefs(c)
	if !ok {
		for _, out := range []apt.Expr{c.Result, c.Indices, c.Request} {
			if out != nil {
				ev.received(out, pos)
			}
		}
		return
	}
	reqs := make([]Value, len(refs))
	for i, r := range refs {
		reqs[i] = ev.value(r)
	}
	base := int64(1) // Fortran's index counts from 1, C's from 0
	if ev.prog.FromIR {
		base = 0
	}
	// set assigns out what f makes of the requests' values (and extra
	// ones after them), unknown where that is not known.
	value := func(extra []Value, f func(act []int64, extra []symbolic.Expr) (symbolic.Expr, bool)) (Value, bool) {
		return ev.combine(append(slices.Clone(reqs), extra...), func(es []symbolic.Expr) (symbolic.Expr, bool) {
			act, ok := activeRequests(es[:len(reqs)])
			if !ok {
				return symbolic.Expr{}, false
			}
			return f(act, es[len(reqs):])
		})
	}
	unknownInt := func(what string) Value {
		return Value{unk: &unknown{hint: "mpi_" + c.Op.String(), what: what + " MPI_" + strings.ToUpper(c.Op.String()) + " at " + pos.String() + " sets"}}
	}
	set := func(out apt.Expr, f func(act []int64) symbolic.Expr) {
		v, ok := value(nil, func(act []int64, _ []symbolic.Expr) (symbolic.Expr, bool) { return f(act), true })
		if !ok {
			v = unknownInt("the value")
		}
		ev.assign(out, v)
	}
	undefined := symbolic.Int(mpiUndefined)
	switch c.Op {
	case apt.MPIWaitany, apt.MPITestany:
		// It completes one: the first active request.
		if c.Result != nil {
			set(c.Result, func(act []int64) symbolic.Expr {
				if len(act) == 0 {
					return undefined
				}
				return symbolic.Int(act[0] + base)
			})
		}
		for i, r := range refs {
			set(r, func(act []int64) symbolic.Expr {
				if len(act) > 0 && act[0] == int64(i) {
					return requestNull().Alts[0].E
				}
				return requestState(i, act)
			})
		}
		return
	case apt.MPIWaitsome, apt.MPITestsome:
		if c.Result != nil {
			set(c.Result, func(act []int64) symbolic.Expr {
				if len(act) == 0 {
					return undefined
				}
				return symbolic.Int(int64(len(act)))
			})
		}
		if c.Indices != nil {
			fresh := ev.neverAssigned(c.Indices)
			if irefs, ok := ev.sequenceRefs(c.Indices, int64(len(refs))); ok {
				for j, r := range irefs {
					// Past the outcount an index keeps its value,
					// which matters only where some rank has fewer.
					v, ok := value(nil, func(act []int64, _ []symbolic.Expr) (symbolic.Expr, bool) {
						if j >= len(act) {
							return symbolic.Expr{}, false
						}
						return symbolic.Int(act[j] + base), true
					})
					if !ok {
						old := ev.value(r)
						if fresh || old.unk != nil && old.unk.undef {
							// Never assigned: no correct program reads
							// it past the outcount, where it stays
							// undefined; MPI_UNDEFINED stands for it.
							old = Known(undefined)
						}
						v, ok = value([]Value{old}, func(act []int64, old []symbolic.Expr) (symbolic.Expr, bool) {
							if j < len(act) {
								return symbolic.Int(act[j] + base), true
							}
							return old[0], true
						})
					}
					if !ok {
						v = unknownInt("an index")
					}
					ev.assign(r, v)
				}
			} else {
				ev.received(c.Indices, pos)
			}
		}
	}
	for _, r := range refs {
		ev.assign(r, requestNull())
	}
}

// neverAssigned reports whether the array an actual designates holds no
// value yet: nothing stored to it, no initial value.
func (ev *evaluator) neverAssigned(e apt.Expr) bool {
	var key string
	var decl *apt.Var
	switch x := e.(type) {
	case *apt.Name:
		key, decl = ev.key(x.Name), ev.prog.Resolve(ev.frame().routine, x.Name)
	case *apt.Index:
		key, _ = ev.arrayKey(x)
		decl = ev.declOf(x)
	}
	if key == "" || decl == nil || len(decl.Init) > 0 || ev.statics[key] != nil {
		return false // static storage holds zeros (static.go)
	}
	v, ok := ev.env.lookup(key)
	if !ok {
		return true
	}
	return v.arr != nil && !v.arr.clobbered && v.arr.base == nil && len(v.arr.stores) == 0
}

// activeRequests are the positions (from 0) of the active requests among
// request values; false where one is neither active nor null.
func activeRequests(es []symbolic.Expr) ([]int64, bool) {
	active, null := requestActive().Alts[0].E, requestNull().Alts[0].E
	var out []int64
	for i, e := range es {
		switch {
		case e.Equal(active):
			out = append(out, int64(i))
		case !e.Equal(null):
			return nil, false
		}
	}
	return out, true
}

// requestState is request i's value where the call leaves it as it was.
func requestState(i int, act []int64) symbolic.Expr {
	if slices.Contains(act, int64(i)) {
		return requestActive().Alts[0].E
	}
	return requestNull().Alts[0].E
}

// requestRefs are the references to the requests a completion call names:
// the one of MPI_WAIT and MPI_TEST, or the first count elements of the
// array (a whole array, a section, or the element the sequence starts at).
func (ev *evaluator) requestRefs(c *apt.Comm) ([]apt.Expr, bool) {
	if c.Request == nil {
		return nil, false
	}
	if c.Count == nil {
		return []apt.Expr{ev.oneRequest(c.Request)}, true
	}
	k, ok := valueInt(ev.value(c.Count))
	if !ok || k < 0 || k > maxReducedElements {
		return nil, false
	}
	return ev.sequenceRefs(c.Request, k)
}

// sequenceRefs are the k element references an array actual designates
// by sequence association.
func (ev *evaluator) sequenceRefs(e apt.Expr, k int64) ([]apt.Expr, bool) {
	if x, ok := e.(*apt.Index); ok && x.Base == nil && len(x.Subs) == 1 {
		if _, sec := x.Subs[0].(*apt.Section); !sec {
			s, ok := valueInt(ev.value(x.Subs[0]))
			if !ok {
				return nil, false
			}
			out := make([]apt.Expr, k)
			for i := range out {
				out[i] = &apt.Index{Pos: x.Pos, Name: x.Name, Type: x.Type, Subs: []apt.Expr{intConst(s + int64(i))}}
			}
			return out, true
		}
	}
	refs, ok := ev.arrayRefs(e)
	if !ok || int64(len(refs)) < k {
		// An array whose extent the evaluation does not hold (a C
		// pointer to what malloc gave): its first k elements.
		ixs, ok := ev.elementRefs(e, k)
		if !ok {
			return nil, false
		}
		out := make([]apt.Expr, len(ixs))
		for i, ix := range ixs {
			out[i] = ix
		}
		return out, true
	}
	return refs[:k], true
}

// fillIndices stores the positions of the completed requests into the
// indices array of waitsome or testsome.
func (ev *evaluator) fillIndices(e apt.Expr, active []int, base int) {
	refs, ok := ev.sequenceRefs(e, int64(len(active)))
	if !ok {
		ev.received(e, e.At())
		return
	}
	for i, r := range refs {
		ev.assign(r, Known(symbolic.Int(int64(active[i]+base))))
	}
}

// intConst is the integer literal k.
func intConst(k int64) apt.Expr {
	var e apt.Expr = &apt.Const{Kind: apt.ConstInt, Text: strconv.FormatInt(abs64(k), 10), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
	if k < 0 {
		e = &apt.Unary{Op: apt.OpNeg, X: e}
	}
	return e
}

func abs64(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}
