package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/instrument/calib"
	"github.com/mkvet/mkvet/instrument/fit"
	"github.com/mkvet/mkvet/instrument/runs"
	"github.com/mkvet/mkvet/model"
)

// TestPrintCalibrationNotes: a node that holds the time and fits its own
// runs poorly is named, a light one is not; the memory levels reached are
// said against the machine's hierarchy.
func TestPrintCalibrationNotes(t *testing.T) {
	mem := &model.Memory{CPUs: 2, Levels: []model.MemLevel{{Name: "L1", Size: 32 << 10, Shared: 1, One: 1e-11, All: 1e-11},
		{Name: "L2", Size: 1 << 20, Shared: 1, One: 2e-11, All: 2e-11}, {Name: "memory", One: 5e-11, All: 6e-11}}}
	cal := &calib.Calibration{Runs: 8, Points: 4, Memory: mem, Nodes: []*calib.NodeModel{
		{Node: "ssor/L3", Kind: "loop", Basis: calib.Counts, Mean: 0.9, Model: &fit.Model{SMAPE: 0.135}, Level: 2, Footprint: 700 << 10},
		{Node: "setiv/L1", Kind: "loop", Basis: calib.Counts, Mean: 0.05, Model: &fit.Model{SMAPE: 0.4}, Level: 1, Footprint: 1 << 10},
		{Node: "exchange/M1", Kind: "comm", Op: "send", Basis: calib.Counts, Mean: 0.05, Model: &fit.Model{SMAPE: 0.01}},
	}}
	var b bytes.Buffer
	printCalibration(&b, cal, &runs.Program{Hash: strings.Repeat("ab", 20), Label: "lu"}, []string{"lu.f"}, 0.001)
	out := b.String()
	for _, want := range []string{
		"note: ssor/L3: 90% of the time, fits its own runs poorly (SMAPE 13.5%)",
		"memory levels: the loops ran from L2 at most (largest working set 700KiB per process); L1 32KiB, L2 1MiB; streaming times measured",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "setiv/L1: 5% of the time") {
		t.Errorf("a light node is named:\n%s", out)
	}
}
