package symeval_test

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/symeval"
)

// TestRealAsRunAgainstGfortranE2E: a step count a REAL expression
// gives (INT, FLOOR, CEILING, NINT, an assignment to an INTEGER) is the
// one gfortran's run computes, on random quotients, products and sums of
// decimal constants in single and double precision, held in variables or
// written in place: INT(0.3D0/0.1D0) is 2, not 3; and so is a comparison
// of such an expression with its exact value written as a decimal
// (0.1D0 + 0.2D0 > 0.3D0 holds). Each n is the trip count of a loop the
// evaluation counts.
func TestRealAsRunAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	rng := rand.New(rand.NewPCG(12, 7))
	type kase struct {
		decl, set, stmt string // stmt sets n
		exact           int64  // n in exact arithmetic
	}
	forms := []struct {
		text string
		f    func(a, b, c *big.Rat) *big.Rat
	}{
		{"a / b", func(a, b, c *big.Rat) *big.Rat { return new(big.Rat).Quo(a, b) }},
		{"a / b * c", func(a, b, c *big.Rat) *big.Rat { return new(big.Rat).Mul(new(big.Rat).Quo(a, b), c) }},
		{"(a + c) / b", func(a, b, c *big.Rat) *big.Rat { return new(big.Rat).Quo(new(big.Rat).Add(a, c), b) }},
		{"a * 100%s / b", func(a, b, c *big.Rat) *big.Rat { return new(big.Rat).Quo(new(big.Rat).Mul(a, big.NewRat(100, 1)), b) }},
		{"(a + b) * 10%s", func(a, b, c *big.Rat) *big.Rat { return new(big.Rat).Mul(new(big.Rat).Add(a, b), big.NewRat(10, 1)) }},
		{"a / b + c", func(a, b, c *big.Rat) *big.Rat { return new(big.Rat).Add(new(big.Rat).Quo(a, b), c) }},
	}
	floor := func(r *big.Rat) int64 { return new(big.Int).Div(r.Num(), r.Denom()).Int64() }
	trunc := func(r *big.Rat) int64 { return new(big.Int).Quo(r.Num(), r.Denom()).Int64() }
	ceil := func(r *big.Rat) int64 { return -floor(new(big.Rat).Neg(r)) }
	nint := func(r *big.Rat) int64 { return floor(new(big.Rat).Add(r, big.NewRat(1, 2))) } // r >= 0
	convs := []struct {
		text  string
		round func(*big.Rat) int64
	}{{"int(%s)", trunc}, {"floor(%s)", floor}, {"ceiling(%s)", ceil}, {"nint(%s)", nint}, {"%s", trunc}}
	var cases []kase
	for range 300 {
		decl, sfx := "double precision", "d0"
		if rng.IntN(3) == 0 {
			decl, sfx = "real", ""
		}
		var vals [3]*big.Rat
		num := func(i int) string {
			whole, digits := rng.IntN(5), 1+rng.IntN(2)
			frac := 1 + rng.IntN(99)
			if digits == 1 {
				frac = rng.IntN(10)
			}
			if whole == 0 && frac == 0 {
				frac = 1
			}
			text := fmt.Sprintf("%d.%0*d", whole, digits, frac)
			vals[i], _ = new(big.Rat).SetString(text)
			return text + sfx
		}
		a, b, c := num(0), num(1), num(2)
		if rng.IntN(2) == 0 {
			// a multiple of b: an integer quotient exactly, where the
			// run's rounding may fall short of it or pass it.
			vals[0] = new(big.Rat).Mul(vals[1], big.NewRat(int64(1+rng.IntN(12)), 1))
			a = vals[0].FloatString(2) + sfx
		}
		fm := forms[rng.IntN(len(forms))]
		expr := fm.text
		if strings.Contains(expr, "%s") {
			expr = fmt.Sprintf(expr, sfx)
		}
		if rng.IntN(3) > 0 {
			cv := convs[rng.IntN(len(convs))]
			cases = append(cases, kase{decl: decl, set: fmt.Sprintf("a = %s; b = %s; c = %s", a, b, c),
				stmt: "n = " + fmt.Sprintf(cv.text, expr), exact: cv.round(fm.f(vals[0], vals[1], vals[2]))})
			continue
		}
		// A comparison with the exact value, written as a decimal: the
		// run's rounding decides it.
		v := fm.f(vals[0], vals[1], vals[2])
		text, ok := decimal(v)
		if !ok {
			continue
		}
		rel := []struct {
			op   string
			test func(int) bool
		}{{"==", func(c int) bool { return c == 0 }}, {"/=", func(c int) bool { return c != 0 }},
			{"<", func(c int) bool { return c < 0 }}, {"<=", func(c int) bool { return c <= 0 }},
			{">", func(c int) bool { return c > 0 }}, {">=", func(c int) bool { return c >= 0 }}}[rng.IntN(6)]
		exact := int64(1)
		if rel.test(0) { // the two sides are equal exactly
			exact = 2
		}
		cases = append(cases, kase{decl: decl, set: fmt.Sprintf("a = %s; b = %s; c = %s", a, b, c),
			stmt: fmt.Sprintf("n = 1; if (%s %s %s%s) n = 2", expr, rel.op, text, sfx), exact: exact})
	}
	var src strings.Builder
	src.WriteString("program r\n")
	for i := range cases {
		fmt.Fprintf(&src, "  call c%d()\n", i)
	}
	src.WriteString("contains\n")
	for i, k := range cases {
		fmt.Fprintf(&src, "  subroutine c%d()\n    %s :: a, b, c\n    integer :: n\n    %s\n    %s\n    print *, n\n  end subroutine c%d\n", i, k.decl, k.set, k.stmt, i)
	}
	src.WriteString("end program r\n")
	dir := t.TempDir()
	f := filepath.Join(dir, "r.f90")
	if err := os.WriteFile(f, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "r")
	if out, err := exec.Command("gfortran", "-O0", "-o", exe, f).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Fields(string(out))
	if len(got) != len(cases) {
		t.Fatalf("%d results for %d cases", len(got), len(cases))
	}
	differ := 0 // cases whose exact value gives another n
	for i, k := range cases {
		want, _ := strconv.ParseInt(got[i], 10, 64)
		if want < 1 {
			continue // an empty loop says nothing of the count
		}
		res := evaluate(t, fmt.Sprintf(`program p
  %s :: a, b, c
  double precision :: x(10)
  integer :: n, i
  %s
  %s
  do i = 1, n
    x(1) = x(1) + a
  end do
end program p
`, k.decl, strings.ReplaceAll(k.set, "; ", "\n  "), strings.ReplaceAll(k.stmt, "; ", "\n  ")), symeval.Options{})
		dom := loopDomain(t, res, "p/L1")
		if !strings.Contains(dom, fmt.Sprintf("i <= %d", want)) && !(want == 1 && strings.Contains(dom, "i == 1")) {
			t.Errorf("%s: %s with %s: domain %s, gfortran's count %d", k.decl, k.stmt, k.set, dom, want)
		}
		if k.exact != want {
			differ++
		}
	}
	t.Logf("%d cases, %d of them where exact arithmetic gives another count", len(cases), differ)
}

// decimal writes r as a finite decimal, false where it has none.
func decimal(r *big.Rat) (string, bool) {
	for d := 0; d <= 8; d++ {
		s := r.FloatString(d)
		if x, _ := new(big.Rat).SetString(s); x.Cmp(r) == 0 {
			if !strings.Contains(s, ".") {
				s += ".0"
			}
			return s, true
		}
	}
	return "", false
}
