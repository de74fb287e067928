package fortran

import (
	"strconv"
	"strings"

	"github.com/mkvet/mkvet/frontend/apt"
)

// maxExprDepth bounds recursion so that pathological input (((((...))))) yields a
// diagnostic instead of exhausting the stack.
const maxExprDepth = 200

// expr parses an expression. Names are lower-cased; a parenthesised reference
// name(args) is returned as an Index and later resolved to a function call when
// name is not an array (Fortran's syntax does not tell them apart).
func (p *parser) expr() apt.Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxExprDepth {
		p.fail(p.restAt(), "expression nested too deeply")
		return &apt.Const{Kind: apt.ConstInt, Text: "0"}
	}
	return p.definedBinary()
}

// intrinsicDotOps are the operators written .NAME. that Fortran defines;
// any other .name. is a defined operator (F2008 7.1.6).
var intrinsicDotOps = map[string]bool{"EQV": true, "NEQV": true, "OR": true, "AND": true, "NOT": true,
	"EQ": true, "NE": true, "LT": true, "LE": true, "GT": true, "GE": true}

// definedOp returns the name of the defined operator that follows, if any.
func (p *parser) definedOp() (string, bool) {
	t := p.peek()
	if t.kind != tDotOp || intrinsicDotOps[t.text] {
		return "", false
	}
	return "operator(." + strings.ToLower(t.text) + ".)", true
}

// definedBinary parses x {.op. y}: a defined binary operator binds least
// (F2008 7.1.2.9); it is the reference of the function its interface
// OPERATOR(.op.) names, which the typer resolves by the operands.
func (p *parser) definedBinary() apt.Expr {
	x := p.binary(1)
	for {
		name, ok := p.definedOp()
		if !ok {
			return x
		}
		p.next()
		y := p.binary(1)
		x = &apt.FuncCall{Pos: x.At(), Name: name, Args: []apt.Expr{x, y}}
	}
}

// binary levels: 1 eqv/neqv, 2 or, 3 and, 4 not, 5 relational, 6 concat,
// 7 add, 8 mul, 9 pow.
func (p *parser) binary(level int) apt.Expr {
	switch level {
	case 4:
		if t := p.peek(); t.kind == tDotOp && t.text == "NOT" {
			p.next()
			p.depth++
			defer func() { p.depth-- }()
			if p.depth > maxExprDepth {
				p.fail(t.at, "expression nested too deeply")
				return &apt.Const{Kind: apt.ConstInt, Text: "0"}
			}
			return &apt.Unary{Pos: p.pos(t.at), Op: apt.OpNot, X: p.binary(4)}
		}
		return p.binary(5)
	case 7:
		return p.additive()
	case 9:
		return p.power()
	}
	x := p.binary(level + 1)
	for {
		op, ok := p.binaryOp(level)
		if !ok {
			return x
		}
		y := p.binary(level + 1)
		x = &apt.Binary{Pos: x.At(), Op: op, X: x, Y: y}
		if level == 5 {
			return x // relational operators do not associate
		}
	}
}

func (p *parser) binaryOp(level int) (apt.Op, bool) {
	t := p.peek()
	var op apt.Op
	switch {
	case t.kind == tDotOp:
		switch t.text {
		case "EQV":
			op = apt.OpEqv
		case "NEQV":
			op = apt.OpNeqv
		case "OR":
			op = apt.OpOr
		case "AND":
			op = apt.OpAnd
		case "EQ":
			op = apt.OpEq
		case "NE":
			op = apt.OpNe
		case "LT":
			op = apt.OpLt
		case "LE":
			op = apt.OpLe
		case "GT":
			op = apt.OpGt
		case "GE":
			op = apt.OpGe
		}
	case t.kind == tOp:
		switch t.text {
		case "==":
			op = apt.OpEq
		case "/=":
			op = apt.OpNe
		case "<":
			op = apt.OpLt
		case "<=":
			op = apt.OpLe
		case ">":
			op = apt.OpGt
		case ">=":
			op = apt.OpGe
		case "//":
			op = apt.OpConcat
		case "*":
			op = apt.OpMul
		case "/":
			op = apt.OpDiv
		}
	}
	lv := 0
	switch op {
	case apt.OpEqv, apt.OpNeqv:
		lv = 1
	case apt.OpOr:
		lv = 2
	case apt.OpAnd:
		lv = 3
	case apt.OpEq, apt.OpNe, apt.OpLt, apt.OpLe, apt.OpGt, apt.OpGe:
		lv = 5
	case apt.OpConcat:
		lv = 6
	case apt.OpMul, apt.OpDiv:
		lv = 8
	}
	if lv != level || op == 0 {
		return 0, false
	}
	p.next()
	return op, true
}

// additive parses [+-] term {(+|-) term}; a leading sign applies to the first
// term, so -a*b is -(a*b) and -a**2 is -(a**2).
func (p *parser) additive() apt.Expr {
	var x apt.Expr
	if t := p.peek(); t.kind == tOp && (t.text == "-" || t.text == "+") {
		p.next()
		op := apt.OpNeg
		if t.text == "+" {
			op = apt.OpPlus
		}
		x = &apt.Unary{Pos: p.pos(t.at), Op: op, X: p.binary(8)}
	} else {
		x = p.binary(8)
	}
	for {
		t := p.peek()
		if t.kind != tOp || (t.text != "+" && t.text != "-") {
			return x
		}
		p.next()
		op := apt.OpAdd
		if t.text == "-" {
			op = apt.OpSub
		}
		x = &apt.Binary{Pos: x.At(), Op: op, X: x, Y: p.binary(8)}
	}
}

func (p *parser) power() apt.Expr {
	x := p.primary()
	if p.accept("**") {
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxExprDepth {
			p.fail(p.restAt(), "expression nested too deeply")
			return x
		}
		var y apt.Expr
		// a**-b is a common extension; parse the sign as part of the exponent.
		if t := p.peek(); t.kind == tOp && (t.text == "-" || t.text == "+") {
			p.next()
			op := apt.OpNeg
			if t.text == "+" {
				op = apt.OpPlus
			}
			y = &apt.Unary{Pos: p.pos(t.at), Op: op, X: p.power()}
		} else {
			y = p.power()
		}
		return &apt.Binary{Pos: x.At(), Op: apt.OpPow, X: x, Y: y}
	}
	return x
}

// constType returns the type of a numeric literal: a D exponent or kind suffix 8
// makes it double precision; a named kind (1.0_dp) is kept as KindExpr.
func constType(text string, real bool) apt.Type {
	t := apt.Type{Base: apt.TypeInteger, Kind: 4}
	if real {
		t = apt.Type{Base: apt.TypeReal, Kind: 4}
		if strings.ContainsAny(text, "D") && !strings.Contains(text, "_") {
			t.Kind = 8
		}
		if strings.ContainsAny(text, "Q") && !strings.Contains(text, "_") {
			t.Kind = 16
		}
	}
	if k := strings.IndexByte(text, '_'); k >= 0 {
		suf := text[k+1:]
		if n, err := strconv.Atoi(suf); err == nil {
			t.Kind = n
		} else {
			t.Kind = 0
			t.KindExpr = &apt.Name{Name: strings.ToLower(suf), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
		}
	}
	return t
}

func (p *parser) primary() apt.Expr {
	t := p.next()
	pos := p.pos(t.at)
	switch t.kind {
	case tInt:
		return &apt.Const{Pos: pos, Kind: apt.ConstInt, Text: t.text, Type: constType(t.text, false)}
	case tReal:
		return &apt.Const{Pos: pos, Kind: apt.ConstReal, Text: t.text, Type: constType(t.text, true)}
	case tString:
		if n := p.peek(); n.kind == tIdent && bozLetter(n.text) != "" {
			// The postfix form 'FF'Z of a BOZ constant (an extension
			// gfortran takes with -fallow-invalid-boz): a character
			// constant is never followed by a name otherwise.
			p.next()
			return &apt.Const{Pos: pos, Kind: apt.ConstBOZ, Text: bozLetter(n.text) + "'" + t.text + "'", Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
		}
		return (&apt.Const{Pos: pos, Kind: apt.ConstChar, Text: t.text,
			Type: apt.Type{Base: apt.TypeCharacter, Len: &apt.Const{Kind: apt.ConstInt, Text: strconv.Itoa(len(t.text)), Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}}})
	case tLogical:
		return &apt.Const{Pos: pos, Kind: apt.ConstLogical, Text: t.text, Type: apt.Type{Base: apt.TypeLogical, Kind: 4}}
	case tDotOp:
		if !intrinsicDotOps[t.text] {
			// A defined unary operator binds tightest: .op. primary.
			p.depth++
			defer func() { p.depth-- }()
			if p.depth > maxExprDepth {
				p.fail(t.at, "expression nested too deeply")
				break
			}
			return &apt.FuncCall{Pos: pos, Name: "operator(." + strings.ToLower(t.text) + ".)", Args: []apt.Expr{p.primary()}}
		}
	case tIdent:
		// BOZ constants: Z'FF', B'101', O'17', and X'FF' for Z'FF' (an
		// extension gfortran takes with -fallow-invalid-boz; NPB's
		// randi8.f writes it).
		if l := bozLetter(t.text); l != "" && p.peek().kind == tString {
			s := p.next()
			return &apt.Const{Pos: pos, Kind: apt.ConstBOZ, Text: l + "'" + s.text + "'", Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
		}
		return p.designatorRest(strings.ToLower(t.text), pos, nil)
	case tOp:
		switch t.text {
		case "(":
			return p.parenthesised(pos)
		case "(/":
			elems := p.exprList("/)")
			p.expect("/)")
			return &apt.ArrayCons{Pos: pos, Elems: elems}
		case "[":
			elems := p.exprList("]")
			p.expect("]")
			return &apt.ArrayCons{Pos: pos, Elems: elems}
		case "*":
			return &apt.Star{Pos: pos}
		}
	}
	p.fail(t.at, "expected an expression, found "+describe(t))
	return &apt.Const{Pos: pos, Kind: apt.ConstInt, Text: "0", Type: apt.Type{Base: apt.TypeInteger, Kind: 4}}
}

// designatorRest parses the rest of a data reference or function reference
// starting with name: name, name(args), name%comp, name(args)%comp(args)...
func (p *parser) designatorRest(name string, pos apt.Pos, base apt.Expr) apt.Expr {
	var x apt.Expr
	if base == nil && p.assoc != nil {
		if sel, ok := p.assoc(name); ok {
			var args []apt.Expr
			subscripted := p.at("(")
			at := p.i
			if subscripted {
				p.next()
				args = p.argList()
				p.expect(")")
			}
			if y, ok := substitute(sel, pos, args, subscripted); ok {
				return p.componentsOf(y)
			}
			p.i, p.peeked = at, false // written as the name itself
		}
	}
	if p.at("(") {
		p.next()
		args := p.argList()
		p.expect(")")
		x = &apt.Index{Pos: pos, Name: name, Subs: args, Base: base}
		// Substring of an array element: a(i)(1:3).
		if p.at("(") {
			p.next()
			sub := p.argList()
			p.expect(")")
			x = &apt.Index{Pos: pos, Name: name, Subs: append(args, sub...), Base: base}
		}
	} else if base != nil {
		x = &apt.Component{Pos: pos, Base: base, Field: name}
	} else {
		x = &apt.Name{Pos: pos, Name: name}
	}
	return p.componentsOf(x)
}

// componentsOf parses the component references that follow x: x%f(...)...
func (p *parser) componentsOf(x apt.Expr) apt.Expr {
	if p.at("%") {
		p.next()
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxExprDepth {
			p.fail(p.restAt(), "component reference nested too deeply")
			return x
		}
		t := p.next()
		if t.kind != tIdent {
			p.fail(t.at, "expected a component name after %, found "+describe(t))
			return x
		}
		return p.designatorRest(strings.ToLower(t.text), p.pos(t.at), x)
	}
	return x
}

// argList parses actual arguments or subscripts up to (not including) ")":
// expressions, sections lo:hi:stride, keyword arguments name=value and
// alternate-return labels *10.
func (p *parser) argList() []apt.Expr {
	var args []apt.Expr
	if p.at(")") {
		return args
	}
	for {
		args = append(args, p.arg())
		if !p.accept(",") {
			return args
		}
	}
}

func (p *parser) arg() apt.Expr {
	t := p.peek()
	if t.kind == tIdent {
		// name=value (but not name==value).
		save, savePeek, saveTok := p.i, p.peeked, p.tok
		p.next()
		if p.at("=") {
			p.next()
			return &apt.Keyword{Pos: p.pos(t.at), Name: strings.ToLower(t.text), Value: p.expr()}
		}
		p.i, p.peeked, p.tok = save, savePeek, saveTok
	}
	if t.kind == tOp && t.text == "*" {
		// Alternate return *label, or an assumed-size star.
		p.next()
		if n := p.peek(); n.kind == tInt {
			p.next()
			return &apt.Keyword{Pos: p.pos(t.at), Name: "*", Value: &apt.Const{Pos: p.pos(n.at), Kind: apt.ConstInt, Text: n.text, Type: constType(n.text, false)}}
		}
		return &apt.Star{Pos: p.pos(t.at)}
	}
	pos := p.pos(t.at)
	var lo apt.Expr
	if !p.at(":") && !p.at("::") {
		lo = p.expr()
		if !p.at(":") && !p.at("::") {
			return lo
		}
	}
	// Section lo:hi[:stride]; the lexer reads lo::stride's colons as one
	// token.
	if p.accept("::") {
		return &apt.Section{Pos: pos, Lo: lo, Stride: p.expr()}
	}
	p.next()
	s := &apt.Section{Pos: pos, Lo: lo}
	if !p.at(",") && !p.at(")") && !p.at(":") {
		s.Hi = p.expr()
	}
	if p.accept(":") {
		s.Stride = p.expr()
	}
	return s
}

// exprList parses expressions (with implied DOs) separated by commas until the
// closing token close.
func (p *parser) exprList(close string) []apt.Expr {
	var out []apt.Expr
	if p.at(close) {
		return out
	}
	for {
		out = append(out, p.expr())
		if !p.accept(",") {
			return out
		}
	}
}

// parenthesised parses after "(": a parenthesised expression, a complex
// constant (re, im), or an implied DO (items, v = lo, hi[, step]).
func (p *parser) parenthesised(pos apt.Pos) apt.Expr {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxExprDepth {
		p.fail(p.restAt(), "expression nested too deeply")
		return &apt.Const{Pos: pos, Kind: apt.ConstInt, Text: "0"}
	}
	var items []apt.Expr
	for {
		if v, ok := p.impliedDoControl(); ok {
			v.Pos, v.Items = pos, items
			p.expect(")")
			return v
		}
		items = append(items, p.expr())
		if p.accept(")") {
			break
		}
		if !p.accept(",") {
			t := p.peek()
			p.fail(t.at, "expected , or ), found "+describe(t))
			return items[0]
		}
	}
	if len(items) == 1 {
		return items[0]
	}
	if len(items) == 2 {
		return &apt.Const{Pos: pos, Kind: apt.ConstComplex, Text: "(" + apt.FormatExpr(items[0]) + "," + apt.FormatExpr(items[1]) + ")",
			Type: complexConstType(items[0], items[1])}
	}
	p.fail(p.s.posIndex(pos), "unexpected list in parentheses")
	return items[0]
}

// complexConstType is the type of the complex constant (re, im): the kind
// of its more precise real part, default for two integers (F2008 4.4.2.4);
// a named kind (1.0_dp) is left to the typer.
func complexConstType(re, im apt.Expr) apt.Type {
	t := apt.Type{Base: apt.TypeComplex, Kind: 8}
	for _, part := range []apt.Expr{re, im} {
		pt := apt.TypeOf(part)
		switch {
		case pt.Base != apt.TypeReal || t.KindExpr != nil:
		case pt.KindExpr != nil:
			t.Kind, t.KindExpr = 0, pt.KindExpr
		case 2*pt.Kind > t.Kind:
			t.Kind = 2 * pt.Kind // Kind counts bytes
		}
	}
	return t
}

// controlVar consumes "name =" (a single "=") and returns the lower-case
// name; otherwise it consumes nothing.
func (p *parser) controlVar() (string, bool) {
	t := p.peek()
	if t.kind != tIdent {
		return "", false
	}
	save, savePeek, saveTok := p.i, p.peeked, p.tok
	p.next()
	if !p.at("=") {
		p.i, p.peeked, p.tok = save, savePeek, saveTok
		return "", false
	}
	p.next()
	return strings.ToLower(t.text), true
}

// impliedDoControl parses "v = lo, hi[, step]" when the next tokens are an
// identifier and a single "=".
func (p *parser) impliedDoControl() (*apt.ImpliedDo, bool) {
	name, ok := p.controlVar()
	if !ok {
		return nil, false
	}
	d := &apt.ImpliedDo{Var: name}
	d.Lo = p.expr()
	p.expect(",")
	d.Hi = p.expr()
	if p.accept(",") {
		d.Step = p.expr()
	}
	return d, true
}

// posIndex finds the byte offset of a position (used only for diagnostics).
func (s *stmt) posIndex(pos apt.Pos) int {
	for i, q := range s.pos {
		if int(q.line) == pos.Line && int(q.col) == pos.Col {
			return i
		}
	}
	return 0
}

// bozLetter returns the base letter of a BOZ constant a name is (B, O or
// Z; X is Z), "" for any other name.
func bozLetter(name string) string {
	switch strings.ToUpper(name) {
	case "B", "O", "Z":
		return strings.ToUpper(name)
	case "X":
		return "Z"
	}
	return ""
}
