! ALLOCATED as programs use it: a work array grown only when too small
! (reallocated on 2 of 6 calls), an array grown by MOVE_ALLOC through an
! allocatable dummy, a guard before DEALLOCATE and before ALLOCATE. The
! loops' trip counts rest on the statuses, so a wrong one shows in the
! counts.
module store
  implicit none
  real(8), allocatable :: work(:), extra(:)
  integer :: nwork = 0
contains
  subroutine ensure(n)
    integer, intent(in) :: n
    if (allocated(work)) then
      if (size(work) >= n) return
      deallocate(work)
    end if
    allocate(work(n))
    nwork = nwork + 1
  end subroutine ensure
  subroutine grow(a, n)
    real(8), allocatable, intent(inout) :: a(:)
    integer, intent(in) :: n
    real(8), allocatable :: tmp(:)
    allocate(tmp(n))
    tmp = 0.0d0
    if (allocated(a)) tmp(1:size(a)) = a
    call move_alloc(tmp, a)
  end subroutine grow
end module store

program alloc_status
  use mpi
  use store
  implicit none
  integer :: ierr, rank, np, it, i, n
  real(8), allocatable :: b(:)
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  n = 1000 / np
  do it = 1, 6
    call ensure(n * (1 + mod(it, 3)))
    do i = 1, size(work)
      work(i) = dble(i + it)
    end do
  end do
  call grow(b, 10)
  call grow(b, 20)
  if (allocated(b)) then
    do i = 1, size(b)
      b(i) = b(i) + 1.0d0
    end do
  end if
  if (allocated(extra)) deallocate(extra)
  if (.not. allocated(extra)) allocate(extra(n))
  extra = 1.0d0
  do i = 1, 100 * nwork
    extra(1 + mod(i, n)) = extra(1 + mod(i, n)) * 0.5d0
  end do
  if (rank == 0) print *, nwork, size(work), size(b), sum(extra)
  if (allocated(work)) deallocate(work)
  call MPI_Finalize(ierr)
end program alloc_status
