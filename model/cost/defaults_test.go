package cost_test

import (
	"testing"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// A default that rests on another parameter's default is evaluated after
// it, whatever the parameters' order; one that names a value no parameter
// stands for leaves its parameter unknown at the point instead of failing
// the whole point.
func TestDefaultsInOrderOfWhatTheyRestOn(t *testing.T) {
	def := func(s string) *symbolic.Expr {
		e, err := symbolic.Parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return &e
	}
	rep := &cost.Report{Params: []*cost.Param{
		{Name: "c", Origin: cost.FromUnresolved, Default: def("2*dir")},
		{Name: "dir", Origin: cost.FromUnresolved, Default: def("lo + 3")},
		{Name: "lo", Origin: cost.FromUnresolved, Default: def("4")},
		{Name: "stray", Origin: cost.FromUnresolved, Default: def("gone + 1")},
	}}
	pt, err := rep.AtKnown(map[string]int64{})
	if err != nil {
		t.Fatal(err)
	}
	if got := pt.Env["c"]; got != 14 {
		t.Errorf("c = %d, want 2*(4+3) = 14", got)
	}
	if len(pt.Unknown) != 1 || pt.Unknown[0] != "stray" {
		t.Errorf("unknown = %v, want [stray]", pt.Unknown)
	}
}
