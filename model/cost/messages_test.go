package cost_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/internal/aptrun"
	"github.com/mkvet/mkvet/model/cost"
)

// TestMessagesAgainstExecution: random programs read a deck on one rank
// (rank 0 or the last) and carry its values to the others by the ways
// real programs do (broadcast of a scalar, of a packed integer array,
// sends and receives, isend/irecv and a wait, reductions, scatter,
// allgather of values each rank derives), then size their loops with
// what each rank holds; every node's per-rank count at P = 1..4 equals
// the interpreter's run of all ranks at once, which moves the messages'
// contents (aptrun.RunWorld), and no value stays a parameter.
func TestMessagesAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(42, 9))
	const programs = 100
	for k := range programs {
		src, deck := randomMessageProgram(rng)
		np := int64(1 + rng.IntN(4))
		againstWorld(t, k, src, deck, np)
		if t.Failed() {
			t.Fatalf("program %d failed", k)
		}
	}
}

// carriers are the ways a value read on the root reaches the other ranks:
// each returns the statements, given the variable and a fresh tag.
var carriers = []func(x string, tag int) string{
	// A broadcast of the scalar.
	func(x string, _ int) string {
		return fmt.Sprintf("  call MPI_Bcast(%s, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n", x)
	},
	// Packed into an integer array, broadcast, unpacked.
	func(x string, _ int) string {
		return fmt.Sprintf("  if (me == root) pack(3) = %s\n"+
			"  call MPI_Bcast(pack, 4, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n"+
			"  %s = pack(3)\n", x, x)
	},
	// Packed by an array constructor (either notation) on the root,
	// broadcast, unpacked.
	func(x string, tag int) string {
		cons := fmt.Sprintf("[%s + 1, %s, %d, 0]", x, x, tag)
		if tag%2 == 0 {
			cons = fmt.Sprintf("(/ %s + 1, %s, %d, 0 /)", x, x, tag)
		}
		return fmt.Sprintf("  if (me == root) pack = %s\n"+
			"  call MPI_Bcast(pack, 4, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n"+
			"  %s = pack(1) - 1 + pack(3) - %d\n", cons, x, tag)
	},
	// Sent by the root to every other rank.
	func(x string, tag int) string {
		return fmt.Sprintf("  if (me == root) then\n"+
			"    do r = 0, np - 1\n"+
			"      if (r /= root) call MPI_Send(%s, 1, MPI_INTEGER, r, %d, MPI_COMM_WORLD, ierr)\n"+
			"    end do\n"+
			"  else\n"+
			"    call MPI_Recv(%s, 1, MPI_INTEGER, root, %d, MPI_COMM_WORLD, st, ierr)\n"+
			"  end if\n", x, tag, x, tag)
	},
	// Nonblocking: isend to each, irecv and a wait.
	func(x string, tag int) string {
		return fmt.Sprintf("  if (me == root) then\n"+
			"    do r = 0, np - 1\n"+
			"      if (r /= root) then\n"+
			"        call MPI_Isend(%s, 1, MPI_INTEGER, r, %d, MPI_COMM_WORLD, req, ierr)\n"+
			"        call MPI_Wait(req, st, ierr)\n"+
			"      end if\n"+
			"    end do\n"+
			"  else\n"+
			"    call MPI_Irecv(%s, 1, MPI_INTEGER, root, %d, MPI_COMM_WORLD, req, ierr)\n"+
			"    call MPI_Wait(req, st, ierr)\n"+
			"  end if\n", x, tag, x, tag)
	},
	// Received before sent, as written: the others' arm comes first.
	func(x string, tag int) string {
		return fmt.Sprintf("  if (me /= root) then\n"+
			"    call MPI_Recv(%s, 1, MPI_INTEGER, root, %d, MPI_COMM_WORLD, st, ierr)\n"+
			"  else\n"+
			"    do r = 0, np - 1\n"+
			"      if (r /= root) call MPI_Send(%s, 1, MPI_INTEGER, r, %d, MPI_COMM_WORLD, ierr)\n"+
			"    end do\n"+
			"  end if\n", x, tag, x, tag)
	},
	// A value for each destination: rank r gets the value plus 2r.
	func(x string, tag int) string {
		return fmt.Sprintf("  if (me == root) then\n"+
			"    do r = 0, np - 1\n"+
			"      tmp = %s + 2 * r\n"+
			"      if (r /= root) call MPI_Send(tmp, 1, MPI_INTEGER, r, %d, MPI_COMM_WORLD, ierr)\n"+
			"    end do\n"+
			"    %s = %s + 2 * me\n"+
			"  else\n"+
			"    call MPI_Recv(%s, 1, MPI_INTEGER, root, %d, MPI_COMM_WORLD, st, ierr)\n"+
			"  end if\n", x, tag, x, x, x, tag)
	},
	// Broadcast, then shifted around a ring: each rank takes its left
	// neighbour's value plus that neighbour's rank.
	func(x string, tag int) string {
		return fmt.Sprintf("  call MPI_Bcast(%s, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n"+
			"  tmp = %s + me\n"+
			"  call MPI_Sendrecv(tmp, 1, MPI_INTEGER, mod(me + 1, np), %d, %s, 1, MPI_INTEGER, &\n"+
			"                    mod(me - 1 + np, np), %d, MPI_COMM_WORLD, st, ierr)\n", x, x, tag, x, tag)
	},
	// The same shift in place, the other way.
	func(x string, tag int) string {
		return fmt.Sprintf("  call MPI_Bcast(%s, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n"+
			"  %s = %s + 3 * me\n"+
			"  call MPI_Sendrecv_replace(%s, 1, MPI_INTEGER, mod(me - 1 + np, np), %d, &\n"+
			"                            mod(me + 1, np), %d, MPI_COMM_WORLD, st, ierr)\n", x, x, x, x, tag, tag)
	},
	// Two messages on one tag, then the value behind a message of data:
	// each receive takes the next message from its sender (MPI's order).
	func(x string, tag int) string {
		return fmt.Sprintf("  if (me == root) then\n"+
			"    do r = 0, np - 1\n"+
			"      if (r /= root) then\n"+
			"        tmp = %s + 5\n"+
			"        call MPI_Send(tmp, 1, MPI_INTEGER, r, %d, MPI_COMM_WORLD, ierr)\n"+
			"        call MPI_Send(pack, 4, MPI_INTEGER, r, %d, MPI_COMM_WORLD, ierr)\n"+
			"        call MPI_Send(%s, 1, MPI_INTEGER, r, %d, MPI_COMM_WORLD, ierr)\n"+
			"      end if\n"+
			"    end do\n"+
			"  else\n"+
			"    call MPI_Recv(tmp, 1, MPI_INTEGER, root, %d, MPI_COMM_WORLD, st, ierr)\n"+
			"    call MPI_Recv(pack, 4, MPI_INTEGER, root, %d, MPI_COMM_WORLD, st, ierr)\n"+
			"    call MPI_Recv(%s, 1, MPI_INTEGER, root, %d, MPI_COMM_WORLD, st, ierr)\n"+
			"    %s = %s + tmp - 2\n"+
			"  end if\n", x, tag, tag, x, tag, tag, tag, x, tag, x, x)
	},
	// The others contribute zero to a maximum (the values are not negative).
	func(x string, _ int) string {
		return fmt.Sprintf("  if (me /= root) %s = 0\n"+
			"  call MPI_Allreduce(%s, tmp, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)\n"+
			"  %s = tmp\n", x, x, x)
	},
	// A sum reduced to the root, then broadcast.
	func(x string, _ int) string {
		return fmt.Sprintf("  if (me /= root) %s = 0\n"+
			"  call MPI_Reduce(%s, tmp, 1, MPI_INTEGER, MPI_SUM, root, MPI_COMM_WORLD, ierr)\n"+
			"  if (me == root) %s = tmp\n"+
			"  call MPI_Bcast(%s, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n", x, x, x, x)
	},
	// Scattered: rank r gets the value plus r.
	func(x string, _ int) string {
		return fmt.Sprintf("  if (me == root) then\n"+
			"    do r = 1, np\n"+
			"      spread(r) = %s + r - 1\n"+
			"    end do\n"+
			"  end if\n"+
			"  call MPI_Scatter(spread, 1, MPI_INTEGER, %s, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n", x, x)
	},
	// Broadcast, then each rank's own value gathered by all: the rank
	// takes its right neighbour's.
	func(x string, _ int) string {
		return fmt.Sprintf("  call MPI_Bcast(%s, 1, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)\n"+
			"  tmp = %s + 2 * me\n"+
			"  call MPI_Allgather(tmp, 1, MPI_INTEGER, spread, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)\n"+
			"  %s = spread(mod(me + 1, np) + 1)\n", x, x, x)
	},
}

// randomMessageProgram returns a program whose root reads deck.in and
// carries the values to the others, and the deck.
func randomMessageProgram(rng *rand.Rand) (src, deck string) {
	nvars := 1 + rng.IntN(4)
	var d strings.Builder
	var s strings.Builder
	s.WriteString("program msgprop\n  use mpi\n  integer :: me, np, ierr, i, j, r, root, tmp, req, u\n" +
		"  integer :: st(MPI_STATUS_SIZE), pack(4), spread(8)\n")
	var names []string
	for i := range nvars {
		names = append(names, fmt.Sprintf("x%d", i))
		d.WriteString(strconv.Itoa(1+rng.IntN(9)) + " ")
	}
	d.WriteString("\n")
	fmt.Fprintf(&s, "  integer :: %s\n", strings.Join(names, ", "))
	s.WriteString("  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)\n" +
		"  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)\n  pack = 0\n  spread = 0\n")
	if rng.IntN(2) == 0 {
		s.WriteString("  root = 0\n")
	} else {
		s.WriteString("  root = np - 1\n")
	}
	for _, x := range names {
		fmt.Fprintf(&s, "  %s = 0\n", x)
	}
	// The deck on a unit the program numbers, or one OPEN chooses.
	unit := "  u = 7\n  if (me == root) then\n    open (unit=u"
	if rng.IntN(2) == 0 {
		unit = "  if (me == root) then\n    open (newunit=u"
	}
	s.WriteString(unit + ", file='deck.in', status='old')\n" +
		"    read (u, *) " + strings.Join(names, ", ") + "\n    close (u)\n  end if\n")
	for i, x := range names {
		s.WriteString(carriers[rng.IntN(len(carriers))](x, 10+i))
	}
	for _, x := range names {
		fmt.Fprintf(&s, "  do i = 1, %s + me\n  end do\n", x)
	}
	a, b := names[rng.IntN(nvars)], names[rng.IntN(nvars)]
	fmt.Fprintf(&s, "  do i = 1, %s\n    do j = i, %s * np\n    end do\n  end do\n", a, b)
	s.WriteString("  call MPI_Finalize(ierr)\nend program msgprop\n")
	return s.String(), d.String()
}

// againstWorld analyses src at P = np in a directory holding deck.in and
// compares every node's per-rank count with RunWorld's.
func againstWorld(t *testing.T, k int, src, deck string, np int64) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "deck.in"), []byte(deck), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, diags := fortran.ParseSource("prog.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == 1 {
			t.Fatalf("program %d: parse: %s\n%s", k, d, src)
		}
	}
	env := map[string]int64{cost.Size: np}
	rep, err := cost.AnalyzeAt(prog, cost.Options{Dir: dir}, env)
	if err != nil {
		t.Fatalf("program %d: %v\n%s", k, err, src)
	}
	for _, p := range rep.Params {
		t.Errorf("program %d at P=%d: %s (%v) is a parameter; the deck and the messages give it", k, np, p.Name, p.Origin)
	}
	pt, err := rep.At(env)
	if err != nil {
		t.Fatalf("program %d at P=%d: %v\n%s\ndeck:\n%s", k, np, err, src, deck)
	}
	runs, err := aptrun.RunWorld(prog, aptrun.Config{P: np, Dir: dir, Params: map[string]int64{}})
	if err != nil {
		t.Fatalf("program %d at P=%d: %v\n%s", k, np, err, src)
	}
	for rank, got := range runs {
		compare(t, rep, pt, got, env, int64(rank), nil)
	}
	if t.Failed() {
		t.Logf("program %d at P=%d:\n%s\ndeck:\n%s", k, np, src, deck)
	}
}
