package llvmir

import (
	"strings"

	"github.com/llir/llvm/ir"
	"github.com/llir/llvm/ir/value"

	"github.com/mkvet/mkvet/frontend/apt"
)

// C++ input streams, written as the C stdio the evaluation reads: an
// std::ifstream opened on a file is fopen's OPEN of a unit, in >> n is
// fscanf(in, "%d", &n), if (!in) tests whether the last operation failed,
// the destructor and close() are fclose. std::cin is standard input. A
// stream object holds its unit and its state in two components of its own
// (stream%unit, stream%good), so that a stream passed by reference to a
// function that reads it is the caller's.

// streamReads are the extractions operator>>(T&) of std::istream (libstdc++'s
// mangled names), by the scanf conversion that reads the same text.
var streamReads = map[string]string{
	"_ZNSirsERi": "%d", "_ZNSirsERj": "%u", "_ZNSirsERl": "%ld", "_ZNSirsERm": "%lu",
	"_ZNSirsERx": "%lld", "_ZNSirsERy": "%llu", "_ZNSirsERs": "%hd", "_ZNSirsERt": "%hu",
	"_ZNSirsERd": "%lf", "_ZNSirsERf": "%f", "_ZNSirsERe": "%Lf", "_ZNSirsERb": "%d",
}

// streamIsFile reports a constructor of std::basic_ifstream<char> from a
// file name (const char*, or std::string).
func streamIsFile(name string) bool {
	return strings.HasPrefix(name, "_ZNSt14basic_ifstreamIcSt11char_traitsIcEEC1E") ||
		strings.HasPrefix(name, "_ZNSt14basic_ifstreamIcSt11char_traitsIcEEC2E")
}

// The string streams and the reads into std::string: an
// std::istringstream made from a string is a unit opened on that string's
// text (OPEN with TEXT=, a record per line), getline reads a line of a
// stream into a string, and >> a word.
const (
	stringStreamCtor  = "_ZNSt7__cxx1119basic_istringstreamIcSt11char_traitsIcESaIcEEC"
	stringStreamDtor  = "_ZNSt7__cxx1119basic_istringstreamIcSt11char_traitsIcESaIcEED"
	streamGetline     = "_ZSt7getlineIcSt11char_traitsIcESaIcEERSt13basic_istreamIT_T0_ES7_RNSt7__cxx1112basic_stringIS4_S5_T1_EE"
	streamReadsString = "_ZStrsIcSt11char_traitsIcESaIcEERSt13basic_istreamIT_T0_ES7_RNSt7__cxx1112basic_stringIS4_S5_T1_EE"
)

// streamTests are the stream's state queries, by what they report.
var streamTests = map[string]string{
	"_ZNKSt9basic_iosIcSt11char_traitsIcEEntEv":             "fail", // operator!
	"_ZNKSt9basic_iosIcSt11char_traitsIcEEcvbEv":            "good", // explicit operator bool
	"_ZNKSt9basic_iosIcSt11char_traitsIcEE4failEv":          "fail",
	"_ZNKSt9basic_iosIcSt11char_traitsIcEE4goodEv":          "good",
	"_ZNSt14basic_ifstreamIcSt11char_traitsIcEE7is_openEv":  "open",
	"_ZNKSt14basic_ifstreamIcSt11char_traitsIcEE7is_openEv": "open",
}

// streamCloses are the destructors of std::ifstream and its close().
func streamCloses(name string) bool {
	switch name {
	case "_ZNSt14basic_ifstreamIcSt11char_traitsIcEED1Ev", "_ZNSt14basic_ifstreamIcSt11char_traitsIcEED2Ev",
		"_ZNSt14basic_ifstreamIcSt11char_traitsIcEE5closeEv":
		return true
	}
	return false
}

// streamRoot is the stream object an istream or ios pointer designates:
// through casts, the virtual base's offset (a GEP by a value the vtable
// holds), and the stream an extraction returns (in >> a >> b). cin is
// the global std::cin.
func streamRoot(v value.Value) (value.Value, bool) {
	for range 16 {
		v = stripCasts(unwrapArg(v))
		switch t := v.(type) {
		case *ir.InstGetElementPtr:
			v = t.Src
		case *ir.InstCall:
			n, _ := calleeName(t)
			if !streamReturns(n) || len(t.Args) == 0 {
				return nil, false
			}
			v = t.Args[0]
		case *ir.TermInvoke:
			f, ok := stripCasts(t.Invokee).(*ir.Func)
			if !ok || len(t.Args) == 0 || !streamReturns(f.Name()) {
				return nil, false
			}
			v = t.Args[0]
		case *ir.InstAlloca, *ir.Param, *ir.Global:
			return v, true
		default:
			return nil, false
		}
	}
	return nil, false
}

// streamReturns reports the stream functions that return the stream they
// read (in >> a >> b, while (getline(in, line))).
func streamReturns(name string) bool {
	_, ok := streamReads[name]
	return ok || name == streamGetline || name == streamReadsString
}

// streamPart is component field of the stream object root; cin's unit
// is standard input.
func (x *fn) streamPart(root value.Value, field string) apt.Expr {
	if g, ok := root.(*ir.Global); ok {
		if g.Name() == "_ZSt3cin" && field == "unit" {
			return &apt.Star{}
		}
		x.l.globalView("cin%"+field, intType, []apt.Dim{{Lo: intConst(0), Hi: &apt.Star{}}})
		return &apt.Index{Pos: x.at, Name: "cin%" + field, Subs: []apt.Expr{intConst(0)}, Type: intType}
	}
	name := x.names[root]
	deref := false
	switch r := root.(type) {
	case *ir.InstAlloca:
		x.declare(name, valueType(r.ElemType), allocaDims(r))
	case *ir.Param:
		deref = true
	}
	obj := x.nameExpr(name, x.vars[name].Type)
	return &apt.Component{Pos: x.at, Base: obj, Field: field, Type: intType, Deref: deref}
}

// streamCall emits a call of the C++ stream library as the I/O it does;
// false for any other call.
func (x *fn) streamCall(c *ir.InstCall, name string, base apt.NodeBase, p apt.Pos) (*apt.Stmt, []apt.Node, bool) {
	if len(c.Args) == 0 {
		return nil, nil, false
	}
	root, ok := streamRoot(c.Args[0])
	if !ok {
		return nil, nil, false
	}
	if _, isGlobal := root.(*ir.Global); isGlobal && root.(*ir.Global).Name() != "_ZSt3cin" {
		return nil, nil, false
	}
	x.at = p
	unit, good := x.streamPart(root, "unit"), x.streamPart(root, "good")
	cxx := &apt.Keyword{Name: apt.KeywordCxxString, Value: intConst(1)}
	switch {
	case strings.HasPrefix(name, stringStreamCtor) && len(c.Args) >= 2:
		// The text of the string, as the records of a file of its own.
		open := &apt.IO{NodeBase: base, Kind: apt.IOOpen, Control: []apt.Expr{&apt.Keyword{Name: "newunit", Value: unit},
			&apt.Keyword{Name: "text", Value: x.callArgs(c.Args[1:2])[0]}}}
		return nil, []apt.Node{open, block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: good, Value: intConst(1)})}, true
	case strings.HasPrefix(name, stringStreamDtor):
		return nil, []apt.Node{&apt.IO{NodeBase: base, Kind: apt.IOClose, Unit: unit}}, true
	case (name == streamGetline || name == streamReadsString) && len(c.Args) == 2:
		io := &apt.IO{NodeBase: base, Kind: apt.IORead, Unit: unit, Items: x.callArgs(c.Args[1:2]),
			Control: []apt.Expr{cxx}, Result: good}
		if name == streamGetline {
			io.Line = true
		} else {
			io.Stream = true
			io.Scan = &apt.Const{Kind: apt.ConstChar, Text: "%s", Type: apt.Type{Base: apt.TypeCharacter}}
		}
		return nil, []apt.Node{io}, true
	case streamIsFile(name) && len(c.Args) >= 2:
		return nil, x.streamOpen(c, unit, good, base, p), true
	case streamReads[name] != "" && len(c.Args) == 2:
		item, _ := x.location(unwrapArg(c.Args[1]), &apt.Ops{})
		io := &apt.IO{NodeBase: base, Kind: apt.IORead, Unit: unit, Stream: true,
			Scan:   &apt.Const{Kind: apt.ConstChar, Text: streamReads[name], Type: apt.Type{Base: apt.TypeCharacter}},
			Items:  []apt.Expr{item},
			Result: good}
		if nm, ok := item.(*apt.Name); ok {
			io.Reads = append(io.Reads, nm.Name)
		}
		return nil, []apt.Node{io}, true
	case streamTests[name] != "":
		var e apt.Expr
		switch streamTests[name] {
		case "fail":
			e = &apt.Binary{Op: apt.OpLe, X: good, Y: intConst(0)}
		case "good":
			e = &apt.Binary{Op: apt.OpGt, X: good, Y: intConst(0)}
		default:
			e = &apt.Binary{Op: apt.OpNe, X: unit, Y: intConst(0)}
		}
		if len(x.uses[c]) == 0 {
			return nil, nil, true
		}
		return x.assign(c, p, e, apt.Ops{}), nil, true
	case streamCloses(name):
		return nil, []apt.Node{&apt.IO{NodeBase: base, Kind: apt.IOClose, Unit: unit}}, true
	}
	return nil, nil, false
}

// streamOpen opens the file of an std::ifstream constructor as fopen
// does (a unit where the file is there, 0 where it is not); the stream
// is good where it opened.
func (x *fn) streamOpen(c *ir.InstCall, unit, good apt.Expr, base apt.NodeBase, p apt.Pos) []apt.Node {
	file := x.fileName(unwrapArg(c.Args[1]), p)
	word := func(w string) apt.Expr {
		return &apt.Const{Kind: apt.ConstChar, Text: w, Type: apt.Type{Base: apt.TypeCharacter}}
	}
	inq := &apt.IO{NodeBase: base, Kind: apt.IOInquire, Control: []apt.Expr{
		&apt.Keyword{Name: "file", Value: file}, &apt.Keyword{Name: "exist", Value: unit}}}
	open := &apt.IO{NodeBase: base, Kind: apt.IOOpen, Control: []apt.Expr{&apt.Keyword{Name: "newunit", Value: unit},
		&apt.Keyword{Name: "file", Value: file}, &apt.Keyword{Name: "status", Value: word("old")}}}
	there := &apt.If{NodeBase: apt.NodeBase{Span: base.Span}, Kind: apt.IfBlock, Branches: []*apt.Branch{{NodeBase: apt.NodeBase{Span: base.Span},
		Cond: &apt.Binary{Op: apt.OpNe, X: unit, Y: intConst(0)}, Body: []apt.Node{open}}}}
	state := block(&apt.Stmt{Span: spanAt(p), Kind: apt.StmtAssign, Target: good,
		Value: &apt.Binary{Op: apt.OpNe, X: unit, Y: intConst(0)}})
	return []apt.Node{inq, there, state}
}
