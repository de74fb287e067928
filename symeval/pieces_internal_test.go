package symeval

import (
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/counting"
	"github.com/mkvet/mkvet/symbolic"
)

// randGuard is a random formula of depth at most depth over the variables
// vars: relations a*v + c op 0 with small a and c, joined by and, or, not.
func randGuard(r *rand.Rand, vars []string, depth int) counting.Formula {
	if depth == 0 || r.IntN(3) == 0 {
		v := symbolic.Sym(vars[r.IntN(len(vars))])
		a := int64(r.IntN(5) - 2)
		if a == 0 {
			a = 1
		}
		c := int64(r.IntN(21) - 10)
		e := v.Mul(symbolic.Int(a)).Add(symbolic.Int(c))
		return rel(e, []string{">=", ">", "==", "<=", "<"}[r.IntN(5)], symbolic.Int(0))
	}
	n := 2 + r.IntN(3)
	fs := make([]counting.Formula, n)
	for i := range fs {
		fs[i] = randGuard(r, vars, depth-1)
	}
	switch r.IntN(3) {
	case 0:
		return counting.And(fs)
	case 1:
		return counting.Or(fs)
	}
	return counting.Not{F: fs[0]}
}

// holdsAtPoint decides f where the variables vars take the values point.
func holdsAtPoint(t *testing.T, f counting.Formula, vars []string, point []int64) bool {
	t.Helper()
	c, err := counting.CompileFormula(f, vars)
	if err != nil {
		t.Fatal(err)
	}
	ok, err := c.Holds(point)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

func (s spanSet) has(v int64) bool {
	for _, x := range s {
		if x.lo <= v && v <= x.hi {
			return true
		}
	}
	return false
}

// The integers formulaSpans reads a formula on one variable as are those
// the formula holds at, and the formula simplifyGuard writes holds where
// the formula does, on one variable or several, no larger.
func TestSpansAndSimplifyBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 2000 {
		f := randGuard(r, []string{"x"}, 3)
		x, set, ok := formulaSpans(f)
		if !ok {
			t.Fatalf("%v: not read as spans", f)
		}
		for v := int64(-30); v <= 30; v++ {
			want := holdsAtPoint(t, f, []string{"x"}, []int64{v})
			if x == "" {
				// No relation left: true or false throughout.
				if set.has(v) != want {
					t.Fatalf("%v at %d: spans %v, formula %v", f, v, set, want)
				}
				continue
			}
			if set.has(v) != want {
				t.Fatalf("%v at x=%d: spans %v say %v, formula %v", f, v, set, set.has(v), want)
			}
		}
	}
	vars := []string{"x", "y"}
	for range 2000 {
		f := randGuard(r, vars, 3)
		if a, ok := f.(counting.And); ok && r.IntN(2) == 0 {
			// Conjunctions of bounds on each variable, as domains hold.
			f = append(a, randGuard(r, vars[:1], 1), randGuard(r, vars[1:], 1))
		}
		g := simplifyGuard(f)
		if formulaSize(g) > formulaSize(f) {
			t.Errorf("%v: simplified to the larger %v", f, g)
		}
		for v := int64(-12); v <= 12; v++ {
			for w := int64(-12); w <= 12; w += 3 {
				pt := []int64{v, w}
				if got, want := holdsAtPoint(t, g, vars, pt), holdsAtPoint(t, f, vars, pt); got != want {
					t.Fatalf("%v\nsimplified to %v\nat x=%d, y=%d: %v, want %v", f, g, v, w, got, want)
				}
			}
		}
	}
}

// The conjunctions the combinations of stretches leave, and stretches
// with one expression side by side, are single ranges again.
func TestSimplifyGuardStretches(t *testing.T) {
	x := symbolic.Sym("x")
	in := func(lo, hi int64) counting.Formula {
		return and(rel(x, ">=", symbolic.Int(lo)), rel(x, "<=", symbolic.Int(hi)))
	}
	for _, c := range []struct {
		f    counting.Formula
		want string
	}{
		{and(in(1, 5), in(1, 4), or(in(1, 3), in(104, 104))), "x >= 1 and x <= 3"},
		{or(in(1, 2), in(3, 52)), "x >= 1 and x <= 52"},
		{or(in(1, 2), in(103, 104)), "(x >= 1 and x <= 2) or (x >= 103 and x <= 104)"},
		{and(in(1, 5), in(7, 9)), "false"},
		{and(rel(symbolic.Sym("n"), ">=", symbolic.Int(2)), in(1, 5), in(3, 9)), "n >= 2 and x >= 3 and x <= 5"},
		{or(rel(x, "<=", symbolic.Int(0)), rel(x, ">=", symbolic.Int(2))), "not (x == 1)"},
		// A rank's guards are the rank tables' (ranks.go).
		{and(rel(symbolic.Sym(Rank), ">=", symbolic.Int(1)), rel(symbolic.Sym(Rank), ">=", symbolic.Int(2))), "rank >= 1 and rank >= 2"},
	} {
		got := simplifyGuard(c.f)
		s := "false"
		if !isFalse(got) {
			s = formulaString(got)
		}
		if s != c.want {
			t.Errorf("simplifyGuard(%v) = %s, want %s", c.f, s, c.want)
		}
	}
}

// formulaString prints f as the guards of a closed form print.
func formulaString(f counting.Formula) string {
	switch g := f.(type) {
	case nil:
		return "true"
	case counting.And:
		s := ""
		for i, x := range g {
			if i > 0 {
				s += " and "
			}
			if _, ok := x.(counting.Or); ok {
				s += "(" + formulaString(x) + ")"
			} else {
				s += formulaString(x)
			}
		}
		return s
	case counting.Or:
		s := ""
		for i, x := range g {
			if i > 0 {
				s += " or "
			}
			if _, ok := x.(counting.And); ok {
				s += "(" + formulaString(x) + ")"
			} else {
				s += formulaString(x)
			}
		}
		return s
	case counting.Not:
		return "not (" + formulaString(g.F) + ")"
	case counting.Rel:
		return g.R.String()
	}
	return "?"
}

// randTable is a value of n stretches over k = 0..len-1: each stretch a
// random affine form in k, some stretches sharing a form.
func randTable(r *rand.Rand, k symbolic.Expr, n int) ([]int64, Value) {
	var ns []int64
	for range n {
		a, b := int64(r.IntN(5)-2), int64(r.IntN(20))
		start := int64(len(ns))
		for range 1 + r.IntN(6) {
			ns = append(ns, b+a*(int64(len(ns))-start))
		}
	}
	alts, ok := affinePieces(ns, k)
	if !ok {
		panic("no pieces")
	}
	return ns, Value{Alts: alts}
}

// Sums and maxima of tables of the iteration number, stretch by stretch,
// take the values the numbers do at every iteration, one alternative each.
func TestLiftPiecesBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	k := symbolic.Sym("k")
	add := func(xs []symbolic.Expr) (symbolic.Expr, bool) {
		s := xs[0]
		for _, x := range xs[1:] {
			s = s.Add(x)
		}
		return s, true
	}
	mx := func(xs []symbolic.Expr) (symbolic.Expr, bool) { return symbolic.Max(xs...), true }
	lifted := 0
	for range 300 {
		m := 2 + r.IntN(3)
		var tabs [][]int64
		var vs []Value
		n := -1
		for range m {
			ns, v := randTable(r, k, 2+r.IntN(8))
			tabs, vs = append(tabs, ns), append(vs, v)
			if n < 0 || len(ns) < n {
				n = len(ns)
			}
		}
		// A value the same in every iteration joins in too.
		vs = append(vs, Known(symbolic.Int(3)))
		for _, op := range []func([]symbolic.Expr) (symbolic.Expr, bool){add, mx} {
			out, ok := liftPieces(vs, op)
			if !ok {
				continue // beyond maxPieceAlts
			}
			lifted++
			keys := map[string]bool{}
			for _, a := range out {
				if keys[a.E.Key()] {
					t.Fatalf("%v: two alternatives of %s", out, a.E)
				}
				keys[a.E.Key()] = true
			}
			for i := range n {
				args := []symbolic.Expr{symbolic.Int(3)}
				for _, ns := range tabs {
					args = append(args, symbolic.Int(ns[i]))
				}
				want, _ := op(args[1:])
				want, _ = op([]symbolic.Expr{want, symbolic.Int(3)})
				hits := 0
				for _, a := range out {
					if a.Guard != nil && !holdsAtPoint(t, a.Guard, []string{"k"}, []int64{int64(i)}) {
						continue
					}
					hits++
					got, err := a.E.Eval(map[string]symbolic.Rat{"k": symbolic.RatInt(int64(i))})
					wv, _ := want.Const()
					if err != nil || !got.Equal(wv) {
						t.Fatalf("at k=%d: %s = %v, want %v", i, a.E, got, wv)
					}
				}
				if hits != 1 {
					t.Fatalf("at k=%d: %d alternatives hold, want 1: %v", i, hits, out)
				}
			}
		}
	}
	if lifted < 500 {
		t.Errorf("%d of 600 operations lifted stretch by stretch", lifted)
	}
}

// A sum of tables of more stretches than maxAlts allows is a value: a
// table; a product with a value of its own alternatives under another
// variable's conditions is not.
func TestPieceTableFits(t *testing.T) {
	k := symbolic.Sym("k")
	var a, b []int64
	for i := range 60 {
		a = append(a, int64(i%3)*int64(i))
		b = append(b, int64(i%2))
	}
	ta, _ := affinePieces(a, k)
	tb, _ := affinePieces(b, k)
	sum, ok := lift2(Value{Alts: ta}, Value{Alts: tb}, func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Add(y), true })
	if !ok || len(sum.Alts) <= maxAlts || !pieceTable(sum.Alts) {
		t.Fatalf("sum of tables: ok=%v, %d alternatives", ok, len(sum.Alts))
	}
	n := symbolic.Sym("n")
	byN := Value{Alts: []Alt{{Guard: rel(n, ">=", symbolic.Int(1)), E: n}, {Guard: rel(n, "<=", symbolic.Int(0)), E: symbolic.Int(0)}}}
	if v, ok := lift2(Value{Alts: ta}, byN, func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Mul(y), true }); ok {
		t.Errorf("a table times a value by n: %d alternatives under conditions on k and n", len(v.Alts))
	}
	if v, ok := lift2(Value{Alts: ta}, Known(n), func(x, y symbolic.Expr) (symbolic.Expr, bool) { return x.Mul(y), true }); !ok || len(v.Alts) != len(ta) {
		t.Errorf("a table times n: ok=%v, %d alternatives, want %d", ok, len(v.Alts), len(ta))
	}
}
