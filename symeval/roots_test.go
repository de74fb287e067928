package symeval_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// A process grid's side from a root of P, as programs write it: the
// loop's bound is the integer the run computes in floating point (the
// oracle: Go's math, with the program's own rounding).
func TestRootsOfTheProcessCount(t *testing.T) {
	for _, c := range []struct {
		expr string
		want func(p float64) int64
	}{
		{"int(real(np)**(1.0/3.0) + 0.5)", func(p float64) int64 { return int64(math.Cbrt(p) + 0.5) }},
		{"nint(dble(np)**(1.0d0/3.0d0))", func(p float64) int64 { return int64(math.Round(math.Cbrt(p))) }},
		{"int(sqrt(dble(np)) + 0.5)", func(p float64) int64 { return int64(math.Sqrt(p) + 0.5) }},
		{"int(dble(np)**0.25d0 + 0.5)", func(p float64) int64 { return int64(math.Pow(p, 0.25) + 0.5) }},
		{"int(dble(np)**(2.0d0/3.0d0))", func(p float64) int64 { return int64(math.Cbrt(p) * math.Cbrt(p)) }},
	} {
		for _, np := range []int64{1, 2, 8, 27, 64, 100, 125, 343, 1000, 4096} {
			res := evaluate(t, `program p
  use mpi
  integer :: np, ierr, i, side
  call MPI_Init(ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  side = `+c.expr+`
  do i = 1, side
  end do
end program p
`, symeval.Options{Values: map[string]int64{symeval.Size: np}})
			dom := loopDomain(t, res, "p/L1")
			want := fmt.Sprintf("i <= %d", c.want(float64(np)))
			if !strings.HasSuffix(dom, " and "+want+" }") {
				t.Errorf("P=%d, side = %s: domain %s, want %s", np, c.expr, dom, want)
			}
		}
	}
}
