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
	own, ok := ev.numericBytes(d)
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
		b, ok := ev.numericBytes(md)
		if !ok {
			break
		}
		out = append(out, &apt.Name{Name: v, Type: md.Type})
		left -= b
	}
	return out
}

// numericBytes is the storage of a numeric or logical variable's element
// (a character member ends what a numeric message is followed through).
func (ev *evaluator) numericBytes(d *apt.Var) (int64, bool) {
	if d.Type.Base == apt.TypeCharacter {
		return 0, false
	}
	return ev.elemBytes(d.Type)
}
