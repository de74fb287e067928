package aptrun

import (
	"fmt"

	"github.com/mkvet/mkvet/frontend/apt"
)

// collective runs this rank's part of a collective call in RunWorld: it
// deposits the send side, waits for every rank, and stores what it
// receives.
func (e *engine) collective(fr *frame, n *apt.Comm, pos apt.Pos) error {
	w, me := e.world, e.cfg.Rank
	root := int64(-1)
	if n.Root != nil {
		var err error
		if root, err = e.evalInt(fr, n.Root); err != nil {
			return err
		}
		if root < 0 || root >= w.p {
			return fmt.Errorf("%s: mpi_%s with root %d of %d", pos, n.Op, root, w.p)
		}
	}
	reduce := ""
	if n.Reduce != nil {
		nm, ok := n.Reduce.(*apt.Name)
		if !ok {
			return fmt.Errorf("%s: reduction operation %s is not a predefined one", pos, apt.FormatExpr(n.Reduce))
		}
		reduce = nm.Name
	}
	in, parts, err := e.deposit(fr, n, root, pos)
	if err != nil {
		return err
	}

	w.mu.Lock()
	seq := e.collSeq
	e.collSeq++
	for int64(len(w.coll)) <= seq {
		w.coll = append(w.coll, nil)
	}
	c := w.coll[seq]
	if c == nil {
		c = &collective{op: n.Op, root: root, reduce: reduce, pos: pos,
			in: make([][]value, w.p), parts: make([][][]value, w.p)}
		w.coll[seq] = c
	}
	if c.op != n.Op || c.root != root || c.reduce != reduce {
		w.mu.Unlock()
		return fmt.Errorf("%s: rank %d calls mpi_%s (root %d) where another rank calls mpi_%s (root %d) at %s",
			pos, me, n.Op, root, c.op, c.root, c.pos)
	}
	c.in[me], c.parts[me] = in, parts
	c.arrived++
	w.changed()
	err = w.await(me, fmt.Sprintf("in mpi_%s at %s", n.Op, pos), func() bool { return c.arrived == w.p })
	w.mu.Unlock()
	if err != nil {
		return err
	}
	return e.deliver(fr, n, c, pos)
}

// deposit evaluates what this rank gives a collective: its send side
// (in), or for scatter and all-to-all the part for each rank (parts).
func (e *engine) deposit(fr *frame, n *apt.Comm, root int64, pos apt.Pos) (in []value, parts [][]value, err error) {
	me, p := e.cfg.Rank, e.world.p
	inPlace := n.Send != nil && isInPlace(n.Send.Buffer)
	switch n.Op {
	case apt.MPIBarrier:
		return nil, nil, nil
	case apt.MPIBcast:
		if me != root {
			return nil, nil, nil
		}
		in, err = e.sendValues(fr, n.Send, pos)
	case apt.MPIReduce, apt.MPIAllreduce, apt.MPIScan, apt.MPIExscan:
		m := n.Send
		if inPlace {
			m = &apt.Msg{Buffer: n.Recv.Buffer, Count: n.Send.Count}
		}
		in, err = e.sendValues(fr, m, pos)
	case apt.MPIGather, apt.MPIAllgather, apt.MPIGatherv, apt.MPIAllgatherv:
		if inPlace {
			return nil, nil, fmt.Errorf("%s: mpi_%s with MPI_IN_PLACE is not carried", pos, n.Op)
		}
		in, err = e.sendValues(fr, n.Send, pos)
	case apt.MPIScatter, apt.MPIScatterv, apt.MPIAlltoall, apt.MPIAlltoallv:
		if inPlace {
			return nil, nil, fmt.Errorf("%s: mpi_%s with MPI_IN_PLACE is not carried", pos, n.Op)
		}
		if root >= 0 && me != root {
			return nil, nil, nil
		}
		counts, displs, err := e.layout(fr, n.Send, n.Op == apt.MPIScatterv || n.Op == apt.MPIAlltoallv, pos)
		if err != nil {
			return nil, nil, err
		}
		total := int64(0)
		for r := range p {
			total = max(total, displs[r]+counts[r])
		}
		cells, err := e.bufferCells(fr, n.Send.Buffer, total, pos)
		if err != nil {
			return nil, nil, err
		}
		parts = make([][]value, p)
		for r := range p {
			for _, c := range cells[displs[r] : displs[r]+counts[r]] {
				parts[r] = append(parts[r], c.v)
			}
		}
		return nil, parts, nil
	default:
		return nil, nil, fmt.Errorf("%s: mpi_%s is not carried", pos, n.Op)
	}
	return in, nil, err
}

// deliver stores what this rank receives from a completed collective.
func (e *engine) deliver(fr *frame, n *apt.Comm, c *collective, pos apt.Pos) error {
	me, p := e.cfg.Rank, e.world.p
	var got [][]value // the blocks received, by source rank
	switch n.Op {
	case apt.MPIBarrier:
		return nil
	case apt.MPIBcast:
		if me == c.root {
			return nil
		}
		cells, err := e.bufferCells(fr, n.Send.Buffer, int64(len(c.in[c.root])), pos)
		if err != nil {
			return err
		}
		return e.storeCells(cells, c.in[c.root], pos)
	case apt.MPIReduce, apt.MPIAllreduce, apt.MPIScan, apt.MPIExscan:
		if n.Op == apt.MPIReduce && me != c.root || n.Op == apt.MPIExscan && me == 0 {
			return nil // (exscan leaves rank 0's buffer as it was)
		}
		in := c.in
		switch n.Op {
		case apt.MPIScan:
			in = c.in[:me+1] // the ranks up to this one
		case apt.MPIExscan:
			in = c.in[:me] // the ranks before it
		}
		out, err := reduceValues(c.reduce, in, pos)
		if err != nil {
			return err
		}
		cells, err := e.bufferCells(fr, n.Recv.Buffer, int64(len(out)), pos)
		if err != nil {
			return err
		}
		return e.storeCells(cells, out, pos)
	case apt.MPIGather, apt.MPIGatherv:
		if me != c.root {
			return nil
		}
		got = c.in
	case apt.MPIAllgather, apt.MPIAllgatherv:
		got = c.in
	case apt.MPIScatter, apt.MPIScatterv:
		cells, err := e.bufferCells(fr, n.Recv.Buffer, int64(len(c.parts[c.root][me])), pos)
		if err != nil {
			return err
		}
		return e.storeCells(cells, c.parts[c.root][me], pos)
	case apt.MPIAlltoall, apt.MPIAlltoallv:
		got = make([][]value, p)
		for r := range p {
			got[r] = c.parts[r][me]
		}
	}
	v := n.Op == apt.MPIGatherv || n.Op == apt.MPIAllgatherv || n.Op == apt.MPIAlltoallv
	counts, displs, err := e.layout(fr, n.Recv, v, pos)
	if err != nil {
		return err
	}
	total := int64(0)
	for r := range p {
		if int64(len(got[r])) > counts[r] {
			return fmt.Errorf("%s: %d elements from rank %d into a block of %d", pos, len(got[r]), r, counts[r])
		}
		total = max(total, displs[r]+int64(len(got[r])))
	}
	cells, err := e.bufferCells(fr, n.Recv.Buffer, total, pos)
	if err != nil {
		return err
	}
	for r := range p {
		if err := e.storeCells(cells[displs[r]:], got[r], pos); err != nil {
			return err
		}
	}
	return nil
}

// layout returns where each rank's block of a buffer lies: count
// elements each, one after another, or (v) the counts and displacements
// arrays.
func (e *engine) layout(fr *frame, m *apt.Msg, v bool, pos apt.Pos) (counts, displs []int64, err error) {
	p := e.world.p
	counts, displs = make([]int64, p), make([]int64, p)
	if !v {
		k, err := e.evalInt(fr, m.Count)
		if err != nil {
			return nil, nil, err
		}
		for r := range p {
			counts[r], displs[r] = k, r*k
		}
		return counts, displs, nil
	}
	for _, a := range []struct {
		x   apt.Expr
		out []int64
	}{{m.Count, counts}, {m.Displs, displs}} {
		if a.x == nil {
			return nil, nil, fmt.Errorf("%s: a v-variant without its counts or displacements", pos)
		}
		val, err := e.eval(fr, a.x)
		if err != nil {
			return nil, nil, err
		}
		if !val.isArr() || int64(len(val.arr.elems)) < p {
			return nil, nil, fmt.Errorf("%s: %s does not hold %d values", pos, apt.FormatExpr(a.x), p)
		}
		for r := range p {
			a.out[r], _ = asInt(val.arr.elems[r])
		}
	}
	for r := range p {
		if counts[r] < 0 || displs[r] < 0 {
			return nil, nil, fmt.Errorf("%s: negative count or displacement for rank %d", pos, r)
		}
	}
	return counts, displs, nil
}

func isInPlace(x apt.Expr) bool {
	nm, ok := x.(*apt.Name)
	return ok && nm.Name == "mpi_in_place"
}

// reduceValues combines the ranks' contributions element by element, in
// rank order.
func reduceValues(op string, in [][]value, pos apt.Pos) ([]value, error) {
	var f func(a, b value) (value, error)
	switch op {
	case "mpi_sum":
		f = func(a, b value) (value, error) { return binary(apt.OpAdd, a, b) }
	case "mpi_prod":
		f = func(a, b value) (value, error) { return binary(apt.OpMul, a, b) }
	case "mpi_max", "mpi_min":
		cmp := apt.OpGt
		if op == "mpi_min" {
			cmp = apt.OpLt
		}
		f = func(a, b value) (value, error) {
			t, err := compare(cmp, b, a)
			if err != nil {
				return value{}, err
			}
			if t.i != 0 {
				return b, nil
			}
			return a, nil
		}
	case "mpi_land":
		f = func(a, b value) (value, error) { return binary(apt.OpAnd, a, b) }
	case "mpi_lor":
		f = func(a, b value) (value, error) { return binary(apt.OpOr, a, b) }
	default:
		return nil, fmt.Errorf("%s: reduction %s is not carried", pos, op)
	}
	out := append([]value(nil), in[0]...)
	for _, vals := range in[1:] {
		if len(vals) != len(out) {
			return nil, fmt.Errorf("%s: ranks reduce %d and %d elements", pos, len(out), len(vals))
		}
		for i, v := range vals {
			x, err := f(out[i], v)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", pos, err)
			}
			out[i] = x
		}
	}
	return out, nil
}
