package analyzer

import (
	"testing"

	"github.com/mkvet/mkvet/symbolic"
)

func TestGrowthLimit(t *testing.T) {
	a := symbolic.NewAssumptions()
	if err := a.AssumeText("P >= 1, 0 <= rank <= P - 1, n >= 1, m >= 1"); err != nil {
		t.Fatal(err)
	}
	g := newGrowth(a)
	for _, tc := range []struct {
		num, den string
		want     string // the limit, or "" when it is not known
	}{
		{"5*floor(n/P)", "5*floor(n/P) + 3", "1"},
		{"n", "n^2", "0"},
		{"3", "n", "0"},
		{"ceil(n/P)", "n/P + n", "1/(P + 1)"},
		{"trunc(n/P) - 1", "trunc(n/P) + rank", "1"},
		{"n*log2(n)", "n*log2(n) + 4*n", "1"},
		{"n", "n*log2(n) + 4*n", "0"},
		{"max(n, m)", "max(n, m) + n", "max(m, n)/(n + max(m, n))"},
		{"min(n, 5)", "n", "0"},
		{"max(n - P, 0)", "n", "1"},
		{"n*m", "n*m + n^2", "m/(m + n)"},
		{"1/(n + 1)", "1", "0"},
		{"n", "n^2/(n + 1)", "1"},
		{"sqrt(n^2)", "n", "sqrt(n^2)/n"},
		{"sqrt(n)", "n", ""},
		{"n if n >= P", "n", "1"},
		{"n if P >= n", "n", "0"},
		{"n", "n if rank == 0; n if rank >= 1", "1"},
		{"n", "n if rank == 0", ""},
		{"2*n if rank == 0; n if rank >= 1", "2*n if rank == 0; n if rank >= 1", ""},
		{"n if mod(n, P) == 0", "n", ""},
		{"P - 1", "2*P + 3", "(P - 1)/(2*P + 3)"},
	} {
		got, ok := g.limit(pw(t, tc.num), pw(t, tc.den))
		switch {
		case tc.want == "" && ok:
			t.Errorf("limit of (%s)/(%s) = %s, want unknown", tc.num, tc.den, got)
		case tc.want != "" && !ok:
			t.Errorf("limit of (%s)/(%s) unknown, want %s", tc.num, tc.den, tc.want)
		case ok && got.String() != tc.want:
			t.Errorf("limit of (%s)/(%s) = %s, want %s", tc.num, tc.den, got, tc.want)
		}
	}
}

func TestGrowthSameOrder(t *testing.T) {
	a := symbolic.NewAssumptions()
	if err := a.AssumeText("P >= 1, 0 <= rank <= P - 1, n >= 1"); err != nil {
		t.Fatal(err)
	}
	g := newGrowth(a)
	for _, tc := range []struct {
		num, den    string
		same, known bool
	}{
		{"3*n if rank == 0", "n/P + 3*n if rank == 0; n/P if rank >= 1", true, true},
		{"2 if rank == 0", "n/P + 2 if rank == 0; n/P if rank >= 1", false, true},
		{"P - 1", "n/P", false, true},
		{"0", "n", false, true},
		{"sqrt(n)", "n", false, false},
	} {
		same, known := g.sameOrder(pw(t, tc.num), pw(t, tc.den))
		if same != tc.same || known != tc.known {
			t.Errorf("sameOrder(%s, %s) = %v, %v; want %v, %v", tc.num, tc.den, same, known, tc.same, tc.known)
		}
	}
}

func TestRatioAtLeast(t *testing.T) {
	a := symbolic.NewAssumptions()
	if err := a.AssumeText("P >= 1"); err != nil {
		t.Fatal(err)
	}
	r := ratio{Num: symbolic.MustParse("P"), Den: symbolic.MustParse("P + 1")}
	if !r.atLeast(a, 0.5, false) || r.atLeast(a, 0.5, true) || r.atLeast(a, 0.6, false) {
		t.Errorf("P/(P+1) >= 1/2 for P >= 1, with equality at P = 1")
	}
}
