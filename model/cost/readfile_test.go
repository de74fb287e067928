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

// TestReadsFilesAgainstExecution: random programs read random decks from
// their directory (list-directed READs of a few integers each, the deck's
// values over records with blanks, commas, nulls, continued records and
// slashes), opened by name or through a routine given the name in a
// character variable, on every rank, and size their loops with them; every node's
// per-rank count at P = 1..4 equals the concrete interpreter's run of the
// same program in the same directory, and no value stays a parameter. (The
// interpreter runs one rank alone and carries no message's contents, so a
// deck read on one rank and broadcast is checked by symeval's own tests and
// on Sweep3D, not here.)
func TestReadsFilesAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 7))
	const programs = 100
	read := 0
	for k := range programs {
		src, deck, nvars, stdin := randomDeckProgram(rng)
		rep := againstInterpreterIn(t, k, src, "deck.in", deck, int64(1+rng.IntN(4)), nil, stdin)
		if len(rep.Read) > 0 {
			read++ // a deck of slashes and nulls leaves every default
		}
		if t.Failed() {
			t.Fatalf("program %d (%d variables) failed", k, nvars)
		}
	}
	if read < programs*3/4 {
		t.Errorf("only %d of %d programs took values from their decks", read, programs)
	}
}

// randomDeckProgram returns a program that reads deck.in and the deck.
func randomDeckProgram(rng *rand.Rand) (src, deck string, nvars int, stdin bool) {
	var reads [][]int // the variables of each READ
	var d strings.Builder
	v := 0
	for range 1 + rng.IntN(4) {
		n := 1 + rng.IntN(3)
		var items []int
		var vals []string
		for range n {
			items = append(items, v)
			v++
			if rng.IntN(8) == 0 {
				vals = append(vals, "") // null: the default stays
			} else {
				vals = append(vals, strconv.Itoa(rng.IntN(9)))
			}
		}
		reads = append(reads, items)
		if rng.IntN(6) == 0 {
			vals = append(vals[:len(vals)-1], "/") // the last keeps its default
		}
		split := len(vals)
		if len(vals) > 1 && rng.IntN(3) == 0 {
			split = 1 + rng.IntN(len(vals)-1)
		}
		for i, x := range vals {
			switch {
			case i == split:
				d.WriteString("\n")
			case i > 0:
				d.WriteString([]string{" ", ", ", ","}[rng.IntN(3)])
			}
			if x == "" {
				x = ","
				if i > 0 && i != split {
					x = "" // the separator written is the null's comma
					if !strings.HasSuffix(d.String(), ",") && !strings.HasSuffix(d.String(), ", ") {
						x = ","
					}
				}
			}
			d.WriteString(x)
		}
		if rng.IntN(3) == 0 {
			d.WriteString(" " + strconv.Itoa(rng.IntN(9))) // left over
		}
		d.WriteString("\n")
	}
	// Records to spare: a READ that takes more records than drawn for it
	// (a slash, a continued record) never meets the end of the file.
	for range len(reads) {
		d.WriteString("7 7 7\n")
	}
	nvars = v
	var s strings.Builder
	s.WriteString("program deckprop\n  use mpi\n  integer :: me, np, ierr, i, j\n  character(len=32) :: fname\n")
	for i := range nvars {
		fmt.Fprintf(&s, "  integer :: x%d\n", i)
	}
	s.WriteString("  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)\n  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)\n")
	for i := range nvars {
		fmt.Fprintf(&s, "  x%d = %d\n", i, 1+i%3)
	}
	// The file named by a constant, or by a character variable passed to
	// a routine that opens it, or standard input (unit * or 5).
	unit := "7"
	switch rng.IntN(4) {
	case 0:
		s.WriteString("  fname = 'deck.in'\n  call opener(7, fname)\n")
	case 1:
		s.WriteString("  open (unit=7, file='deck.in', status='old')\n")
	default:
		stdin, unit = true, []string{"*", "5"}[rng.IntN(2)]
	}
	for _, items := range reads {
		var names []string
		for _, i := range items {
			names = append(names, fmt.Sprintf("x%d", i))
		}
		fmt.Fprintf(&s, "  read (%s, *) %s\n", unit, strings.Join(names, ", "))
	}
	if !stdin {
		s.WriteString("  close (7)\n")
	}
	for i := range nvars {
		fmt.Fprintf(&s, "  do i = 1, x%d + me\n  end do\n", i)
	}
	a, b := rng.IntN(nvars), rng.IntN(nvars)
	fmt.Fprintf(&s, "  do i = 1, x%d\n    do j = i, x%d * np\n    end do\n  end do\n", a, b)
	s.WriteString("  call MPI_Finalize(ierr)\nend program deckprop\n")
	s.WriteString("subroutine opener(u, name)\n  integer :: u\n  character(len=*) :: name\n  open (unit=u, file=name, status='old')\nend subroutine opener\n")
	return s.String(), d.String(), nvars, stdin
}

// TestNamelistFilesAgainstExecution: random programs read a NAMELIST
// group of their loop bounds from random namelist input (names in any
// order, some absent or null, several on a record, comments; a character
// setting, cut to its length, choosing the work by SELECT CASE; an array
// given whole, by element or by section) on every
// rank; every node's per-rank count at P = 1..4 equals the interpreter's
// run in the same directory.
func TestNamelistFilesAgainstExecution(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 11))
	const programs = 60
	for k := range programs {
		nvars := 1 + rng.IntN(5)
		var in strings.Builder
		in.WriteString("! settings\n&bounds")
		for range rng.IntN(2 * nvars) {
			val := strconv.Itoa(rng.IntN(9))
			if rng.IntN(8) == 0 {
				val = ""
			}
			fmt.Fprintf(&in, "%s x%d = %s%s", []string{" ", "\n "}[rng.IntN(2)], rng.IntN(nvars), val,
				[]string{",", "", " ! note\n"}[rng.IntN(3)])
		}
		// A character setting (quoted, in either delimiter, or absent)
		// chooses the work by SELECT CASE.
		mode := k%3 == 0
		if mode && rng.IntN(4) > 0 {
			w := []string{"fast", "slow", "both", "verylongmodename"}[rng.IntN(4)]
			q := []string{"'", "\""}[rng.IntN(2)]
			fmt.Fprintf(&in, "\n mode = %s%s%s", q, w, q)
		}
		// An integer array of the group (every other program), given
		// whole, by element or by section, with repeats, nulls and
		// short lists, or not at all.
		arr := k%2 == 1
		if arr {
			for range rng.IntN(3) {
				switch rng.IntN(4) {
				case 0:
					fmt.Fprintf(&in, "\n xa = %d, %d*%d", rng.IntN(9), 1+rng.IntN(2), rng.IntN(9))
				case 1:
					fmt.Fprintf(&in, "\n xa(%d) = %d", 1+rng.IntN(4), rng.IntN(9))
				case 2:
					lo := 1 + rng.IntN(3)
					fmt.Fprintf(&in, "\n xa(%d:%d) = %d, %d", lo, lo+1, rng.IntN(9), rng.IntN(9))
				default:
					fmt.Fprintf(&in, "\n xa = , %d,, %d", rng.IntN(9), rng.IntN(9))
				}
			}
		}
		in.WriteString(" /\n")
		var s strings.Builder
		s.WriteString("program nmlprop\n  use mpi\n  integer :: me, np, ierr, i, j, u\n")
		var names []string
		if mode {
			s.WriteString("  character(len=6) :: mode = 'fast'\n")
			names = append(names, "mode")
		}
		for i := range nvars {
			fmt.Fprintf(&s, "  integer :: x%d = %d\n", i, 1+i%3)
			names = append(names, fmt.Sprintf("x%d", i))
		}
		if arr {
			s.WriteString("  integer :: xa(4) = [1, 2, 3, 4]\n")
			names = append(names, "xa")
		}
		fmt.Fprintf(&s, "  namelist /bounds/ %s\n", strings.Join(names, ", "))
		s.WriteString("  call MPI_Init(ierr)\n  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)\n  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)\n")
		if k%2 == 0 {
			s.WriteString("  open (unit=9, file='run.nml', status='old')\n  read (9, nml=bounds)\n  close (9)\n")
		} else {
			// The unit OPEN chooses (Fortran 2008 NEWUNIT=).
			s.WriteString("  open (newunit=u, file='run.nml', status='old')\n  read (u, nml=bounds)\n  close (u)\n")
		}
		for i := range nvars {
			fmt.Fprintf(&s, "  do i = 1, x%d + me\n    do j = 1, x%d\n    end do\n  end do\n", i, (i+1)%nvars)
		}
		if arr {
			s.WriteString("  do i = 1, 4\n    do j = 1, xa(i) + me\n    end do\n  end do\n")
		}
		if mode {
			s.WriteString("  select case (trim(mode))\n  case ('fast')\n    do i = 1, 3\n    end do\n" +
				"  case ('slow', 'verylo')\n    do i = 1, 7 + me\n    end do\n  case default\n    do i = 1, 11\n    end do\n  end select\n")
		}
		s.WriteString("  call MPI_Finalize(ierr)\nend program nmlprop\n")
		src := s.String()
		againstInterpreter(t, k, src, "run.nml", in.String(), int64(1+rng.IntN(4)))
		if t.Failed() {
			t.Fatalf("program %d failed", k)
		}
	}
}

// againstInterpreter analyses the program src at P = np in a directory
// holding its input file, checks that no value read stays a parameter,
// and compares every node's per-rank count with the interpreter's run of
// the program in the same directory; it returns the report.
func againstInterpreter(t *testing.T, k int, src, file, input string, np int64) *cost.Report {
	t.Helper()
	return againstInterpreterAt(t, k, src, file, input, np, nil)
}

// againstInterpreterAt is againstInterpreter with the values of some of
// the analysis's parameters (a branch frequency the data decides).
func againstInterpreterAt(t *testing.T, k int, src, file, input string, np int64, given map[string]int64) *cost.Report {
	t.Helper()
	return againstInterpreterIn(t, k, src, file, input, np, given, false)
}

// againstInterpreterIn is againstInterpreterAt where stdin says the input
// file is the program's standard input (mpirun ... < file) rather than a
// file it opens.
func againstInterpreterIn(t *testing.T, k int, src, file, input string, np int64, given map[string]int64, stdin bool) *cost.Report {
	t.Helper()
	in := ""
	if stdin {
		in = file
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, file), []byte(input), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, diags := fortran.ParseSource("prog.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == 1 {
			t.Fatalf("program %d: parse: %s\n%s", k, d, src)
		}
	}
	env := map[string]int64{cost.Size: np}
	for name, v := range given {
		env[name] = v
	}
	rep, err := cost.AnalyzeAt(prog, cost.Options{Dir: dir, Stdin: in}, env)
	if err != nil {
		t.Fatalf("program %d: %v\n%s", k, err, src)
	}
	for _, p := range rep.Params {
		if p.Origin == cost.FromRead {
			t.Fatalf("program %d: %s is a parameter, the input gives it or leaves it\n%s\ninput:\n%s", k, p.Name, src, input)
		}
	}
	pt, err := rep.At(env)
	if err != nil {
		t.Fatalf("program %d: %v", k, err)
	}
	for rank := range np {
		got, err := aptrun.Run(prog, aptrun.Config{P: np, Rank: rank, Dir: dir, Stdin: in, Params: map[string]int64{}})
		if err != nil {
			t.Fatalf("program %d rank %d: %v\n%s\ninput:\n%s", k, rank, err, src, input)
		}
		compare(t, rep, pt, got, env, rank, nil)
	}
	if t.Failed() {
		t.Logf("program %d:\n%s\ninput:\n%s", k, src, input)
	}
	return rep
}

// TestCharacterDeckAgainstExecution: a list-directed READ of a character
// setting and a size (quoted or not, longer than the variable: cut), on
// every rank, choosing the work by SELECT CASE and by a comparison; every
// node's per-rank count equals the interpreter's run.
func TestCharacterDeckAgainstExecution(t *testing.T) {
	src := `program chdeck
  use mpi
  integer :: me, np, ierr, i, n
  character(len=4) :: mode
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  mode = 'none'
  n = 1
  open (unit=7, file='deck.in', status='old')
  read (7, *) mode, n
  close (7)
  select case (mode)
  case ('fast')
    do i = 1, n
    end do
  case ('slow')
    do i = 1, 5 * n + me
    end do
  case default
    do i = 1, 2
    end do
  end select
  if (mode == 'slow') then
    do i = 1, n
    end do
  end if
  call MPI_Finalize(ierr)
end program chdeck
`
	for k, deck := range []string{"'slow' 7\n", "fast, 9\n", "\"slowest\" 3\n", "other 4\n", "'fa' 2\n"} {
		againstInterpreter(t, k, src, "deck.in", deck, int64(1+k%4))
	}
}
