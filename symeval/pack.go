package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Packed buffers. Settings read on one rank are often sent as one buffer
// MPI_PACK filled (MPI-3.1 4.2): each value at the byte position the
// previous calls left, the position moved past it. The evaluation keeps a
// packed value as an element of the buffer at the position's offset in the
// buffer's own elements (a CHARACTER*1 or char buffer: the byte), so that
// a broadcast or a message carries it as it carries any element, and
// MPI_UNPACK reads it back from the same offset. The size a value takes is
// its datatype's, as in a homogeneous run (Open MPI packs the bytes as
// they are; MPI_PACK_SIZE says the same).

// packFlow gives, for MPI_PACK, MPI_UNPACK and MPI_PACK_SIZE, the
// arguments they write and those the written values are computed from
// (the position is both): control relevance follows the values through
// a packed buffer as it follows them through assignments.
func packFlow(callee string) (outs, ins []int, ok bool) {
	switch callee {
	case "mpi_pack":
		return []int{3, 5}, []int{0, 1, 2, 5}, true
	case "mpi_unpack":
		return []int{3, 2}, []int{0, 1, 2, 4, 5}, true
	case "mpi_pack_size":
		return []int{3}, []int{0, 1}, true
	}
	return nil, nil, false
}

// argValue is an actual argument without its keyword.
func argValue(e apt.Expr) apt.Expr {
	if kw, ok := e.(*apt.Keyword); ok {
		return kw.Value
	}
	return e
}

// packRoutine evaluates MPI_PACK, MPI_UNPACK and MPI_PACK_SIZE; it reports
// whether c was one. Arguments the evaluation cannot follow make the
// buffer's elements and the position unknown, never guesses.
func (ev *evaluator) packRoutine(c *apt.Call, arg func(int) apt.Expr) bool {
	switch c.Callee {
	case "mpi_pack":
		// (inbuf, incount, datatype, outbuf, outsize, position, comm)
		ev.packValues(arg(0), arg(1), arg(2), arg(3), arg(5), true)
		ev.mpiSuccess(arg(len(c.Args)-1), arg(5))
	case "mpi_unpack":
		// (inbuf, insize, position, outbuf, outcount, datatype, comm)
		ev.packValues(arg(3), arg(4), arg(5), arg(0), arg(2), false)
		ev.mpiSuccess(arg(len(c.Args)-1), arg(2))
	case "mpi_pack_size":
		// (incount, datatype, comm, size)
		n, ok1 := ev.intArg(arg(0))
		size, ok2 := ev.datatypeSize(arg(1))
		if out := arg(3); out != nil {
			v := unknownValue("pack_size", "the size MPI_PACK_SIZE returns", false)
			if ok1 && ok2 {
				v = Known(symbolic.Int(n * size))
			}
			ev.assign(out, v)
		}
		ev.mpiSuccess(arg(len(c.Args)-1), arg(3))
	default:
		return false
	}
	return true
}

// packValues moves count values of datatype between the program's buffer
// data and the packed buffer at the byte position pos: into it (pack) or
// out of it, then moves the position past them. The position may differ
// by rank (each rank unpacking its own entry of a table): offsets are
// then closed forms in the rank, in a buffer of bytes.
func (ev *evaluator) packValues(data, count, dtype, packed, pos apt.Expr, pack bool) {
	n, ok1 := ev.intArg(count)
	size, ok2 := ev.datatypeSize(dtype)
	at := ev.value(pos)
	key, _ := ev.bufferKey(packed)
	eb, ok4 := ev.elemBytes(apt.TypeOf(packed))
	_, scalar := ev.bufferKey(data)
	ok := ok1 && ok2 && at.IsKnown() && ok4 && key != "" && n >= 0 && n <= maxSectionElems && size > 0 && eb > 0 && (!scalar || n <= 1)
	// The offsets of the values in the packed buffer's elements: bytes
	// from the position, or elements of eb bytes where it is a number.
	offs := make([]Value, 0, n)
	for i := int64(0); ok && i < n; i++ {
		b, _ := lift1(at, func(x symbolic.Expr) (symbolic.Expr, bool) { return x.Add(symbolic.Int(i * size)), true })
		if eb > 1 {
			k, isNum := valueInt(b)
			if !isNum || k%eb != 0 {
				ok = false
				break
			}
			b = Known(symbolic.Int(k / eb))
		}
		offs = append(offs, b)
	}
	// The program's side: the scalar, or its elements from the first.
	target := func(i int) (apt.Expr, bool) {
		if scalar {
			return data, true
		}
		ix, ok := ev.element(data, i)
		return ix, ok
	}
	var decl *apt.Var
	if nm, isName := packed.(*apt.Name); isName {
		decl = ev.prog.Resolve(ev.frame().routine, nm.Name)
	}
	lost := func() {
		if pack {
			if key != "" {
				ev.clobber(key)
			}
		} else if data != nil {
			ev.received(data, data.At())
		}
	}
	if !ok {
		lost()
		if pos != nil {
			ev.assign(pos, unknownValue("position", "the position MPI_PACK or MPI_UNPACK leaves", false))
		}
		return
	}
	t := apt.TypeOf(data)
	for i, off := range offs {
		x, ok := target(i)
		if !ok {
			lost()
			break
		}
		if pack {
			ev.storeAt(key, off, true, decl, t, ev.value(x))
			continue
		}
		name := ev.bufferName(packed, key)
		v := ev.loadAt(key, off, true, decl, &apt.Index{Name: name, Type: t}, name, t)
		ev.assign(x, v)
	}
	next, _ := lift1(at, func(x symbolic.Expr) (symbolic.Expr, bool) { return x.Add(symbolic.Int(n * size)), true })
	ev.assign(pos, next)
}
