package cost_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/e2e"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// footprintSrc declares arrays the ways programs do — in COMMON with
// PARAMETER extents, as explicit-shape dummies whose extents are
// arguments, as automatic arrays sized by a value read at run time, of
// several types and kinds — and prints the bytes gfortran gives them
// (SIZEOF) where the nest runs.
const footprintSrc = `      program fp
      implicit none
      integer n, m
      parameter (n = 37)
      double precision a(n, n), b(0:n+1)
      complex*16 z(n)
      integer ia(2*n)
      common /c/ a, b, z, ia
      read *, m
      call sub(a, b, z, ia, n, m)
      end

      subroutine sub(a, b, z, ia, n, m)
      implicit none
      integer n, m, i, j
      double precision a(n, n), b(0:n+1), w(m, 3)
      complex*16 z(n)
      integer ia(2*n)
      real(kind=4) r(m+1)
      do j = 1, n
        do i = 1, n
          a(i,j) = b(i-1) + b(i+1) + dble(z(i)) + ia(i) + w(1,1) + r(1)
        end do
      end do
      print *, sizeof(a) + sizeof(b) + sizeof(z) + sizeof(ia)
     &       + sizeof(w) + sizeof(r)
      end
`

// TestFootprintAgainstGfortran checks a loop nest's footprint, a closed
// form in the value the program reads, against the storage gfortran
// allocates for the same arrays at several values; and the bytes an
// iteration of the innermost loop streams: a(i,j) 8, b(i-1) and b(i+1)
// one stream of 8, z(i) 16, ia(i) 4, w(1,1) 8, r(1) 4.
func TestFootprintAgainstGfortran(t *testing.T) {
	tools := e2e.Require(t, "gfortran")
	dir := t.TempDir()
	src := filepath.Join(dir, "fp.f")
	if err := os.WriteFile(src, []byte(footprintSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "fp")
	if out, err := exec.Command(tools[0], "-o", exe, src).CombinedOutput(); err != nil {
		t.Fatalf("gfortran: %v\n%s", err, out)
	}
	prog, diags := fortran.ParseFiles([]string{src}, fortran.Config{})
	for _, d := range diags {
		t.Logf("%s", d)
	}
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var st *cost.Stream
	for _, n := range rep.Nodes {
		if len(n.Streams) > 0 {
			if st != nil {
				t.Fatalf("two loops with streams")
			}
			st = &n.Streams[0]
		}
	}
	if st == nil || st.Footprint == nil {
		t.Fatalf("no stream with a footprint in the report")
	}
	if st.Bytes != 48 {
		t.Errorf("stream bytes per iteration = %d, want 48", st.Bytes)
	}
	if st.Footprint.Unknown != "" {
		t.Fatalf("footprint unknown: %s", st.Footprint.Unknown)
	}
	for _, m := range []int64{1, 5, 64, 1000} {
		cmd := exec.Command(exe)
		cmd.Stdin = strings.NewReader(strconv.FormatInt(m, 10) + "\n")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("m=%d: %v", m, err)
		}
		want, err := strconv.ParseFloat(strings.TrimSpace(string(out)), 64)
		if err != nil {
			t.Fatalf("m=%d: gfortran's output %q", m, out)
		}
		got, ok := st.Footprint.FootprintBytes(map[string]symbolic.Rat{"m": symbolic.RatInt(m)})
		if !ok || got != want {
			t.Errorf("m=%d: footprint %v (%v) = %v bytes, gfortran allocates %v", m, st.Footprint.Bytes, ok, got, want)
		}
	}
}
