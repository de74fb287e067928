package analyzer

import (
	"slices"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// TestNeutralChoices: a value of the data that only chooses between cases
// of the counts takes a default where the choice moves the work by less
// than 1% (the choice with the most work), checked against the work
// evaluated exactly at every value from -20 to 20; one whose choice moves
// the work more, one in a count's value, and one in a case with another
// unknown stay asked for.
func TestNeutralChoices(t *testing.T) {
	b := newBuilder(t, true,
		"1000*n; 5 if flag >= 1; 3 if flag <= 0; 7 if flag >= 4; 400*n if errs >= 1; keys; 2 if other >= 1, other2 >= 1",
		"n >= 1, keys >= 0").
		param("n", cost.FromAnnotation, 2, "the problem size n", "").
		param("flag", cost.FromUnresolved, 30, "the result of verify", "").
		param("errs", cost.FromUnresolved, 31, "the value of j after the loop", "").
		param("keys", cost.FromUnresolved, 32, "an element of counts", "").
		param("other", cost.FromUnresolved, 33, "an element of tests", "").
		param("other2", cost.FromUnresolved, 34, "an element of more tests", "")
	env := map[string]int64{"P": 4, "n": 100}
	pt, err := b.r.AtKnown(env)
	if err != nil || !pt.Partial() {
		t.Fatalf("partial point: %v", err)
	}
	got := NeutralChoices(b.r, pt)
	if !slices.Equal(got, []string{"flag"}) {
		t.Fatalf("NeutralChoices = %v, want flag alone", got)
	}
	var flag *cost.Param
	for _, q := range b.r.Params {
		if q.Name == "flag" {
			flag = q
		}
	}
	def, _ := flag.Default.Int64()
	// The oracle: the work's pieces without an unknown but flag, at each
	// value of flag, in exact arithmetic.
	var known, part symbolic.Piecewise
	for _, p := range b.r.Work.Pieces {
		one := symbolic.Piecewise{Pieces: []symbolic.Piece{p}}
		switch {
		case one.Has("flag"):
			part.Pieces = append(part.Pieces, p)
		case !one.HasAny(map[string]bool{"errs": true, "keys": true, "other": true, "other2": true}):
			known.Pieces = append(known.Pieces, p)
		}
	}
	at := func(pw symbolic.Piecewise, f int64) float64 {
		v, err := pw.Eval(map[string]symbolic.Rat{"n": symbolic.RatInt(100), "P": symbolic.RatInt(4), "rank": symbolic.RatInt(0), "flag": symbolic.RatInt(f)})
		if err != nil {
			t.Fatal(err)
		}
		return v.Float64()
	}
	lo, hi, heaviest := at(part, 0), at(part, 0), int64(0)
	for f := int64(-20); f <= 20; f++ {
		v := at(part, f)
		lo = min(lo, v)
		if v > hi {
			hi, heaviest = v, f
		}
	}
	if (hi-lo)/at(known, 0) >= NeutralShare {
		t.Fatalf("the oracle finds flag moves the work by %v", (hi-lo)/at(known, 0))
	}
	if at(part, def) != hi {
		t.Errorf("default %d gives %v, want the most work %v (at %d)", def, at(part, def), hi, heaviest)
	}
	// At the point with the default, flag is a stand-in and nothing asks.
	pt, err = b.r.AtKnown(env)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := pt.StandIns["flag"]; !ok || slices.Contains(pt.Unknown, "flag") {
		t.Errorf("flag at the point: stand-ins %v, unknown %v", pt.StandIns, pt.Unknown)
	}
	for _, d := range only(Run(b.r, pt, Options{Given: []string{"n"}}), "MK3001") {
		if d.Facts["param"] == "flag" {
			t.Errorf("MK3001 asks for flag: %s", d.Message)
		}
	}
}
