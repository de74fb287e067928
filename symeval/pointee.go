package symeval

import (
	"strconv"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/symbolic"
	"github.com/mkvet/mkvet/symeval/concrete"
)

// What a C pointer reaches. A C program sizes its arrays at run time
// (key_array = malloc(sizeof(int) * size_of_buffers)) and reaches them
// through pointers declared without an extent, p(0:*). The elements are
// the storage's the pointer's address is in (derefArray), and so is the
// extent: the allocation recorded it as that storage's shape, and the
// pointer sees what lies from its address to the storage's end. A run of
// the program's code (concrete.go) needs that extent to hold the
// elements, as the program does.

// pointed is where a C pointer's elements are: a storage the evaluation
// made, the bytes of each element there (more than the storage's own for
// bytes an allocator returned as void *, seen as elements of their own),
// and the element offset of the pointer's address.
type pointed struct {
	storage  string
	elemSize int64
	view     int64 // elements of the storage per element seen; 1, or the element's bytes for a view of bytes
	off      int64
}

// key is where the evaluation keeps the elements the pointer sees.
func (p pointed) key() string {
	if p.view == 1 {
		return p.storage
	}
	return p.storage + "@" + strconv.FormatInt(p.elemSize, 10)
}

// pointee returns where the elements of the C pointer name, of elements
// of type t, are. ok is false where the pointer's address is not one
// known address inside a storage the evaluation made.
func (ev *evaluator) pointee(name string, t apt.Type) (pointed, bool) {
	if len(ev.storages) == 0 || !ev.cPointers() {
		return pointed{}, false
	}
	slot, ok := ev.addrSlot(&apt.Name{Name: name})
	if !ok {
		return pointed{}, false
	}
	v, ok := ev.env.lookup(slot)
	if !ok {
		return pointed{}, false
	}
	return ev.pointedAt(v, t)
}

// pointedAt is pointee for an address v, of elements of type t.
func (ev *evaluator) pointedAt(v Value, t apt.Type) (pointed, bool) {
	c, ok := v.Single()
	if !ok {
		return pointed{}, false
	}
	a, isc := c.Int64()
	if !isc || a < addrBase {
		return pointed{}, false
	}
	base := addrBase + (a-addrBase)/addrStride*addrStride
	st, ok := ev.storages[base]
	size, ok2 := ev.elemBytes(t)
	if !ok || !ok2 || size <= 0 || (a-base)%size != 0 {
		return pointed{}, false
	}
	p := pointed{storage: st.key, elemSize: size, view: 1, off: (a - base) / size}
	if size != st.size {
		if st.size != 1 {
			return pointed{}, false
		}
		p.view = size
	}
	return p, true
}

// elementKeys are where the state keeps what name holds: its own key, and
// for a C pointer into another storage that storage's key, last.
func (ev *evaluator) elementKeys(name string) []string {
	keys := []string{ev.key(name)}
	if d := ev.prog.Resolve(ev.frame().routine, name); d != nil && d.IsArray() && unsized(d.Dims) {
		if p, ok := ev.pointee(name, d.Type); ok && p.key() != keys[0] {
			keys = append(keys, p.key())
		}
	}
	return keys
}

// pointeeElems returns how many elements the C pointer name (declared d)
// reaches: from its address to the end of the storage an allocation
// sized, where the state holds that allocation's extent.
func (ev *evaluator) pointeeElems(name string, d *apt.Var) (symbolic.Expr, bool) {
	if len(d.Dims) != 1 || !unsized(d.Dims) || needsShape(d.Dims) {
		return symbolic.Expr{}, false
	}
	p, ok := ev.pointee(name, d.Type)
	if !ok {
		return symbolic.Expr{}, false
	}
	return ev.pointedElems(p)
}

// pointedElems is pointeeElems for the place p.
func (ev *evaluator) pointedElems(p pointed) (symbolic.Expr, bool) {
	sh, ok := ev.shapeAt(p.storage, 1)
	if !ok {
		return symbolic.Expr{}, false
	}
	ext, ok := sh[0].ext.Single()
	if !ok {
		return symbolic.Expr{}, false
	}
	n, isInt := ext.Int64()
	if !isInt {
		// A symbolic extent (a size the data decides) is the
		// pointer's too where it sees the storage whole.
		if p.off != 0 || p.view != 1 {
			return symbolic.Expr{}, false
		}
		return ext, true
	}
	return symbolic.Int(max(n/p.view-p.off, 0)), true
}

// pointedElemsAt is pointedElems at the importer's rank: also where the
// storage's extent differs by rank with no one closed form for it
// (malloc(mine * sizeof(double)) after a loop run rank by rank counted
// mine).
func (imp *importer) pointedElemsAt(p pointed) (int64, bool) {
	if n, ok := imp.ev.pointedElems(p); ok {
		c, ok := imp.at(Known(n))
		cn, isInt := c.Int64()
		return cn, ok && isInt
	}
	sh, ok := imp.ev.shapeAt(p.storage, 1)
	if !ok {
		return 0, false
	}
	c, ok := imp.at(sh[0].ext)
	n, isInt := c.Int64()
	if !ok || !isInt || !c.IsInt() || p.view < 1 {
		return 0, false
	}
	return max(n/p.view-p.off, 0), true
}

// pointer binds the C pointer name (declared v) for a run: the storage its
// address is in, whole, and the pointer's place in it. ok is false where
// name is no such pointer, or the storage's extent is not known (imp.why
// says so where it is a pointer the run would need).
func (imp *importer) pointer(name string, v *apt.Var) (*concrete.Ref, bool) {
	ev := imp.ev
	if len(v.Dims) != 1 || !ev.cPointers() || needsShape(v.Dims) || !unsized(v.Dims) {
		return nil, false
	}
	p, ok := ev.pointee(name, v.Type)
	if !ok {
		return nil, false
	}
	cn, ok := imp.pointedElemsAt(p)
	if !ok {
		return nil, false
	}
	s := imp.array(p.key(), v, cn+p.off)
	if s == nil {
		return nil, true // imp.why says why
	}
	return &concrete.Ref{S: s, Off: p.off}, true
}

// reach binds for a run the elements the C pointer expression ptr of
// routine r reaches when the run starts (concrete.Machine.Pointee): a
// structure's pointer field (A->nnz_in_row, the structure and the array
// allocated before), a dummy referring to a pointer ((*x)[i] of double
// **x), or a scalar field through a structure pointer (A->nrow). The storage is an allocation the evaluation follows,
// whole, or a heap object's elements (an array of pointers, new
// double*[n]); its extent is the allocation's. Only r the frame runs
// names what the evaluation can resolve.
func (imp *importer) reach(r *apt.Routine, ptr apt.Expr, t apt.Type) *concrete.Ref {
	ev := imp.ev
	name := apt.FormatExpr(ptr)
	if r != ev.frame().routine {
		imp.why = "the pointer " + name + " of a routine the run calls"
		return nil
	}
	if c, ok := ptr.(*apt.Component); ok && !c.Array {
		// A scalar field through the pointer (m->nrow): where the
		// evaluation keeps the structure's field.
		key, ok := ev.refKey(c)
		if !ok {
			imp.why = "the storage of " + name
			return nil
		}
		return whole(imp.scalar(key, &apt.Var{Name: name, Type: t}))
	}
	d := &apt.Var{Name: name, Type: t, Dims: []apt.Dim{{Lo: &apt.Const{Kind: apt.ConstInt, Text: "0"}, Hi: &apt.Star{}}}}
	a := ev.addrOf(ptr)
	if size, ok := ev.elemBytes(t); ok && size > 0 {
		if obj, el, ok := ev.heapAt(a, size); ok && !obj.elems {
			n, ok1 := imp.at(obj.n)
			k, ok2 := imp.at(el)
			ni, isInt1 := n.Int64()
			ki, isInt2 := k.Int64()
			if !ok1 || !ok2 || !isInt1 || !isInt2 || ki < 0 || ki > ni {
				imp.why = "the extent of what " + name + " points to"
				return nil
			}
			s := imp.array(obj.key, d, ni)
			if s == nil {
				return nil
			}
			return &concrete.Ref{S: s, Off: ki}
		}
	}
	p, ok := ev.pointedAt(a, t)
	if !ok {
		imp.why = "where " + name + " points"
		return nil
	}
	cn, ok := imp.pointedElemsAt(p)
	if !ok {
		imp.why = "the extent of what " + name + " points to"
		return nil
	}
	s := imp.array(p.key(), d, cn+p.off)
	if s == nil {
		return nil
	}
	return &concrete.Ref{S: s, Off: p.off}
}

// address is the address the evaluation gives element off of the run's
// store s (concrete.Machine.Address): the storage's address plus the
// element's bytes, where s holds a storage the evaluation made whole.
func (imp *importer) address(s *concrete.Store, off int64) (int64, bool) {
	if a, ok := imp.addrs[s]; ok {
		return a[0] + off*a[1], a[1] > 0
	}
	if imp.addrs == nil {
		imp.addrs = map[*concrete.Store][2]int64{}
	}
	var found [2]int64
	for key, cs := range imp.stores {
		if cs.s != s {
			continue
		}
		for base, st := range imp.ev.storages {
			if st.key == key {
				found = [2]int64{base, st.size}
				break
			}
		}
		break
	}
	imp.addrs[s] = found
	return found[0] + off*found[1], found[1] > 0
}

// storageAt is address's inverse (concrete.Machine.At): the storage an
// address the evaluation gave lies in, whole, of elements of type t, and
// the element there.
func (imp *importer) storageAt(addr int64, t apt.Type) *concrete.Ref {
	ev := imp.ev
	p, ok := ev.pointedAt(Known(symbolic.Int(addr)), t)
	if !ok || p.view != 1 {
		return nil
	}
	n, ok := ev.pointedElems(p)
	if !ok {
		return nil
	}
	c, ok := imp.at(Known(n))
	cn, isInt := c.Int64()
	if !ok || !isInt {
		return nil
	}
	d := &apt.Var{Name: p.storage, Type: t, Dims: []apt.Dim{{Lo: &apt.Const{Kind: apt.ConstInt, Text: "0"}, Hi: &apt.Star{}}}}
	s := imp.array(p.key(), d, cn+p.off)
	if s == nil {
		return nil
	}
	return &concrete.Ref{S: s, Off: p.off}
}
