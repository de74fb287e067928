package llvmir

import (
	"bytes"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/types"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// IR no LLVM writes, which llir reads all the same: refused with a
// message at the definition that holds it, before the lifter would loop
// or crash on it.

// selfUse finds an instruction other than a phi that is its own operand
// (%k = add i32 %k, 1): LLVM's verifier rejects it ("only PHI nodes may
// reference their own value"), and an expression built from it would
// never end.
func selfUse(name string, src []byte, m *ir.Module) (apt.Diagnostic, bool) {
	type user interface{ Operands() []*value.Value }
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, inst := range b.Insts {
				if _, phi := inst.(*ir.InstPhi); phi {
					continue
				}
				v, isVal := inst.(value.Value)
				u, isUser := inst.(user)
				if !isVal || !isUser {
					continue
				}
				for _, op := range u.Operands() {
					if op != nil && *op == v {
						line, col := defAt(src, "@"+f.Name())
						return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: col}, Severity: apt.Error,
							Msg: "in @" + f.Name() + ", " + v.Ident() + " is an operand of itself outside a phi: not IR that LLVM writes"}, true
					}
				}
			}
		}
	}
	return apt.Diagnostic{}, false
}

// defAt is the line and column of the first occurrence of def in src.
func defAt(src []byte, def string) (int, int) {
	line, col := 1, 1
	if i := bytes.Index(src, []byte(def)); i >= 0 {
		line = bytes.Count(src[:i], []byte("\n")) + 1
		col = i - bytes.LastIndexByte(src[:i], '\n')
	}
	return line, col
}

// badTypeDef finds a named type that refers to itself other than through
// a structure (%t = type %t*): llir reads it as a pointer to nothing, which
// no LLVM writes (it is an invalid recursive type) and which could not be
// written back. The message is at the type's definition.
func badTypeDef(name string, src []byte, m *ir.Module) (apt.Diagnostic, bool) {
	for _, td := range m.TypeDefs {
		if !hollowType(td, map[types.Type]bool{}) {
			continue
		}
		def := "%" + td.Name()
		line, col := defAt(src, def)
		return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: col}, Severity: apt.Error,
			Msg: "the type " + def + " is defined in terms of itself other than through a structure: not IR that LLVM writes"}, true
	}
	return apt.Diagnostic{}, false
}

// hollowType reports whether t, or a type it is made of, is a pointer,
// array or vector of nothing.
func hollowType(t types.Type, seen map[types.Type]bool) bool {
	if t == nil {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch x := t.(type) {
	case *types.PointerType:
		return x.ElemType == nil || hollowType(x.ElemType, seen)
	case *types.ArrayType:
		return x.ElemType == nil || hollowType(x.ElemType, seen)
	case *types.VectorType:
		return x.ElemType == nil || hollowType(x.ElemType, seen)
	case *types.StructType:
		for _, f := range x.Fields {
			if hollowType(f, seen) {
				return true
			}
		}
	case *types.FuncType:
		if hollowType(x.RetType, seen) {
			return true
		}
		for _, p := range x.Params {
			if hollowType(p, seen) {
				return true
			}
		}
	}
	return false
}
