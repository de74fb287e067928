package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Derived datatypes (MPI-3.1 §4.1). A halo exchange sends a column of a
// 2-D array as one element of a vector type, a block of a 3-D array as a
// subarray: the bytes a message carries are its count times the size of
// the type the program built, which is the elements the type selects
// times the size of the type it was built from (MPI_TYPE_SIZE; the
// extent, gaps included, matters to where the data lie, not to how much
// moves). The evaluation keeps that size, a value of the program's
// variables like any other, with the handle.

// maxTypeBlocks bounds the blocks of an indexed type the evaluation sums.
const maxTypeBlocks = 256

// typeRoutine evaluates the datatype constructors, MPI_TYPE_SIZE and the
// calls that change nothing the counts see (commit, free); it reports
// whether c was one. A size that cannot be had leaves the handle without
// one: its messages' bytes are then unknown, never guessed.
func (ev *evaluator) typeRoutine(c *apt.Call, arg func(int) apt.Expr) (out apt.Expr, ok bool) {
	times := func(vs ...Value) *Value {
		acc := Known(symbolic.Int(1))
		for _, v := range vs {
			p, ok := ev.lift2(acc, v, func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Mul(y), true })
			if !ok {
				return nil
			}
			acc = p
		}
		return &acc
	}
	val := func(i int) Value {
		if e := arg(i); e != nil {
			return ev.value(e)
		}
		return Value{}
	}
	var size *Value
	switch c.Callee {
	case "mpi_type_contiguous": // count, oldtype, newtype
		size, out = times(val(0), ev.typeBytes(arg(1))), arg(2)
	case "mpi_type_vector", "mpi_type_hvector", "mpi_type_create_hvector": // count, blocklength, stride, oldtype, newtype
		size, out = times(val(0), val(1), ev.typeBytes(arg(3))), arg(4)
	case "mpi_type_create_indexed_block", "mpi_type_create_hindexed_block": // count, blocklength, displacements, oldtype, newtype
		size, out = times(val(0), val(1), ev.typeBytes(arg(3))), arg(4)
	case "mpi_type_indexed", "mpi_type_hindexed", "mpi_type_create_hindexed": // count, blocklengths, displacements, oldtype, newtype
		if n := ev.elementSum(arg(1), arg(0)); n != nil {
			size = times(*n, ev.typeBytes(arg(3)))
		}
		out = arg(4)
	case "mpi_type_create_subarray": // ndims, sizes, subsizes, starts, order, oldtype, newtype
		if n := ev.elementProduct(arg(2), arg(0)); n != nil {
			size = times(*n, ev.typeBytes(arg(5)))
		}
		out = arg(6)
	case "mpi_type_create_resized", "mpi_type_dup": // oldtype, ... newtype
		b := ev.typeBytes(arg(0))
		size = &b
		out = arg(3)
		if c.Callee == "mpi_type_dup" {
			out = arg(1)
		}
	case "mpi_type_size": // datatype, size
		if b := ev.typeBytes(arg(0)); b.IsKnown() {
			ev.assign(arg(1), b)
		} else {
			ev.assign(arg(1), unknownValue("type_size", "the size of the datatype "+ev.src(arg(0)), false))
		}
		return arg(1), true
	case "mpi_type_commit", "mpi_type_free":
		return arg(0), true
	default:
		return nil, false
	}
	if out == nil {
		return nil, true
	}
	h := Value{dbytes: size}
	if size == nil || !size.IsKnown() {
		h.dbytes = nil
	}
	ev.assign(out, h)
	return out, true
}

// typeBytes is the size in bytes of one element of a datatype handle: a
// predefined type's, or the size a constructor gave a derived one;
// unknown otherwise.
func (ev *evaluator) typeBytes(e apt.Expr) Value {
	if e == nil {
		return Value{}
	}
	if nm, ok := e.(*apt.Name); ok {
		if n, ok := apt.MPITypeSize(nm.Name); ok {
			return Known(symbolic.Int(int64(n)))
		}
	}
	v := ev.value(e)
	switch {
	case v.dtype != "":
		if n, ok := apt.MPITypeSize(v.dtype); ok {
			return Known(symbolic.Int(int64(n)))
		}
	case v.dbytes != nil:
		return *v.dbytes
	}
	return Value{}
}

// elementSum and elementProduct fold the first n elements of an integer
// array argument (an indexed type's block lengths, a subarray's
// sizes); nil when n or an element is not known.
func (ev *evaluator) elementSum(a, n apt.Expr) *Value {
	return ev.foldElements(a, n, Known(symbolic.Int(0)), func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Add(y), true })
}

func (ev *evaluator) elementProduct(a, n apt.Expr) *Value {
	return ev.foldElements(a, n, Known(symbolic.Int(1)), func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Mul(y), true })
}

func (ev *evaluator) foldElements(a, n apt.Expr, acc Value, op func(x, y symbolic.Expr) (symbolic.Expr, bool)) *Value {
	k, ok := ev.intArg(n)
	if !ok || k < 0 || k > maxTypeBlocks {
		return nil
	}
	for i := 0; i < int(k); i++ {
		ix, ok := ev.element(a, i)
		if !ok {
			return nil
		}
		v := ev.value(ix)
		if !v.IsKnown() {
			return nil
		}
		if acc, ok = ev.lift2(acc, v, op); !ok {
			return nil
		}
	}
	return &acc
}
