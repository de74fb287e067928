package llvmir

import (
	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"
)

// Base subobjects at an offset. Clang reaches a C++ base class that is
// not at the start of its derived class (libstdc++'s _Rb_tree_impl holds
// its tree header after an empty comparator base, at byte 8) through
// bytes: the object's address cast to i8*, stepped by the base's offset,
// cast to the base's type. The lifter follows structures by their fields,
// so such an address would be a byte subscript of the whole object
// (this[8]), and a store made through it (the header's constructor) a
// different storage from a read made through the field path. Where the
// offset lands on a member of exactly the type the bytes are cast to,
// the step is rewritten as that member's field address (GEP S, p, 0, k),
// which is what it is: the same address, of the member's type, so the
// module the instrumentation writes back means what it meant.

// baseSubobjects rewrites, in every function of m, `gep i8, (bitcast S* p
// to i8*), C` whose every use casts it to T* into `gep S, p, 0, k...`
// where the field path k... is at byte C of S and of type T.
func baseSubobjects(m *ir.Module) {
	type user interface{ Operands() []*value.Value }
	for _, f := range m.Funcs {
		// The instructions that use each byte step, and whether every
		// use is a cast to one pointer type.
		var steps []*ir.InstGetElementPtr
		for _, b := range f.Blocks {
			for _, inst := range b.Insts {
				if g, ok := inst.(*ir.InstGetElementPtr); ok && byteStep(g) {
					steps = append(steps, g)
				}
			}
		}
		if len(steps) == 0 {
			continue
		}
		target := map[*ir.InstGetElementPtr]types.Type{}
		bad := map[*ir.InstGetElementPtr]bool{}
		for _, b := range f.Blocks {
			users := make([]any, 0, len(b.Insts)+1)
			for _, inst := range b.Insts {
				users = append(users, inst)
			}
			users = append(users, b.Term)
			for _, u := range users {
				us, ok := u.(user)
				if !ok {
					continue
				}
				for _, op := range us.Operands() {
					if op == nil {
						continue
					}
					g, ok := (*op).(*ir.InstGetElementPtr)
					if !ok || !byteStep(g) {
						continue
					}
					bc, isCast := u.(*ir.InstBitCast)
					if !isCast {
						bad[g] = true
						continue
					}
					pt, isPtr := bc.To.(*types.PointerType)
					if !isPtr {
						bad[g] = true
						continue
					}
					if t, seen := target[g]; seen && !t.Equal(pt.ElemType) {
						bad[g] = true
					}
					target[g] = pt.ElemType
				}
			}
		}
		for _, g := range steps {
			t, ok := target[g]
			if !ok || bad[g] {
				continue
			}
			src := g.Src.(*ir.InstBitCast).From
			st := src.Type().(*types.PointerType).ElemType
			off := g.Indices[0].(*constant.Int).X.Int64()
			path, ok := memberAt(st, off, t, 0)
			if !ok {
				continue
			}
			idx := []value.Value{constant.NewInt(types.I32, 0)}
			for _, k := range path {
				idx = append(idx, constant.NewInt(types.I32, int64(k)))
			}
			g.ElemType, g.Src, g.Indices = st, src, idx
			g.Typ = types.NewPointer(t)
		}
	}
}

// byteStep reports whether g steps an i8* by a positive constant that a
// cast from a pointer to a structure made.
func byteStep(g *ir.InstGetElementPtr) bool {
	it, ok := g.ElemType.(*types.IntType)
	if !ok || it.BitSize != 8 || len(g.Indices) != 1 {
		return false
	}
	c, ok := g.Indices[0].(*constant.Int)
	if !ok || !c.X.IsInt64() || c.X.Int64() <= 0 {
		return false
	}
	bc, ok := g.Src.(*ir.InstBitCast)
	if !ok {
		return false
	}
	pt, ok := bc.From.Type().(*types.PointerType)
	if !ok {
		return false
	}
	st, ok := pt.ElemType.(*types.StructType)
	return ok && !st.Opaque
}

// memberAt is the field path of the member of s at byte off whose type is
// t: the outermost such member on the way down the members that hold the
// offset (the header at 8, not its first member, also at 8).
func memberAt(s types.Type, off int64, t types.Type, depth int) ([]int, bool) {
	st, ok := s.(*types.StructType)
	if !ok || st.Opaque || depth > 16 {
		return nil, false
	}
	var at int64
	for k, f := range st.Fields {
		fs, fa, ok := typeSize(f)
		if !ok {
			return nil, false
		}
		if !st.Packed {
			at = (at + fa - 1) / fa * fa
		}
		if off >= at && off < at+fs || off == at && fs == 0 {
			if off == at && f.Equal(t) {
				return []int{k}, true
			}
			rest, ok := memberAt(f, off-at, t, depth+1)
			if !ok {
				return nil, false
			}
			return append([]int{k}, rest...), true
		}
		at += fs
	}
	return nil, false
}
