package symbolic

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestModsPrintAndReadBack: remainders print as mod/modulo, in expressions
// and relations, and what prints reads back (Parse) to the same expression;
// sums that only look like a remainder (part of x missing) keep floor.
func TestModsPrintAndReadBack(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"n - P*trunc(n/P)", "mod(n, P)"},
		{"rank - 2*floor(rank/2)", "modulo(rank, 2)"},
		{"2*n - 2*P*floor(n/P) + 3", "2*modulo(n, P) + 3"},
		{"P*floor(n/P) - n", "-modulo(n, P)"},
		{"n - k - p*floor((n - k)/p) + 1", "modulo(n - k, p) + 1"},
		{"n*m - P*floor(n*m/P)", "modulo(m*n, P)"},
		{"n - P*floor(n/P) + m - Q*trunc(m/Q)", "mod(m, Q) + modulo(n, P)"},
		{"n - 2*P*floor(n/P)", "n - 2*P*floor(n/P)"},
		{"m - P*floor(n/P)", "m - P*floor(n/P)"},
	} {
		e := MustParse(c.in)
		if got := e.String(); got != c.want {
			t.Errorf("%s prints %s, want %s", c.in, got, c.want)
		}
		back, err := Parse(e.String())
		if err != nil || !Equal(back, e) {
			t.Errorf("%s prints %s, which reads back as %v (%v)", c.in, e, back, err)
		}
	}
	if got := Rel(MustParse("rank"), "==", MustParse("2*floor(rank/2)")).String(); got != "modulo(rank, 2) == 0" {
		t.Errorf("relation prints %s", got)
	}
	// Random sums of remainders and other terms read back equal.
	r := rand.New(rand.NewPCG(7, 7))
	syms := []string{"n", "m", "P", "k"}
	pick := func() Expr { return Sym(syms[r.IntN(len(syms))]) }
	mods := 0
	for range 2000 {
		var e Expr
		for range 1 + r.IntN(3) {
			x := pick().Add(Int(int64(r.IntN(5) - 2))).Mul(pick())
			y := Int(int64(2 + r.IntN(3)))
			if r.IntN(2) == 0 {
				y = pick()
			}
			q := Floor(x.Div(y))
			if r.IntN(2) == 0 {
				q = Trunc(x.Div(y))
			}
			c := Int(int64(r.IntN(5) - 2))
			e = e.Add(c.Mul(x.Sub(y.Mul(q))))
			if r.IntN(2) == 0 {
				e = e.Add(pick().Mul(q))
			}
		}
		s := e.String()
		if strings.Contains(s, "mod") {
			mods++
		}
		back, err := Parse(s)
		if err != nil || !Equal(back, e) {
			t.Fatalf("%s reads back as %v (%v)", s, back, err)
		}
		rel := Relation{E: e, Op: GE}
		rs, err := ParseRelations(rel.String())
		if err != nil || len(rs) != 1 || !Equal(rs[0].E, e) {
			t.Fatalf("relation %s reads back as %v (%v)", rel, rs, err)
		}
	}
	if mods < 500 {
		t.Errorf("only %d of 2000 printed a remainder", mods)
	}
}
