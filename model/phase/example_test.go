package phase_test

import (
	"fmt"
	"path/filepath"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/phase"
)

// MK's pipeline skeleton (seed 000, Fig. 1): every rank but the first
// receives from its left neighbour, computes, and passes the data on.
func ExampleAnalyze() {
	dir := filepath.Join("..", "..", "testdata", "programs")
	prog, _ := fortran.ParseFiles([]string{filepath.Join(dir, "pipeline.f")}, fortran.Config{})
	a, err := phase.Analyze(prog, phase.Options{})
	if err != nil {
		panic(err)
	}
	for _, g := range a.Phases {
		fmt.Printf("%s: offset %v, D = %v, B = %v\n", g.Name, *g.Offset, g.Depth, g.Stages.Value)
	}
	m, terms, err := a.Model(phase.ModelOptions{Profile: model.Default()})
	if err != nil {
		panic(err)
	}
	for _, t := range terms {
		fmt.Printf("%s [%v]\n", t.Name, t.Kind)
	}
	f, _ := m.Compile()
	t8, _ := f.Time(map[string]float64{"P": 8, "n": 100, "m": 64})
	fmt.Printf("T(P=8) = %.4g s\n", t8)
	// Output:
	// pipeline L29: offset 1, D = P, B = n    if P >= 2 and n >= 1
	// compute [compute]
	// pipeline L29 [comm]
	// pipeline L29 work [compute]
	// T(P=8) = 8.119e-05 s
}
