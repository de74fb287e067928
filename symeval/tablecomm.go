package symeval

import (
	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
)

// Collectives of integer arrays at a point. A set-up that counts keys
// into buckets rank by rank and then sums the counts over the ranks
// (MPI_ALLREDUCE of the array) or hands each rank its share of every
// other's (MPI_ALLTOALL) moves numbers each rank knows (a concrete run's
// tables, an array of stores): every rank then knows what it receives, as
// in the run, and the receive buffer becomes a table (a row per rank).

// arrayCollective gives the receive buffer of an allreduce or all-to-all
// of integer arrays on MPI_COMM_WORLD the values the ranks send; it
// reports whether it did.
func (ev *evaluator) arrayCollective(c *apt.Comm) bool {
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
	count := func(m *apt.Msg) (int64, bool) {
		v, ok := ev.value(m.Count).Single()
		if !ok {
			return 0, false
		}
		return v.Int64()
	}
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
		out := make([]int64, n)
		for i := range n {
			var acc symbolic.Rat
			for r := range np {
				if acc, ok = combineRat(op.Name, acc, symbolic.RatInt(rows[r][i]), r == 0); !ok {
					return false
				}
			}
			if out[i], ok = acc.Int64(); !ok {
				return false
			}
		}
		return ev.receiveRows(c.Recv.Buffer, [][]int64{out}, np)
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
	}
	return false
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
	if d == nil || !d.IsArray() || d.Type.Base != apt.TypeInteger || d.Pointer || d.Allocatable {
		return "", nil, Value{}, 0, false
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
	key, d, off, size, ok := ev.bufferArray(b)
	if !ok {
		return nil, false
	}
	rows := make([][]int64, np)
	for r := range np {
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
		rows[r] = s.I[first : first+n]
	}
	return rows, true
}

// receiveRows makes the receive buffer b a table: its elements from b's
// first on hold rows[r] on rank r (rows[0] on every rank where there is
// one row), the others unknown.
func (ev *evaluator) receiveRows(b apt.Expr, rows [][]int64, np int64) bool {
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
			vals[first+int64(i)], known[first+int64(i)] = v, true
		}
		tab.rows, tab.known = append(tab.rows, vals), append(tab.known, known)
	}
	tab.share()
	ev.env.set(key, Value{arr: &arrayState{clobbered: true, tab: tab}})
	return true
}
