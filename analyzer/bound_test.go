package analyzer

import (
	"math"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
)

// TestImpactBound: where the work rests on a value of the data the point
// lacks (keys), a branch frequency is still measured against the known
// work, as a bound: one that moves it by little takes its default and is
// not asked for, one that moves it much still is, and one in a piece with
// the missing value cannot be measured.
func TestImpactBound(t *testing.T) {
	b := newBuilder(t, true, "3*n/P + 40 + pct/10 + 4*pct2; keys; keys*pct3", "n >= 4*P, keys >= 0").
		param("n", cost.FromAnnotation, 2, "the problem size n", "4096").
		param("keys", cost.FromUnresolved, 30, "an element of counts", "").
		param("pct", cost.FromFrequency, 40, "how often the branch is taken", "50").
		param("pct2", cost.FromFrequency, 41, "how often the other branch is taken", "50").
		param("pct3", cost.FromFrequency, 42, "how often the third branch is taken", "50")
	pt, err := b.r.AtKnown(map[string]int64{"P": 4})
	if err != nil || !pt.Partial() {
		t.Fatalf("partial point: %v", err)
	}
	if _, ok := Impact(b.r, pt, "pct", 0, 100); ok {
		t.Error("Impact measured a frequency against work it does not know")
	}
	// Known work per rank at pct = pct2 = 50: 3072 + 40 + 5 + 200 = 3317.
	for _, c := range []struct {
		name string
		want float64
		ok   bool
	}{
		{"pct", 10.0 / 3317, true},
		{"pct2", 400.0 / 3317, true},
		{"pct3", 0, false},
	} {
		got, ok := ImpactBound(b.r, pt, c.name, 0, 100)
		if ok != c.ok || math.Abs(got-c.want) > 1e-12 {
			t.Errorf("ImpactBound(%s) = %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	neutral := Neutral(b.r, pt, nil)
	if len(neutral) != 1 || neutral[0].Param.Name != "pct" {
		t.Errorf("neutral %v, want pct alone", neutral)
	}
	// The branches on the data are one finding, at the one that moves
	// the work most; the one that cannot be measured is said to be so.
	var asked []string
	var group Diagnostic
	for _, d := range only(Run(b.r, pt, Options{}), "MK3001") {
		asked = append(asked, d.Facts["param"].(string))
		if d.Facts["origin"] == "frequency" {
			group = d
		}
	}
	if strings.Join(asked, " ") != "keys pct2" {
		t.Errorf("MK3001 asks %q, want keys pct2", asked)
	}
	if ps, _ := group.Facts["params"].([]string); strings.Join(ps, " ") != "pct2 pct3" || group.Facts["unmeasured"] != 1 {
		t.Errorf("the finding on branches on the data: %v", group)
	}
	if !strings.Contains(group.Message, "up to 12% of the work each, 12% together at n=4096, P=4 (1 not measured)") {
		t.Errorf("message %q", group.Message)
	}
}
