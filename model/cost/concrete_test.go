package cost_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// setupProgram is a program that builds its data in a set-up routine, as
// NPB CG builds its matrix: each rank generates the rows of a random
// sparse matrix from a generator in real arithmetic (the same sequence on
// every rank, each keeping its own block of rows), drawing columns until
// a row has its entries (a loop formed by GO TO, with a test of a mark
// array), stores them by rows (row pointers and column indices), and then
// sweeps its rows in the timed loop; a second routine counts keys into
// buckets (integer generator, shifts), and a loop per bucket follows.
func setupProgram(n, nzr, niter, nb int, seed float64) string {
	return fmt.Sprintf(`program setup
  use mpi
  implicit none
  integer, parameter :: n = %d, nzr = %d, nb = %d
  integer :: rowstr(n + 1), colidx(n * nzr), counts(0:nb - 1)
  integer :: ierr, me, np, first, last, it, j, k, b, nnz
  double precision :: tran, s
  common /rng/ tran
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  first = me * n / np + 1
  last = (me + 1) * n / np
  tran = %g
  call makemat(first, last, rowstr, colidx, nnz)
  call buckets(counts, me)
  s = 0.0d0
  do it = 1, %d
    do j = 1, last - first + 1
      do k = rowstr(j), rowstr(j + 1) - 1
        s = s + dble(colidx(k))
      end do
    end do
    call mpi_allreduce(mpi_in_place, s, 1, mpi_double_precision, mpi_sum, mpi_comm_world, ierr)
  end do
  do b = 0, nb - 1
    do k = 1, counts(b)
      s = s + 1.0d0
    end do
  end do
  call mpi_finalize(ierr)
end program setup

subroutine makemat(first, last, rowstr, colidx, nnz)
  implicit none
  integer, parameter :: n = %d, nzr = %d
  integer :: first, last, rowstr(*), colidx(*), nnz
  integer :: mark(n), nzloc(nzr), row, nz, col, k
  double precision :: r, randlc
  do k = 1, n
    mark(k) = 0
  end do
  nnz = 0
  rowstr(1) = 1
  do row = 1, n
    nz = 0
10  continue
    if (nz >= 1 + mod(row, nzr)) goto 20
    r = randlc()
    col = int(r * (n + 3)) + 1
    if (col > n) goto 10
    if (mark(col) == 0) then
      mark(col) = 1
      nz = nz + 1
      nzloc(nz) = col
    end if
    goto 10
20  continue
    do k = 1, nz
      mark(nzloc(k)) = 0
      if (row >= first .and. row <= last) then
        nnz = nnz + 1
        colidx(nnz) = nzloc(k)
      end if
    end do
    if (row >= first .and. row <= last) rowstr(row - first + 2) = nnz + 1
  end do
end subroutine makemat

double precision function randlc()
  implicit none
  double precision :: tran, r23, t23, r46, t46, a, t1, t2, t3, t4, a1, a2, x1, x2, z
  common /rng/ tran
  parameter (r23 = 0.5d0 ** 23, r46 = r23 ** 2, t23 = 2.d0 ** 23, t46 = t23 ** 2)
  a = 1220703125.d0
  t1 = r23 * a
  a1 = int(t1)
  a2 = a - t23 * a1
  t1 = r23 * tran
  x1 = int(t1)
  x2 = tran - t23 * x1
  t1 = a1 * x2 + a2 * x1
  t2 = int(r23 * t1)
  z = t1 - t23 * t2
  t3 = t23 * z + a2 * x2
  t4 = int(r46 * t3)
  tran = t3 - t46 * t4
  randlc = r46 * tran
end function randlc

subroutine buckets(counts, me)
  implicit none
  integer, parameter :: nb = %d
  integer :: counts(0:nb - 1), me, i, x, key
  do i = 0, nb - 1
    counts(i) = 0
  end do
  x = 4711 + me
  do i = 1, 300
    x = modulo(1103515245 * x + 12345, 2147483647)
    key = mod(x, 64 * nb)
    counts(ishft(key, -6)) = counts(ishft(key, -6)) + 1
  end do
end subroutine buckets
`, n, nzr, nb, seed, niter, n, nzr, nb)
}

// TestSetupRunConcretely: the counts that rest on data a set-up routine
// generates are exact, with no value asked (the routines are run at the
// point, rank by rank, by the concrete machine), and equal the APT
// interpreter's on every rank: the timed row sweep, the buckets' loops,
// and the set-up's own loops.
func TestSetupRunConcretely(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 7))
	for k := range 6 {
		n, nzr, nb := 8+r.IntN(40), 2+r.IntN(5), 2+r.IntN(6)
		src := setupProgram(n, nzr, 1+r.IntN(4), nb, float64(1+r.IntN(1<<30)))
		prog, diags := fortran.ParseSource("setup.f90", []byte(src), fortran.Config{})
		for _, d := range diags {
			t.Fatalf("program %d: %s", k, d)
		}
		countsAgainstInterpreter(t, fmt.Sprintf("program %d", k), prog, []int64{1, 2, 3}, false)
		if t.Failed() {
			t.Fatalf("program %d:\n%s", k, src)
		}
	}
}

// keysProgram draws nkeys keys per rank from an integer generator (more
// trips than the evaluation runs itself), counts them into nb buckets,
// sums the counts over the ranks (MPI_ALLREDUCE) and hands each rank one
// count of every other's (MPI_ALLTOALL), as NPB IS ranks its keys; loops
// over the buckets and over the received counts follow.
func keysProgram(nkeys, nb int) string {
	return fmt.Sprintf(`program keys
  use mpi
  implicit none
  integer, parameter :: nkeys = %d, nb = %d
  integer :: key(nkeys), cnt(nb), tot(nb), got(64), ierr, me, np, i, x, b, k, s
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  x = 271 + 13 * me
  do i = 1, nkeys
    x = modulo(69069 * x + 1, 1048576)
    key(i) = mod(x / 7, nb * 16)
  end do
  do b = 1, nb
    cnt(b) = 0
  end do
  do i = 1, nkeys
    b = key(i) / 16 + 1
    cnt(b) = cnt(b) + 1
  end do
  call mpi_allreduce(cnt, tot, nb, mpi_integer, mpi_sum, mpi_comm_world, ierr)
  s = 0
  do b = 1, nb
    do k = 1, tot(b)
      s = s + k
    end do
  end do
  call mpi_alltoall(cnt, 1, mpi_integer, got, 1, mpi_integer, mpi_comm_world, ierr)
  do b = 1, np
    do k = 1, got(b)
      s = s - 1
    end do
  end do
  call mpi_finalize(ierr)
end program keys
`, nkeys, nb)
}

// TestKeysRunConcretely: loops over keys too long for the evaluation's
// own runs are run by the concrete machine in their routine's frame, and
// the counts they leave travel through MPI_ALLREDUCE and MPI_ALLTOALL: the
// loops over the buckets and over what each rank received count what the
// interpreter, moving the messages between the ranks, runs.
func TestKeysRunConcretely(t *testing.T) {
	for k, c := range []struct{ nkeys, nb int }{{5000, 4}, {4500, 7}, {6000, 12}} {
		worldAgainstInterpreter(t, k, "keys.f90", keysProgram(c.nkeys, c.nb))
	}
}

// bucketsProgram draws nkeys keys per rank, then, in each of niter
// iterations that first change one key (as NPB IS does), counts the keys
// by destination rank, places them by destination, exchanges the counts
// (MPI_ALLTOALL) and the keys (MPI_ALLTOALLV with displacements computed
// from them), and runs a loop per received key whose trip count is the
// key's: the counts rest on keys each rank only knows from its messages.
func bucketsProgram(nkeys, niter int) string {
	return fmt.Sprintf(`program buckets
  use mpi
  implicit none
  integer, parameter :: nkeys = %d, niter = %d
  integer :: key(nkeys), kb(nkeys), got(4*nkeys)
  integer :: scnt(8), sdsp(8), rcnt(8), rdsp(8), ptr(8)
  integer :: ierr, me, np, i, x, d, k, s, n, it
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  x = 977 + 31 * me
  do i = 1, nkeys
    x = modulo(1103 * x + 12345, 65536)
    key(i) = x / 256
  end do
  s = 0
  do it = 1, niter
    key(it) = 7 * it + me
    do d = 1, np
      scnt(d) = 0
    end do
    do i = 1, nkeys
      d = mod(key(i), np) + 1
      scnt(d) = scnt(d) + 1
    end do
    sdsp(1) = 0
    do d = 2, np
      sdsp(d) = sdsp(d-1) + scnt(d-1)
    end do
    do d = 1, np
      ptr(d) = sdsp(d)
    end do
    do i = 1, nkeys
      d = mod(key(i), np) + 1
      ptr(d) = ptr(d) + 1
      kb(ptr(d)) = key(i)
    end do
    call mpi_alltoall(scnt, 1, mpi_integer, rcnt, 1, mpi_integer, mpi_comm_world, ierr)
    rdsp(1) = 0
    n = rcnt(1)
    do d = 2, np
      rdsp(d) = rdsp(d-1) + rcnt(d-1)
      n = n + rcnt(d)
    end do
    call mpi_alltoallv(kb, scnt, sdsp, mpi_integer, got, rcnt, rdsp, mpi_integer, mpi_comm_world, ierr)
    do i = 1, n
      do k = 1, mod(got(i), 5)
        s = s + k
      end do
    end do
  end do
  call mpi_finalize(ierr)
end program buckets
`, nkeys, niter)
}

// TestBucketsRunConcretely: keys each rank draws, changed on each trip of
// an outer loop and exchanged by MPI_ALLTOALLV, decide the trip counts of
// the loop over the keys received: the outer loop is run trip by trip,
// the loops over keys inside it by the concrete machine, and the keys
// travel to the ranks that receive them; every count equals the
// interpreter's, the messages moving between its ranks.
func TestBucketsRunConcretely(t *testing.T) {
	for k, c := range []struct{ nkeys, niter int }{{3000, 3}, {5000, 2}} {
		worldAgainstInterpreter(t, k, "buckets.f90", bucketsProgram(c.nkeys, c.niter))
	}
}

// rootKeysProgram draws nkeys keys on rank 0 alone (a loop under a test
// on the rank, or, with call, a subroutine rank 0 calls), broadcasts
// them, counts them into nb buckets on every rank, and gathers two
// numbers from each rank (MPI_ALLGATHER: a bucket's count and the rank)
// whose first decides a loop's trip count.
func rootKeysProgram(nkeys, nb int, call bool) string {
	draw := `  if (me == 0) then
    x = 12345
    do i = 1, nkeys
      x = modulo(69069 * x + 1, 1048576)
      key(i) = mod(x / 7, nb * 16)
    end do
  end if`
	sub := ""
	if call {
		draw = "  if (me == 0) call draw(key, nkeys, nb)"
		sub = `
subroutine draw(key, n, nb)
  implicit none
  integer, intent(in) :: n, nb
  integer, intent(out) :: key(n)
  integer :: i, x
  x = 12345
  do i = 1, n
    x = modulo(69069 * x + 1, 1048576)
    key(i) = mod(x / 7, nb * 16)
  end do
end subroutine draw`
	}
	return fmt.Sprintf(`program rootkeys
  use mpi
  implicit none
  integer, parameter :: nkeys = %d, nb = %d
  integer :: key(nkeys), cnt(nb), mine(2), all(128), ierr, me, np, i, x, b, k, s
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
%s
  call mpi_bcast(key, nkeys, mpi_integer, 0, mpi_comm_world, ierr)
  do b = 1, nb
    cnt(b) = 0
  end do
  do i = 1, nkeys
    b = key(i) / 16 + 1
    cnt(b) = cnt(b) + 1
  end do
  s = 0
  do b = 1, nb
    do k = 1, cnt(b)
      s = s + k
    end do
  end do
  mine(1) = cnt(mod(me, nb) + 1)
  mine(2) = me
  call mpi_allgather(mine, 2, mpi_integer, all, 2, mpi_integer, mpi_comm_world, ierr)
  do b = 1, np
    do k = 1, all(2*b-1) + all(2*b)
      s = s - 1
    end do
  end do
  call mpi_finalize(ierr)
end program rootkeys%s
`, nkeys, nb, draw, sub)
}

// TestRootKeysRunConcretely: keys drawn by rank 0 alone (in a loop, or a
// subroutine's) are run by the concrete machine on that rank, broadcast as its row, and what each
// rank then gathers from all (MPI_ALLGATHER of two numbers each) decides
// trip counts: every count equals the interpreter's, all ranks together.
func TestRootKeysRunConcretely(t *testing.T) {
	for k, c := range []struct {
		nkeys, nb int
		call      bool
	}{{5000, 8, false}, {6000, 5, true}} {
		worldAgainstInterpreter(t, k, "rootkeys.f90", rootKeysProgram(c.nkeys, c.nb, c.call))
	}
}

// dealtProgram counts nkeys keys into 2P buckets on rank 0, deals two
// buckets' counts to each rank (MPI_SCATTER), loops over them, and sums
// what the ranks were dealt back at rank 0 (MPI_REDUCE of two elements)
// for a loop there; a loop on every rank then reads the receive buffer,
// which the reduction left as it was on the others.
func dealtProgram(nkeys int) string {
	return fmt.Sprintf(`program dealt
  use mpi
  implicit none
  integer, parameter :: n = %d
  integer :: cnt(64), mine(2), ierr, me, np, i, k, s, x, b
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  if (me == 0) then
    do b = 1, 2*np
      cnt(b) = 0
    end do
    x = 4321
    do i = 1, n
      x = modulo(69069 * x + 1, 1048576)
      b = mod(x / 7, 2*np) + 1
      cnt(b) = cnt(b) + 1
    end do
  end if
  call mpi_scatter(cnt, 2, mpi_integer, mine, 2, mpi_integer, 0, mpi_comm_world, ierr)
  s = 0
  do k = 1, mine(1) + mine(2)
    s = s + k
  end do
  cnt(1) = me + 2
  call mpi_reduce(mine, cnt, 2, mpi_integer, mpi_sum, 0, mpi_comm_world, ierr)
  if (me == 0) then
    do k = 1, cnt(1) - cnt(2)/2
      s = s + 1
    end do
  end if
  do k = 1, cnt(1)
    s = s - 1
  end do
  call mpi_finalize(ierr)
end program dealt
`, nkeys)
}

// TestDealtRunConcretely: bucket counts rank 0 alone computes are dealt
// out by MPI_SCATTER and summed back by MPI_REDUCE; the loops over what
// each rank was dealt, and over the root's sums, count what the
// interpreter runs.
func TestDealtRunConcretely(t *testing.T) {
	for k, n := range []int{5000, 7000} {
		worldAgainstInterpreter(t, k, "dealt.f90", dealtProgram(n))
	}
}

// allocKeysProgram draws a share of nkeys keys per rank into an
// ALLOCATABLE module array sized by the process count, and counts them into
// nb buckets (an allocatable with lower bound 0) in a subroutine whose
// dummies take their shapes from the actuals (k(:), c(0:)) and which loops
// to SIZE(k); the loops over the summed counts and over the largest
// bucket's count rest on what the subroutine's run left.
func allocKeysProgram(nkeys, nb int) string {
	return fmt.Sprintf(`module store
  implicit none
  integer, allocatable :: key(:), cnt(:)
end module store

subroutine tally(k, c, n)
  implicit none
  integer, intent(in) :: k(:)
  integer, intent(inout) :: c(0:)
  integer :: n, i, b
  n = 0
  do i = 1, size(k)
    b = k(i) / 16
    c(b) = c(b) + 1
    if (c(b) > n) n = c(b)
  end do
end subroutine tally

program allockeys
  use mpi
  use store
  implicit none
  interface
    subroutine tally(k, c, n)
      integer, intent(in) :: k(:)
      integer, intent(inout) :: c(0:)
      integer :: n
    end subroutine
  end interface
  integer, parameter :: nb = %d
  integer :: nkeys, ierr, me, np, i, x, b, k, s, most
  integer :: tot(0:nb-1)
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  nkeys = %d / np
  allocate(key(nkeys), cnt(0:nb-1))
  cnt = 0
  x = 271 + 13 * me
  do i = 1, nkeys
    x = modulo(69069 * x + 1, 1048576)
    key(i) = mod(x / 7, nb * 16)
  end do
  call tally(key, cnt, most)
  call mpi_allreduce(cnt, tot, nb, mpi_integer, mpi_sum, mpi_comm_world, ierr)
  s = 0
  do b = 0, nb - 1
    do k = 1, tot(b)
      s = s + k
    end do
  end do
  do k = 1, most
    s = s - 1
  end do
  call mpi_finalize(ierr)
end program
`, nb, nkeys)
}

// TestAllocatableRunConcretely: the concrete machine runs code over
// ALLOCATABLE arrays (their bounds the allocation's) and assumed-shape
// dummies (their actuals'), SIZE included, and what it leaves travels
// through MPI_ALLREDUCE: every count as the interpreter's.
func TestAllocatableRunConcretely(t *testing.T) {
	for k, c := range []struct{ nkeys, nb int }{{20000, 7}, {15001, 4}} {
		worldAgainstInterpreter(t, k, "allockeys.f90", allocKeysProgram(c.nkeys, c.nb))
	}
}

// opaqueProgram computes complex data beside the keys it draws (nkeys per
// rank), and counts them in a subroutine given a text argument it sets
// only on a path not taken: the run leaves the complex values and the
// text unknown and goes on, as no test reads them.
func opaqueProgram(nkeys int) string {
	return fmt.Sprintf(`subroutine tally(key, n, cnt, name)
  implicit none
  integer :: n, key(n), cnt(0:7), i, b
  character(len=*) :: name
  do i = 1, n
    b = key(i) / 16
    cnt(b) = cnt(b) + 1
  end do
  if (cnt(0) < 0) name = 'impossible'
end subroutine tally

program opaque
  use mpi
  implicit none
  integer, parameter :: n = %d
  integer :: key(n), cnt(0:7), tot(0:7), i, x, b, k, s, ierr, me, np
  complex(8) :: z(n), w
  character(len=16) :: label
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  label = 'keys'
  x = 271 + 13 * me
  w = (1.0d0, 0.5d0)
  do i = 1, n
    x = modulo(69069 * x + 1, 1048576)
    key(i) = mod(x / 7, 128)
    z(i) = cmplx(dble(x), -dble(i), kind=8) * conjg(w)
  end do
  cnt = 0
  call tally(key, n, cnt, label)
  call mpi_allreduce(cnt, tot, 8, mpi_integer, mpi_sum, mpi_comm_world, ierr)
  s = 0
  do b = 0, 7
    do k = 1, tot(b)
      s = s + k
    end do
  end do
  call mpi_finalize(ierr)
end program
`, nkeys)
}

// TestOpaqueRunConcretely: complex data and text do not stop a run that
// does not test them.
func TestOpaqueRunConcretely(t *testing.T) {
	for k, n := range []int{5000, 6001} {
		worldAgainstInterpreter(t, k, "opaque.f90", opaqueProgram(n))
	}
}

// structProgram draws nkeys keys per rank into buckets whose number is a
// component of a module's structure, and keeps the largest key and the
// number drawn in components of a local structure, one nested: the loop
// over the keys is run by the concrete machine, which follows the
// components the counts then read (the loop bounded by the largest key).
func structProgram(nkeys, nb int) string {
	return fmt.Sprintf(`module setup
  implicit none
  type bounds
    integer :: v
  end type bounds
  type params
    integer :: nb
    type(bounds) :: hi
  end type params
  type(params) :: par
end module setup

program structkeys
  use mpi
  use setup
  implicit none
  integer, parameter :: n = %d
  type stats
    integer :: seen
    type(bounds) :: top
  end type stats
  type(stats) :: st
  integer :: key(n), cnt(0:63), tot(0:63), i, x, b, k, s, ierr, me, np
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  par%%nb = %d
  par%%hi%%v = 16 * par%%nb - 1
  x = 271 + 13 * me
  st%%seen = 0
  st%%top%%v = 0
  do i = 1, n
    x = modulo(69069 * x + 1, 1048576)
    key(i) = mod(x / 7, par%%hi%%v + 1 - me)
    if (key(i) > st%%top%%v) st%%top%%v = key(i)
    st%%seen = st%%seen + 1
  end do
  cnt = 0
  do i = 1, st%%seen
    b = key(i) / 16
    cnt(b) = cnt(b) + 1
  end do
  call mpi_allreduce(cnt, tot, 64, mpi_integer, mpi_sum, mpi_comm_world, ierr)
  s = 0
  do b = 0, par%%nb - 1
    do k = 1, tot(b)
      s = s + k
    end do
  end do
  do k = 1, st%%top%%v
    s = s + k
  end do
  call mpi_finalize(ierr)
end program
`, nkeys, nb)
}

// TestStructRunConcretely: runs of the program's code follow scalar
// components of structures, nested ones too, in a module and local.
func TestStructRunConcretely(t *testing.T) {
	for k, c := range []struct{ nkeys, nb int }{{20000, 3}, {9001, 2}} {
		worldAgainstInterpreter(t, k, "structkeys.f90", structProgram(c.nkeys, c.nb))
	}
}

// worldAgainstInterpreter parses program k's source src (file name) and
// compares its counts at P = 1, 2, 3 with the interpreter's running all
// ranks together (countsAgainstInterpreter).
func worldAgainstInterpreter(t *testing.T, k int, name, src string) {
	t.Helper()
	prog, diags := fortran.ParseSource(name, []byte(src), fortran.Config{})
	for _, d := range diags {
		t.Fatalf("program %d: %s", k, d)
	}
	countsAgainstInterpreter(t, fmt.Sprintf("program %d", k), prog, []int64{1, 2, 3}, true)
	if t.Failed() {
		t.Fatalf("program %d:\n%s", k, src)
	}
}

// countsAgainstInterpreter analyses prog at each process count of nps and
// compares every node's counts, rank by rank, with the APT interpreter's
// (world: all ranks run together and their messages move); no value but a
// branch frequency may be left a parameter.
func countsAgainstInterpreter(t *testing.T, label string, prog *apt.Program, nps []int64, world bool) {
	t.Helper()
	for _, np := range nps {
		env := map[string]int64{cost.Size: np}
		rep, err := cost.AnalyzeAt(prog, cost.Options{}, env)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		for _, p := range rep.Params {
			if p.Value == nil && !strings.HasPrefix(p.Name, "pct_") {
				t.Errorf("%s P=%d: %s is a parameter (%s)", label, np, p.Name, p.What)
			}
		}
		pt, err := rep.At(env)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		var runs []*aptrun.Counts
		if world {
			if runs, err = aptrun.RunWorld(prog, aptrun.Config{P: np, Params: map[string]int64{}}); err != nil {
				t.Fatalf("%s: %v", label, err)
			}
		}
		for rank := range np {
			var got *aptrun.Counts
			if world {
				got = runs[rank]
			} else if got, err = aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Params: map[string]int64{}}); err != nil {
				t.Fatalf("%s rank %d: %v", label, rank, err)
			}
			compare(t, rep, pt, got, env, rank, nil)
		}
	}
}
