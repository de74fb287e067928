package llvmir

import (
	"slices"
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// C++ virtual calls (the Itanium ABI clang-14 follows). A constructor
// stores into the object's first word the address of a slot of its class's
// vtable (a constant global _ZTV...: arrays of function pointers after the
// offset and type-info words), and a virtual call loads that word, steps
// to the function's slot and calls what it holds. The object's first word
// is written as a number that names the vtable slot stored (a vtable tag,
// vtableTag), a value the evaluation follows like any other through heap
// objects and copies; the call becomes an IF over the tags the program's
// constructors store, one branch per function the slot holds in them,
// marked Dispatch (as Fortran's dispatch on a dynamic type is): decided
// where the object's tag is known, taken with a frequency where not.

// vtag is one vtable slot a constructor stores: the global, the array
// field of its initialiser and the index in it, and its tag.
type vtag struct {
	g     *ir.Global
	field int
	index int64
	tag   int64
}

// vtableBase keeps tags apart from counts, heap addresses (symeval's
// heapBase, 1<<44) and function numbers.
const vtableBase int64 = 1 << 42

// vtableSlot returns the vtable slot a constant the program stores is the
// address of: getelementptr into a _ZTV global's initialiser array.
func vtableSlot(v value.Value) (g *ir.Global, field int, index int64, ok bool) {
	e, isGEP := stripCasts(v).(*constant.ExprGetElementPtr)
	if !isGEP {
		return nil, 0, 0, false
	}
	g, isG := e.Src.(*ir.Global)
	if !isG || !strings.HasPrefix(g.Name(), "_ZTV") || g.Init == nil {
		return nil, 0, 0, false
	}
	var idx []int64
	for _, x := range e.Indices {
		if in, isIndex := x.(*constant.Index); isIndex {
			x = in.Constant // inrange
		}
		c, isInt := unwrapArg(x).(*constant.Int)
		if !isInt || !c.X.IsInt64() {
			return nil, 0, 0, false
		}
		idx = append(idx, c.X.Int64())
	}
	if len(idx) != 3 || idx[0] != 0 {
		return nil, 0, 0, false
	}
	return g, int(idx[1]), idx[2], true
}

// vtableTags collects the vtable slots the module's stores write.
func (l *lifter) vtableTags() {
	for _, f := range l.m.Funcs {
		for _, b := range f.Blocks {
			for _, inst := range b.Insts {
				st, ok := inst.(*ir.InstStore)
				if !ok {
					continue
				}
				g, field, index, ok := vtableSlot(st.Src)
				if !ok {
					continue
				}
				if slices.ContainsFunc(l.vtags, func(t vtag) bool { return t.g == g && t.field == field && t.index == index }) {
					continue
				}
				l.vtags = append(l.vtags, vtag{g: g, field: field, index: index, tag: vtableBase + int64(len(l.vtags))})
			}
		}
	}
}

// vtableTag returns the tag of the vtable slot v is the address of.
func (l *lifter) vtableTag(v value.Value) (int64, bool) {
	g, field, index, ok := vtableSlot(v)
	if !ok {
		return 0, false
	}
	for _, t := range l.vtags {
		if t.g == g && t.field == field && t.index == index {
			return t.tag, true
		}
	}
	return 0, false
}

// slotFunc returns the function slot k of the vtable array a tag starts
// at holds, if it is one.
func (t vtag) slotFunc(k int64) (*ir.Func, bool) {
	var arr *constant.Array
	switch init := t.g.Init.(type) {
	case *constant.Struct:
		if t.field < len(init.Fields) {
			arr, _ = init.Fields[t.field].(*constant.Array)
		}
	case *constant.Array:
		if t.field == 0 {
			arr = init
		}
	}
	i := t.index + k
	if arr == nil || i < 0 || i >= int64(len(arr.Elems)) {
		return nil, false
	}
	f, ok := stripCasts(arr.Elems[i]).(*ir.Func)
	return f, ok
}

// virtualCall returns the dispatch of a call through a function pointer
// loaded from a vtable slot: callee = load(gep(load(obj), k)) or
// load(load(obj)); nil where c is no such call or no constructor stores a
// vtable whose slot holds a function of the call's arity.
func (x *fn) virtualCall(c *ir.InstCall, base apt.NodeBase, p apt.Pos, result bool) []apt.Node {
	if len(x.l.vtags) == 0 {
		return nil
	}
	fnLoad, ok := stripCasts(c.Callee).(*ir.InstLoad)
	if !ok {
		return nil
	}
	var k int64
	src := stripCasts(fnLoad.Src)
	if g, isGEP := src.(*ir.InstGetElementPtr); isGEP {
		if len(g.Indices) != 1 {
			return nil
		}
		ci, isInt := unwrapArg(g.Indices[0]).(*constant.Int)
		if !isInt || !ci.X.IsInt64() {
			return nil
		}
		k, src = ci.X.Int64(), stripCasts(g.Src)
	}
	vtLoad, ok := src.(*ir.InstLoad)
	if !ok {
		return nil
	}
	if _, isPtr := vtLoad.Type().(*types.PointerType); !isPtr {
		return nil
	}
	// The functions each tag's slot holds, grouped by function.
	type target struct {
		f    *ir.Func
		tags []int64
	}
	var targets []*target
	for _, t := range x.l.vtags {
		f, ok := t.slotFunc(k)
		if !ok || len(f.Params) != len(c.Args) || len(f.Blocks) == 0 {
			continue
		}
		i := slices.IndexFunc(targets, func(y *target) bool { return y.f == f })
		if i < 0 {
			targets = append(targets, &target{f: f})
			i = len(targets) - 1
		}
		targets[i].tags = append(targets[i].tags, t.tag)
	}
	if len(targets) == 0 {
		return nil
	}
	word := x.vtableWord(vtLoad.Src)
	n := &apt.If{NodeBase: base, Kind: apt.IfBlock, Dispatch: true}
	for _, t := range targets {
		var cond apt.Expr
		for _, tag := range t.tags {
			eq := &apt.Binary{Pos: p, Op: apt.OpEq, X: word, Y: intConst(tag)}
			if cond == nil {
				cond = eq
			} else {
				cond = &apt.Binary{Pos: p, Op: apt.OpOr, X: cond, Y: eq}
			}
		}
		name := x.l.fnames[t.f]
		var body apt.Node
		if result {
			fc := &apt.FuncCall{Pos: p, Name: name, Args: x.callArgs(c.Args), Type: valueType(c.Typ)}
			body = block(x.assign(c, p, fc, apt.Ops{Calls: map[string]int{name: 1}}))
		} else {
			body = &apt.Call{NodeBase: base, Callee: name, Display: x.l.display[t.f], Args: x.callArgs(c.Args)}
		}
		n.Branches = append(n.Branches, &apt.Branch{NodeBase: apt.NodeBase{Span: base.Span}, Cond: cond, Body: []apt.Node{body}})
	}
	return []apt.Node{n}
}

// vtableWord is the object's word that holds its vtable pointer, at the
// address p (the object's, cast): a component of its own, vptr, of the
// object p points to.
func (x *fn) vtableWord(p value.Value) apt.Expr {
	return &apt.Component{Pos: x.at, Base: x.expr(stripCasts(p)), Field: vptrField, Deref: true, Type: addrType}
}

// vptrField names the vtable pointer's word.
const vptrField = "vptr"
