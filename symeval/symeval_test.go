package symeval_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/mkvet/mkvet/frontend/apt"
	"github.com/mkvet/mkvet/frontend/fortran"
	"github.com/mkvet/mkvet/symeval"
)

func evaluate(t *testing.T, src string, opt symeval.Options) *symeval.Result {
	t.Helper()
	prog, diags := fortran.ParseSource("t.f90", []byte(src), fortran.Config{})
	for _, d := range diags {
		if d.Severity == apt.Error {
			t.Fatalf("parse: %s", d)
		}
	}
	res, err := symeval.Evaluate(prog, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// occs finds the occurrences of the node with the given ID.
func occs(res *symeval.Result, id string) []*symeval.Occ {
	return occsWhere(res, func(n apt.Node) bool { return n.Base().ID == id })
}

// loopOccsAt returns the occurrences of the loop at the given line, in
// preorder; it fails t when there is none.
func loopOccsAt(t *testing.T, res *symeval.Result, line int) []*symeval.Occ {
	t.Helper()
	at := occsWhere(res, func(n apt.Node) bool {
		l, ok := n.(*apt.Loop)
		return ok && l.Span.Start().Line == line
	})
	if len(at) == 0 {
		t.Fatalf("no loop at line %d", line)
	}
	return at
}

// occsWhere returns the occurrences whose node keep accepts, in preorder.
func occsWhere(res *symeval.Result, keep func(apt.Node) bool) []*symeval.Occ {
	var out []*symeval.Occ
	var walk func(o *symeval.Occ)
	walk = func(o *symeval.Occ) {
		if o == nil {
			return
		}
		if keep(o.Node) {
			out = append(out, o)
		}
		for _, c := range o.Children {
			walk(c)
		}
	}
	walk(res.Root)
	return out
}

func TestDomainsAndParams(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: n, me, np, ierr, i, j, nloc
  read *, n
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  nloc = n/np
  if (me < mod(n, np)) nloc = nloc + 1
  do i = 1, nloc
    do j = i, nloc
    end do
  end do
end program p
`, symeval.Options{})
	if !res.Parallel {
		t.Error("MPI_COMM_SIZE and MPI_COMM_RANK not seen")
	}
	if len(res.Params) != 1 || res.Params[0].Name != "n" || res.Params[0].Origin != symeval.FromRead {
		t.Fatalf("params = %+v, want n read at run time", res.Params)
	}
	inner := occs(res, "p/L1/L1")
	if len(inner) != 1 {
		t.Fatalf("%d occurrences of the inner loop", len(inner))
	}
	set := inner[0].Body.Set().String()
	// The block size has one alternative per side of me < mod(n, P): both
	// must be in the inner loop's domain, over i and j.
	for _, want := range []string{"[i, j]", "rank", "P", "j >= i"} {
		if !strings.Contains(set, want) {
			t.Errorf("inner body domain %s lacks %q", set, want)
		}
	}
}

func TestOptionsParamsOverrideAssignments(t *testing.T) {
	res := evaluate(t, `program p
  integer :: n, i
  n = 10
  do i = 1, n
  end do
end program p
`, symeval.Options{Params: []string{"n"}})
	body := occs(res, "p/L1")[0].Body.Set().String()
	if !strings.Contains(body, "n >= i") {
		t.Errorf("loop domain %s: n should stay the parameter n", body)
	}
}

// TestRecursionFollowedWhereDecided: a recursion whose depth the values
// decide is evaluated activation by activation; one whose depth rests on
// a parameter, or that goes deeper than the bound, is reported and its
// counts marked.
func TestRecursionFollowedWhereDecided(t *testing.T) {
	src := func(depth string) string {
		return `program p
  integer :: n
  !mk$ param n
  call r(` + depth + `)
end program p
recursive subroutine r(k)
  integer :: k, i
  do i = 1, k
  end do
  if (k > 0) call r(k - 1)
end subroutine r
`
	}
	for _, tc := range []struct {
		depth string
		occs  int    // activations of r evaluated
		why   string // in the diagnostic, "" for none
	}{
		{"3", 4, ""},
		{"n", 1, "its depth depends on n"},
		{"100", 64, "deeper than 64 activations"},
	} {
		res := evaluate(t, src(tc.depth), symeval.Options{Params: []string{"n"}})
		got := ""
		for _, d := range res.Diags {
			if strings.Contains(d.Msg, "recursive call of r") {
				got = d.Msg
			}
		}
		switch {
		case tc.why == "" && got != "":
			t.Errorf("r(%s): %s", tc.depth, got)
		case tc.why != "" && !strings.Contains(got, tc.why):
			t.Errorf("r(%s): diagnostic %q, want one saying %q", tc.depth, got, tc.why)
		}
		rs := occsWhere(res, func(n apt.Node) bool { r, ok := n.(*apt.Routine); return ok && r.Name == "r" })
		if len(rs) != tc.occs {
			t.Errorf("r(%s): %d activations evaluated, want %d", tc.depth, len(rs), tc.occs)
		}
		loops := loopOccsAt(t, res, 8)
		for _, o := range loops {
			if o.Inexact != (tc.why != "") {
				t.Errorf("r(%s): loop occurrence inexact=%v (%s)", tc.depth, o.Inexact, o.Note)
			}
		}
	}
}

func TestOccurrenceLimit(t *testing.T) {
	// Each level calls the next twice: 2^15 contexts of the last routine.
	src := "program p\n  call s1()\nend program p\n"
	for i := 1; i <= 16; i++ {
		next := i + 1
		body := ""
		if i < 16 {
			body = "  call s" + itoa(next) + "()\n  call s" + itoa(next) + "()\n"
		}
		src += "subroutine s" + itoa(i) + "()\n" + body + "end subroutine\n"
	}
	prog, _ := fortran.ParseSource("t.f90", []byte(src), fortran.Config{})
	_, err := symeval.Evaluate(prog, symeval.Options{MaxOccs: 1000})
	if !errors.Is(err, symeval.ErrTooLarge) {
		t.Fatalf("err = %v, want ErrTooLarge", err)
	}
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestTransfersDropProcNull(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: me, np, ierr, left
  double precision :: x
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  left = me - 1
  if (me == 0) left = MPI_PROC_NULL
  call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, left, 0, MPI_COMM_WORLD, ierr)
end program p
`, symeval.Options{})
	o := occs(res, "p/M3")
	if len(o) != 1 {
		t.Fatalf("%d occurrences of the send", len(o))
	}
	if len(o[0].Sends) != 1 {
		t.Fatalf("sends = %+v, want the one to rank-1 only", o[0].Sends)
	}
	s := o[0].Sends[0]
	if s.Peer == nil || s.Peer.String() != "rank - 1" || s.Bytes == nil || s.Bytes.String() != "8" {
		t.Errorf("send = peer %v bytes %v, want rank - 1 and 8", s.Peer, s.Bytes)
	}
	if s.Guard == nil || !strings.Contains(s.Guard.String(), "rank") {
		t.Errorf("send guard %v should exclude rank 0", s.Guard)
	}
}

// TestPeerReadIsApproximate: a send to a rank the run reads, with no
// input given, is counted as a message but marked approximate (were the
// rank read MPI_PROC_NULL there would be none); one to a rank the program
// computes is exact.
func TestPeerReadIsApproximate(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: me, np, ierr, right, left
  double precision :: x
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  read *, right
  left = mod(me + np - 1, np)
  call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, right, 0, MPI_COMM_WORLD, ierr)
  call MPI_Send(x, 1, MPI_DOUBLE_PRECISION, left, 0, MPI_COMM_WORLD, ierr)
end program p
`, symeval.Options{})
	read, computed := occs(res, "p/M3"), occs(res, "p/M4")
	if len(read) != 1 || len(computed) != 1 {
		t.Fatalf("%d and %d occurrences of the sends", len(read), len(computed))
	}
	if !read[0].Inexact || !strings.Contains(read[0].Note, "right") {
		t.Errorf("send to the rank read: inexact %v note %q, want marked, naming right", read[0].Inexact, read[0].Note)
	}
	if computed[0].Inexact {
		t.Errorf("send to a computed rank marked approximate: %q", computed[0].Note)
	}
}

// TestDepthRunOrSymbolic: an occurrence's Depth counts the loops around it
// whether a loop was run iteration by iteration or evaluated symbolically
// (MK2001 "inside a loop" rests on it).
func TestDepthRunOrSymbolic(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: nbr(4), s, me, np, ierr, n, i
  double precision :: buf(10)
  read *, n
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  do s = 1, 4
    nbr(s) = mod(me + s, np)
  end do
  do s = 1, 4
    if (nbr(s) /= me) then
      call MPI_Send(buf, 10, MPI_DOUBLE_PRECISION, nbr(s), s, MPI_COMM_WORLD, ierr)
    end if
  end do
  do i = 1, n
    call sendone(buf)
  end do
contains
  subroutine sendone(b)
    double precision :: b(10)
    integer :: ierr
    call MPI_Send(b, 10, MPI_DOUBLE_PRECISION, 0, 9, MPI_COMM_WORLD, ierr)
  end subroutine sendone
end program p
`, symeval.Options{Values: map[string]int64{"P": 4}})
	perNode := map[apt.Node][]*symeval.Occ{}
	var walk func(o *symeval.Occ)
	walk = func(o *symeval.Occ) {
		if c, ok := o.Node.(*apt.Comm); ok && c.Op == apt.MPISend {
			perNode[o.Node] = append(perNode[o.Node], o)
		}
		for _, c := range o.Children {
			walk(c)
		}
	}
	walk(res.Root)
	if len(perNode) != 2 {
		t.Fatalf("%d send nodes with occurrences, want 2", len(perNode))
	}
	run := false
	for n, os := range perNode {
		run = run || len(os) > 1
		for _, o := range os {
			if o.Depth != 1 {
				t.Errorf("send at %v: Depth %d, want 1", n.Base().Span.Start(), o.Depth)
			}
		}
	}
	if !run {
		t.Error("no loop was run iteration by iteration: the test no longer compares the two ways")
	}
}

// sendOccs returns the occurrences of the program's MPI_Send calls.
func sendOccs(res *symeval.Result) []*symeval.Occ {
	return occsWhere(res, func(n apt.Node) bool {
		c, ok := n.(*apt.Comm)
		return ok && c.Op == apt.MPISend
	})
}

// TestRunPastInertUnknowns: a loop over the axes of a grid, run for its
// neighbour table (each axis passed to a routine that sends), reads a
// table of message tags the evaluation does not know into request
// bookkeeping (six unknown elements, more than a run may meet). Those
// values reach nothing that decides a count, so the run goes on: each send
// has its own size and peer. A run that gave up would leave one occurrence
// per send whose size is piecewise in the axis.
func TestRunPastInertUnknowns(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: tags(3, 2), req(3, 2), nbr(3, 2), axis, me, np, ierr
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  read *, tags
  do axis = 1, 3
    nbr(axis, 1) = mod(me + axis, np)
    nbr(axis, 2) = mod(me + np - axis, np)
  end do
  do axis = 1, 3
    call give(axis, nbr, tags, req, me)
  end do
contains
  subroutine give(ax, nb, tg, rq, me)
    integer :: ax, nb(3, 2), tg(3, 2), rq(3, 2), me, ierr
    double precision :: buf(100)
    rq(ax, 1) = tg(ax, 1) + 1000*me
    rq(ax, 2) = tg(ax, 2) + 1000*me
    call MPI_Send(buf, 10*ax, MPI_DOUBLE_PRECISION, nb(ax, 1), tg(ax, 1), MPI_COMM_WORLD, ierr)
    call MPI_Send(buf, 20*ax, MPI_DOUBLE_PRECISION, nb(ax, 2), tg(ax, 2), MPI_COMM_WORLD, ierr)
  end subroutine give
end program p
`, symeval.Options{Values: map[string]int64{"P": 8}})
	os := sendOccs(res)
	if len(os) != 6 {
		t.Fatalf("%d occurrences of the send, want 6 (the loop over the axes run)", len(os))
	}
	for _, o := range os {
		if len(o.Sends) != 1 || o.Sends[0].Bytes == nil {
			t.Fatalf("send occurrence with transfers %v, want one of a known size", o.Sends)
		}
		if _, ok := o.Sends[0].Bytes.Int64(); !ok {
			t.Errorf("send size %s, want a number in a run", o.Sends[0].Bytes)
		}
	}
}

// TestIncrementTwoLoopsDown: a counter incremented in the innermost of
// three loops whose middle bound is a size read at run time (a halo packed
// element by element) has a closed form after the nest, which becomes the
// message's size: the middle loop is probed inside the outer one's probe.
func TestIncrementTwoLoopsDown(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: n, k, i1, i2, i3, blen, ierr
  double precision :: buf(100000), u(4, 100, 100)
  read *, n
  do k = 1, 2
    blen = 0
    do i3 = 1, n
      do i2 = 1, n
        do i1 = 1, 2
          blen = blen + 1
          buf(blen) = u(i1, i2, i3)
        end do
      end do
    end do
    call MPI_Send(buf, blen, MPI_DOUBLE_PRECISION, 0, k, MPI_COMM_WORLD, ierr)
  end do
end program p
`, symeval.Options{})
	os := sendOccs(res)
	if len(os) == 0 {
		t.Fatal("no occurrence of the send")
	}
	for _, o := range os {
		for _, tr := range o.Sends {
			if tr.Bytes == nil {
				t.Fatal("the send's size is unknown")
			}
			for _, s := range tr.Bytes.Symbols() {
				if s != "n" {
					t.Errorf("send size %s mentions %s, want a closed form in n", tr.Bytes, s)
				}
			}
		}
	}
}

// TestLocalMPICalls: MPI routines that complete without communicating
// (freeing a communicator, naming the processor) are no finding; an MPI
// routine that communicates and is not modelled is still reported.
func TestLocalMPICalls(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  implicit none
  integer :: ierr, comm, me, len, x, y
  character(len=MPI_MAX_PROCESSOR_NAME) :: host
  call MPI_Init(ierr)
  call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
  call MPI_Comm_rank(comm, me, ierr)
  call MPI_Get_processor_name(host, len, ierr)
  x = me
  call MPI_Reduce_scatter_block(x, y, 1, MPI_INTEGER, MPI_SUM, comm, ierr)
  call MPI_Comm_free(comm, ierr)
  call MPI_Finalize(ierr)
end program p
`, symeval.Options{})
	var notes []string
	for _, d := range res.Diags {
		if strings.Contains(d.Msg, "is not part of the program") {
			notes = append(notes, d.Msg)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "mpi_reduce_scatter_block") {
		t.Errorf("notes of routines not modelled: %q; want MPI_Reduce_scatter_block's only", notes)
	}
}
