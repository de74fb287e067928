package cost_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestBitIntrinsicsAgainstExecution: loops bounded by bit intrinsics of
// the rank, P and constants (a butterfly's partner ieor(me, 2**k), masks,
// shifts) count as the interpreter runs them at P = 1..8, with no
// parameter left.
func TestBitIntrinsicsAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 17))
	var atom func(d int) string
	atom = func(d int) string {
		leaves := []string{"me", "np", "me + 1", fmt.Sprint(rng.IntN(16)), "2**" + fmt.Sprint(rng.IntN(4))}
		if d > 1 || rng.IntN(3) == 0 {
			return leaves[rng.IntN(len(leaves))]
		}
		switch rng.IntN(5) {
		case 0:
			return fmt.Sprintf("ieor(%s, %s)", atom(d+1), atom(d+1))
		case 1:
			return fmt.Sprintf("iand(%s, %s)", atom(d+1), atom(d+1))
		case 2:
			return fmt.Sprintf("ior(%s, %s)", atom(d+1), atom(d+1))
		case 3:
			// Of a value kept non-negative: the interpreter's integers
			// have 64 bits, a default integer's logical shift 32.
			return fmt.Sprintf("ishft(iand(%s, 255), %d)", atom(d+1), rng.IntN(7)-3)
		}
		return fmt.Sprintf("not(%s)", atom(d+1))
	}
	for k := range 60 {
		var s strings.Builder
		s.WriteString("program b\n  use mpi\n  integer :: me, np, ierr, i, j, partner\n" +
			"  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)\n" +
			"  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)\n")
		for range 1 + rng.IntN(3) {
			fmt.Fprintf(&s, "  partner = %s\n  do i = 1, mod(abs(partner), 23) + 1\n    j = i\n  end do\n", atom(0))
		}
		s.WriteString("  call MPI_Finalize(ierr)\nend program b\n")
		againstRanks(t, k, s.String(), int64(1+rng.IntN(8)))
	}
}
