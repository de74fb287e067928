! optional_host.f90 -- a smoother with OPTIONAL arguments tested by
! PRESENT and given by keyword (sweeps=2), whose work is an internal
! procedure reading its host's dummies, called from a SELECT CASE on a
! scheme's name; rows and columns of the processes are communicators of
! their own (MPI_Comm_split), and the sums reduce over each.
module solver
  use mpi
  implicit none
contains
  subroutine smooth(u, n, sweeps, tol)
    real(8), intent(inout) :: u(:)
    integer, intent(in) :: n
    integer, intent(in), optional :: sweeps
    real(8), intent(in), optional :: tol
    integer :: ns, s
    ns = 4
    if (present(sweeps)) ns = sweeps
    do s = 1, ns
      call relax()
    end do
  contains
    subroutine relax()
      integer :: i
      do i = 2, n - 1
        u(i) = 0.5d0 * (u(i - 1) + u(i + 1))
      end do
    end subroutine relax
  end subroutine smooth
end module solver

program optional_host
  use mpi
  use solver
  implicit none
  integer, parameter :: n = 1000, niter = 10
  !mk$ param n = 1000
  !mk$ param niter = 10
  !mk$ assume n >= 4*np
  integer :: me, np, ierr, row, col, rowcomm, colcomm, rme, rnp, cme, cnp, nloc, it
  character(len=8) :: scheme
  real(8), allocatable :: u(:)
  real(8) :: s, t
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  row = me / 2
  col = mod(me, 2)
  call MPI_Comm_split(MPI_COMM_WORLD, row, col, rowcomm, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, col, row, colcomm, ierr)
  call MPI_Comm_rank(rowcomm, rme, ierr)
  call MPI_Comm_size(rowcomm, rnp, ierr)
  call MPI_Comm_rank(colcomm, cme, ierr)
  call MPI_Comm_size(colcomm, cnp, ierr)
  scheme = 'jacobi'
  nloc = n / cnp
  allocate (u(nloc))
  u = 1
  do it = 1, niter
    if (it > niter/2) scheme = 'gs'
    select case (trim(scheme))
    case ('jacobi')
      call smooth(u, nloc, sweeps=2)
    case ('gs')
      call smooth(u, nloc)
    case default
      call smooth(u, nloc, 8, 1.0d-6)
    end select
    s = sum(u)
    call MPI_Allreduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, rowcomm, ierr)
    call MPI_Reduce(t, s, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, colcomm, ierr)
  end do
  call MPI_Finalize(ierr)
end program optional_host
