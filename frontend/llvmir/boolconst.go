package llvmir

import (
	"bytes"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// badBoolean finds an i1 constant other than 0 and 1 among the operands of
// the module's instructions (phi [1000, %b] of type i1) or in a global's
// initialiser (an element of a constant array): the reader takes it, but no
// LLVM writes it and the module could not be written back (the
// instrumentation does). The message is at the function's or the global's
// definition.
func badBoolean(name string, src []byte, m *ir.Module) (apt.Diagnostic, bool) {
	type user interface{ Operands() []*value.Value }
	at := func(def string) (int, int) {
		line, col := 1, 1
		if i := bytes.Index(src, []byte(def)); i >= 0 {
			line = bytes.Count(src[:i], []byte("\n")) + 1
			col = i - bytes.LastIndexByte(src[:i], '\n')
		}
		return line, col
	}
	for _, g := range m.Globals {
		if c, bad := badBooleanIn(g.Init, 0); bad {
			line, col := at("@" + g.Name())
			return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: col}, Severity: apt.Error,
				Msg: "a constant of type i1 that is neither 0 nor 1 (" + c.X.String() + ") in @" + g.Name() + "'s initialiser: not IR that LLVM writes"}, true
		}
	}
	for _, f := range m.Funcs {
		for _, b := range f.Blocks {
			users := []any{b.Term}
			for _, inst := range b.Insts {
				users = append(users, inst)
			}
			for _, u := range users {
				us, ok := u.(user)
				if !ok {
					continue
				}
				for _, op := range us.Operands() {
					if op == nil {
						continue
					}
					cc, ok := (*op).(constant.Constant)
					if !ok {
						continue
					}
					c, bad := badBooleanIn(cc, 0)
					if !bad {
						continue
					}
					line, col := 1, 1
					if i := bytes.Index(src, []byte("@"+f.Name()+"(")); i >= 0 {
						line = bytes.Count(src[:i], []byte("\n")) + 1
						col = i - bytes.LastIndexByte(src[:i], '\n')
					}
					return apt.Diagnostic{Pos: apt.Pos{File: name, Line: line, Col: col}, Severity: apt.Error,
						Msg: "a constant of type i1 that is neither 0 nor 1 (" + c.X.String() + ") in @" + f.Name() + ": not IR that LLVM writes"}, true
				}
			}
		}
	}
	return apt.Diagnostic{}, false
}

// badBooleanIn finds an i1 constant other than 0 and 1 in a constant
// aggregate, to a depth that no initialiser reaches.
func badBooleanIn(c constant.Constant, depth int) (*constant.Int, bool) {
	if c == nil || depth > 64 {
		return nil, false
	}
	var elems []constant.Constant
	switch x := c.(type) {
	case *constant.Int:
		bad := x.Typ != nil && x.Typ.BitSize == 1 && x.X != nil && !(x.X.IsInt64() && x.X.Int64() >= -1 && x.X.Int64() <= 1)
		return x, bad
	case *constant.Array:
		elems = x.Elems
	case *constant.Struct:
		elems = x.Fields
	case *constant.Vector:
		elems = x.Elems
	}
	for _, e := range elems {
		if b, bad := badBooleanIn(e, depth+1); bad {
			return b, true
		}
	}
	return nil, false
}
