package symeval_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// inDir writes the files of a run's directory and returns it.
func inDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// deckProgram reads its settings from the file input, list-directed: two
// values on one record, a real and a logical, three values over two
// records, a null value and a slash.
const deckProgram = `program deck
  integer :: n, m, a, b, c, keep, last, i
  double precision :: dx
  logical :: big
  keep = 3
  last = 11
  open (unit=10, file='input', status='old')
  read (10, *) n, m
  read (10, *) dx, big
  read (10, *) a, b, c
  read (10, *) keep, i
  read (10, *) i, last
  close (10)
  do i = 1, n * m
  end do
  do i = 1, a + b + c + keep + last
  end do
  if (big) then
    do i = 1, int(1 / dx)
    end do
  end if
end program deck
`

func TestReadsInputFile(t *testing.T) {
	dir := inDir(t, map[string]string{"input": "4, 5   ! n m\n0.25d0 .TRUE.\n1\n 2 3\n, 6\n7 /\n"})
	res := evaluate(t, deckProgram, symeval.Options{Dir: dir})
	if len(res.Params) != 0 {
		t.Errorf("parameters %v: the file gives every value", paramNames(res))
	}
	for id, want := range map[string]string{"deck/L1": "i <= 20", "deck/L2": "i <= 20", "deck/I1/b1/L1": "i <= 4"} {
		if dom := loopDomain(t, res, id); !strings.Contains(dom, want) {
			t.Errorf("%s: domain %s, want %s", id, dom, want)
		}
	}
	// a + b + c + keep + last = 1 + 2 + 3 + 3 + 11: keep's value is null
	// (", 6"), and the slash after 7 leaves last as it was.
	// Where each value came from: the records, the null value left out.
	var got []string
	for _, r := range res.Read {
		got = append(got, r.Name+"="+r.Text+"@"+r.File+":"+strconv.Itoa(r.Line))
	}
	want := "n=4@input:1 m=5@input:1 dx=0.25d0@input:2 big=.TRUE.@input:2 a=1@input:3 b=2@input:4 c=3@input:4 i=6@input:5 i=7@input:6"
	if strings.Join(got, " ") != want {
		t.Errorf("read\n %s\nwant\n %s", strings.Join(got, " "), want)
	}
}

// Without a directory, or with the file absent, a value read is a
// parameter named after its variable, as before; -D gives one its value
// over the file's.
func TestReadsInputFileAbsentOrOverridden(t *testing.T) {
	res := evaluate(t, deckProgram, symeval.Options{})
	if names := strings.Join(paramNames(res), " "); !strings.Contains(names, "n") || !strings.Contains(names, "dx") {
		t.Errorf("no directory: parameters %q", names)
	}
	res = evaluate(t, deckProgram, symeval.Options{Dir: t.TempDir()})
	if len(res.Params) == 0 || len(res.Read) != 0 {
		t.Errorf("absent file: parameters %v, read %v", paramNames(res), res.Read)
	}
	// The file is named once, at the OPEN that connects it (line 7).
	if len(res.Inputs) != 1 || !res.Inputs[0].Required || res.Inputs[0].Name != "input" || res.Inputs[0].Pos.Line != 7 {
		t.Errorf("absent file: inputs %+v, want input required at line 7", res.Inputs)
	}
	// Each says which file it would have come from, and that the folder
	// lacks it.
	for _, p := range res.Params {
		if !strings.Contains(p.What, "from input (missing from the run's folder)") {
			t.Errorf("absent file: %s is %q", p.Name, p.What)
		}
	}
	dir := inDir(t, map[string]string{"input": "4 5\n0.25 T\n1 2 3\n9 9\n9 9\n"})
	res = evaluate(t, deckProgram, symeval.Options{Dir: dir, Values: map[string]int64{"n": 10}})
	if len(res.Inputs) != 0 {
		t.Errorf("present file: inputs %+v", res.Inputs)
	}
	if dom := loopDomain(t, res, "deck/L1"); !strings.Contains(dom, "i <= 50") {
		t.Errorf("-D n=10 over the file's 4: domain %s", dom)
	}
	// A record short of values and no more records: the READ fails, as
	// the run's would, and its values stay parameters.
	dir = inDir(t, map[string]string{"input": "4\n"})
	res = evaluate(t, deckProgram, symeval.Options{Dir: dir})
	if len(res.Read) != 0 {
		t.Errorf("short file: read %v", res.Read)
	}
	for _, p := range res.Params {
		if !strings.HasSuffix(p.What, " from input") {
			t.Errorf("short file: %s is %q", p.Name, p.What)
		}
	}
}

// A deck read on one rank and broadcast as a packed integer array (the
// shape of Sweep3D's read_input): every rank's loops take the file's
// values at a point.
func TestReadsInputFileBroadcast(t *testing.T) {
	src := `program p
  use mpi
  integer :: me, np, ierr, i, it, jt, idata(2)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  if (me == 0) then
    open (unit=10, file='input', status='old')
    read (10, *) it, jt
    idata(1) = it
    idata(2) = jt
  end if
  call MPI_Bcast(idata, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  it = idata(1)
  jt = idata(2)
  do i = 1, it * jt / np
  end do
  call MPI_Finalize(ierr)
end program p
`
	dir := inDir(t, map[string]string{"input": "12 10\n"})
	res := evaluate(t, src, symeval.Options{Dir: dir, Values: map[string]int64{symeval.Size: 4}})
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "i <= 30") || strings.Contains(dom, "it") {
		t.Errorf("domain %s, want 1 <= i <= 30 on every rank", dom)
	}
	if len(res.Params) != 0 {
		t.Errorf("parameters %v", paramNames(res))
	}
}

// The deck's name comes from the command line and reaches the OPEN
// through a routine's dummy argument (SNAP's cmdarg and open_file).
func TestReadsInputFileNamedOnCommandLine(t *testing.T) {
	src := `program p
  character(len=64) :: fname
  integer :: n, i
  n = 1
  call get_command_argument(1, fname)
  call open_file(10, fname)
  read (10, *) n
  do i = 1, n
  end do
end program p
subroutine open_file(u, name)
  integer :: u
  character(len=*) :: name
  open (unit=u, file=name, status='old', action='read')
end subroutine open_file
`
	dir := inDir(t, map[string]string{"my.deck": "17\n"})
	res := evaluate(t, src, symeval.Options{Dir: dir, Args: []string{"my.deck"}})
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "i <= 17") {
		t.Errorf("domain %s, want 1 <= i <= 17", dom)
	}
	if len(res.Read) != 1 || res.Read[0].File != "my.deck" {
		t.Errorf("read %+v", res.Read)
	}
}

// nmlProgram reads its sizes from a NAMELIST group on rank 0 and
// broadcasts them.
const nmlProgram = `program heat
  use mpi
  implicit none
  integer :: nx = 100, ny = 100, nsteps = 10, ierr, me, np, i, j, s, ios
  real(8) :: alpha = 0.1d0
  logical :: verbose = .false.
  namelist /params/ nx, ny, nsteps, alpha, verbose
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  if (me == 0) then
    open (unit=11, file='heat.nml', status='old', action='read')
    read (11, nml=params, iostat=ios)
    close (11)
  end if
  call MPI_Bcast(nx, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(ny, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  call MPI_Bcast(nsteps, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  do s = 1, nsteps
    do j = 1, ny / np
      do i = 1, nx
      end do
    end do
  end do
  call MPI_Finalize(ierr)
end program heat
`

func TestReadsNamelist(t *testing.T) {
	dir := inDir(t, map[string]string{"heat.nml": "&params\n  NX = 400, ny = 200\n  alpha = 0.25, verbose = .true. ! nsteps left out\n/\n"})
	res := evaluate(t, nmlProgram, symeval.Options{Dir: dir, Values: map[string]int64{symeval.Size: 4}})
	if len(res.Params) != 0 {
		t.Errorf("parameters %v", paramNames(res))
	}
	for id, want := range map[string]string{"heat/L1": "s <= 10", "heat/L1/L1": "j <= 50", "heat/L1/L1/L1": "i <= 400"} {
		if dom := loopDomain(t, res, id); !strings.Contains(dom, want) {
			t.Errorf("%s: domain %s, want %s", id, dom, want)
		}
	}
	// Without the input, any variable of the group may change: each is a
	// parameter, never the default silently.
	res = evaluate(t, nmlProgram, symeval.Options{})
	names := strings.Join(paramNames(res), " ")
	for _, want := range []string{"nx", "ny", "nsteps"} {
		if !strings.Contains(names, want) {
			t.Errorf("without the input: parameters %q lack %s", names, want)
		}
	}
}

// SNAP's way: the input file's name is the first command-line argument,
// taken in a loop over the arguments that checks each (ADJUSTL, a
// substring), kept in a module variable and opened by a routine given a
// module variable's unit; the settings are a NAMELIST group.
func TestReadsNamelistNamedOnCommandLine(t *testing.T) {
	src := `module g
  character(len=64) :: ifile, ofile
  integer :: iunit = 10
  integer :: nx = 1
end module g
program p
  use g
  implicit none
  character(len=64) :: arg
  integer :: n, i, ierr
  namelist /invar/ nx
  do n = 1, 2
    call get_command_argument(n, arg)
    arg = adjustl(arg)
    if (arg(1:1) == '-' .or. arg(1:1) == '<') then
      ierr = 1
    else if (n == 1) then
      ifile = arg
    else if (n == 2) then
      ofile = arg
    end if
  end do
  call open_file(iunit, ifile, 'OLD', 'READ', ierr)
  read (iunit, nml=invar, iostat=ierr)
  do i = 1, nx
  end do
end program p
subroutine open_file(funit, fname, fstat, faction, ierr)
  integer :: funit, ierr
  character(len=*) :: fname, fstat, faction
  open (unit=funit, file=fname, status=fstat, action=faction, iostat=ierr)
end subroutine open_file
`
	dir := inDir(t, map[string]string{"fin01": "&invar\n nx = 37\n/\n"})
	res := evaluate(t, src, symeval.Options{Dir: dir, Args: []string{"fin01", "fout01"}})
	if dom := loopDomain(t, res, "p/L2"); !strings.Contains(dom, "i <= 37") {
		t.Errorf("domain %s, want 1 <= i <= 37", dom)
	}
	if len(res.Params) != 0 {
		t.Errorf("parameters %v", paramNames(res))
	}
}
