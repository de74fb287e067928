package cost_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
)

// TestOptionalDecksAgainstExecution: random programs read an input deck
// only when it is there, falling back to defaults written in the source
// (OPEN with STATUS='OLD' and IOSTAT=, then IF on the status: NPB's
// inputlu.data, CloverLeaf's clover.in). The deck is in the run's
// directory or not (the program opens another name); the loops it sizes
// count as the interpreter's run in the same directory counts them, rank
// by rank at P = 1..4, and no value stays a parameter.
func TestOptionalDecksAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 11))
	for k := range 40 {
		n, m := 1+rng.IntN(30), 1+rng.IntN(9)
		dn, dm := 1+rng.IntN(30), 1+rng.IntN(9)
		name := "deck.in"
		if k%2 == 1 {
			name = "missing.in"
		}
		fail := "ios /= 0"
		if rng.IntN(2) == 0 {
			fail = "ios > 0"
		}
		src := fmt.Sprintf(`program optdeck
  use mpi
  integer :: me, np, ierr, ios, n, m, i, j
  double precision :: s
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  open (unit=7, file='%s', status='old', iostat=ios)
  if (%s) then
    n = %d
    m = %d
  else
    read (7, *) n, m
    close (7)
  end if
  s = 0.0d0
  do i = 1, n + me
    do j = 1, m
      s = s + dble(i*j)
    end do
  end do
  print *, s
  call MPI_Finalize(ierr)
end program optdeck
`, name, fail, dn, dm)
		deck := fmt.Sprintf("%d %d\n", n, m)
		rep := againstInterpreter(t, k, src, "deck.in", deck, int64(1+rng.IntN(4)))
		for _, p := range rep.Params {
			if p.Origin == cost.FromRead {
				t.Errorf("program %d: %s is a parameter", k, p.Name)
			}
		}
		present := len(rep.Read) > 0
		if present != (name == "deck.in") {
			t.Errorf("program %d opens %s: values read from the deck %v, want %v", k, name, rep.Read, name == "deck.in")
		}
		if len(rep.Inputs) > 0 != (name != "deck.in") {
			t.Errorf("program %d opens %s: inputs taken as absent %v", k, name, rep.Inputs)
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}
