! jacobi1d.f90 -- a block-distributed 1D Jacobi iteration in which the
! number of points n need not divide by the number of ranks p: the first
! mod(n, p) ranks own one point more (n/p + 1), the others n/p. Halo
! values travel with nonblocking MPI_Isend/MPI_Irecv completed by
! MPI_Waitall, and the residual is combined with MPI_Allreduce. n and the
! iteration count come from the command line (defaults 1000 and 50).
module decomposition
  implicit none
  integer, parameter :: dp = selected_real_kind(15)
  type :: block_t
    integer :: first, last, count
    integer :: left, right
  end type block_t
contains
  function block_of(n, p, rank) result(b)
    use mpi
    integer, intent(in) :: n, p, rank
    type(block_t) :: b
    integer :: q, r
    q = n/p
    r = mod(n, p)
    b%count = q
    if (rank < r) b%count = q + 1
    b%first = rank*q + min(rank, r) + 1
    b%last = b%first + b%count - 1
    b%left = rank - 1
    b%right = rank + 1
    if (rank == 0) b%left = MPI_PROC_NULL
    if (rank == p - 1) b%right = MPI_PROC_NULL
  end function block_of
end module decomposition

program jacobi1d
  use mpi
  use decomposition
  implicit none
  integer :: n, iters, me, p, ierr, it, i, nargs
  integer :: req(4)
  type(block_t) :: blk
  real(kind=8), allocatable :: u(:), unew(:)
  real(dp) :: res, gres
  character(len=20) :: word
  !mk$ param n = 1000
  !mk$ param iters = 50
  !mk$ assume n >= p

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, me, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, p, ierr)
  n = 1000
  iters = 50
  nargs = command_argument_count()
  if (nargs >= 1) then
    call get_command_argument(1, word)
    read (word, *) n
  end if
  if (nargs >= 2) then
    call get_command_argument(2, word)
    read (word, *) iters
  end if
  blk = block_of(n, p, me)
  allocate (u(0:blk%count + 1), unew(0:blk%count + 1))
  u = 0.0_dp
  if (me == p - 1) u(blk%count + 1) = 1.0_dp
  unew = u
  do it = 1, iters
    call MPI_Irecv(u(0), 1, MPI_DOUBLE_PRECISION, blk%left, 1, MPI_COMM_WORLD, req(1), ierr)
    call MPI_Irecv(u(blk%count + 1), 1, MPI_DOUBLE_PRECISION, blk%right, 2, MPI_COMM_WORLD, req(2), ierr)
    call MPI_Isend(u(1), 1, MPI_DOUBLE_PRECISION, blk%left, 2, MPI_COMM_WORLD, req(3), ierr)
    call MPI_Isend(u(blk%count), 1, MPI_DOUBLE_PRECISION, blk%right, 1, MPI_COMM_WORLD, req(4), ierr)
    call MPI_Waitall(4, req, MPI_STATUSES_IGNORE, ierr)
    res = 0.0_dp
    do i = 1, blk%count
      unew(i) = 0.5_dp*(u(i - 1) + u(i + 1))
      res = res + (unew(i) - u(i))**2
    end do
    u(1:blk%count) = unew(1:blk%count)
    call MPI_Allreduce(res, gres, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  if (me == 0) print '(a, i6, a, i4, a, es14.6)', ' n =', n, ' iters =', iters, ' residual =', sqrt(gres)
  deallocate (u, unew)
  call MPI_Finalize(ierr)
end program jacobi1d
