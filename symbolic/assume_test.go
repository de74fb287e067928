package symbolic

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestProveTable checks facts that later stages rely on.
func TestProveTable(t *testing.T) {
	for _, tc := range []struct {
		assume, rel string
		want        Truth
	}{
		{"P >= 1", "P - 1 >= 0", True},
		{"P >= 1", "P > 0", True},
		{"P >= 1", "P < 0", False},
		{"N >= P, P >= 1", "N - P >= 0", True},
		{"N >= P, P >= 1", "N*N >= P", True},
		{"N >= P, P >= 1", "N*N - N*P + N >= 1", True},
		{"N >= 1, P >= 1", "P*ceil(N/P) - N >= 0", True},
		{"N >= 0, P >= 1", "N - P*floor(N/P) >= 0", True},
		{"N >= 0, P >= 1", "N - P*floor(N/P) <= P - 1", True},
		{"0 <= me <= P-1", "me < P", True},
		{"0 <= me <= P-1", "me >= P", False},
		{"0 <= me <= P-1", "P - me >= 1", True},
		{"N >= 1", "min(N, 5) >= 1", True},
		{"N >= 1", "max(N, 5) >= 5", True},
		{"N >= 1, N <= 4", "min(N, 5) == N", True},
		{"N >= 6", "min(N, 5) == 5", True},
		{"N >= 1", "N - 1 >= 0", True},
		{"", "N >= 0", Unknown},
		{"N >= 0", "N^2 - N >= 0", True},
		{"N >= 0", "mod(N, 4) >= 0", True},
		{"N >= 1, P >= 1", "N/P > 0", True},
		{"P >= 2", "log2(P) >= 1", True},
		{"", "3 >= 2", True},
		{"", "2 == 3", False},
	} {
		a := NewAssumptions()
		if tc.assume != "" {
			if err := a.AssumeText(tc.assume); err != nil {
				t.Fatal(err)
			}
		}
		rels, err := ParseRelations(tc.rel)
		if err != nil || len(rels) != 1 {
			t.Fatalf("ParseRelations(%q) = %v, %v", tc.rel, rels, err)
		}
		if got := a.Prove(rels[0]); got != tc.want {
			t.Errorf("under %s: Prove(%s) = %s, want %s", tc.assume, tc.rel, got, tc.want)
		}
	}
}

var proveSyms = []string{"a", "b", "c"}

type box struct{ lo, hi int64 }

// genAssumptions returns random assumptions: a box per symbol (sometimes
// unbounded above, with a finite enumeration window) and up to two relations.
func genAssumptions(r *rand.Rand) (*Assumptions, map[string]box) {
	a := NewAssumptions()
	boxes := map[string]box{}
	for _, s := range proveSyms {
		lo := int64(r.IntN(7) - 3)
		if r.IntN(2) == 0 {
			lo = int64(1 + r.IntN(2)) // positive: usable as a divisor
		}
		hi := lo + int64(r.IntN(6))
		boxes[s] = box{lo, hi}
		a.Assume(Rel(Sym(s), ">=", Int(lo)))
		if r.IntN(4) != 0 {
			a.Assume(Rel(Sym(s), "<=", Int(hi)))
		} else {
			boxes[s] = box{lo, lo + 8} // unbounded above; enumerate a window
		}
	}
	for range r.IntN(3) {
		x, y := proveSyms[r.IntN(3)], proveSyms[r.IntN(3)]
		if x == y {
			continue
		}
		switch r.IntN(3) {
		case 0:
			a.Assume(Rel(Sym(x), ">=", Sym(y)))
		case 1:
			a.Assume(Rel(Sym(x), "<=", Sym(y).Sub(Int(1))))
		default:
			a.Assume(Rel(Sym(x).Scale(RatInt(int64(1+r.IntN(3)))), ">=", Sym(y).Add(Int(int64(r.IntN(5)-2)))))
		}
	}
	return a, boxes
}

// genSignExpr returns a random expression for the sign oracle: small
// polynomials, with floor, mod, min, max and division by positive symbols.
func genSignExpr(r *rand.Rand, boxes map[string]box, depth int) Expr {
	sym := func() Expr { return Sym(proveSyms[r.IntN(3)]) }
	posSym := func() (Expr, bool) {
		for range 3 {
			s := proveSyms[r.IntN(3)]
			if boxes[s].lo >= 1 {
				return Sym(s), true
			}
		}
		return Expr{}, false
	}
	if depth == 0 || r.IntN(3) == 0 {
		if r.IntN(3) == 0 {
			return Int(int64(r.IntN(9) - 4))
		}
		return sym().Scale(RatInt(int64(r.IntN(5) - 2)))
	}
	sub := func() Expr { return genSignExpr(r, boxes, depth-1) }
	switch r.IntN(9) {
	case 0, 1:
		return sub().Add(sub())
	case 2:
		return sub().Mul(sub())
	case 3:
		return Floor(sub().Div(Int(int64(1 + r.IntN(4)))))
	case 4:
		if d, ok := posSym(); ok {
			return Floor(sub().Div(d))
		}
		return sub()
	case 5:
		return Min(sub(), sub())
	case 6:
		return Max(sub(), sub())
	case 7:
		if d, ok := posSym(); ok {
			return Modulo(sub(), d)
		}
		return Mod(sub(), Int(3))
	}
	if d, ok := posSym(); ok {
		return sub().Div(d)
	}
	return sub().Sub(sub())
}

// TestProveAgainstBruteForce: on 10,000 random cases the oracle never
// contradicts enumeration of every integer point of the assumption box: True
// means the relation holds at every point that satisfies the assumptions, False
// that it fails at every one.
func TestProveAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const cases = 10000
	decided := map[Truth]int{}
	for i := range cases {
		a, boxes := genAssumptions(r)
		e := genSignExpr(r, boxes, 3)
		ops := []RelOp{GE, GT, EQ}
		rel := Relation{E: e, Op: ops[r.IntN(3)]}
		got := a.Prove(rel)
		decided[got]++
		if got == Unknown {
			continue
		}
		f, err := e.Compile(proveSyms)
		if err != nil {
			t.Fatal(err)
		}
		var assumed []*Func
		var assumedRels []Relation
		for _, r := range a.Relations() {
			g, err := r.E.Compile(proveSyms)
			if err != nil {
				t.Fatal(err)
			}
			assumed, assumedRels = append(assumed, g), append(assumedRels, r)
		}
		holds := func(pt []int64) bool {
			for k, g := range assumed {
				v, err := g.EvalInt(pt)
				if err != nil || !assumedRels[k].Holds(v) {
					return false
				}
			}
			return true
		}
		for x := boxes["a"].lo; x <= boxes["a"].hi; x++ {
			for y := boxes["b"].lo; y <= boxes["b"].hi; y++ {
				for z := boxes["c"].lo; z <= boxes["c"].hi; z++ {
					pt := []int64{x, y, z}
					if !holds(pt) {
						continue
					}
					v, err := f.EvalInt(pt)
					if err != nil {
						t.Fatalf("case %d: %s at %v: %v", i, e, pt, err)
					}
					if holds := rel.Holds(v); holds != (got == True) {
						t.Fatalf("case %d: under %s, Prove(%s) = %s but at a=%d b=%d c=%d the value is %s",
							i, a, relString(rel), got, x, y, z, v)
					}
				}
			}
		}
	}
	t.Logf("%d cases: %d true, %d false, %d unknown", cases, decided[True], decided[False], decided[Unknown])
	// The oracle must decide a good share, or it has degenerated to "unknown".
	if d := decided[True] + decided[False]; d < cases/3 {
		t.Errorf("only %d of %d cases decided", d, cases)
	}
}

func relString(r Relation) string {
	return fmt.Sprintf("%s %s 0", r.E, map[RelOp]string{GE: ">=", GT: ">", EQ: "=="}[r.Op])
}

func TestSimplify(t *testing.T) {
	a := NewAssumptions()
	if err := a.AssumeText("N >= 1, P >= 1, N >= P"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ in, want string }{
		{"trunc(N/P)", "floor(N/P)"},
		{"mod(N, P)", "N - P*floor(N/P)"},
		{"min(N, P)", "P"},
		{"max(N, P, 1)", "N"},
		{"min(N, 7)", "min(N, 7)"},
		{"trunc(-N/P)", "-floor(N/P)"},
	} {
		got := a.Simplify(MustParse(tc.in))
		if want := MustParse(tc.want); !got.Equal(want) {
			t.Errorf("Simplify(%s) = %s, want %s", tc.in, got, want)
		}
	}
}

func TestPiecewise(t *testing.T) {
	n := Sym("n")
	pw := Piecewise{Pieces: []Piece{
		{Guard: []Relation{Rel(n, ">=", Int(10))}, Value: MustParse("n - 9")},
		{Guard: []Relation{Rel(n, "<=", Int(9)), Rel(n, ">=", Int(20))}, Value: Int(5)}, // infeasible
		{Guard: []Relation{Rel(n, "<=", Int(9)), Rel(n, ">=", Int(1))}, Value: Int(0)},
	}}
	for _, tc := range []struct{ n, want int64 }{{12, 3}, {10, 1}, {5, 0}, {-3, 0}} {
		v, err := pw.Eval(map[string]Rat{"n": RatInt(tc.n)})
		if err != nil || !v.Equal(RatInt(tc.want)) {
			t.Errorf("Eval at n=%d = %v, %v; want %d", tc.n, v, err, tc.want)
		}
	}
	s := pw.Simplify(NewAssumptions())
	if len(s.Pieces) != 1 {
		t.Fatalf("Simplify kept %d pieces, want 1:\n%s", len(s.Pieces), s)
	}
	a := NewAssumptions(Rel(n, ">=", Int(100)))
	s = pw.Simplify(a)
	if v, ok := s.Single(); !ok || !v.Equal(MustParse("n - 9")) {
		t.Errorf("Simplify under n >= 100 = %s, want the single value n - 9", s)
	}
}

// TestHoldsUndefinedPart: a guard undefined at a point (1/(m-1) at m = 1) does
// not matter when another part of the conjunction is false there.
func TestHoldsUndefinedPart(t *testing.T) {
	m := Sym("m")
	a := NewAssumptions(Rel(Int(1).Div(m.Sub(Int(1))), ">=", Int(0)), Rel(m, ">=", Int(2)))
	ok, err := a.Holds(map[string]Rat{"m": RatInt(1)})
	if ok || err != nil {
		t.Fatalf("at m = 1: Holds = %v, %v; want false, nil", ok, err)
	}
	b := NewAssumptions(Rel(Int(1).Div(m.Sub(Int(1))), ">=", Int(0)))
	if _, err := b.Holds(map[string]Rat{"m": RatInt(1)}); err == nil {
		t.Fatal("an undefined guard alone must be an error")
	}
	pw := Piecewise{Pieces: []Piece{{Guard: a.Relations(), Value: Int(5)}}}
	if v, err := pw.Eval(map[string]Rat{"m": RatInt(1)}); err != nil || !v.IsZero() {
		t.Fatalf("Piecewise at m = 1: %v, %v; want 0", v, err)
	}
	f, err := pw.Compile([]string{"m"})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := f.EvalInt([]int64{1}); err != nil || !v.IsZero() {
		t.Fatalf("compiled at m = 1: %v, %v; want 0", v, err)
	}
}

// TestSimplifyZeroDivisor: a rule that would make a divisor zero (floor(P/64)
// is 0 where P < 64) leaves the expression as it is, never a panic.
func TestSimplifyZeroDivisor(t *testing.T) {
	a := NewAssumptions(Rel(Sym("P"), ">=", Int(1)), Rel(Sym("P"), "<=", Int(63)))
	e := MustParse("n/floor(P/64) + floor(P/64)")
	got := a.Simplify(e)
	if !got.Equal(e) && got.String() != "n/floor(P/64)" {
		t.Errorf("Simplify(%v) = %v", e, got)
	}
}
