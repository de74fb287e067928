package symeval

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/internal/e2e"
)

// TestBitOpsAgainstGfortranE2E: the bit intrinsics the evaluation
// computes give what gfortran's run prints, on random arguments of
// default and 8-byte kinds (negative ones, shifts past the width).
func TestBitOpsAgainstGfortranE2E(t *testing.T) {
	e2e.Require(t, "gfortran")
	rng := rand.New(rand.NewPCG(46, 19))
	type call struct {
		name string
		args []int64
		kind int
	}
	var calls []call
	var src strings.Builder
	src.WriteString("program b\n")
	for range 300 {
		c := call{name: []string{"iand", "ior", "ieor", "not", "ishft", "ibset", "ibclr", "ibits"}[rng.IntN(8)], kind: []int{4, 8}[rng.IntN(2)]}
		v := func() int64 { return rng.Int64N(1<<20) - 1<<19 }
		switch c.name {
		case "not":
			c.args = []int64{v()}
		case "ishft":
			c.args = []int64{v(), rng.Int64N(2*int64(c.kind)*8+1) - int64(c.kind)*8}
		case "ibset", "ibclr":
			c.args = []int64{v(), rng.Int64N(int64(c.kind)*8 - 1)}
		case "ibits":
			pos := rng.Int64N(20)
			c.args = []int64{v(), pos, rng.Int64N(20)}
		default:
			c.args = []int64{v(), v()}
		}
		var as []string
		for i, a := range c.args {
			if i == 0 || c.name == "iand" || c.name == "ior" || c.name == "ieor" {
				as = append(as, fmt.Sprintf("int(%d, %d)", a, c.kind))
			} else {
				as = append(as, strconv.FormatInt(a, 10))
			}
		}
		fmt.Fprintf(&src, "  print *, %s(%s)\n", c.name, strings.Join(as, ", "))
		calls = append(calls, c)
	}
	src.WriteString("end program b\n")
	dir := t.TempDir()
	f := filepath.Join(dir, "b.f90")
	if err := os.WriteFile(f, []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "b")
	if out, err := exec.Command("gfortran", "-o", exe, f).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	out, err := exec.Command(exe).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(string(out))
	if len(lines) != len(calls) {
		t.Fatalf("%d results for %d calls", len(lines), len(calls))
	}
	for i, c := range calls {
		want, _ := strconv.ParseInt(lines[i], 10, 64)
		got, ok := bitOps(c.name, c.args, c.kind)
		if !ok || got != want {
			t.Errorf("%s%v (kind %d) = %d, %v; gfortran: %d", c.name, c.args, c.kind, got, ok, want)
		}
	}
}
