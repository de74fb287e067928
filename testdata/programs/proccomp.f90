! proccomp.f90: a solver chosen through procedure pointer components, as
! Fortran 2003 codes register callbacks: a NOPASS component pointed at a
! routine by rank, a PASS component (the object its first dummy) with a
! default target, one left at NULL() and tested with ASSOCIATED, and a
! component reassigned between phases; an unlimited polymorphic setting
! (CLASS(*)) whose dynamic type decides its use. The routines decide the
! work.
module solvers
  implicit none
  abstract interface
    subroutine sweep_iface(n, its)
      integer, intent(in) :: n
      integer, intent(out) :: its
    end subroutine sweep_iface
  end interface
  type solver_t
    integer :: reps = 2
    procedure(sweep_iface), pointer, nopass :: run => null()
    procedure(report_iface), pointer :: report => quiet
  end type solver_t
  abstract interface
    subroutine report_iface(self, k)
      import :: solver_t
      class(solver_t), intent(in) :: self
      integer, intent(in) :: k
    end subroutine report_iface
  end interface
contains
  subroutine jacobi(n, its)
    integer, intent(in) :: n
    integer, intent(out) :: its
    integer :: i
    its = 0
    do i = 1, 4 * n
      its = its + 1
    end do
  end subroutine jacobi
  subroutine gauss(n, its)
    integer, intent(in) :: n
    integer, intent(out) :: its
    integer :: i
    its = 0
    do i = 1, 2 * n
      its = its + 1
    end do
  end subroutine gauss
  subroutine quiet(self, k)
    class(solver_t), intent(in) :: self
    integer, intent(in) :: k
    integer :: i, s
    s = 0
    do i = 1, self%reps * k
      s = s + i
    end do
  end subroutine quiet
  subroutine loud(self, k)
    class(solver_t), intent(in) :: self
    integer, intent(in) :: k
    integer :: i, s
    s = 0
    do i = 1, 10 * self%reps * k
      s = s + i
    end do
  end subroutine loud
end module solvers

program proccomp
  use mpi
  use solvers
  implicit none
  integer, parameter :: n = 100, steps = 10
  !mk$ param n = 100
  !mk$ param steps = 10
  type(solver_t) :: s
  integer :: ierr, rank, its, k, tot, j
  class(*), allocatable :: extra
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  if (.not. associated(s%run)) then
    if (mod(rank, 2) == 0) then
      s%run => jacobi
    else
      s%run => gauss
    end if
  end if
  tot = 0
  allocate(extra, source=3)
  select type (extra)
  type is (integer)
    do j = 1, extra * n
      tot = tot + 1
    end do
  type is (real(8))
    tot = -1
  end select
  do k = 1, steps
    if (k == steps / 2 + 1) s%report => loud
    call s%run(n, its)
    call s%report(k)
    tot = tot + its
  end do
  call MPI_Allreduce(MPI_IN_PLACE, tot, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, tot
  call MPI_Finalize(ierr)
end program proccomp
