package analyzer

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
)

// TestStandInDefaults: at a point, a value of the data given its default
// (a trip count known from below) marks every count resting on it, in
// the findings and the figures, with MK3003 once at the outermost such
// node; counts on a size the user gave stay unmarked, and -D on the value
// takes the mark away.
func TestStandInDefaults(t *testing.T) {
	b := newBuilder(t, true, "100*n + 500*n*trips + 3", "n >= 1, trips >= 1").
		param("n", cost.FromAnnotation, 2, "the problem size n", "").
		param("trips", cost.FromTripCount, 30, "how many times the loop formed by GO TO 10 runs its first statement (at least 1)", "1")
	outer := b.loop(b.root(), "L1", 20, "1", "n", "100*n")
	b.loop(outer, "L2", 22, "n", "n", "100*n")
	fix := b.loop(b.root(), "G1", 30, "1", "n*trips", "500*n*trips")
	inner := b.loop(fix, "L3", 31, "n*trips", "5*n*trips", "500*n*trips")

	pt := b.at(map[string]int64{"P": 4, "n": 1000})
	if got := pt.StandIns; len(got) != 1 || got["trips"] != 1 {
		t.Fatalf("stand-ins %v, want trips=1", got)
	}
	if s := pt.Nodes[inner].StandIn; strings.Join(s, " ") != "trips" {
		t.Errorf("the loop inside rests on %v, want trips", s)
	}
	if s := pt.Nodes[outer].StandIn; len(s) != 0 {
		t.Errorf("the outer loop's own counts rest on %v, want none (its work is a prediction)", s)
	}
	ds := Run(b.r, pt, Options{Given: []string{"n"}})
	var said []string
	for _, d := range only(ds, "MK3003") {
		said = append(said, d.Node)
	}
	if strings.Join(said, " ") != "G1" {
		t.Errorf("MK3003 at %v, want G1 alone", said)
	}
	hot := 0
	for _, d := range only(ds, "MK1001") {
		marked := strings.Contains(d.Message, "[approximate: rests on the default of a value of the data (trips=1)")
		want := d.Node == "G1" || d.Node == "L3"
		if want {
			hot++
		}
		if marked != want {
			t.Errorf("%s: marked %v, want %v: %s", d.Node, marked, want, d.Message)
		}
	}
	if hot == 0 {
		t.Errorf("no MK1001 on the loops resting on the default:\n%s", lines(ds))
	}
	for _, f := range Figures(b.r, pt, Options{}) {
		if f.Node == inner && f.Exact {
			t.Errorf("the figure of L3 is exact at a point where it rests on a default")
		}
	}

	// Given, the value is no stand-in.
	pt = b.at(map[string]int64{"P": 4, "n": 1000, "trips": 3})
	if len(pt.StandIns) != 0 || len(pt.Nodes[inner].StandIn) != 0 {
		t.Errorf("a given value is a stand-in: %v", pt.StandIns)
	}
	if ds := only(Run(b.r, pt, Options{Given: []string{"n", "trips"}}), "MK3003"); len(ds) != 0 {
		t.Errorf("MK3003 with the value given: %v", ds)
	}
}
