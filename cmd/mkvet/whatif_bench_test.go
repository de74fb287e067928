package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/phase"
	"github.com/mkvet/mkvet/model/whatif"
)

// whatifBenchPrograms are the programs of the what-if benchmarks, with
// sizes large enough for P = 2^20.
var whatifBenchPrograms = []struct {
	file string
	defs []string
}{
	{"trap_reduce.f90", []string{"nargs=0,n=4194304"}},
	{"pipeline.f", nil},
	{"pge1.f", []string{"n=2097152"}},
	{"pge2.f", []string{"n=2097152"}},
	{"atm2d.f90", []string{"nx=4096,ny=2097152"}},
}

// BenchmarkWhatifSweep measures mkvet whatif after the analysis and the
// model are built: the table over P = 2^0..2^20 (21 process counts, exact
// where rational) with SCALA's isospeed between consecutive counts. The
// goal is 100 ms per sweep.
func BenchmarkWhatifSweep(b *testing.B) {
	ps, _ := whatif.ParseSweep("1..1048576")
	prof := model.Default()
	for _, bp := range whatifBenchPrograms {
		wf := &whatifFlags{progFlags: progFlags{form: "auto", defs: bp.defs}, format: "table"}
		run, err := wf.build([]string{filepath.Join(testPrograms, bp.file)}, prof, ps, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bp.file, func(b *testing.B) {
			for b.Loop() {
				if _, err := wf.evaluate(run, nil, prof, ps); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWhatifModel measures the composition of T(N, P) from an
// analysis: phase times, maxima over ranks, collectives.
func BenchmarkWhatifModel(b *testing.B) {
	for _, bp := range whatifBenchPrograms {
		wf := &whatifFlags{progFlags: progFlags{form: "auto", defs: bp.defs}, format: "table"}
		run, err := wf.build([]string{filepath.Join(testPrograms, bp.file)}, model.Default(), nil, io.Discard)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bp.file, func(b *testing.B) {
			for b.Loop() {
				if _, _, err := run.analysis.Model(phase.ModelOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
