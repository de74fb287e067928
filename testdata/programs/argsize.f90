! A size and a step count taken from the command line, as many programs
! take them: GET_COMMAND_ARGUMENT into a character variable, then an
! internal READ. Without the arguments, each number is one value of the
! run (a parameter named after the variable), not another on every use.
program argsize
  use mpi
  implicit none
  integer :: ierr, rank, nprocs, n, steps, ln, i, it
  character(len=32) :: word
  real(8), allocatable :: u(:)
  real(8) :: s, total

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  n = 1000
  steps = 10
  if (command_argument_count() >= 1) then
    call get_command_argument(1, word)
    read (word, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, word)
    read (word, *) steps
  end if
  ln = n / nprocs
  if (rank < mod(n, nprocs)) ln = ln + 1
  allocate (u(ln))
  u = 1.0d0
  do it = 1, steps
    do i = 1, ln
      u(i) = 0.5d0*u(i) + 1.0d0
    end do
    s = sum(u)
    call MPI_Allreduce(s, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  end do
  if (rank == 0) print *, n, steps, total
  call MPI_Finalize(ierr)
end program argsize
