package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Cartesian process topologies (MPI-3.1 §7.5). A program that lays its
// processes out as a grid asks MPI for the grid's shape (MPI_DIMS_CREATE),
// makes a communicator with it (MPI_CART_CREATE), and finds its coordinates
// and neighbours (MPI_CART_COORDS, MPI_CART_SHIFT), and the rows and
// columns of the grid as communicators of their own (MPI_CART_SUB); the neighbours decide
// every halo exchange's peers, and MPI_PROC_NULL at the edge of a
// non-periodic grid decides which ranks send at all. The evaluation keeps
// the grid's shape with the communicator, so that coordinates and
// neighbours are closed forms of the rank (floor and mod of rank by the
// grid's strides) guarded by the edge conditions, exact at every rank.
// Ranks are row-major (the last dimension varies fastest) and, as Open MPI
// and MPICH do, MPI_CART_CREATE does not reorder them.

// maxCartDims bounds the dimensions the evaluation follows.
const maxCartDims = 8

// cartesian is the topology of a communicator MPI_CART_CREATE made.
type cartesian struct {
	dims     []int64
	periodic []bool
}

// stride is the rank distance between neighbours along dimension d.
func (c *cartesian) stride(d int) int64 {
	s := int64(1)
	for _, n := range c.dims[d+1:] {
		s *= n
	}
	return s
}

// coord is the coordinate along dimension d of the process at rank r.
func (c *cartesian) coord(r symbolic.Expr, d int) symbolic.Expr {
	return symbolic.Modulo(symbolic.FloorDiv(r, symbolic.Int(c.stride(d))), symbolic.Int(c.dims[d]))
}

// arrayArg is an array actual argument: the array's name and the offset of
// the element it starts at (a whole array, or a(k) / &a[k]).
func arrayArg(e apt.Expr) (name string, at apt.Expr, ok bool) {
	switch x := e.(type) {
	case *apt.Name:
		return x.Name, nil, true
	case *apt.Index:
		if x.Base == nil && len(x.Subs) == 1 {
			return x.Name, x.Subs[0], true
		}
	}
	return "", nil, false
}

// element is the reference to element i (from 0) of the array an actual
// argument starts: a variable, an element of one, or an array component
// (C's p->dims, Fortran's g%dims or g%dims(k)).
func (ev *evaluator) element(arg apt.Expr, i int) (*apt.Index, bool) {
	var base apt.Expr // the structure of an array component
	switch x := arg.(type) {
	case *apt.Component:
		if x.Array {
			arg, base = &apt.Name{Pos: x.Pos, Name: x.Field, Type: x.Type, Array: true}, x.Base
		}
	case *apt.Index:
		if x.Base != nil && len(x.Subs) == 1 {
			arg, base = &apt.Index{Pos: x.Pos, Name: x.Name, Subs: x.Subs, Type: x.Type}, x.Base
		}
	}
	name, at, ok := arrayArg(arg)
	if !ok {
		return nil, false
	}
	var decl *apt.Var
	switch {
	case base == nil:
		decl = ev.prog.Resolve(ev.frame().routine, name)
	case !ev.cPointers():
		decl = ev.storedDecl(&apt.Index{Name: name, Base: base})
	}
	first := intConst(1)
	switch {
	case at != nil:
		first = at
	case base != nil && ev.cPointers():
		first = intConst(0)
	case decl != nil && len(decl.Dims) > 0 && decl.Dims[0].Lo != nil:
		first = decl.Dims[0].Lo
	}
	sub := &apt.Binary{Op: apt.OpAdd, X: first, Y: intConst(int64(i))}
	return &apt.Index{Pos: arg.At(), Base: base, Name: name, Subs: []apt.Expr{sub}, Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}, true
}

// inElement is element i (from 0) of an input array actual: an array
// constructor's i-th item ([.false., .true.] for MPI_CART_CREATE's
// periods), or element's reference.
func (ev *evaluator) inElement(arg apt.Expr, i int) (apt.Expr, bool) {
	if c, ok := arg.(*apt.ArrayCons); ok {
		if i < len(c.Elems) && ev.scalarExpr(c.Elems[i]) {
			return c.Elems[i], true
		}
		return nil, false
	}
	return ev.element(arg, i)
}

// intArg is the integer value of an argument, when it has one.
func (ev *evaluator) intArg(e apt.Expr) (int64, bool) {
	if e == nil {
		return 0, false
	}
	v, ok := ev.value(e).Single()
	if !ok {
		return 0, false
	}
	return v.Int64()
}

// dimsCreate is MPI_DIMS_CREATE(nnodes, ndims, dims): the entries of dims
// that are 0 get a balanced factorisation of nnodes divided by the others,
// in non-increasing order. The factors of nnodes, largest first, each go to
// the free dimension with the smallest product so far, which is the
// algorithm of Open MPI's implementation (and gives MPICH's results on the
// grids programs ask for: 4 = 2x2, 6 = 3x2, 8 = 4x2, 12 = 4x3).
func dimsCreate(nnodes int64, given []int64) ([]int64, bool) {
	out := slices.Clone(given)
	fixed := int64(1)
	var free []int
	for i, d := range given {
		switch {
		case d < 0:
			return nil, false
		case d == 0:
			free = append(free, i)
		default:
			fixed *= d
		}
	}
	if nnodes < 1 || nnodes%fixed != 0 {
		return nil, false
	}
	rest := nnodes / fixed
	if len(free) == 0 {
		return out, rest == 1
	}
	var factors []int64
	for f, n := int64(2), rest; n > 1; {
		if f*f > n {
			factors = append(factors, n)
			break
		}
		if n%f == 0 {
			factors = append(factors, f)
			n /= f
			continue
		}
		f++
	}
	slices.Reverse(factors)
	bins := make([]int64, len(free))
	for i := range bins {
		bins[i] = 1
	}
	for _, f := range factors {
		small := 0
		for i := range bins {
			if bins[i] < bins[small] {
				small = i
			}
		}
		bins[small] *= f
	}
	slices.SortFunc(bins, func(a, b int64) int { return int(b - a) })
	for i, at := range free {
		out[at] = bins[i]
	}
	return out, true
}

// cartRoutine evaluates the topology routines; it reports whether c was
// one. Arguments the evaluation cannot follow make the outputs unknown
// values, never guesses.
func (ev *evaluator) cartRoutine(c *apt.Call, arg func(int) apt.Expr) bool {
	unknownOut := func(out apt.Expr, n int, what string) {
		for i := 0; i < n; i++ {
			if ix, ok := ev.element(out, i); ok {
				ev.assign(ix, unknownValue(ix.Name, what, false))
			}
		}
	}
	switch c.Callee {
	case "mpi_dims_create":
		nd, ok1 := ev.intArg(arg(1))
		nnodes, ok2 := ev.intArg(arg(0))
		if !ok1 || nd < 1 || nd > maxCartDims {
			return true
		}
		given := make([]int64, nd)
		known := ok2
		for i := range given {
			ix, ok := ev.element(arg(2), i)
			if !ok {
				return true
			}
			v, ok := ev.intArg(ix)
			if !ok {
				known = false
				break
			}
			given[i] = v
		}
		var dims []int64
		if known {
			dims, known = dimsCreate(nnodes, given)
		}
		if !known {
			unknownOut(arg(2), int(nd), "the process grid MPI_DIMS_CREATE chooses (known where P is)")
			return true
		}
		for i, d := range dims {
			if ix, ok := ev.element(arg(2), i); ok {
				ev.assign(ix, Known(symbolic.Int(d)))
			}
		}
		return true
	case "mpi_cart_create":
		old := ev.communicator(arg(0))
		nd, ok := ev.intArg(arg(1))
		made := &communicator{size: old.size, rank: old.rank}
		if ok && nd >= 1 && nd <= maxCartDims {
			cart := &cartesian{}
			for i := 0; i < int(nd) && cart != nil; i++ {
				dx, ok1 := ev.inElement(arg(2), i)
				px, ok2 := ev.inElement(arg(3), i)
				if !ok1 || !ok2 {
					cart = nil
					break
				}
				d, ok1 := ev.intArg(dx)
				p, ok2 := ev.intArg(px)
				if !ok1 || !ok2 || d < 1 {
					cart = nil
					break
				}
				cart.dims = append(cart.dims, d)
				cart.periodic = append(cart.periodic, p != 0)
			}
			if cart != nil {
				n := int64(1)
				for _, d := range cart.dims {
					n *= d
				}
				made.size = Known(symbolic.Int(n))
				made.cart = cart
				// A grid of every process of the parent leaves none out
				// (the others get MPI_COMM_NULL).
				if ps, ok := old.size.Single(); ok && old.notNull {
					made.notNull = symbolic.Equal(ps, symbolic.Int(n))
				}
			}
		}
		if made.cart == nil {
			made.size = unknownValue("size_cart", "the size of a communicator MPI_CART_CREATE made", false)
		}
		if out := arg(5); out != nil {
			ev.assign(out, Value{comm: made})
		}
		return true
	case "mpi_cart_coords":
		cm := ev.communicator(arg(0))
		nd, ok := ev.intArg(arg(2))
		if !ok || nd < 1 || nd > maxCartDims {
			return true
		}
		r, rok := ev.value(arg(1)).Single()
		if cm.cart == nil || !rok || int(nd) > len(cm.cart.dims) {
			unknownOut(arg(3), int(nd), "a coordinate MPI_CART_COORDS returns")
			return true
		}
		for i := 0; i < int(nd); i++ {
			if ix, ok := ev.element(arg(3), i); ok {
				ev.assign(ix, Known(cm.cart.coord(r, i)))
			}
		}
		return true
	case "mpi_cart_sub":
		// The subgrid of the dimensions remain_dims keeps: the processes
		// that share the caller's coordinates along the others, ranked
		// row-major by their coordinates along the kept ones (MPI-3.1
		// §7.5.7), itself a Cartesian grid of the kept dimensions.
		cm := ev.communicator(arg(0))
		out := arg(2)
		if out == nil {
			return true
		}
		r, rok := cm.rank.Single()
		var keep []int
		for d := 0; cm.cart != nil && d < len(cm.cart.dims); d++ {
			ix, ok := ev.inElement(arg(1), d)
			if !ok {
				keep = nil
				break
			}
			v, ok := ev.intArg(ix)
			if !ok {
				keep = nil
				break
			}
			if v != 0 {
				keep = append(keep, d)
			}
		}
		if cm.cart == nil || !rok || keep == nil {
			ev.assign(out, Value{comm: &communicator{
				size: unknownValue("size_sub", "the size of a communicator MPI_CART_SUB made", false),
				rank: unknownValue("rank_sub", "the rank in a communicator MPI_CART_SUB made", false),
			}})
			return true
		}
		sub := &cartesian{}
		rank, n := symbolic.Int(0), int64(1)
		for _, d := range keep {
			sub.dims = append(sub.dims, cm.cart.dims[d])
			sub.periodic = append(sub.periodic, cm.cart.periodic[d])
			rank = rank.Mul(symbolic.Int(cm.cart.dims[d])).Add(cm.cart.coord(r, d))
			n *= cm.cart.dims[d]
		}
		ev.assign(out, Value{comm: &communicator{size: Known(symbolic.Int(n)), rank: Known(rank), cart: sub, notNull: cm.notNull}})
		return true
	case "mpi_cart_rank":
		// (comm, coords, rank): the rank at coordinates, each taken
		// modulo its extent along a periodic dimension (MPI-3.1 7.5.5);
		// one outside a non-periodic dimension is erroneous, so its
		// rank is unknown.
		cm := ev.communicator(arg(0))
		out := arg(2)
		if out == nil {
			return true
		}
		rank, ok := Known(symbolic.Int(0)), cm.cart != nil
		for d := 0; ok && d < len(cm.cart.dims); d++ {
			ix, found := ev.element(arg(1), d)
			c := Value{}
			if found {
				c = ev.value(ix)
			}
			n := symbolic.Int(cm.cart.dims[d])
			st := symbolic.Int(cm.cart.stride(d))
			periodic := cm.cart.periodic[d]
			rank, ok = lift2(rank, c, func(r, x symbolic.Expr) (symbolic.Expr, bool) {
				if periodic {
					x = symbolic.Modulo(x, n)
				} else if t, dec := ev.decideOnPath(and(rel(x, ">=", symbolic.Int(0)), rel(x, "<=", n.Sub(symbolic.Int(1)))), ev.cur.conds); !dec || !t {
					// (Inside the grid where the program's own test
					// has excluded the others.)
					return symbolic.Expr{}, false
				}
				return r.Add(x.Mul(st)), true
			})
		}
		if !ok {
			rank = unknownValue("rank_cart", "the rank MPI_CART_RANK returns", false)
		}
		ev.assignOut(out, rank)
		return true
	case "mpi_cartdim_get":
		if cm := ev.communicator(arg(0)); cm.cart != nil && arg(1) != nil {
			ev.assignOut(arg(1), Known(symbolic.Int(int64(len(cm.cart.dims)))))
		} else if arg(1) != nil {
			ev.assignOut(arg(1), unknownValue("ndims", "the dimensions MPI_CARTDIM_GET returns", false))
		}
		return true
	case "mpi_cart_get":
		// (comm, maxdims, dims, periods, coords): the grid's extents,
		// periodicity and the caller's coordinates.
		cm := ev.communicator(arg(0))
		nd, ok := ev.intArg(arg(1))
		r, rok := cm.rank.Single()
		if !ok || nd < 1 || nd > maxCartDims {
			return true
		}
		if cm.cart == nil || !rok || int(nd) > len(cm.cart.dims) {
			unknownOut(arg(2), int(nd), "an extent MPI_CART_GET returns")
			unknownOut(arg(3), int(nd), "a periodicity MPI_CART_GET returns")
			unknownOut(arg(4), int(nd), "a coordinate MPI_CART_GET returns")
			return true
		}
		for i := 0; i < int(nd); i++ {
			if ix, ok := ev.element(arg(2), i); ok {
				ev.assign(ix, Known(symbolic.Int(cm.cart.dims[i])))
			}
			if ix, ok := ev.element(arg(3), i); ok {
				ev.assign(ix, Known(symbolic.Int(b2i(cm.cart.periodic[i]))))
			}
			if ix, ok := ev.element(arg(4), i); ok {
				ev.assign(ix, Known(cm.cart.coord(r, i)))
			}
		}
		return true
	case "mpi_cart_shift":
		cm := ev.communicator(arg(0))
		d, ok1 := ev.intArg(arg(1))
		disp, ok2 := ev.value(arg(2)).Single()
		r, ok3 := cm.rank.Single()
		if cm.cart == nil || !ok1 || !ok2 || !ok3 || d < 0 || int(d) >= len(cm.cart.dims) {
			for _, out := range []apt.Expr{arg(3), arg(4)} {
				if out != nil {
					ev.assign(out, unknownValue("neighbour", "a neighbour MPI_CART_SHIFT returns", false))
				}
			}
			return true
		}
		if out := arg(3); out != nil {
			ev.assignOut(out, cm.cart.neighbour(r, int(d), disp.Neg()))
		}
		if out := arg(4); out != nil {
			ev.assignOut(out, cm.cart.neighbour(r, int(d), disp))
		}
		return true
	}
	return false
}

// assignOut stores v, one value an MPI routine returns through an
// argument, where the argument points: an array named whole (&g->nb[0],
// which a C compiler passes as the array's address; an array in
// Fortran's sequence association) receives it in its first element, not
// in every one.
func (ev *evaluator) assignOut(out apt.Expr, v Value) {
	var name string
	var base apt.Expr
	var t apt.Type
	// (The C frontend's array member passed by its address is a
	// component not marked as an array: the declaration decides.)
	switch x := out.(type) {
	case *apt.Name:
		name, t = x.Name, x.Type
	case *apt.Component:
		name, base, t = x.Field, x.Base, x.Type
	default:
		ev.assign(out, v)
		return
	}
	d := ev.storedDecl(&apt.Index{Name: name, Base: base})
	first := int64(1) // Fortran's default lower bound; C's arrays start at 0
	if ev.prog.FromIR {
		first = 0
	}
	if c, ok := out.(*apt.Component); ok && d == nil && ev.prog.FromIR && c.Array {
		// A C structure's array member (its layout is the frontend's,
		// not a declared type): its element 0.
		ev.assign(&apt.Index{Pos: out.At(), Name: name, Base: base, Type: t, Subs: []apt.Expr{intConst(0)}}, v)
		return
	}
	if d == nil || !d.IsArray() {
		ev.assign(out, v)
		return
	}
	subs := make([]apt.Expr, len(d.Dims))
	for k, dim := range d.Dims {
		subs[k] = intConst(first)
		if dim.Lo != nil && !ev.prog.FromIR {
			subs[k] = dim.Lo
		}
	}
	ev.assign(&apt.Index{Pos: out.At(), Name: name, Base: base, Subs: subs, Type: t}, v)
}

// neighbour is the rank disp steps along dimension d from rank r: inside
// the grid r + disp*stride; past the edge MPI_PROC_NULL, or on a periodic
// dimension the rank wrapped around.
func (c *cartesian) neighbour(r symbolic.Expr, d int, disp symbolic.Expr) Value {
	st := symbolic.Int(c.stride(d))
	n := symbolic.Int(c.dims[d])
	cd := c.coord(r, d)
	to := cd.Add(disp)
	if c.periodic[d] {
		return Known(r.Add(symbolic.Modulo(to, n).Sub(cd).Mul(st)))
	}
	inside := and(rel(to, ">=", symbolic.Int(0)), rel(to, "<=", n.Sub(symbolic.Int(1))))
	if isTrue(inside) {
		return Known(r.Add(disp.Mul(st)))
	}
	if isFalse(inside) {
		return Known(symbolic.Int(mpiProcNull))
	}
	return Value{Alts: []Alt{{Guard: inside, E: r.Add(disp.Mul(st))}, {Guard: not(inside), E: symbolic.Int(mpiProcNull)}}}
}

// mpiProcNull is MPI_PROC_NULL's value in the frontends' MPI module.
const mpiProcNull = -2
