package symeval

import (
	"slices"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval/concrete"
)

// Collectives of integer arrays at a point. A set-up that counts keys
// into buckets rank by rank and then sums the counts over the ranks
// (MPI_ALLREDUCE of the array) or hands each rank its share of every
// other's (MPI_ALLTOALL, MPI_ALLTOALLV), or all of every other's
// (MPI_ALLGATHER), or deals a root's out (MPI_SCATTER) or collects them
// at a root (MPI_GATHER, MPI_REDUCE), moves numbers each rank knows (a concrete run's
// tables, an array of stores): every rank then knows what it receives, as
// in the run, and the receive buffer becomes a table (a row per rank).

// arrayCollective gives the receive buffer of a collective of integer
// arrays on MPI_COMM_WORLD the values the ranks send (before: the buffer
// as it was before the call); it reports whether it did.
func (ev *evaluator) arrayCollective(c *apt.Comm, before Value) bool {
	np, ok := ev.values[Size]
	if !ok || np < 1 || np > maxConcreteRanks || c.Send == nil || c.Recv == nil {
		return false
	}
	if _, fixed := ev.values[Rank]; fixed {
		return false
	}
	cm := ev.communicator(c.Comm)
	if r, ok := cm.rank.Single(); !ok || !symbolic.Equal(r, symbolic.Sym(Rank)) {
		return false
	}
	count := func(m *apt.Msg) (int64, bool) { return valueInt(ev.value(m.Count)) }
	src := c.Send.Buffer
	if nm, ok := src.(*apt.Name); ok && nm.Name == "mpi_in_place" {
		src = c.Recv.Buffer
	}
	switch c.Op {
	case apt.MPIAllreduce:
		n, ok := count(c.Send)
		op, isName := c.Reduce.(*apt.Name)
		if !ok || !isName || n < 1 {
			return false
		}
		rows, ok := ev.sentRows(src, n, np)
		if !ok {
			return false
		}
		out, ok := combineRows(op.Name, rows, n)
		return ok && ev.receiveRows(c.Recv.Buffer, [][]int64{out}, np)
	case apt.MPIAlltoall:
		n, ok := count(c.Send)
		if m, ok2 := count(c.Recv); !ok || !ok2 || n != m || n < 1 || src != c.Send.Buffer {
			return false
		}
		rows, ok := ev.sentRows(src, n*np, np)
		if !ok {
			return false
		}
		// Rank r receives block r of every rank's buffer, in rank order.
		recv := make([][]int64, np)
		for r := range np {
			recv[r] = make([]int64, 0, n*np)
			for j := range np {
				recv[r] = append(recv[r], rows[j][r*n:(r+1)*n]...)
			}
		}
		return ev.receiveRows(c.Recv.Buffer, recv, np)
	case apt.MPIAlltoallv:
		return ev.alltoallv(c, src, np)
	}
	// The others move blocks of one count a side.
	n, ok := count(c.Send)
	if m, ok2 := count(c.Recv); !ok || !ok2 || n != m || n < 1 || src != c.Send.Buffer {
		return false
	}
	switch c.Op {
	case apt.MPIAllgather:
		// Every rank receives every rank's block, in rank order.
		rows, ok := ev.sentRows(src, n, np)
		return ok && ev.receiveRows(c.Recv.Buffer, [][]int64{slices.Concat(rows...)}, np)
	case apt.MPIScatter, apt.MPIGather, apt.MPIReduce:
		return ev.rootedArrays(c, src, n, np, before)
	}
	return false
}

// rootedArrays is arrayCollective for the collectives with a root: a
// scatter hands rank r block r of the root's buffer (the only one whose
// elements need be known); a gather or a reduction gives the root every
// rank's block, or their combination, the other ranks' receive buffers
// keeping what they held.
func (ev *evaluator) rootedArrays(c *apt.Comm, src apt.Expr, n, np int64, before Value) bool {
	root, ok := int64(0), c.Root != nil
	if ok {
		root, ok = valueInt(ev.value(c.Root))
	}
	if !ok || root < 0 || root >= np {
		return false
	}
	if c.Op == apt.MPIScatter {
		row, ok := ev.sentRow(src, n*np, np, root)
		if !ok {
			return false
		}
		recv := make([][]int64, np)
		for r := range np {
			recv[r] = row[r*n : (r+1)*n]
		}
		return ev.receiveRows(c.Recv.Buffer, recv, np)
	}
	rows, ok := ev.sentRows(src, n, np)
	if !ok {
		return false
	}
	if c.Op == apt.MPIGather {
		return ev.receiveAtRoot(c.Recv.Buffer, slices.Concat(rows...), root, np, before)
	}
	op, isName := c.Reduce.(*apt.Name)
	if !isName {
		return false
	}
	out, ok := combineRows(op.Name, rows, n)
	return ok && ev.receiveAtRoot(c.Recv.Buffer, out, root, np, before)
}

// combineRows is the reduction op of the ranks' rows of n elements,
// element by element.
func combineRows(op string, rows [][]int64, n int64) ([]int64, bool) {
	out := make([]int64, n)
	for i := range n {
		var acc symbolic.Rat
		var ok bool
		for r := range rows {
			if acc, ok = combineRat(op, acc, symbolic.RatInt(rows[r][i]), r == 0); !ok {
				return nil, false
			}
		}
		if out[i], ok = acc.Int64(); !ok {
			return nil, false
		}
	}
	return out, true
}

// receiveAtRoot makes the receive buffer b a table where the root's
// elements from b's first on hold row and every other element keeps what
// its rank held before the call (before).
func (ev *evaluator) receiveAtRoot(b apt.Expr, row []int64, root, np int64, before Value) (done bool) {
	key, d, off, size, ok := ev.bufferArray(b)
	if !ok {
		return false
	}
	// The ranks' elements are read from the state before the call.
	after, _ := ev.env.lookup(key)
	ev.env.set(key, before)
	defer func() {
		if !done {
			ev.env.set(key, after)
		}
	}()
	tab := &elemTable{}
	for r := range np {
		imp := &importer{ev: ev, rank: r, np: np, stores: map[string]*concStore{}}
		s := imp.array(key, d, size)
		if s == nil {
			return false
		}
		vals, known := slices.Clone(s.I), slices.Clone(s.Known)
		if r == root {
			o, ok := imp.at(off)
			first, isInt := o.Int64()
			if !ok || !isInt || first < 0 || first+int64(len(row)) > size {
				return false
			}
			for i, v := range row {
				vals[first+int64(i)], known[first+int64(i)] = v, true
			}
		}
		tab.rows, tab.known = append(tab.rows, vals), append(tab.known, known)
	}
	tab.share()
	ev.env.set(key, Value{arr: &arrayState{clobbered: true, tab: tab}})
	return true
}

// alltoallv hands each rank the blocks every rank sends it: rank j's
// sendcounts[r] elements from its sdispls[r] land on rank r at its
// rdispls[j], all four arrays as each rank knows them.
func (ev *evaluator) alltoallv(c *apt.Comm, src apt.Expr, np int64) bool {
	if src != c.Send.Buffer || c.Send.Displs == nil || c.Recv.Displs == nil {
		return false
	}
	var lay [4][][]int64 // sendcounts, sdispls, recvcounts, rdispls
	for i, e := range []apt.Expr{c.Send.Count, c.Send.Displs, c.Recv.Count, c.Recv.Displs} {
		rows, ok := ev.sentRows(e, np, np)
		if !ok {
			return false
		}
		lay[i] = rows
	}
	sc, sd, rc, rd := lay[0], lay[1], lay[2], lay[3]
	key, d, off, size, ok := ev.bufferArray(src)
	if !ok {
		return false
	}
	bufs := make([]*concrete.Store, np)
	firsts := make([]int64, np)
	for r := range np {
		imp := &importer{ev: ev, rank: r, np: np, stores: map[string]*concStore{}}
		o, ok := imp.at(off)
		first, isInt := o.Int64()
		if bufs[r] = imp.array(key, d, size); bufs[r] == nil || !ok || !isInt || first < 0 {
			return false
		}
		firsts[r] = first
	}
	recv := make([][]int64, np)
	known := make([][]bool, np)
	for r := range np {
		for j := range np {
			n, from, at := sc[j][r], firsts[j]+sd[j][r], rd[r][j]
			if n != rc[r][j] || n < 0 || from < 0 || from+n > bufs[j].Len() || at < 0 {
				return false
			}
			if end := at + n; end > int64(len(recv[r])) {
				recv[r] = append(recv[r], make([]int64, end-int64(len(recv[r])))...)
				known[r] = append(known[r], make([]bool, end-int64(len(known[r])))...)
			}
			for i := range n {
				if !bufs[j].Known[from+i] {
					return false
				}
				recv[r][at+i], known[r][at+i] = bufs[j].I[from+i], true
			}
		}
	}
	return ev.receiveTable(c.Recv.Buffer, recv, known, np)
}

// bufferArray is the array a buffer names and the offset (at each rank's
// evaluation, a value) of its first element.
func (ev *evaluator) bufferArray(b apt.Expr) (key string, d *apt.Var, off Value, n int64, ok bool) {
	var name string
	switch x := b.(type) {
	case *apt.Name:
		name = x.Name
		off = Known(symbolic.Int(0))
	case *apt.Index:
		name = x.Name
		if x.Base != nil || hasSection(x) {
			return "", nil, Value{}, 0, false
		}
		var k string
		if k, off, ok = ev.indexRef(x); !ok || k == "" {
			return "", nil, Value{}, 0, false
		}
	default:
		return "", nil, Value{}, 0, false
	}
	d = ev.prog.Resolve(ev.frame().routine, name)
	if d == nil || !d.IsArray() || d.Type.Base != apt.TypeInteger || d.Pointer {
		return "", nil, Value{}, 0, false
	}
	if p, isPtr := ev.pointee(name, d.Type); isPtr {
		// A C pointer: the storage it points into, whole, and its
		// place there.
		elems, ok := ev.pointeeElems(name, d)
		n, isInt := elems.Int64()
		if !ok || !isInt {
			return "", nil, Value{}, 0, false
		}
		if _, isName := b.(*apt.Name); isName {
			off = Known(symbolic.Int(p.off))
		}
		return p.key(), d, off, n + p.off, true
	}
	size, ok := ev.arrayElems(name)
	if !ok {
		return "", nil, Value{}, 0, false
	}
	if n, ok = size.Int64(); !ok {
		return "", nil, Value{}, 0, false
	}
	key, _ = ev.bufferKey(b)
	return key, d, off, n, key != ""
}

// sentRows is, rank by rank, the n elements a buffer sends: false unless
// every one is a number the evaluation knows.
func (ev *evaluator) sentRows(b apt.Expr, n, np int64) ([][]int64, bool) {
	rows := make([][]int64, np)
	for r := range np {
		row, ok := ev.sentRow(b, n, np, r)
		if !ok {
			return nil, false
		}
		rows[r] = row
	}
	return rows, true
}

// sentRow is sentRows' row of rank r.
func (ev *evaluator) sentRow(b apt.Expr, n, np, r int64) ([]int64, bool) {
	key, d, off, size, ok := ev.bufferArray(b)
	if !ok {
		return nil, false
	}
	imp := &importer{ev: ev, rank: r, np: np, stores: map[string]*concStore{}}
	s := imp.array(key, d, size)
	o, ok := imp.at(off)
	first, isInt := o.Int64()
	if s == nil || !ok || !isInt || first < 0 || first+n > s.Len() {
		return nil, false
	}
	for i := first; i < first+n; i++ {
		if !s.Known[i] {
			return nil, false
		}
	}
	return s.I[first : first+n], true
}

// receiveRows makes the receive buffer b a table: its elements from b's
// first on hold rows[r] on rank r (rows[0] on every rank where there is
// one row), the others unknown.
func (ev *evaluator) receiveRows(b apt.Expr, rows [][]int64, np int64) bool {
	return ev.receiveTable(b, rows, nil, np)
}

// receiveTable is receiveRows where known[r], if given, says which
// elements of rows[r] rank r receives.
func (ev *evaluator) receiveTable(b apt.Expr, rows [][]int64, got [][]bool, np int64) bool {
	key, _, off, size, ok := ev.bufferArray(b)
	if !ok {
		return false
	}
	tab := &elemTable{}
	for r := range np {
		row := rows[min(r, int64(len(rows))-1)]
		imp := &importer{ev: ev, rank: r, np: np}
		o, ok := imp.at(off)
		first, isInt := o.Int64()
		if !ok || !isInt || first < 0 || first+int64(len(row)) > size {
			return false
		}
		vals, known := make([]int64, size), make([]bool, size)
		for i, v := range row {
			if got == nil || got[r][i] {
				vals[first+int64(i)], known[first+int64(i)] = v, true
			}
		}
		tab.rows, tab.known = append(tab.rows, vals), append(tab.known, known)
	}
	tab.share()
	ev.env.set(key, Value{arr: &arrayState{clobbered: true, tab: tab}})
	return true
}
