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

// pointer binds the C pointer name (declared v) for a run: the storage its
// address is in, whole, and the pointer's place in it. ok is false where
// name is no such pointer, or the storage's extent is not known (imp.why
// says so where it is a pointer the run would need).
func (imp *importer) pointer(name string, v *apt.Var) (*concrete.Ref, bool) {
	ev := imp.ev
	if !v.IsArray() || !ev.cPointers() || needsShape(v.Dims) || !unsized(v.Dims) {
		return nil, false
	}
	p, ok := ev.pointee(name, v.Type)
	if !ok {
		return nil, false
	}
	n, ok := ev.pointeeElems(name, v)
	if !ok {
		return nil, false
	}
	c, ok := imp.at(Known(n))
	cn, isInt := c.Int64()
	if !ok || !isInt {
		return nil, false
	}
	s := imp.array(p.key(), v, cn+p.off)
	if s == nil {
		return nil, true // imp.why says why
	}
	return &concrete.Ref{S: s, Off: p.off}, true
}
