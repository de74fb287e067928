package e2e

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mkvet/mkvet/model"
	"github.com/mkvet/mkvet/model/membench"
)

var machine struct {
	once sync.Once
	prof *model.Profile
	err  error
}

// Machine returns the default profile with this machine's memory hierarchy
// and work unit measured by membench (once per test binary, with cc): the
// machine the tests' runs time. It fails t when the benchmark cannot be built or run.
func Machine(t testing.TB) *model.Profile {
	t.Helper()
	Require(t, "cc")
	machine.once.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		start := time.Now()
		node, err := membench.Measure(ctx, membench.Options{Compiler: []string{"cc"}})
		if err != nil {
			machine.err = err
			return
		}
		p := node.Profile(model.Default())
		p.Name = "this-machine"
		machine.prof = p
		t.Logf("this machine measured in %v: work unit %.3g ns (vectorised %.3g, scalar %.3g, chain %.3g, complex %.3g); %s", time.Since(start).Round(time.Millisecond), 1e9*node.Unit,
			1e9*node.Vector(), 1e9*node.Scalar(), 1e9*node.Chain(), 1e9*node.Complex(), describe(node.Memory))
	})
	if machine.err != nil {
		t.Fatalf("measuring this machine's memory hierarchy: %v", machine.err)
	}
	return machine.prof
}

// describe prints the levels and their streaming times on one line.
func describe(m *model.Memory) string {
	s := ""
	for i, l := range m.Levels {
		if i > 0 {
			s += "; "
		}
		s += l.Name
		if l.Size > 0 {
			s += " " + model.FormatBytes(float64(l.Size))
		}
		s += fmt.Sprintf(" %.1f/%.1f GB/s, walk %.2f/%.2f ns, stride %.2f/%.2f ns, gather %.2f/%.2f ns",
			1e-9/l.One, 1e-9/l.All, 1e9*l.WalkOne, 1e9*l.WalkAll, 1e9*l.StrideOne, 1e9*l.StrideAll, 1e9*l.GatherOne, 1e9*l.GatherAll)
		if l.GatherHeld > 0 {
			s += ", a gather finds " + model.FormatBytes(float64(l.GatherHeld))
		}
	}
	if m.TouchOne > 0 {
		s += fmt.Sprintf("; first touch %.3f/%.3f ns a byte", 1e9*m.TouchOne, 1e9*m.TouchAll)
	}
	return s
}
