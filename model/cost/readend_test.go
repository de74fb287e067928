package cost_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
)

// TestReadToEndAgainstExecution: random programs read their deck a
// record at a time until the end of the file (list-directed READ with
// IOSTAT=, EXIT on its status) and size loops with what they read: a
// count of records, a sum, a largest value. Every node's per-rank count at
// P = 1..4 equals the interpreter's run, and no value stays a parameter.
func TestReadToEndAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(59, 2))
	for k := range 40 {
		items := 1 + rng.IntN(3)
		var deck strings.Builder
		for range rng.IntN(7) {
			for j := range items {
				if j > 0 {
					deck.WriteString(" ")
				}
				fmt.Fprintf(&deck, "%d", rng.IntN(9))
			}
			deck.WriteString("\n")
		}
		vars := []string{"a", "b", "c"}[:items]
		test := "ios /= 0"
		if rng.IntN(2) == 0 {
			test = "ios < 0"
		}
		src := fmt.Sprintf(`program toend
  use mpi
  integer :: me, ierr, ios, a, b, c, nrec, tot, big, i
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  open (11, file='deck.in', status='old')
  nrec = 0
  tot = 0
  big = 0
  a = 0
  b = 0
  c = 0
  do
    read (11, *, iostat=ios) %s
    if (%s) exit
    nrec = nrec + 1
    tot = tot + a + b + c
    big = max(big, a*(me+1))
  end do
  do i = 1, nrec
  end do
  do i = 1, tot
  end do
  do i = 1, big
  end do
  call MPI_Finalize(ierr)
end program toend
`, strings.Join(vars, ", "), test)
		rep := againstInterpreter(t, k, src, "deck.in", deck.String(), int64(1+rng.IntN(4)))
		for _, p := range rep.Params {
			if p.Origin == cost.FromRead || p.Origin == cost.FromTripCount || p.Origin == cost.FromUnresolved {
				t.Errorf("program %d: %s (%s) is a parameter\n%s\ndeck:\n%s", k, p.Name, p.What, src, deck.String())
			}
		}
		if t.Failed() {
			t.FailNow()
		}
	}
}

// TestSearchLoopsAgainstExecution: random DO loops that search for the
// first trip a flag set afresh on each trip holds on, and EXIT there (a
// search for a free unit, a bin, a divisor); the loop's variable after it
// sizes another loop. Counts equal the interpreter's at P = 1..3.
func TestSearchLoopsAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 5))
	for k := range 40 {
		lo, hi := 1+rng.IntN(5), 6+rng.IntN(30)
		m, r := 2+rng.IntN(6), rng.IntN(4)
		src := fmt.Sprintf(`program search
  use mpi
  integer :: me, ierr, u, i
  logical :: found
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  do u = %d, %d
    found = mod(u + me, %d) == %d
    if (found) exit
  end do
  do i = 1, u
  end do
  call MPI_Finalize(ierr)
end program search
`, lo, hi, m, r%m)
		againstInterpreter(t, k, src, "unused.in", "", int64(1+rng.IntN(3)))
		if t.Failed() {
			t.FailNow()
		}
	}
}
