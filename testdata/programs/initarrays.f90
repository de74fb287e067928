! initarrays.f90: arrays given their values in their declarations (and so
! of static storage), then handed to routines as whole-array actuals: a
! process grid `dims(2) = 0` that a module routine passes to
! MPI_DIMS_CREATE, a module table updated through a dummy, and a routine's
! initialised local (SAVE by its initialiser) that another routine reads
! and changes at each call. The work and messages follow their values.
module gridset
  use mpi
  implicit none
  integer :: lens(3) = [2, 3, 5]
  integer :: comm
contains
  subroutine make_grid(dims, coords)
    integer, intent(inout) :: dims(2)
    integer, intent(out) :: coords(2)
    logical :: per(2) = [.true., .false.]
    integer :: np, me, ierr
    call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
    call MPI_Dims_create(np, 2, dims, ierr)
    call MPI_Cart_create(MPI_COMM_WORLD, 2, dims, per, .false., comm, ierr)
    call MPI_Comm_rank(comm, me, ierr)
    call MPI_Cart_coords(comm, me, 2, coords, ierr)
  end subroutine make_grid

  subroutine grow(t, by)
    integer, intent(inout) :: t(:)
    integer, intent(in) :: by
    t(size(t)) = t(size(t)) + by * t(1)
  end subroutine grow
end module gridset

subroutine bump(c)
  integer, intent(inout) :: c(2)
  c(1) = c(1) + c(2)
end subroutine bump

subroutine sweep(n, s)
  implicit none
  integer, intent(in) :: n
  double precision, intent(inout) :: s
  integer :: calls(2) = [0, 1]
  integer :: i
  call bump(calls)
  do i = 1, n * calls(1)
    s = s + 1.0d0 / i
  end do
end subroutine sweep

program initarrays
  use mpi
  use gridset
  implicit none
  integer, parameter :: n = 40, steps = 3
  !mk$ param n = 40
  !mk$ param steps = 3
  integer :: dims(2) = 0, coords(2), ierr, step, i, j, up, down, nx
  double precision :: s, buf(n)
  call MPI_Init(ierr)
  call make_grid(dims, coords)
  call grow(lens, dims(1))
  nx = n / dims(2) + lens(3)
  call MPI_Cart_shift(comm, 0, 1, down, up, ierr)
  s = 0.0d0
  buf = 1.0d0
  do step = 1, steps
    call MPI_Sendrecv_replace(buf, nx, MPI_DOUBLE_PRECISION, up, 0, down, 0, comm, MPI_STATUS_IGNORE, ierr)
    do j = 1, coords(1) + lens(1)
      do i = 1, nx
        s = s + buf(i) * j
      end do
    end do
    call sweep(n, s)
  end do
  call MPI_Allreduce(MPI_IN_PLACE, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
  if (coords(1) == 0 .and. coords(2) == 0) print *, s
  call MPI_Finalize(ierr)
end program initarrays
