package apt

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// FormatExpr formats e in lower-case Fortran syntax with the parentheses its
// operator precedences need. A nil expression formats as "".
func FormatExpr(e Expr) string {
	var b strings.Builder
	formatExpr(&b, e, 0)
	return b.String()
}

func precedence(o Op) int {
	switch o {
	case OpEqv, OpNeqv:
		return 1
	case OpOr:
		return 2
	case OpAnd:
		return 3
	case OpNot:
		return 4
	case OpEq, OpNe, OpLt, OpLe, OpGt, OpGe:
		return 5
	case OpConcat:
		return 6
	case OpAdd, OpSub, OpNeg, OpPlus:
		return 7
	case OpMul, OpDiv:
		return 8
	case OpPow:
		return 9
	}
	return 10
}

// formatIn writes e in notation n at precedence context ctx.
func formatIn(b *strings.Builder, e Expr, ctx int, n Notation) {
	if n == C {
		formatC(b, e, ctx)
		return
	}
	formatExpr(b, e, ctx)
}

// formatList writes list comma-separated in notation n.
func formatList(b *strings.Builder, list []Expr, n Notation) {
	for i, x := range list {
		if i > 0 {
			b.WriteString(", ")
		}
		formatIn(b, x, 0, n)
	}
}

// formatSection writes the triplet lo:hi[:stride], the same in both
// notations (C has none: it appears in the buffers of MPI calls).
func formatSection(b *strings.Builder, e *Section, n Notation) {
	formatIn(b, e.Lo, 0, n)
	b.WriteString(":")
	formatIn(b, e.Hi, 0, n)
	if e.Stride != nil {
		b.WriteString(":")
		formatIn(b, e.Stride, 0, n)
	}
}

func formatExpr(b *strings.Builder, e Expr, ctx int) {
	switch e := e.(type) {
	case nil:
	case *Const:
		switch e.Kind {
		case ConstChar:
			b.WriteString("'" + strings.ReplaceAll(e.Text, "'", "''") + "'")
		case ConstLogical, ConstReal, ConstBOZ, ConstComplex:
			b.WriteString(strings.ToLower(e.Text))
		default:
			b.WriteString(e.Text)
		}
	case *Name:
		b.WriteString(e.Name)
	case *Index:
		if e.Base != nil {
			formatExpr(b, e.Base, 10)
			b.WriteString("%")
		}
		b.WriteString(e.Name + "(")
		formatList(b, e.Subs, Fortran)
		b.WriteString(")")
	case *Section:
		formatSection(b, e, Fortran)
	case *Component:
		formatExpr(b, e.Base, 10)
		b.WriteString("%" + e.Field)
	case *FuncCall:
		b.WriteString(e.Name + "(")
		formatList(b, e.Args, Fortran)
		b.WriteString(")")
	case *Unary:
		p := precedence(e.Op)
		if p < ctx {
			b.WriteString("(")
		}
		b.WriteString(e.Op.String())
		if e.Op == OpNot {
			b.WriteString(" ")
		}
		formatExpr(b, e.X, p+1)
		if p < ctx {
			b.WriteString(")")
		}
	case *Binary:
		p := precedence(e.Op)
		if p < ctx {
			b.WriteString("(")
		}
		// ** is right-associative; the others are left-associative.
		lp, rp := p, p+1
		if e.Op == OpPow {
			lp, rp = p+1, p
		}
		formatExpr(b, e.X, lp)
		switch {
		case e.Op == OpPow, e.Op == OpMul, e.Op == OpDiv:
			b.WriteString(e.Op.String())
		default:
			b.WriteString(" " + e.Op.String() + " ")
		}
		formatExpr(b, e.Y, rp)
		if p < ctx {
			b.WriteString(")")
		}
	case *ArrayCons:
		b.WriteString("[")
		formatList(b, e.Elems, Fortran)
		b.WriteString("]")
	case *ImpliedDo:
		b.WriteString("(")
		formatList(b, e.Items, Fortran)
		b.WriteString(", " + e.Var + " = ")
		formatExpr(b, e.Lo, 0)
		b.WriteString(", ")
		formatExpr(b, e.Hi, 0)
		if e.Step != nil {
			b.WriteString(", ")
			formatExpr(b, e.Step, 0)
		}
		b.WriteString(")")
	case *Keyword:
		b.WriteString(e.Name + "=")
		formatExpr(b, e.Value, 0)
	case *Star:
		b.WriteString("*")
	default:
		fmt.Fprintf(b, "<%T>", e)
	}
}

// Fprint writes the tree rooted at n as an indented text listing: one line per
// node with its ID, kind, attributes and span (file:line:col-endline:endcol, the
// file only where it differs from the enclosing routine's), and the declarations
// of each routine. The format is meant for people and golden tests; use JSON for
// machines.
func Fprint(w io.Writer, n Node) error {
	bw := bufio.NewWriter(w)
	p := &printer{w: bw}
	if prog, ok := n.(*Program); ok {
		p.notation = prog.Notation()
	}
	p.node(n, 0, "")
	return bw.Flush()
}

type printer struct {
	w *bufio.Writer
	// notation writes expressions in the source's language (C for a
	// program lifted from LLVM IR); the statements keep the tree's own
	// Fortran-like form.
	notation Notation
}

func (p *printer) fx(e Expr) string { return FormatExprIn(e, p.notation) }

func (p *printer) line(depth int, format string, args ...any) {
	p.w.WriteString(strings.Repeat("  ", depth))
	fmt.Fprintf(p.w, format, args...)
	p.w.WriteByte('\n')
}

func spanText(s Span, file string) string {
	if s.Line == 0 {
		return ""
	}
	pos := strconv.Itoa(s.Line) + ":" + strconv.Itoa(s.Col) + "-" + strconv.Itoa(s.EndLine) + ":" + strconv.Itoa(s.EndCol)
	if s.File != file {
		return " @" + s.File + ":" + pos
	}
	return " @" + pos
}

func labelText(b *NodeBase) string {
	if b.Label == "" {
		return ""
	}
	return " label=" + b.Label
}

func (p *printer) opt(name string, e Expr) string {
	if e == nil {
		return ""
	}
	return " " + name + "=" + p.fx(e)
}

func (p *printer) node(n Node, d int, file string) {
	switch n := n.(type) {
	case *Program:
		p.line(d, "program files=%s", strings.Join(n.Files, ","))
		for _, r := range n.Routines {
			p.node(r, d+1, "")
		}
	case *Routine:
		res := ""
		if n.Result != "" && n.Result != n.Name {
			res = " result=" + n.Result
		}
		where := " @" + n.Span.String()
		if n.Span.Line == 0 {
			where = " (predefined)"
		}
		p.line(d, "%s %s %s(%s)%s%s", n.ID, n.Kind, n.Name, strings.Join(n.Formals, ", "), res, where)
		p.scope(n.Scope, d+1)
		for _, a := range n.Params {
			val := ""
			if a.Value != nil {
				val = " = " + p.fx(a.Value)
			}
			p.line(d+1, "param %s%s @%d:%d", a.Name, val, a.Pos.Line, a.Pos.Col)
		}
		for _, a := range n.Assumes {
			p.line(d+1, "assume %s @%d:%d", p.fx(a.Cond), a.Pos.Line, a.Pos.Col)
		}
		for _, c := range n.Body {
			p.node(c, d+1, n.Span.File)
		}
		for _, c := range n.Contains {
			p.node(c, d+1, "")
		}
	case *Loop:
		var head string
		switch {
		case n.Var != "":
			head = "do " + n.Var + " = " + p.fx(n.Lower) + ", " + p.fx(n.Upper)
			if n.Step != nil {
				head += ", " + p.fx(n.Step)
			}
		case n.While != nil:
			head = "do while " + p.fx(n.While)
		default:
			head = "do forever"
		}
		attrs := ""
		if n.EndLabel != "" {
			attrs += " end=" + n.EndLabel
		}
		if n.Construct != "" {
			attrs += " name=" + n.Construct
		}
		if n.Independent {
			attrs += " independent"
		}
		if n.OMP != "" {
			attrs += " omp=" + strconv.Quote(strings.TrimSpace(n.OMP+" "+n.OMPClauses))
		}
		attrs += p.opt("iterations", n.Iterations)
		p.line(d, "%s loop %s%s%s%s", n.ID, head, attrs, labelText(&n.NodeBase), spanText(n.Span, file))
		for _, c := range n.Body {
			p.node(c, d+1, file)
		}
	case *If:
		p.line(d, "%s if %s%s%s%s", n.ID, n.Kind, p.opt("selector", n.Selector), labelText(&n.NodeBase), spanText(n.Span, file))
		for _, b := range n.Branches {
			p.node(b, d+1, file)
		}
	case *Branch:
		var cond string
		switch {
		case n.Cond != nil:
			cond = " " + p.fx(n.Cond)
		case len(n.Cases) > 0:
			var cs []string
			for _, c := range n.Cases {
				if c.Range {
					cs = append(cs, p.fx(c.Lo)+":"+p.fx(c.Hi))
				} else {
					cs = append(cs, p.fx(c.Lo))
				}
			}
			cond = " case (" + strings.Join(cs, ", ") + ")"
		default:
			cond = " else"
		}
		p.line(d, "%s branch%s%s", n.ID, cond, spanText(n.Span, file))
		for _, c := range n.Body {
			p.node(c, d+1, file)
		}
	case *Call:
		var b strings.Builder
		formatList(&b, n.Args, p.notation)
		p.line(d, "%s call %s(%s)%s%s", n.ID, n.Callee, b.String(), labelText(&n.NodeBase), spanText(n.Span, file))
	case *Comm:
		attrs := " blocking=" + strconv.FormatBool(n.Blocking)
		msg := func(side string, m *Msg) {
			if m == nil {
				return
			}
			attrs += " " + side + "{buf=" + p.fx(m.Buffer) + " count=" + p.fx(m.Count)
			if m.Displs != nil {
				attrs += " displs=" + p.fx(m.Displs)
			}
			attrs += " type=" + p.fx(m.Datatype)
			if m.TypeSize > 0 {
				attrs += "(" + strconv.Itoa(m.TypeSize) + "B)"
			}
			attrs += p.opt("peer", m.Peer) + p.opt("tag", m.Tag) + "}"
		}
		msg("send", n.Send)
		msg("recv", n.Recv)
		attrs += p.opt("root", n.Root) + p.opt("op", n.Reduce) + p.opt("comm", n.Comm) +
			p.opt("request", n.Request) + p.opt("count", n.Count) + p.opt("result", n.Result)
		p.line(d, "%s comm %s%s%s%s", n.ID, n.Op, attrs, labelText(&n.NodeBase), spanText(n.Span, file))
	case *Block:
		p.line(d, "%s block%s%s", n.ID, labelText(&n.NodeBase), spanText(n.Span, file))
		for _, s := range n.Stmts {
			p.stmt(s, d+1, file)
		}
	case *IO:
		attrs := p.opt("unit", n.Unit) + p.opt("fmt", n.Format)
		if len(n.Control) > 0 {
			var b strings.Builder
			formatList(&b, n.Control, p.notation)
			attrs += " control=(" + b.String() + ")"
		}
		if len(n.Items) > 0 {
			var b strings.Builder
			formatList(&b, n.Items, p.notation)
			attrs += " items=(" + b.String() + ")"
		}
		if len(n.Reads) > 0 {
			attrs += " reads=" + strings.Join(n.Reads, ",")
		}
		attrs += p.opt("argv", n.Arg) + p.opt("result", n.Result)
		if n.Stream {
			attrs += " stream"
		}
		p.line(d, "%s io %s%s%s%s", n.ID, n.Kind, attrs, labelText(&n.NodeBase), spanText(n.Span, file))
	case *Goto:
		p.line(d, "%s goto %s (%s)%s%s%s", n.ID, n.Kind, strings.Join(n.Targets, ", "), p.opt("index", n.Index), labelText(&n.NodeBase), spanText(n.Span, file))
	case *Return:
		p.line(d, "%s return%s%s%s", n.ID, p.opt("value", n.Value), labelText(&n.NodeBase), spanText(n.Span, file))
	case *Stop:
		kind := "stop"
		if n.Error {
			kind = "error stop"
		}
		p.line(d, "%s %s%s%s%s", n.ID, kind, p.opt("code", n.Code), labelText(&n.NodeBase), spanText(n.Span, file))
	case *Exit:
		p.line(d, "%s exit%s%s%s", n.ID, optName(n.Construct), labelText(&n.NodeBase), spanText(n.Span, file))
	case *Cycle:
		p.line(d, "%s cycle%s%s%s", n.ID, optName(n.Construct), labelText(&n.NodeBase), spanText(n.Span, file))
	case *Continue:
		p.line(d, "%s continue%s%s", n.ID, labelText(&n.NodeBase), spanText(n.Span, file))
	case *Region:
		what := "end"
		if n.Begin {
			what = "begin " + n.Name
		}
		p.line(d, "%s region %s%s", n.ID, what, spanText(n.Span, file))
	case *Unknown:
		p.line(d, "%s unknown %q: %s%s%s", n.ID, n.Text, n.Diag.Msg, labelText(&n.NodeBase), spanText(n.Span, file))
	default:
		p.line(d, "<%T>", n)
	}
}

func optName(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

func (p *printer) stmt(s *Stmt, d int, file string) {
	var text string
	switch s.Kind {
	case StmtAssign:
		text = p.fx(s.Target) + " = " + p.fx(s.Value)
		if s.Load {
			text += " (the pointer it holds)"
		}
		if s.Mask != nil {
			text = "where (" + p.fx(s.Mask) + ") " + text
		}
	case StmtPointerAssign:
		text = p.fx(s.Target) + " => " + p.fx(s.Value)
	case StmtLabelAssign:
		text = "assign " + p.fx(s.Value) + " to " + p.fx(s.Target)
	default:
		var b strings.Builder
		formatList(&b, s.Args, p.notation)
		text = s.Kind.String() + "(" + b.String() + ")"
		if s.Heap {
			text += " heap"
		}
		if s.TypeSpec != "" {
			text = s.Kind.String() + "(" + s.TypeSpec + " :: " + text[len(s.Kind.String())+1:]
		}
	}
	lab := ""
	if s.Label != "" {
		lab = " label=" + s.Label
	}
	p.line(d, "%s %s  [%s]%s%s", s.ID, text, FormatOps(s.Ops), lab, spanText(s.Span, file))
}

// FormatOps formats op counts compactly, omitting zeros: "add=2 mul=1 load=3
// sqrt=1".
func FormatOps(o Ops) string {
	var parts []string
	add := func(name string, n int) {
		if n != 0 {
			parts = append(parts, name+"="+strconv.Itoa(n))
		}
	}
	add("add", o.Adds)
	add("mul", o.Muls)
	add("div", o.Divs)
	add("idiv", o.IntDivs)
	add("pow", o.Pows)
	add("neg", o.Negs)
	add("cmp", o.Cmps)
	add("logic", o.Logic)
	add("subscript", o.SubscriptOps)
	add("load", o.Loads)
	add("store", o.Stores)
	for _, k := range slices.Sorted(maps.Keys(o.Intrinsics)) {
		add(k, o.Intrinsics[k])
	}
	for _, k := range slices.Sorted(maps.Keys(o.Calls)) {
		add("call:"+k, o.Calls[k])
	}
	if o.Vector {
		parts = append(parts, "vector")
	}
	return strings.Join(parts, " ")
}

func (p *printer) scope(s *Scope, d int) {
	if s == nil {
		return
	}
	if s.ImplicitNone {
		p.line(d, "implicit none")
	}
	for _, r := range s.Implicit {
		p.line(d, "implicit %s(%c-%c)", r.Type, r.From, r.To)
	}
	for _, u := range s.Uses {
		if u.Via != "" {
			continue // shown as its include
		}
		extra := ""
		if len(u.Only) > 0 {
			extra = " only=" + strings.Join(u.Only, ",")
		}
		p.line(d, "use %s resolved=%t%s", u.Module, u.Resolved, extra)
	}
	for _, inc := range s.Includes {
		p.line(d, "include %q", inc)
	}
	for _, t := range s.Types {
		p.line(d, "type %s", t.Name)
		for _, f := range t.Fields {
			p.line(d+1, "%s", p.varText(f))
		}
	}
	for _, c := range s.Commons {
		p.line(d, "common /%s/ %s", c.Name, strings.Join(c.Vars, ", "))
	}
	for _, pr := range s.Processors {
		var b strings.Builder
		formatList(&b, pr.Shape, p.notation)
		p.line(d, "processors %s(%s)", pr.Name, b.String())
	}
	for _, v := range s.Vars {
		if v.Predefined != "" {
			continue // the MPI constants would drown every routine's listing
		}
		p.line(d, "var %s", p.varText(v))
	}
}

func (p *printer) varText(v *Var) string {
	var b strings.Builder
	b.WriteString(v.Name + ": " + v.Type.String())
	if len(v.Dims) > 0 {
		b.WriteString(" dims=(")
		for i, dm := range v.Dims {
			if i > 0 {
				b.WriteString(", ")
			}
			switch {
			case dm.Deferred:
				b.WriteString(":")
			case dm.Lo != nil:
				b.WriteString(p.fx(dm.Lo) + ":" + p.fx(dm.Hi))
			default:
				b.WriteString(p.fx(dm.Hi))
			}
		}
		b.WriteString(")")
	}
	if v.Param != nil {
		b.WriteString(" parameter=" + p.fx(v.Param))
	}
	if len(v.Init) > 0 {
		var ib strings.Builder
		formatList(&ib, v.Init, p.notation)
		b.WriteString(" init=(" + ib.String() + ")")
	}
	if v.InCommon {
		b.WriteString(" common=/" + v.Common + "/")
	}
	if v.Intent != "" {
		b.WriteString(" intent=" + v.Intent)
	}
	if v.Procedure {
		b.WriteString(" procedure(" + v.Interface + ")")
	}
	for _, f := range []struct {
		on   bool
		name string
	}{{v.Dummy, "dummy"}, {v.Save, "save"}, {v.Allocatable, "allocatable"}, {v.Pointer, "pointer"},
		{v.Target, "target"}, {v.Optional, "optional"}, {v.External, "external"},
		{v.Intrinsic, "intrinsic"}, {v.Implicit, "implicit"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	if v.Dist != nil {
		b.WriteString(" " + p.distText(v.Dist))
	}
	return b.String()
}

func (p *printer) distText(d *Distribution) string {
	if d.AlignWith != "" {
		var s, t strings.Builder
		formatList(&s, d.AlignSource, p.notation)
		formatList(&t, d.AlignTarget, p.notation)
		return "align(" + s.String() + ") with " + d.AlignWith + "(" + t.String() + ")"
	}
	var fs []string
	for _, f := range d.Formats {
		s := f.Kind.String()
		if f.Arg != nil {
			s += "(" + p.fx(f.Arg) + ")"
		}
		fs = append(fs, s)
	}
	out := "distribute(" + strings.Join(fs, ", ") + ")"
	if d.Onto != "" {
		out += " onto " + d.Onto
	}
	return out
}
