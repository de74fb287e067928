package aptrun

import (
	"strings"
	"testing"
)

// worldProgram moves values between ranks by every carried kind of call;
// each loop's trip count is a value received. The expected counts are
// worked out by hand from MPI's semantics, not by running the interpreter.
const worldProgram = `program w
  use mpi
  integer :: me, np, ierr, i, n, k, s, t, b(8), c(8), req(2), st(MPI_STATUS_SIZE)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  n = 0
  if (me == 1) n = 7
  call MPI_Bcast(n, 1, MPI_INTEGER, 1, MPI_COMM_WORLD, ierr)
  do i = 1, n
  end do
  k = me + 1
  call MPI_Sendrecv(k, 1, MPI_INTEGER, mod(me + 1, np), 5, s, 1, MPI_INTEGER, &
                    mod(me - 1 + np, np), 5, MPI_COMM_WORLD, st, ierr)
  do i = 1, s
  end do
  call MPI_Allreduce(k, s, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  do i = 1, s
  end do
  b = 0
  call MPI_Gather(k, 1, MPI_INTEGER, b, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  do i = 1, sum(b)
  end do
  if (me == 0) then
    do i = 1, np - 1
      t = 3 * np + i
      call MPI_Isend(t, 1, MPI_INTEGER, i, 9, MPI_COMM_WORLD, req(1), ierr)
      call MPI_Wait(req(1), st, ierr)
    end do
  else
    call MPI_Irecv(s, 1, MPI_INTEGER, 0, 9, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Waitall(1, req(2), MPI_STATUSES_IGNORE, ierr)
    do i = 1, s
    end do
  end if
  if (me == 0) then
    do i = 1, np
      c(2*i - 1) = i
      c(2*i) = 10 * i
    end do
  end if
  call MPI_Scatter(c, 2, MPI_INTEGER, b, 2, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  do i = 1, b(1) + b(2)
  end do
  do i = 1, np
    c(i) = 100 * me + i
  end do
  call MPI_Alltoall(c, 1, MPI_INTEGER, b, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, b(np)
  end do
  s = me
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  do i = 1, s
  end do
  call MPI_Finalize(ierr)
end program w
`

// TestRunWorldCarriesValues: what each rank's buffers hold after a
// broadcast from rank 1, a ring sendrecv, allreduce (also in place),
// gather, isend/irecv with wait and waitall, scatter and alltoall.
func TestRunWorldCarriesValues(t *testing.T) {
	prog := parseSrc(t, "w.f90", worldProgram)
	loops := map[int]string{}
	for _, line := range []int{10, 15, 18, 22, 33, 43, 49, 53} {
		loops[line] = loopAt(t, prog, line)
	}
	for _, np := range []int64{2, 3, 4} {
		counts, err := RunWorld(prog, Config{P: np})
		if err != nil {
			t.Fatalf("P=%d: %v", np, err)
		}
		for r, c := range counts {
			me := int64(r)
			wantRecv := int64(0)
			if me > 0 {
				wantRecv = 3*np + me
			}
			gathered := int64(0)
			if me == 0 {
				gathered = np * (np + 1) / 2
			}
			for line, want := range map[int]int64{
				10: 7,                    // the root's n
				15: (me-1+np)%np + 1,     // the left neighbour's k
				18: np * (np + 1) / 2,    // sum of k
				22: gathered,             // b on the root only
				33: wantRecv,             // 3*np + me from rank 0
				43: (me + 1) + 10*(me+1), // the root's c(2me+1:2me+2)
				49: 100*(np-1) + me + 1,  // rank np-1's c(me+1)
				53: np - 1,               // max of the ranks
			} {
				if got := c.Iter[loops[line]]; got != want {
					t.Errorf("P=%d rank %d: the loop at line %d ran %d times, want %d", np, r, line, got, want)
				}
			}
		}
	}
}

// TestRunWorldDeadlock: two ranks that both receive first wait forever;
// RunWorld says so and where, instead of hanging.
func TestRunWorldDeadlock(t *testing.T) {
	prog := parseSrc(t, "d.f90", `program d
  use mpi
  integer :: me, np, ierr, x, st(MPI_STATUS_SIZE)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call MPI_Recv(x, 1, MPI_INTEGER, 1 - me, 0, MPI_COMM_WORLD, st, ierr)
  call MPI_Send(x, 1, MPI_INTEGER, 1 - me, 0, MPI_COMM_WORLD, ierr)
  call MPI_Finalize(ierr)
end program d
`)
	_, err := RunWorld(prog, Config{P: 2})
	if err == nil || !strings.Contains(err.Error(), "deadlock") || !strings.Contains(err.Error(), "d.f90:7") {
		t.Fatalf("RunWorld = %v, want a deadlock at d.f90:7", err)
	}
}

// TestRunWorldMismatchedCollectives: ranks that reach different
// collectives at the same point of their sequences are an error.
func TestRunWorldMismatchedCollectives(t *testing.T) {
	prog := parseSrc(t, "m.f90", `program m
  use mpi
  integer :: me, np, ierr, x
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  x = me
  if (me == 0) then
    call MPI_Bcast(x, 1, MPI_INTEGER, 0, MPI_COMM_WORLD, ierr)
  else
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
  end if
  call MPI_Finalize(ierr)
end program m
`)
	_, err := RunWorld(prog, Config{P: 3})
	if err == nil || !strings.Contains(err.Error(), "where another rank calls") {
		t.Fatalf("RunWorld = %v, want mismatched collectives", err)
	}
}
