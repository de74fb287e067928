package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
)

// A FORTRAN 77 program often moves a COMMON block's scalars in one message
// by naming the first and counting them all: common /params/ n, m with
// MPI_BCAST(n, 2, MPI_INTEGER, ...) broadcasts n and m (sequence
// association: a scalar actual is the start of the storage that follows
// it). commonSpan returns the members after a scalar buffer that the
// message's count reaches into, as names the evaluation can assign; nil
// where the buffer is not such a scalar or the sizes are not known.
func (ev *evaluator) commonSpan(m *apt.Msg) []*apt.Name {
	if m == nil {
		return nil
	}
	nm, ok := m.Buffer.(*apt.Name)
	if !ok {
		return nil
	}
	r := ev.frame().routine
	d := ev.prog.Resolve(r, nm.Name)
	if d == nil || !d.InCommon || d.IsArray() {
		return nil
	}
	count, ok := ev.intArg(m.Count)
	if !ok || count <= 1 {
		return nil
	}
	size, ok := ev.typeSize(m).Single()
	if !ok {
		return nil
	}
	sz, ok := size.Int64()
	if !ok || sz <= 0 {
		return nil
	}
	own, ok := scalarBytes(d)
	if !ok {
		return nil
	}
	left := count*sz - own
	var c *apt.Common
	for _, x := range r.Scope.Commons {
		if x.Name == d.Common {
			c = x
		}
	}
	if c == nil {
		return nil
	}
	i := slices.Index(c.Vars, nm.Name)
	var out []*apt.Name
	for _, v := range c.Vars[i+1:] {
		if left <= 0 {
			break
		}
		md := ev.prog.Resolve(r, v)
		if md == nil || md.IsArray() {
			break // (an array member ends what is followed)
		}
		b, ok := scalarBytes(md)
		if !ok {
			break
		}
		out = append(out, &apt.Name{Name: v, Type: md.Type})
		left -= b
	}
	return out
}

// scalarBytes is the storage of a numeric or logical scalar variable.
func scalarBytes(d *apt.Var) (int64, bool) {
	switch d.Type.Base {
	case apt.TypeInteger, apt.TypeReal, apt.TypeLogical:
	case apt.TypeComplex:
		return 2 * int64(typeKind(d)), typeKind(d) > 0
	default:
		return 0, false
	}
	k := typeKind(d)
	return int64(k), k > 0
}

// typeKind is a variable's kind in bytes, the default 4 (8 for DOUBLE
// PRECISION, which the frontend records as real(8)).
func typeKind(d *apt.Var) int {
	if d.Type.Kind > 0 {
		return d.Type.Kind
	}
	return 4
}
