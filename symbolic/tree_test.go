package symbolic

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"
)

// tnode is an expression tree built by the tests independently of Expr, with its
// own big.Rat evaluator: the oracle for canonicalisation and evaluation.
type tnode struct {
	op   string // num sym + - * / neg pow floor ceil trunc mod modulo div fdiv min max abs
	kids []*tnode
	val  *big.Rat // num
	name string   // sym
	k    int      // pow exponent
}

var treeSyms = []string{"N", "P", "k"}

// genTree returns a random tree of at most the given depth. Divisors are
// non-zero constants or symbols (the evaluation points avoid zero).
func genTree(r *rand.Rand, depth int) *tnode {
	if depth <= 1 || r.IntN(4) == 0 {
		if r.IntN(3) == 0 {
			return &tnode{op: "num", val: big.NewRat(int64(r.IntN(13)-6), int64(1+r.IntN(3)))}
		}
		return &tnode{op: "sym", name: treeSyms[r.IntN(len(treeSyms))]}
	}
	d := depth - 1
	switch r.IntN(16) {
	case 0, 1:
		return &tnode{op: "+", kids: []*tnode{genTree(r, d), genTree(r, d)}}
	case 2:
		return &tnode{op: "-", kids: []*tnode{genTree(r, d), genTree(r, d)}}
	case 3, 4:
		return &tnode{op: "*", kids: []*tnode{genTree(r, d), genTree(r, d)}}
	case 5:
		return &tnode{op: "/", kids: []*tnode{genTree(r, d), genDivisor(r)}}
	case 6:
		return &tnode{op: "neg", kids: []*tnode{genTree(r, d)}}
	case 7:
		return &tnode{op: "pow", kids: []*tnode{genTree(r, min(d, 2))}, k: r.IntN(4)}
	case 8:
		return &tnode{op: "floor", kids: []*tnode{genTree(r, d)}}
	case 9:
		return &tnode{op: "ceil", kids: []*tnode{genTree(r, d)}}
	case 10:
		return &tnode{op: "trunc", kids: []*tnode{genTree(r, d)}}
	case 11:
		ops := []string{"mod", "modulo", "div", "fdiv"}
		return &tnode{op: ops[r.IntN(4)], kids: []*tnode{genTree(r, d), genDivisor(r)}}
	case 12, 13:
		ops := []string{"min", "max"}
		n := 2 + r.IntN(2)
		t := &tnode{op: ops[r.IntN(2)]}
		for range n {
			t.kids = append(t.kids, genTree(r, d))
		}
		return t
	case 14:
		return &tnode{op: "abs", kids: []*tnode{genTree(r, d)}}
	}
	return &tnode{op: "*", kids: []*tnode{{op: "num", val: big.NewRat(int64(r.IntN(7)-3), 1)}, genTree(r, d)}}
}

func genDivisor(r *rand.Rand) *tnode {
	if r.IntN(2) == 0 {
		v := int64(1 + r.IntN(5))
		if r.IntN(3) == 0 {
			v = -v
		}
		return &tnode{op: "num", val: big.NewRat(v, 1)}
	}
	return &tnode{op: "sym", name: treeSyms[r.IntN(len(treeSyms))]}
}

// evalTree evaluates t with big.Rat arithmetic, following the definitions
// (Fortran MOD truncates, MODULO floors).
func evalTree(t *tnode, env map[string]*big.Rat) *big.Rat {
	kid := func(i int) *big.Rat { return evalTree(t.kids[i], env) }
	switch t.op {
	case "num":
		return new(big.Rat).Set(t.val)
	case "sym":
		return new(big.Rat).Set(env[t.name])
	case "+":
		return new(big.Rat).Add(kid(0), kid(1))
	case "-":
		return new(big.Rat).Sub(kid(0), kid(1))
	case "*":
		return new(big.Rat).Mul(kid(0), kid(1))
	case "/":
		return new(big.Rat).Quo(kid(0), kid(1))
	case "neg":
		return new(big.Rat).Neg(kid(0))
	case "pow":
		x := kid(0)
		res := big.NewRat(1, 1)
		for range t.k {
			res.Mul(res, x)
		}
		return res
	case "floor":
		return ratFloor(kid(0))
	case "ceil":
		x := kid(0)
		return new(big.Rat).Neg(ratFloor(new(big.Rat).Neg(x)))
	case "trunc":
		return ratTrunc(kid(0))
	case "div":
		return ratTrunc(new(big.Rat).Quo(kid(0), kid(1)))
	case "fdiv":
		return ratFloor(new(big.Rat).Quo(kid(0), kid(1)))
	case "mod":
		a, b := kid(0), kid(1)
		q := ratTrunc(new(big.Rat).Quo(a, b))
		return new(big.Rat).Sub(a, q.Mul(q, b))
	case "modulo":
		a, b := kid(0), kid(1)
		q := ratFloor(new(big.Rat).Quo(a, b))
		return new(big.Rat).Sub(a, q.Mul(q, b))
	case "min", "max":
		best := kid(0)
		for i := 1; i < len(t.kids); i++ {
			v := kid(i)
			if c := v.Cmp(best); t.op == "min" && c < 0 || t.op == "max" && c > 0 {
				best = v
			}
		}
		return best
	case "abs":
		return new(big.Rat).Abs(kid(0))
	}
	panic("evalTree: " + t.op)
}

func ratFloor(x *big.Rat) *big.Rat {
	q, m := new(big.Int).DivMod(x.Num(), x.Denom(), new(big.Int))
	_ = m
	return new(big.Rat).SetInt(q) // Euclidean division with a positive divisor is the floor
}

func ratTrunc(x *big.Rat) *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Quo(x.Num(), x.Denom()))
}

// build constructs t with the Expr API.
func build(t *tnode) Expr {
	kid := func(i int) Expr { return build(t.kids[i]) }
	switch t.op {
	case "num":
		return Const(RatBig(t.val))
	case "sym":
		return Sym(t.name)
	case "+":
		return kid(0).Add(kid(1))
	case "-":
		return kid(0).Sub(kid(1))
	case "*":
		return kid(0).Mul(kid(1))
	case "/":
		return kid(0).Div(kid(1))
	case "neg":
		return kid(0).Neg()
	case "pow":
		return kid(0).Pow(t.k)
	case "floor":
		return Floor(kid(0))
	case "ceil":
		return Ceil(kid(0))
	case "trunc":
		return Trunc(kid(0))
	case "div":
		return IDiv(kid(0), kid(1))
	case "fdiv":
		return FloorDiv(kid(0), kid(1))
	case "mod":
		return Mod(kid(0), kid(1))
	case "modulo":
		return Modulo(kid(0), kid(1))
	case "min", "max":
		args := make([]Expr, len(t.kids))
		for i := range t.kids {
			args[i] = kid(i)
		}
		if t.op == "min" {
			return Min(args...)
		}
		return Max(args...)
	case "abs":
		return Abs(kid(0))
	}
	panic("build: " + t.op)
}

func num(n int64) *tnode { return &tnode{op: "num", val: big.NewRat(n, 1)} }

// rewrite returns a tree equal in value to t, built with different operations:
// commuted operands, distributed products, ceil as -floor(-x), floor(x) as
// floor(x + n) - n, MODULO and MOD expanded, min as -max(-a,..), abs as max(x,-x),
// subtraction as addition of a negation, trunc(x) as -trunc(-x).
func rewrite(r *rand.Rand, t *tnode) *tnode {
	if t.op == "num" || t.op == "sym" {
		return t
	}
	kids := make([]*tnode, len(t.kids))
	for i, k := range t.kids {
		kids[i] = rewrite(r, k)
	}
	neg := func(x *tnode) *tnode { return &tnode{op: "*", kids: []*tnode{num(-1), x}} }
	switch t.op {
	case "+", "*":
		if r.IntN(2) == 0 {
			kids[0], kids[1] = kids[1], kids[0]
		}
		if t.op == "*" && kids[1].op == "+" && r.IntN(2) == 0 {
			a, b := kids[1].kids[0], kids[1].kids[1]
			return &tnode{op: "+", kids: []*tnode{{op: "*", kids: []*tnode{kids[0], a}}, {op: "*", kids: []*tnode{kids[0], b}}}}
		}
		return &tnode{op: t.op, kids: kids}
	case "-":
		return &tnode{op: "+", kids: []*tnode{neg(kids[1]), kids[0]}}
	case "neg":
		return neg(kids[0])
	case "ceil":
		return neg(&tnode{op: "floor", kids: []*tnode{neg(kids[0])}})
	case "floor":
		n := int64(r.IntN(7) - 3)
		return &tnode{op: "+", kids: []*tnode{{op: "floor", kids: []*tnode{{op: "+", kids: []*tnode{kids[0], num(n)}}}}, num(-n)}}
	case "trunc":
		return neg(&tnode{op: "trunc", kids: []*tnode{neg(kids[0])}})
	case "modulo": // a - b*floor(a/b)
		a, b := kids[0], kids[1]
		return &tnode{op: "-", kids: []*tnode{a, {op: "*", kids: []*tnode{b, {op: "fdiv", kids: []*tnode{a, b}}}}}}
	case "mod": // a - b*trunc(a/b)
		a, b := kids[0], kids[1]
		return &tnode{op: "-", kids: []*tnode{a, {op: "*", kids: []*tnode{b, {op: "div", kids: []*tnode{a, b}}}}}}
	case "min", "max":
		r.Shuffle(len(kids), func(i, j int) { kids[i], kids[j] = kids[j], kids[i] })
		if r.IntN(2) == 0 {
			other := map[string]string{"min": "max", "max": "min"}[t.op]
			nk := make([]*tnode, len(kids))
			for i, k := range kids {
				nk[i] = neg(k)
			}
			return neg(&tnode{op: other, kids: nk})
		}
		return &tnode{op: t.op, kids: kids}
	case "abs":
		return &tnode{op: "max", kids: []*tnode{kids[0], neg(kids[0])}}
	}
	return &tnode{op: t.op, kids: kids, k: t.k}
}

// text prints t for Parse, with random spelling: ^ or **, ceiling or ceil,
// extra parentheses, spaces.
func text(r *rand.Rand, t *tnode) string {
	sp := func() string {
		if r.IntN(3) == 0 {
			return " "
		}
		return ""
	}
	var b strings.Builder
	var w func(t *tnode)
	w = func(t *tnode) {
		b.WriteString("(" + sp())
		defer b.WriteString(sp() + ")")
		switch t.op {
		case "num":
			fmt.Fprintf(&b, "%s/%s", t.val.Num(), t.val.Denom())
			return
		case "sym":
			b.WriteString(t.name)
			return
		case "+", "-", "*", "/":
			w(t.kids[0])
			b.WriteString(sp() + t.op + sp())
			w(t.kids[1])
			return
		case "neg":
			b.WriteString("-")
			w(t.kids[0])
			return
		case "pow":
			w(t.kids[0])
			if r.IntN(2) == 0 {
				b.WriteString("**")
			} else {
				b.WriteString("^")
			}
			fmt.Fprint(&b, t.k)
			return
		}
		name := t.op
		if name == "ceil" && r.IntN(2) == 0 {
			name = "CEILING"
		}
		if name == "floor" && r.IntN(3) == 0 {
			name = "math.Floor"
		}
		b.WriteString(name + "(")
		for i, k := range t.kids {
			if i > 0 {
				b.WriteString("," + sp())
			}
			w(k)
		}
		b.WriteString(")")
	}
	w(t)
	return b.String()
}

// TestSymbolQueries checks the allocation-free symbol queries against
// Symbols and Linear on random expressions.
func TestSymbolQueries(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 37))
	for i := range 20000 {
		e := build(genTree(r, 1+r.IntN(4)))
		if r.IntN(3) == 0 {
			// Affine forms, which LinearOne accepts, are rare among random
			// trees: make some.
			x := treeSyms[r.IntN(len(treeSyms))]
			e = Sym(x).Mul(Const(RatFrac(int64(r.IntN(9)-4), int64(1+r.IntN(3))))).Add(Int(int64(r.IntN(11) - 5)))
		}
		syms := e.Symbols()
		s, one := e.SingleSymbol()
		if one != (len(syms) == 1) || one && s != syms[0] {
			t.Fatalf("#%d %v: SingleSymbol = %q, %v; Symbols = %v", i, e, s, one, syms)
		}
		for _, name := range treeSyms {
			want := len(syms) == 0 || len(syms) == 1 && syms[0] == name
			if got := e.OnlySymbol(name); got != want {
				t.Fatalf("#%d %v: OnlySymbol(%s) = %v, want %v (Symbols %v)", i, e, name, got, want, syms)
			}
		}
		x, a, b, ok := e.LinearOne()
		wantOK := false
		if len(syms) == 1 {
			if ca, cb, lin := e.Linear(syms[0]); lin {
				av, ok1 := ca.Const()
				bv, ok2 := cb.Const()
				if ok1 && ok2 && !av.IsZero() {
					wantOK = true
					if !ok || x != syms[0] || !a.Equal(av) || !b.Equal(bv) {
						t.Fatalf("#%d %v: LinearOne = %s, %v, %v, %v; want %s, %v, %v", i, e, x, a, b, ok, syms[0], av, bv)
					}
				}
			}
		}
		if ok != wantOK {
			t.Fatalf("#%d %v: LinearOne ok = %v, want %v", i, e, ok, wantOK)
		}
	}
}
