! patchtypes.f90: patches of a derived type with default-initialised
! components, dealt round-robin to the ranks. A module routine allocates
! the INTENT(OUT) allocatable array of them, counts its own with a test on
! the rank, fills each through ASSOCIATE with a running counter (CYCLE past
! the others' patches), and leaves one patch unset, which keeps its
! defaults. The work (DO CONCURRENT inside a BLOCK) and a message of a
! vector datatype follow the patches' sizes.
module patch_kinds
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  private
  public :: patch_t, deal, relax, real64
  type :: patch_t
    integer :: n = 0, owner = -1
    integer :: sweeps = 2
    real(real64), allocatable :: q(:,:)
  end type patch_t
contains
  subroutine deal(p, npatch, base, me, np)
    type(patch_t), allocatable, intent(out) :: p(:)
    integer, intent(in) :: npatch, base, me, np
    integer :: k, mine
    mine = 0
    do k = 1, npatch
      if (mod(k - 1, np) == me) mine = mine + 1
    end do
    allocate(p(mine + 1))
    mine = 0
    do k = 1, npatch
      if (mod(k - 1, np) /= me) cycle
      mine = mine + 1
      associate (pp => p(mine))
        pp%n = base + mod(k, 3) * 4
        pp%owner = me
        if (mod(k, 2) == 0) pp%sweeps = 3
        allocate(pp%q(0:pp%n + 1, 0:pp%n + 1), source=0.0_real64)
      end associate
    end do
  end subroutine deal

  subroutine relax(p)
    type(patch_t), intent(inout) :: p(:)
    integer :: k, s, i, j
    do k = 1, size(p)
      if (p(k)%owner < 0) cycle
      block
        integer :: m
        m = p(k)%n
        do s = 1, p(k)%sweeps
          do concurrent (j = 1:m, i = 1:m)
            p(k)%q(i, j) = 0.25_real64 * (p(k)%q(i - 1, j) + p(k)%q(i + 1, j) &
                + p(k)%q(i, j - 1) + p(k)%q(i, j + 1))
          end do
        end do
      end block
    end do
  end subroutine relax
end module patch_kinds

program patchtypes
  use mpi
  use patch_kinds
  implicit none
  type(patch_t), allocatable :: p(:)
  integer, parameter :: npatch = 13, base = 6, steps = 3
  !mk$ param npatch = 13
  !mk$ param base = 6
  !mk$ param steps = 3
  integer :: me, np, t, k, column, ierr, idle
  real(real64) :: edge(64), total, mine
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call deal(p, npatch, base, me, np)
  idle = 0
  do k = 1, size(p)
    if (p(k)%n == 0) idle = idle + 1
  end do
  call MPI_Type_vector(8, 1, 8, MPI_DOUBLE_PRECISION, column, ierr)
  call MPI_Type_commit(column, ierr)
  edge = 1.0_real64
  do t = 1, steps
    call relax(p)
    mine = 0
    do k = 1, size(p) - idle
      mine = mine + sum(p(k)%q)
    end do
    call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    if (np > 1) then
      if (me == 0) call MPI_Send(edge, 1, column, 1, t, MPI_COMM_WORLD, ierr)
      if (me == 1) call MPI_Recv(edge, 1, column, 0, t, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    end if
  end do
  call MPI_Type_free(column, ierr)
  if (me == 0) print '(a,es12.4)', 'total', total
  call MPI_Finalize(ierr)
end program patchtypes
