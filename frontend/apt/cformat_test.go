package apt_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/internal/e2e"
)

func TestFormatExprC(t *testing.T) {
	intT := apt.Type{Base: apt.TypeInteger, Kind: 4}
	str := &apt.Const{Kind: apt.ConstChar, Text: `S"H\`}
	argv1 := &apt.Index{Name: "argv", Subs: []apt.Expr{cn("1")}, Type: apt.Type{Base: apt.TypeCharacter}}
	nd := &apt.Name{Name: "nd", Type: intT}
	cases := []struct {
		e    apt.Expr
		want string
	}{
		{&apt.FuncCall{Name: "strncmp", Args: []apt.Expr{argv1, str, cn("2")}}, `strncmp(argv[1], "S\"H\\", 2)`},
		{&apt.Component{Base: nd, Field: "indegree", Deref: true}, "nd->indegree"},
		{&apt.Component{Base: &apt.Component{Base: nd, Field: "in", Deref: true}, Field: "n"}, "nd->in.n"},
		{&apt.Index{Base: nd, Name: "node", Subs: []apt.Expr{nm("k"), nm("j")}, Deref: true}, "nd->node[k][j]"},
		{nm("s%f"), "s.f"},
		{&apt.Binary{Op: apt.OpNe, X: nm("feat"), Y: cn("0")}, "feat != 0"},
		{&apt.Unary{Op: apt.OpNot, X: &apt.Binary{Op: apt.OpEq, X: nm("a"), Y: nm("b")}}, "!(a == b)"},
		{&apt.Unary{Op: apt.OpNeg, X: &apt.Unary{Op: apt.OpNeg, X: nm("a")}}, "-(-a)"},
		{&apt.Binary{Op: apt.OpPow, X: nm("a"), Y: cn("2")}, "pow(a, 2)"},
		{&apt.FuncCall{Name: "mod", Intrinsic: true, Type: intT, Args: []apt.Expr{&apt.Binary{Op: apt.OpAdd, X: nm("i"), Y: cn("1")}, nm("n")}}, "(i + 1)%n"},
		{&apt.FuncCall{Name: "mod", Intrinsic: true, Type: apt.Type{Base: apt.TypeReal, Kind: 8}, Args: []apt.Expr{nm("x"), nm("y")}}, "fmod(x, y)"},
		{&apt.FuncCall{Name: "ceiling", Intrinsic: true, Args: []apt.Expr{nm("x")}}, "ceil(x)"},
		{&apt.Const{Kind: apt.ConstLogical, Text: ".TRUE."}, "true"},
	}
	for _, c := range cases {
		if got := apt.FormatExprIn(c.e, apt.C); got != c.want {
			t.Errorf("FormatExprIn(%s, C) = %s, want %s", apt.FormatExpr(c.e), got, c.want)
		}
	}
	if got := apt.FormatExprIn(cases[0].e, apt.Fortran); got != apt.FormatExpr(cases[0].e) {
		t.Errorf("Fortran notation %s differs from FormatExpr", got)
	}
}

// randIntExpr builds a random integer expression over a, b and c out of the
// operators a C program lifted to the APT can contain. Divisors are nonzero
// constants, so every expression is defined.
func randIntExpr(r *rand.Rand, depth int) apt.Expr {
	if depth == 0 || r.IntN(4) == 0 {
		if r.IntN(2) == 0 {
			return nm([]string{"a", "b", "c"}[r.IntN(3)])
		}
		return cn(strconv.Itoa(r.IntN(19) - 9))
	}
	x := func() apt.Expr { return randIntExpr(r, depth-1) }
	divisor := func() apt.Expr {
		d := r.IntN(9) + 1
		if r.IntN(2) == 0 {
			d = -d
		}
		return cn(strconv.Itoa(d))
	}
	intT := apt.Type{Base: apt.TypeInteger, Kind: 8}
	switch r.IntN(9) {
	case 0:
		ops := []apt.Op{apt.OpAdd, apt.OpSub, apt.OpMul}
		return &apt.Binary{Op: ops[r.IntN(len(ops))], X: x(), Y: x()}
	case 1:
		return &apt.Binary{Op: apt.OpDiv, X: x(), Y: divisor(), IntDiv: true}
	case 2:
		ops := []apt.Op{apt.OpEq, apt.OpNe, apt.OpLt, apt.OpLe, apt.OpGt, apt.OpGe, apt.OpEqv, apt.OpNeqv}
		return &apt.Binary{Op: ops[r.IntN(len(ops))], X: x(), Y: x()}
	case 3:
		ops := []apt.Op{apt.OpAnd, apt.OpOr}
		return &apt.Binary{Op: ops[r.IntN(len(ops))], X: x(), Y: x()}
	case 4:
		ops := []apt.Op{apt.OpNeg, apt.OpNot}
		return &apt.Unary{Op: ops[r.IntN(len(ops))], X: x()}
	case 5:
		return &apt.FuncCall{Name: "mod", Intrinsic: true, Type: intT, Args: []apt.Expr{x(), divisor()}}
	case 6:
		fns := []string{"iand", "ior", "ieor"}
		return &apt.FuncCall{Name: fns[r.IntN(len(fns))], Intrinsic: true, Type: intT, Args: []apt.Expr{x(), x()}}
	case 7:
		return &apt.FuncCall{Name: "merge", Intrinsic: true, Type: intT, Args: []apt.Expr{x(), x(), x()}}
	default:
		return &apt.FuncCall{Name: "int", Intrinsic: true, Type: intT, Args: []apt.Expr{x()}}
	}
}

// evalC is the value C gives e (64-bit integers; a comparison or logical
// operator yields 0 or 1): the meaning the printed form must keep.
func evalC(e apt.Expr, vars map[string]int64) int64 {
	b2i := func(b bool) int64 {
		if b {
			return 1
		}
		return 0
	}
	switch e := e.(type) {
	case *apt.Const:
		v, _ := strconv.ParseInt(e.Text, 10, 64)
		return v
	case *apt.Name:
		return vars[e.Name]
	case *apt.Unary:
		x := evalC(e.X, vars)
		if e.Op == apt.OpNot {
			return b2i(x == 0)
		}
		return -x
	case *apt.Binary:
		x, y := evalC(e.X, vars), evalC(e.Y, vars)
		switch e.Op {
		case apt.OpAdd:
			return x + y
		case apt.OpSub:
			return x - y
		case apt.OpMul:
			return x * y
		case apt.OpDiv:
			return x / y
		case apt.OpEq, apt.OpEqv:
			return b2i(x == y)
		case apt.OpNe, apt.OpNeqv:
			return b2i(x != y)
		case apt.OpLt:
			return b2i(x < y)
		case apt.OpLe:
			return b2i(x <= y)
		case apt.OpGt:
			return b2i(x > y)
		case apt.OpGe:
			return b2i(x >= y)
		case apt.OpAnd:
			return b2i(x != 0 && y != 0)
		case apt.OpOr:
			return b2i(x != 0 || y != 0)
		}
	case *apt.FuncCall:
		var a []int64
		for _, x := range e.Args {
			a = append(a, evalC(x, vars))
		}
		switch e.Name {
		case "mod":
			return a[0] % a[1]
		case "iand":
			return a[0] & a[1]
		case "ior":
			return a[0] | a[1]
		case "ieor":
			return a[0] ^ a[1]
		case "merge":
			if a[2] != 0 {
				return a[0]
			}
			return a[1]
		case "int":
			return a[0]
		}
	}
	panic(fmt.Sprintf("evalC: %T", e))
}

// TestFormatExprCAgainstClang checks the C notation's precedence and
// associativity against a real compiler: random expressions are printed,
// compiled by clang-14 into a program that prints their values, and each
// value must be the one the expression tree has.
func TestFormatExprCAgainstClang(t *testing.T) {
	e2e.Require(t, "clang-14")
	r := rand.New(rand.NewPCG(17, 27))
	vars := map[string]int64{"a": 7, "b": -3, "c": 0}
	var exprs []apt.Expr
	var src strings.Builder
	src.WriteString("#include <stdio.h>\n#include <stdbool.h>\nint main(void) {\n\tlong long a = 7, b = -3, c = 0;\n")
	for range 400 {
		e := randIntExpr(r, 4)
		exprs = append(exprs, e)
		fmt.Fprintf(&src, "\tprintf(\"%%lld\\n\", (long long)(%s));\n", apt.FormatExprIn(e, apt.C))
	}
	src.WriteString("\treturn 0;\n}\n")
	dir := t.TempDir()
	c, exe := filepath.Join(dir, "exprs.c"), filepath.Join(dir, "exprs")
	if err := os.WriteFile(c, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("clang-14", "-w", "-O0", c, "-o", exe).CombinedOutput(); err != nil {
		t.Fatalf("clang-14: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(exprs) {
		t.Fatalf("%d values printed for %d expressions", len(lines), len(exprs))
	}
	bad := 0
	for i, e := range exprs {
		want := evalC(e, vars)
		if got, _ := strconv.ParseInt(lines[i], 10, 64); got != want {
			bad++
			if bad <= 5 {
				t.Errorf("%s (Fortran %s): clang computes %d, the tree %d", apt.FormatExprIn(e, apt.C), apt.FormatExpr(e), got, want)
			}
		}
	}
	t.Logf("%d expressions, %d differ", len(exprs), bad)
}

func nm(n string) *apt.Name {
	return &apt.Name{Name: n, Type: apt.Type{Base: apt.TypeInteger, Kind: 8}}
}

func cn(s string) *apt.Const { return &apt.Const{Kind: apt.ConstInt, Text: s} }
