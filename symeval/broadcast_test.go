package symeval_test

import (
	"strings"
	"testing"

	"github.com/mkvet/mkvet/symeval"
)

// loopDomain is the domain of the body of the only occurrence of the loop
// with the given ID.
func loopDomain(t *testing.T, res *symeval.Result, id string) string {
	t.Helper()
	os := occs(res, id)
	if len(os) != 1 || os[0].Body == nil {
		t.Fatalf("%d occurrences of %s (want one, evaluated symbolically)", len(os), id)
	}
	return os[0].Body.Set().String()
}

// paramNames lists the names of the evaluation's parameters.
func paramNames(res *symeval.Result) []string {
	var out []string
	for _, p := range res.Params {
		out = append(out, p.Name)
	}
	return out
}

// A scalar passed to a wrapper whose buffer dummy is an array (sequence
// association: the one element is the scalar) is broadcast: every rank
// then holds the root's value, not the value rank 0 read and the others
// never assigned. What is stored at the buffer decides, not the dummy's
// declaration.
func TestBroadcastScalarThroughArrayDummy(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: n, me, ierr, i
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  n = 0
  if (me == 0) read *, n
  call bcast_int(n, 1)
  do i = 1, n
  end do
end program p

subroutine bcast_int(value, size)
  use mpi
  integer :: size, ierr
  integer :: value(size)
  call MPI_Bcast(value, size, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
end subroutine bcast_int
`, symeval.Options{})
	dom := loopDomain(t, res, "p/L1")
	if !strings.Contains(dom, "n >= i") || strings.Contains(dom, "rank") {
		t.Errorf("loop domain %s: want 1 <= i <= n on every rank", dom)
	}
}

// A scalar received or reduced into through an array dummy holds an
// unknown value (a parameter), not an array of unknown elements.
func TestReceiveScalarThroughArrayDummy(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: n, m, me, ierr, i
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  n = 5
  call sum_int(me, m)
  call recv_int(n)
  do i = 1, n
  end do
  do i = 1, m
  end do
end program p

subroutine recv_int(value)
  use mpi
  integer :: value(1), ierr, st(MPI_STATUS_SIZE)
  call MPI_Recv(value, 1, MPI_INTEGER, 0, 1, MPI_COMM_WORLD, st, ierr)
end subroutine recv_int

subroutine sum_int(x, total)
  use mpi
  integer :: x(1), total(1), ierr
  call MPI_Allreduce(x, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
end subroutine sum_int
`, symeval.Options{})
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "n >= i") {
		t.Errorf("loop domain %s: the received n is a parameter, not its value before", dom)
	}
	names := strings.Join(paramNames(res), " ")
	for _, want := range []string{"n", "m"} {
		if !strings.Contains(" "+names+" ", " "+want+" ") {
			t.Errorf("params %s: want %s, the scalar received", names, want)
		}
	}
}

// An array broadcast from a root the evaluation does not know keeps the
// elements every rank stored alike; only the element that differs by rank
// becomes unknown (one parameter), not the whole array.
func TestBroadcastArrayStoreByStore(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: d(3), roots(4), me, ierr, i, j
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  read *, roots
  d(1) = 10
  d(2) = me
  d(3) = 30
  call MPI_Bcast(d, 3, MPI_INTEGER, roots(2), MPI_COMM_WORLD, ierr)
  do i = 1, d(3)
  end do
  do j = 1, d(2)
  end do
end program p
`, symeval.Options{})
	if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, "30") {
		t.Errorf("loop domain %s: d(3) is 30 on every rank whatever the root", dom)
	}
	if dom := loopDomain(t, res, "p/L2"); strings.Contains(dom, "rank") {
		t.Errorf("loop domain %s: d(2) is the root's, not the rank's", dom)
	}
}

// With the root known, a stored element that depends on the rank is the
// root's value, and a range of elements a loop stored (under a condition
// on the rank) stays a range.
func TestBroadcastArrayAtKnownRoot(t *testing.T) {
	res := evaluate(t, `program p
  use mpi
  integer :: t(64), me, n, ierr, i, j
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  read *, n
  t(1) = me + 7
  if (me == 0) then
    do i = 2, n
      t(i) = i
    end do
  end if
  call MPI_Bcast(t, 64, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  do j = 1, t(1)
  end do
  do j = 1, t(5)
  end do
end program p
`, symeval.Options{})
	dom := loopDomain(t, res, "p/L1")
	if !strings.Contains(dom, "j <= 7") || strings.Contains(dom, "rank") {
		t.Errorf("loop domain %s: t(1) is the root's 7 on every rank", dom)
	}
	dom = loopDomain(t, res, "p/L2")
	if !strings.Contains(dom, "j <= 5") || strings.Contains(dom, "rank") {
		t.Errorf("loop domain %s: t(5) is 5, stored by rank 0's loop, on every rank", dom)
	}
}

// A communicator the calling process belongs to is not MPI_COMM_NULL: a
// wrapper that returns early for a null communicator (SNAP's) goes on
// with one MPI_COMM_SPLIT made with a color for every process, or
// MPI_CART_CREATE made over every process; with MPI_UNDEFINED among the
// colors the test stays undecided.
func TestMadeCommunicatorIsNotNull(t *testing.T) {
	for _, c := range []struct {
		name, make string
		decided    bool
	}{
		{"split", "call MPI_Comm_split(MPI_COMM_WORLD, mod(me, 2), me, comm, ierr)", true},
		{"cart", "dims = 4\n  per = .false.\n  call MPI_Cart_create(MPI_COMM_WORLD, 1, dims, per, .false., comm, ierr)", true},
		{"undefined color", "call MPI_Comm_split(MPI_COMM_WORLD, merge(MPI_UNDEFINED, 1, me == 3), me, comm, ierr)", false},
	} {
		res := evaluate(t, `program p
  use mpi
  integer :: me, ierr, i, n, comm, dims(1)
  logical :: per(1)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  `+c.make+`
  n = 5
  call maxall(n, comm)
  do i = 1, n
  end do
end program p

subroutine maxall(value, comm)
  use mpi
  integer :: value, comm, x, ierr
  if (comm == MPI_COMM_NULL) return
  call MPI_Barrier(comm, ierr)
  value = value + 2
end subroutine maxall
`, symeval.Options{Values: map[string]int64{symeval.Size: 4}})
		dom := loopDomain(t, res, "p/L1")
		if got := strings.Contains(dom, "i <= 7") && !strings.Contains(dom, "5"); got != c.decided {
			t.Errorf("%s: domain %s; decided %v, want %v", c.name, dom, got, c.decided)
		}
	}
}

// An allreduce of a value every process knows gives its reduction: MAX
// of a rank-independent value is the value, SUM is P times it, MAX of a
// closed form of the rank at a known P is the largest over the ranks;
// MPI_IN_PLACE reduces the receive buffer.
func TestAllreduceOfKnownValues(t *testing.T) {
	for _, c := range []struct {
		name, send, op, want string
	}{
		{"max", "5", "MPI_MAX", "i <= 5"},
		{"sum", "5", "MPI_SUM", "i <= 20"},
		{"max of rank", "10*me + 3", "MPI_MAX", "i <= 33"},
		{"sum of rank", "me + 1", "MPI_SUM", "i <= 10"},
		{"min in place", "7 - me", "MPI_MIN", "i <= 4"},
	} {
		sendBuf := "n"
		if c.name == "min in place" {
			sendBuf = "MPI_IN_PLACE"
		}
		res := evaluate(t, `program p
  use mpi
  integer :: me, ierr, i, n, m
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  n = `+c.send+`
  m = n
  call MPI_Allreduce(`+sendBuf+`, m, 1, MPI_INTEGER, `+c.op+`, MPI_COMM_WORLD, ierr)
  do i = 1, m
  end do
end program p
`, symeval.Options{Values: map[string]int64{symeval.Size: 4}})
		if dom := loopDomain(t, res, "p/L1"); !strings.Contains(dom, c.want) || strings.Contains(dom, "me") {
			t.Errorf("%s: domain %s, want %s on every rank", c.name, dom, c.want)
		}
	}
}
