package cost_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// Values a loop's iterations hand on to the next (a shift register of the
// lengths of the last few diagonals of a wavefront, whose sum bounds the
// loop over the lines of the current diagonal) in loops whose bodies also
// test data. The loop over the diagonals is not run whole (a test of data
// in it changes a value the program's control reads later, or the runs
// around it leave it too small a share of their budget): its carried
// values come from a run of its carried slice, and the counts of every
// node the analysis prints as exact must be the execution's at every rank
// (internal/aptrun), however the data tests go.
var carriedPrograms = []struct {
	name, src string
	params    map[string][2]int64
	// exact lists the lines whose nodes must be exact (the loops the
	// carried values bound); first is the first point, one where the loop
	// over the diagonals is not run whole.
	exact []int
	first map[string]int64
}{
	{"shift register, a data test feeding a later bound", `      program diag
      implicit none
      integer nj, nk, m, nd, d, l, mi, jl, i, cnt, nfix, j
      integer lens(6)
      double precision x(64), s
      read *, nj, nk, m
      do i = 1, 64
         x(i) = dble(mod(7*i, 11)) - 5.0d0
      end do
      do mi = 1, m
         lens(mi) = 0
      end do
      s = 0.0d0
      nfix = 0
      nd = nj + nk - 1 + m - 1
      do d = 1, nd
         cnt = 0
         do mi = m, 2, -1
            lens(mi) = lens(mi-1)
            cnt = cnt + lens(mi)
         end do
         lens(1) = max(min(d, nj, nk, nj + nk - d), 0)
         cnt = cnt + lens(1)
         do l = 1, cnt
            jl = l
            do mi = 1, m - 1
               if (jl .le. lens(mi)) go to 10
               jl = jl - lens(mi)
            end do
            mi = m
   10       continue
            do i = 1, jl + mi
               s = s + x(i)
            end do
            if (x(jl) .lt. 0.0d0) nfix = nfix + 1
         end do
      end do
      do j = 1, nfix
         s = s + 1.0d0
      end do
      print *, s
      end
`, map[string][2]int64{"nj": {1, 12}, "nk": {1, 12}, "m": {1, 3}}, []int{16, 24, 26, 32},
		map[string]int64{"nj": 12, "nk": 9, "m": 3}},
	{"sweeps in blocks, data tests and a fixup loop", `program sweeps
  implicit none
  integer :: nj, nkt, m, bk, nb, q, kb, k0, nkb, dir, d, l, mi, jl, i, cnt
  integer :: lens(6)
  double precision :: x(64), s, t
  read *, nj, nkt, m, bk
  do i = 1, 64
    x(i) = dble(mod(5*i, 13)) - 6.0d0
  end do
  s = 0.0d0
  do q = 1, 4
    call direction(q, dir)
    nb = (nkt + bk - 1) / bk
    do kb = 1, nb
      if (dir > 0) then
        k0 = 1 + (kb - 1)*bk
        nkb = min(bk, nkt - k0 + 1)
      else
        k0 = nkt - (kb - 1)*bk
        nkb = min(bk, k0)
      end if
      do mi = 1, m
        lens(mi) = 0
      end do
      do d = 1, nj + nkb - 1 + m - 1
        cnt = 0
        do mi = m, 2, -1
          lens(mi) = lens(mi - 1)
          cnt = cnt + lens(mi)
        end do
        lens(1) = max(min(d, nj, nkb, nj + nkb - d), 0)
        cnt = cnt + lens(1)
        do l = 1, cnt
          jl = l
          do mi = 1, m - 1
            if (jl <= lens(mi)) exit
            jl = jl - lens(mi)
          end do
          mi = min(mi, m)
          do i = 1, jl + mi
            t = x(i)*dir + s
            if (t < 0.0d0) then
              t = -t
            end if
20          continue
            if (t > 4.0d0) then
              t = t*0.5d0
              go to 20
            end if
            s = s + 0.001d0*t
          end do
        end do
      end do
    end do
  end do
  print *, s
end program sweeps

subroutine direction(q, dir)
  implicit none
  integer, intent(in) :: q
  integer, intent(out) :: dir
  if (q <= 2) then
    dir = 1
  else
    dir = -1
  end if
end subroutine direction
`, map[string][2]int64{"nj": {1, 16}, "nkt": {1, 30}, "m": {1, 3}, "bk": {1, 12}}, []int{25, 33, 35, 40},
		// One block per plane: 20 blocks share the budget of a run of
		// the loop over the directions.
		map[string]int64{"nj": 16, "nkt": 20, "m": 3, "bk": 1}},
}

func TestCarriedValuesAgainstExecution(t *testing.T) {
	for _, cp := range carriedPrograms {
		t.Run(cp.name, func(t *testing.T) {
			checkAtPoints(t, cp.name, cp.src, cp.params, nil, cp.first, cp.exact, 5, 8)
		})
	}
}

// checkAtPoints parses src (fixed form unless it is indented otherwise)
// and checks it with checkCarried at first and at random points drawn
// from params (adjusted by fit when not nil), seeded by seed and the name.
func checkAtPoints(t *testing.T, name, src string, params map[string][2]int64, fit func(map[string]int64),
	first map[string]int64, exact []int, seed uint64, points int) {
	t.Helper()
	file := "t.f"
	if !strings.HasPrefix(src, "      ") {
		file = "t.f90"
	}
	prog, diags := fortran.ParseSource(file, []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	rng := rand.New(rand.NewPCG(seed, uint64(len(name))))
	for point := 0; point < points && !t.Failed(); point++ {
		env := map[string]int64{}
		for k, r := range params {
			env[k] = r[0] + rng.Int64N(r[1]-r[0]+1)
		}
		if fit != nil {
			fit(env)
		}
		if point == 0 {
			env = first
		}
		checkCarried(t, prog, env, exact)
	}
}

// checkCarried analyses prog at env and compares every exact node whose
// figures rest on no value of the data (missing at the point or given its
// default there) with the execution; the loops on
// the lines exact must be exact, and no value the point lacks may be an
// element of the register or the count it gives.
func checkCarried(t *testing.T, prog *apt.Program, env map[string]int64, exact []int) {
	t.Helper()
	rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
	if err != nil {
		t.Fatalf("at %s: %v", pointString(env), err)
	}
	pt, err := rep.AtKnown(env)
	if err != nil {
		t.Fatalf("at %s: %v", pointString(env), err)
	}
	for _, u := range pt.Unknown {
		if strings.HasPrefix(u, "lens") || strings.HasPrefix(u, "cnt") {
			t.Errorf("at %s: no value for %s", pointString(env), u)
		}
	}
	got, err := aptrun.Run(prog, aptrun.Config{P: 1, Params: env})
	if err != nil {
		t.Fatalf("execution at %s: %v", pointString(env), err)
	}
	seen := map[int]bool{}
	for _, n := range rep.Nodes {
		line := n.Node.Base().Span.Start().Line
		if _, isLoop := n.Node.(*apt.Loop); isLoop && contains(exact, line) {
			seen[line] = true
			if !n.Exact {
				t.Errorf("at %s: the loop at line %d is inexact: %s", pointString(env), line, n.Note)
			}
		}
		v, ok := pt.Nodes[n]
		if !n.Exact || !ok || len(v.StandIn) > 0 {
			// (Resting on a value of the data given its default.)
			continue
		}
		id := n.Node.Base().ID
		if c := v.Count.PerRank[0]; c != float64(got.Exec[id]) {
			t.Errorf("at %s: %s (line %d) count %v, executed %d\n  closed form: %s", pointString(env), id, line, c, got.Exec[id], clip(n.Count.String()))
		}
		if len(v.Iterations.PerRank) > 0 {
			if it := v.Iterations.PerRank[0]; it != float64(got.Iter[id]) {
				t.Errorf("at %s: %s (line %d) iterations %v, executed %d", pointString(env), id, line, it, got.Iter[id])
			}
		}
	}
	for _, l := range exact {
		if !seen[l] {
			t.Errorf("no loop at line %d in the report", l)
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
