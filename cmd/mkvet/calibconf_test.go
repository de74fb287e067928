package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// TestConfigurations: each process count is configured by the program's
// own step, read and costed as configured; the integer constants the step
// wrote are the configuration's, and a configuration is made once.
func TestConfigurations(t *testing.T) {
	privateTmp(t)
	pf := &progFlags{configure: "../tools/setp {P}", incs: []string{configureDir + "/src"}}
	args := configureArgs()
	cs, err := newConfigurations("predict", pf, args[2:], io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.close()
	work := map[int64]float64{}
	for _, p := range []int{1, 2, 1} {
		c, err := cs.at(configValues(nil, nil, p), withP(nil, p))
		if err != nil {
			t.Fatal(err)
		}
		if got := c.consts["nproc_compiled"]; got != int64(p) || len(c.consts) != 1 {
			t.Errorf("P=%d: constants %v", p, c.consts)
		}
		if c.key != fmt.Sprintf("P=%d", p) || !strings.HasSuffix(c.command, fmt.Sprintf("setp %d", p)) {
			t.Errorf("P=%d: key %q, command %q", p, c.key, c.command)
		}
		w, err := c.report.Work.Eval(map[string]symbolic.Rat{cost.Size: symbolic.RatInt(int64(p)), cost.Rank: symbolic.RatInt(0)})
		if err != nil {
			t.Fatal(err)
		}
		work[int64(p)] = w.Float64()
	}
	if len(cs.cache) != 2 {
		t.Errorf("%d configurations made, want 2", len(cs.cache))
	}
	// Each rank's block is n/nproc_compiled: half the work at P=2.
	if r := work[2] / work[1]; r > 0.6 || r < 0.4 {
		t.Errorf("work at P=2 / P=1 = %g, want about 1/2", r)
	}
	if _, err := cs.at(configValues(nil, nil, 3), withP(nil, 3)); err == nil || !strings.Contains(err.Error(), "setp: 3 processes") {
		t.Errorf("P=3: %v", err)
	}
}

func TestSplitDefs(t *testing.T) {
	ints, labels, err := splitDefs([]string{"class=A,n=64", "P=4"}, []string{"class", "P"})
	if err != nil || ints["n"] != 64 || ints["P"] != 4 || labels["class"] != "A" || len(labels) != 1 {
		t.Errorf("splitDefs = %v, %v, %v", ints, labels, err)
	}
	if _, _, err := splitDefs([]string{"mode=fast"}, []string{"class"}); err == nil || !strings.Contains(err.Error(), "has no {mode}") {
		t.Errorf("a word for no placeholder: %v", err)
	}
}

// TestConfigurationsWithoutP: a configure step that takes no process count
// (NPB 3.4's setparams, here ../tools/setc CLASS) writes the same program
// for every P, but the program takes its share by the count it runs on:
// each P is costed at that P (it was costed once, at the first P, for all
// of them), and the command runs once.
func TestConfigurationsWithoutP(t *testing.T) {
	privateTmp(t)
	dir := filepath.Join("testdata", "configure-class")
	pf := &progFlags{configure: "../tools/setc {class}", incs: []string{filepath.Join(dir, "src")}}
	files := []string{filepath.Join(dir, "src", "prog.f"), filepath.Join(dir, "common", "block.f")}
	cs, err := newConfigurations("predict", pf, files, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.close()
	work := map[int]float64{}
	for _, p := range []int{1, 2, 4} {
		c, err := cs.at(configValues(map[string]string{"class": "S"}, nil, p), withP(nil, p))
		if err != nil {
			t.Fatal(err)
		}
		w, err := c.report.Work.Eval(map[string]symbolic.Rat{cost.Size: symbolic.RatInt(int64(p)), cost.Rank: symbolic.RatInt(0)})
		if err != nil {
			t.Fatal(err)
		}
		work[p] = w.Float64()
	}
	if len(cs.cache) != 1 {
		t.Errorf("%d configurations made, want 1 (the command has no {P})", len(cs.cache))
	}
	// Each rank's block is n/m, m the least with m*m >= P: 1, 2, 2.
	for p, m := range map[int]float64{2: 2, 4: 2} {
		if r := work[p] / work[1]; r > 1.2/m || r < 0.8/m {
			t.Errorf("work at P=%d / P=1 = %g, want about 1/%g (%v)", p, r, m, work)
		}
	}
}
