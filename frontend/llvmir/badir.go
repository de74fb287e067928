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

// mismatchedOperands finds a binary operation whose operands differ in
// type (%k1 = add i32 %c, -1 with %c an i1): LLVM's verifier rejects it
// ("both operands to a binary operator are not of the same type"), and a
// module holding it could not be written back (the instrumentation does).
func mismatchedOperands(name string, src []byte, m *ir.Module) (apt.Diagnostic, bool) {
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			for _, inst := range b.Insts {
				x, y, ok := binaryOperands(inst)
				if !ok || x == nil || y == nil || types.Equal(x.Type(), y.Type()) {
					continue
				}
				line, col := defAt(src, "@"+f.Name())
				return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: col}, Severity: apt.Error,
					Msg: "in @" + f.Name() + ", a binary operation on operands of two types (" + x.Type().String() + ", " + y.Type().String() + "): not IR that LLVM writes"}, true
			}
		}
	}
	return apt.Diagnostic{}, false
}

// badCallee finds a call or invoke of a value that is not a pointer to a
// function (call %0 with %0 a label): LLVM's parser rejects it ("called
// function must be a pointer"), and llir could not write the module back
// (the instrumentation does).
func badCallee(name string, src []byte, m *ir.Module) (apt.Diagnostic, bool) {
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			var callee value.Value
			check := func(c value.Value) {
				if callee != nil || c == nil {
					return
				}
				if _, asm := c.(*ir.InlineAsm); asm {
					return
				}
				if pt, ok := c.Type().(*types.PointerType); !ok || pt.ElemType == nil {
					callee = c
				} else if _, fn := pt.ElemType.(*types.FuncType); !fn {
					callee = c
				}
			}
			for _, inst := range b.Insts {
				if c, ok := inst.(*ir.InstCall); ok {
					check(c.Callee)
				}
			}
			if inv, ok := b.Term.(*ir.TermInvoke); ok {
				check(inv.Invokee)
			}
			if callee != nil {
				line, col := defAt(src, "@"+f.Name())
				return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: col}, Severity: apt.Error,
					Msg: "in @" + f.Name() + ", a call of " + callee.Ident() + ", which is not a function: not IR that LLVM writes"}, true
			}
		}
	}
	return apt.Diagnostic{}, false
}

// binaryOperands are the two operands of a binary or comparison
// instruction.
func binaryOperands(inst ir.Instruction) (x, y value.Value, ok bool) {
	switch i := inst.(type) {
	case *ir.InstAdd:
		return i.X, i.Y, true
	case *ir.InstSub:
		return i.X, i.Y, true
	case *ir.InstMul:
		return i.X, i.Y, true
	case *ir.InstSDiv:
		return i.X, i.Y, true
	case *ir.InstUDiv:
		return i.X, i.Y, true
	case *ir.InstSRem:
		return i.X, i.Y, true
	case *ir.InstURem:
		return i.X, i.Y, true
	case *ir.InstShl:
		return i.X, i.Y, true
	case *ir.InstLShr:
		return i.X, i.Y, true
	case *ir.InstAShr:
		return i.X, i.Y, true
	case *ir.InstAnd:
		return i.X, i.Y, true
	case *ir.InstOr:
		return i.X, i.Y, true
	case *ir.InstXor:
		return i.X, i.Y, true
	case *ir.InstFAdd:
		return i.X, i.Y, true
	case *ir.InstFSub:
		return i.X, i.Y, true
	case *ir.InstFMul:
		return i.X, i.Y, true
	case *ir.InstFDiv:
		return i.X, i.Y, true
	case *ir.InstFRem:
		return i.X, i.Y, true
	case *ir.InstICmp:
		return i.X, i.Y, true
	case *ir.InstFCmp:
		return i.X, i.Y, true
	}
	return nil, nil, false
}
