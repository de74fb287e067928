package cost_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/analyzer"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
	"github.com/mkvet/mkvet/symbolic"
)

// generated returns an NPB-style MPI program of about 24*routines lines: a
// main program calling `routines` subroutines, each a block-distributed 3-deep
// loop nest with its own bounds, a branch on the rank and a halo exchange
// inside a time loop.
func generated(routines int) []byte {
	var b strings.Builder
	b.WriteString(`      program gen
      implicit none
      include 'mpif.h'
      integer n, nz, niter, me, p, ierr, it
      parameter (n = 256, nz = 16, niter = 10)
c$mk param n = 256
c$mk param nz = 16
c$mk param niter = 10
c$mk assume n >= p
      double precision a(256, 256)
      call MPI_INIT(ierr)
      call MPI_COMM_RANK(MPI_COMM_WORLD, me, ierr)
      call MPI_COMM_SIZE(MPI_COMM_WORLD, p, ierr)
      do it = 1, niter
`)
	for r := 0; r < routines; r++ {
		fmt.Fprintf(&b, "         call s%d(n, nz, p, me, a)\n", r)
	}
	b.WriteString("      enddo\n      call MPI_FINALIZE(ierr)\n      end\n")
	for r := 0; r < routines; r++ {
		k := r%7 + 1
		fmt.Fprintf(&b, `c
      subroutine s%d(n, nz, p, me, a)
      implicit none
      include 'mpif.h'
      integer n, nz, p, me, i, j, l, jlo, jhi, ierr
      integer status(MPI_STATUS_SIZE)
      double precision a(n, n)
      jlo = me*(n/p) + 1
      jhi = jlo + n/p - 1
      do l = 1, nz
         do j = jlo, jhi
            do i = %d, n - %d
               a(i, j) = a(i, j)*0.5d0 + a(i-%d, j)*0.25d0
            enddo
         enddo
      enddo
      if (me .lt. p - 1) then
         call MPI_SEND(a(1, jhi), n, MPI_DOUBLE_PRECISION, me + 1, %d,
     &                 MPI_COMM_WORLD, ierr)
      endif
      if (me .gt. 0) then
         call MPI_RECV(a(1, jlo), n, MPI_DOUBLE_PRECISION, me - 1, %d,
     &                 MPI_COMM_WORLD, status, ierr)
      endif
      end
`, r, k+1, k, k, r, r)
	}
	return []byte(b.String())
}

// BenchmarkCheck runs what `mkvet check` does after parsing (symbolic
// evaluation, counting, composition, the check catalogue) on generated
// programs of about 2.4k and 24k lines.
func BenchmarkCheck(b *testing.B) {
	for _, routines := range []int{100, 1000} {
		src := generated(routines)
		lines := strings.Count(string(src), "\n")
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			for b.Loop() {
				symbolic.ForgetProofs() // each run proves from scratch
				prog, diags := fortran.ParseSource("gen.f", src, fortran.Config{})
				for _, d := range diags {
					if d.Severity == 1 {
						b.Fatal(d)
					}
				}
				rep, err := cost.Analyze(prog, cost.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if len(analyzer.Run(rep, nil, analyzer.Options{})) == 0 {
					b.Fatal("no findings")
				}
			}
			b.ReportMetric(float64(lines), "lines")
		})
	}
}

// TestGeneratedCounts checks the generated benchmark program's counts against
// execution at a few points, so that the benchmark measures correct work.
func TestGeneratedCounts(t *testing.T) {
	src := generated(3)
	prog, _ := fortran.ParseSource("gen.f", src, fortran.Config{})
	rep, err := cost.Analyze(prog, cost.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range rep.Nodes {
		if !n.Exact {
			t.Errorf("%s inexact: %s", n.Node.Base().ID, n.Note)
		}
	}
	for _, env := range []map[string]int64{
		{"n": 20, "nz": 2, "niter": 2, cost.Size: 1},
		{"n": 23, "nz": 1, "niter": 3, cost.Size: 3},
		{"n": 9, "nz": 2, "niter": 1, cost.Size: 4},
	} {
		pt, err := rep.At(env)
		if err != nil {
			t.Fatal(err)
		}
		params := map[string]int64{"n": env["n"], "nz": env["nz"], "niter": env["niter"]}
		for rank := int64(0); rank < env[cost.Size]; rank++ {
			got, err := aptrun.Run(prog, aptrun.Config{P: env[cost.Size], Rank: rank, Params: params})
			if err != nil {
				t.Fatal(err)
			}
			compare(t, rep, pt, got, env, rank, nil)
		}
	}
}
