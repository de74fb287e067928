package cost_test

import (
	"testing"
)

// Registers of moderate length over grids large enough that the values
// they carry have many stretches. The lengths of the last m diagonals of
// an nj x nk grid, m up to 6, each rise, stay and fall over the loop over
// the diagonals, each a diagonal later than the one before: their sum, the
// trip count of the loop over the lines, adds m values of three or four
// stretches each, whose combinations outnumber the alternatives a value
// may hold unless they go stretch by stretch, as tables of the iteration
// number (symeval's pieces.go). The loops over the diagonals are not run
// whole (a test of data feeds a later bound), so the register's values
// come from a run of its carried slice; every count printed as exact must
// be the execution's (internal/aptrun). In blocks of planes the loop over
// the blocks is not run either: the planes of a block, computed from its
// number, are one number in every block (symeval's ranged.go), and the
// loop over the diagonals of a block has a trip count.
var registerPrograms = []struct {
	name, src string
	params    map[string][2]int64
	// fit adjusts a random point (nil: none).
	fit   func(map[string]int64)
	exact []int
	first map[string]int64
}{
	{"long register over a grid", `      program grid
      implicit none
      integer nj, nk, m, nd, d, l, mi, jl, i, cnt, nfix, j
      integer lens(8)
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
            do i = 1, lens(m) + 1
               s = s + x(mod(i + mi, 60) + 1)
            end do
            if (x(mod(jl, 60) + 1) .lt. 0.0d0) nfix = nfix + 1
         end do
      end do
      do j = 1, nfix
         s = s + 1.0d0
      end do
      print *, s
      end
`, map[string][2]int64{"nj": {1, 30}, "nk": {1, 30}, "m": {1, 6}}, nil, []int{16, 24, 26, 32},
		// Six diagonals over a 30 x 24 grid.
		map[string]int64{"nj": 30, "nk": 24, "m": 6}},
	{"blocks of planes, one register per block", `program blocks
  implicit none
  integer :: nj, nkt, m, bk, nb, q, kb, k0, nkb, dir, d, l, mi, jl, i, cnt, nfix
  integer :: lens(8)
  double precision :: x(64), s
  read *, nj, nkt, m, bk
  do i = 1, 64
    x(i) = dble(mod(5*i, 13)) - 6.0d0
  end do
  s = 0.0d0
  nfix = 0
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
          do i = 1, lens(1) + 1
            s = s + x(mod(i + jl, 60) + 1)*dir
          end do
          if (s < 0.0d0) nfix = nfix + 1
        end do
      end do
    end do
  end do
  do i = 1, nfix
    s = s + 1.0d0
  end do
  print *, s
end program blocks

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
`, map[string][2]int64{"nj": {1, 24}, "nkt": {1, 6}, "m": {1, 6}, "bk": {1, 8}},
		// Blocks of bk planes, nkt of them: every block has as many
		// planes, the loop over the diagonals of each block as many
		// trips (a last block of fewer planes is a loop of other trips,
		// which the slice runs do not follow).
		func(p map[string]int64) { p["nkt"] *= p["bk"] }, []int{26, 34, 36},
		// One block of all planes, six diagonals: as Sweep3D on one
		// process.
		map[string]int64{"nj": 24, "nkt": 30, "m": 6, "bk": 30}},
}

func TestLongRegistersAgainstExecution(t *testing.T) {
	for _, rp := range registerPrograms {
		t.Run(rp.name, func(t *testing.T) {
			checkAtPoints(t, rp.name, rp.src, rp.params, rp.fit, rp.first, rp.exact, 7, 6)
		})
	}
}
