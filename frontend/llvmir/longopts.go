package llvmir

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/constant"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// getopt_long's option table (struct option {name, has_arg, flag, val}[],
// ended by a zero entry) is a constant the program declares. The lifter
// passes it to the evaluation as text (apt.FormatLongOptions), which runs
// getopt_long on it (symeval/getopt.go). A table it cannot read (built at
// run time) stays the program's address, and getopt_long's result is
// unknown.

// longOptions returns the table an argument of getopt_long points to as
// text, false where it is not a constant table.
func (x *fn) longOptions(v value.Value) (apt.Expr, bool) {
	g := x.tableGlobal(unwrapArg(v))
	if g == nil {
		return nil, false
	}
	arr, ok := g.Init.(*constant.Array)
	if !ok {
		return nil, false
	}
	var opts []apt.LongOption
	for _, e := range arr.Elems {
		s, ok := e.(*constant.Struct)
		if !ok || len(s.Fields) != 4 {
			if _, zero := e.(*constant.ZeroInitializer); zero {
				break // the table's end
			}
			return nil, false
		}
		if _, null := s.Fields[0].(*constant.Null); null {
			break
		}
		name, ok := x.constText(s.Fields[0])
		if !ok {
			return nil, false
		}
		has, ok1 := s.Fields[1].(*constant.Int)
		val, ok2 := s.Fields[3].(*constant.Int)
		if !ok1 || !ok2 {
			return nil, false
		}
		flag := ""
		switch f := s.Fields[2].(type) {
		case *constant.Null:
		case *ir.Global:
			nm, ok := x.globalRef(f).(*apt.Name)
			if !ok {
				return nil, false
			}
			flag = nm.Name
		default:
			return nil, false
		}
		opts = append(opts, apt.LongOption{Name: name, HasArg: has.X.Int64(), Flag: flag, Val: val.X.Int64()})
	}
	return &apt.Const{Pos: x.at, Kind: apt.ConstChar, Text: apt.FormatLongOptions(opts), Type: apt.Type{Base: apt.TypeCharacter, Kind: 1}}, true
}

// tableGlobal is the constant global a pointer to a table reaches: the
// table itself, or the constant a local table was copied from (clang
// initialises `struct option opts[] = {...}` by a memcpy of one).
func (x *fn) tableGlobal(v value.Value) *ir.Global {
	if g := rootGlobal(v); g != nil {
		return g
	}
	for i := 0; i < 64; i++ {
		gep, ok := stripCasts(v).(*ir.InstGetElementPtr)
		if !ok {
			break
		}
		v = gep.Src
	}
	a, ok := stripCasts(v).(*ir.InstAlloca)
	if !ok {
		return nil
	}
	var found *ir.Global
	var visit func(p value.Value)
	visit = func(p value.Value) {
		for _, u := range x.uses[p] {
			switch c := u.user.(type) {
			case *ir.InstBitCast:
				visit(c)
			case *ir.InstCall:
				if n, _ := calleeName(c); strings.HasPrefix(n, "llvm.memcpy") && len(c.Args) >= 2 && stripCasts(unwrapArg(c.Args[0])) == a {
					if g := rootGlobal(unwrapArg(c.Args[1])); g != nil && g.Immutable {
						found = g
					}
				}
			}
		}
	}
	visit(a)
	return found
}
