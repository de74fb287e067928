package cost_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/model/cost"
)

// TestFormattedDecksAgainstExecution: random programs read their deck with
// formatted READs (a FORMAT statement's label or a constant format; I, F,
// A, X, T, slashes), a line at a time to its end in a routine that parses
// each line's keyword with SELECT CASE and converts its value with an
// internal formatted READ, and size loops with what they read. Every
// node's per-rank count at P = 1..4 equals the interpreter's run, and no
// value stays a parameter.
func TestFormattedDecksAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 7))
	for k := range 40 {
		// The header: two integers and a real under the format.
		w1, w2 := 3+rng.IntN(4), 3+rng.IntN(4)
		gap := rng.IntN(3)
		a, b := rng.IntN(50), rng.IntN(50)
		x := rng.IntN(900)
		var deck strings.Builder
		fmt.Fprintf(&deck, "%*d%s%*d\n", w1, a, strings.Repeat(" ", gap), w2, b)
		fmt.Fprintf(&deck, "%6d\n", x) // F6.2: implied decimals
		// Keyword lines: "name value" with the value in columns 9..12.
		names := []string{"cells", "steps", "other"}
		for range rng.IntN(6) {
			fmt.Fprintf(&deck, "%-8s%4d\n", names[rng.IntN(3)], rng.IntN(20))
		}
		format := fmt.Sprintf("(I%d,%dX,I%d)", w1, gap, w2)
		label := rng.IntN(2) == 0
		header := fmt.Sprintf("read (11, '%s') a, b", format)
		fmtStmt := ""
		if label {
			header = "read (11, 100) a, b"
			fmtStmt = "100 format " + format
		}
		src := fmt.Sprintf(`program decks
  use mpi
  integer :: me, ierr, ios, a, b, cells, steps, i
  double precision :: x
  character(len=20) :: line
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  open (11, file='deck.in', status='old')
  %s
%s
  read (11, '(F6.2)') x
  cells = 1
  steps = 1
  do
    read (11, '(A)', iostat=ios) line
    if (ios /= 0) exit
    call parse(line, cells, steps)
  end do
  do i = 1, a + b*(me+1)
  end do
  do i = 1, nint(x)
  end do
  do i = 1, cells*steps
  end do
  call MPI_Finalize(ierr)
end program decks

subroutine parse(line, cells, steps)
  character(len=20) :: line
  integer :: cells, steps, v
  read (line(9:12), '(I4)') v
  select case (line(1:5))
  case ('cells')
    cells = cells + v
  case ('steps')
    steps = max(steps, v)
  end select
end subroutine parse
`, header, fmtStmt)
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
