package apt

import (
	"strings"
)

// Notation is the language an expression is written back in for people: the
// language of the program's source, so that a message about a C program reads
// argv[1] and p->n, not argv(1) and p%n.
type Notation int

const (
	// Fortran is lower-case Fortran (FormatExpr).
	Fortran Notation = iota
	// C is C syntax and precedence, for programs lifted from LLVM IR.
	C
)

// Notation is the notation of the program's source language.
func (p *Program) Notation() Notation {
	if p != nil && p.FromIR {
		return C
	}
	return Fortran
}

// FormatExprIn formats e in notation n.
func FormatExprIn(e Expr, n Notation) string {
	if n != C {
		return FormatExpr(e)
	}
	var b strings.Builder
	formatC(&b, e, 0)
	return b.String()
}

// C operator precedences, loosest first (C11 6.5); the APT's operators map
// onto them one to one, intrinsics the lifter made of C operators (mod, iand,
// ior, ieor, merge) back onto their operators.
const (
	cCond   = 1 // ?:
	cOrOr   = 2
	cAndAnd = 3
	cBitOr  = 4
	cBitXor = 5
	cBitAnd = 6
	cEq     = 7 // == !=
	cRel    = 8 // < <= > >=
	cAdd    = 10
	cMul    = 11
	cUnary  = 12
	cPost   = 13 // calls, subscripts, members
)

func cBinary(o Op) (string, int) {
	switch o {
	case OpOr:
		return "||", cOrOr
	case OpAnd:
		return "&&", cAndAnd
	case OpEq, OpEqv:
		return "==", cEq
	case OpNe, OpNeqv:
		return "!=", cEq
	case OpLt:
		return "<", cRel
	case OpLe:
		return "<=", cRel
	case OpGt:
		return ">", cRel
	case OpGe:
		return ">=", cRel
	case OpAdd:
		return "+", cAdd
	case OpSub:
		return "-", cAdd
	case OpMul:
		return "*", cMul
	case OpDiv:
		return "/", cMul
	}
	return "", 0
}

// cIntrinsic is the C operator an intrinsic of two arguments stands for.
var cIntrinsic = map[string]struct {
	op   string
	prec int
}{
	"mod": {"%", cMul}, "iand": {"&", cBitAnd}, "ior": {"|", cBitOr}, "ieor": {"^", cBitXor},
}

// cName is the C library name of a Fortran intrinsic the lifter mapped a C
// function onto.
var cName = map[string]string{"ceiling": "ceil", "nint": "round", "aint": "trunc"}

func cParen(b *strings.Builder, open bool, s string) {
	if open {
		b.WriteString("(" + s + ")")
		return
	}
	b.WriteString(s)
}

func cString(e Expr, ctx int) string {
	var b strings.Builder
	formatC(&b, e, ctx)
	return b.String()
}

func formatC(b *strings.Builder, e Expr, ctx int) {
	switch e := e.(type) {
	case nil:
	case *Const:
		switch e.Kind {
		case ConstChar:
			r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\x00", `\0`)
			b.WriteString(`"` + r.Replace(e.Text) + `"`)
		case ConstLogical:
			switch strings.ToLower(strings.Trim(e.Text, ".")) {
			case "true":
				b.WriteString("true")
			case "false":
				b.WriteString("false")
			default:
				b.WriteString(strings.ToLower(e.Text))
			}
		default:
			cParen(b, ctx > cUnary && strings.HasPrefix(e.Text, "-"), strings.ToLower(e.Text))
		}
	case *Name:
		// A field of a named struct is flattened into one name s%f.
		b.WriteString(strings.ReplaceAll(e.Name, "%", "."))
	case *Index:
		if e.Base != nil {
			formatC(b, e.Base, cPost)
			b.WriteString(member(e.Deref))
		}
		b.WriteString(strings.ReplaceAll(e.Name, "%", "."))
		for _, s := range e.Subs {
			b.WriteString("[")
			formatC(b, s, 0)
			b.WriteString("]")
		}
	case *Section:
		formatSection(b, e, C)
	case *Component:
		formatC(b, e.Base, cPost)
		b.WriteString(member(e.Deref) + e.Field)
	case *FuncCall:
		formatCCall(b, e, ctx)
	case *Unary:
		op := "-"
		switch e.Op {
		case OpNot:
			op = "!"
		case OpPlus:
			op = "+"
		}
		x := cString(e.X, cUnary)
		if strings.HasPrefix(x, "-") || strings.HasPrefix(x, "+") {
			x = "(" + x + ")" // - -x would read as a decrement
		}
		cParen(b, ctx > cUnary, op+x)
	case *Binary:
		if e.Op == OpPow {
			b.WriteString("pow(" + cString(e.X, 0) + ", " + cString(e.Y, 0) + ")")
			return
		}
		op, p := cBinary(e.Op)
		if op == "" {
			// An operator C has no form of (// concatenation): the
			// Fortran one, in parentheses.
			cParen(b, true, cString(e.X, 0)+" "+e.Op.String()+" "+cString(e.Y, 0))
			return
		}
		sep := " "
		if p == cMul {
			sep = ""
		}
		cParen(b, p < ctx, cString(e.X, p)+sep+op+sep+cString(e.Y, p+1))
	case *ArrayCons:
		b.WriteString("{")
		formatList(b, e.Elems, C)
		b.WriteString("}")
	default:
		// Fortran-only forms (implied DO, keywords, *) are never lifted
		// from C: written as Fortran.
		b.WriteString(FormatExpr(e))
	}
}

func member(deref bool) string {
	if deref {
		return "->"
	}
	return "."
}

func formatCCall(b *strings.Builder, f *FuncCall, ctx int) {
	if f.Intrinsic {
		if o, ok := cIntrinsic[f.Name]; ok && len(f.Args) == 2 {
			if f.Name == "mod" && f.Type.Base == TypeReal {
				b.WriteString("fmod(" + cString(f.Args[0], 0) + ", " + cString(f.Args[1], 0) + ")")
				return
			}
			sep := " "
			if o.prec == cMul {
				sep = ""
			}
			cParen(b, o.prec < ctx, cString(f.Args[0], o.prec)+sep+o.op+sep+cString(f.Args[1], o.prec+1))
			return
		}
		switch {
		case f.Name == "merge" && len(f.Args) == 3:
			// merge(t, f, cond) is cond ? t : f.
			cParen(b, cCond < ctx, cString(f.Args[2], cOrOr)+" ? "+cString(f.Args[0], 0)+" : "+cString(f.Args[1], cCond))
			return
		case f.Name == "int" && len(f.Args) == 1:
			cParen(b, cUnary < ctx, "(int)"+cString(f.Args[0], cUnary))
			return
		}
	}
	name := f.Name
	if f.Intrinsic {
		if n, ok := cName[name]; ok {
			name = n
		}
	}
	if f.Display != "" {
		name = f.Display
	}
	b.WriteString(name + "(")
	formatList(b, f.Args, C)
	b.WriteString(")")
}
