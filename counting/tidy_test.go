package counting

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mkvet/mkvet/symbolic"
)

// TestTidyAgainstBruteForce: the tidied form of a count (Piecewise.Tidy),
// printed and read back with symbolic.Parse, must equal enumeration at
// random points, like the count it came from. The oracle is the brute-force
// enumerator; the printed text is what a user copies into mkvet expr.
func TestTidyAgainstBruteForce(t *testing.T) {
	cases := 300
	if testing.Short() {
		cases = 100
	}
	r := rand.New(rand.NewPCG(15, 15))
	a := testAssumptions()
	fewer := 0
	var total time.Duration
	for i := range cases {
		ns := genNest(r)
		src := ns.text()
		set, err := ParseSet(src)
		if err != nil {
			t.Fatalf("case %d: ParseSet(%s): %v", i, src, err)
		}
		pw, err := Count(set, a)
		if errors.Is(err, ErrTooComplex) {
			continue
		}
		if err != nil {
			t.Fatalf("case %d: Count(%s): %v", i, src, err)
		}
		if pw.Size() > 20000 {
			continue // Tidy leaves forms this large as they are
		}
		start := time.Now()
		tidy := pw.Tidy(a)
		total += time.Since(start)
		if d := time.Since(start); d > 300*time.Millisecond {
			t.Logf("SLOW %v pieces=%d size=%d %s", d, len(pw.Pieces), pw.Size(), src)
		}
		if len(tidy.Pieces) < len(pw.Pieces) {
			fewer++
		}
		agreesWithBrute(t, r, i, ns, src, reparse(t, tidy), "tidied", "\nas counted:\n"+pw.String())
	}
	t.Logf("%d systems; the tidied form has fewer pieces in %d; Tidy took %v in all", cases, fewer, total)
}

// reparse prints every value and guard of pw and reads them back.
func reparse(t *testing.T, pw symbolic.Piecewise) symbolic.Piecewise {
	t.Helper()
	var out symbolic.Piecewise
	for _, p := range pw.Pieces {
		var guard []string
		for _, g := range p.Guard {
			guard = append(guard, g.String())
		}
		q, err := symbolic.ParsePiece(p.Value.String(), guard)
		if err != nil {
			t.Fatalf("%s if %v: %v", p.Value, guard, err)
		}
		out.Pieces = append(out.Pieces, q)
	}
	return out
}

// TestTidyFamilies: the standard distributions count in one piece once
// tidied (issue 15's table); the values are checked against enumeration
// by the test above, here only the shape.
func TestTidyFamilies(t *testing.T) {
	for _, c := range []struct{ name, assume, set string }{
		{"rectangular", "n >= 1, m >= 1", "[n,m] -> { [i,j] : 1 <= i <= n and 1 <= j <= m }"},
		{"triangular", "n >= 1", "[n] -> { [i,j] : 1 <= i <= n and 1 <= j <= i }"},
		{"BLOCK", "p >= 1, 1 <= k <= p, n >= 1", "[n,p,k] -> { [i] : floor(n*(k-1)/p) + 1 <= i <= floor(n*k/p) }"},
		{"BLOCK with remainder", "p >= 1, 0 <= r <= p-1, n >= 1", "[n,p,r] -> { [i] : r*floor(n/p) + min(r, mod(n,p)) <= i < (r+1)*floor(n/p) + min(r+1, mod(n,p)) }"},
		{"CYCLIC", "p >= 1, 1 <= k <= p, n >= 1", "[n,p,k] -> { [i] : 1 <= i <= n and mod(i-1, p) = k-1 }"},
		{"strided", "n >= 1, s >= 1", "[n,s] -> { [i] : 1 <= i <= n and mod(i-1, s) = 0 }"},
		{"BLOCK-CYCLIC", "n >= 1, b >= 1, p >= 1, 1 <= k <= p", "[n,b,p,k] -> { [i] : 1 <= i <= n and mod(floor((i-1)/b), p) = k-1 }"},
		{"BLOCK-CYCLIC, triangular", "n >= 1, b >= 1, p >= 1, 1 <= k <= p",
			"[n,b,p,k] -> { [j,i] : 1 <= j <= n and 1 <= i <= j and mod(floor((i-1)/b), p) = k-1 }"},
	} {
		set, err := ParseSet(c.set)
		if err != nil {
			t.Fatal(err)
		}
		a := symbolic.NewAssumptions()
		if err := a.AssumeText(c.assume); err != nil {
			t.Fatal(err)
		}
		pw, err := Count(set, a)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := pw.Tidy(a); len(got.Pieces) != 1 {
			t.Errorf("%s: %d pieces, want 1:\n%s", c.name, len(got.Pieces), got)
		}
	}
}

// TestRefusalHintSign: a refusal names the assumption a user states (px >= 1
// for the coefficient -px), not its negation.
func TestRefusalHintSign(t *testing.T) {
	set, err := ParseSet("[rank, px] -> { [cy] : 0 <= cy <= 10 and rank - cy*px + 1 = 0 }")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Count(set, nil)
	if err == nil || !strings.Contains(err.Error(), "such as px >= 1") {
		t.Errorf("Count: %v, want a hint 'such as px >= 1'", err)
	}
}
