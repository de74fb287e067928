! keyvalue.f90: a multigrid-like solver whose settings come as key = value
! lines (comments, blanks and spacing as people write them) that the
! program parses itself: each line read whole, split at '=', the key
! dispatched by SELECT CASE and the value read from the rest of the line
! by an internal list-directed READ (numbers and text). A recursive cycle
! (V or W by the text setting) works on row and column communicators
! MPI_COMM_SPLIT made.
module config
  implicit none
  integer :: n = 64, cycles = 3, smooth = 2, coarsest = 4
  character(len=32) :: mode = 'v'
contains
  subroutine load(path)
    character(len=*), intent(in) :: path
    character(len=256) :: line
    character(len=64) :: key
    integer :: u, ios, eq
    open(newunit=u, file=path, status='old', iostat=ios)
    if (ios /= 0) return
    do
      read(u, '(a)', iostat=ios) line
      if (ios /= 0) exit
      line = adjustl(line)
      if (len_trim(line) == 0 .or. line(1:1) == '#') cycle
      eq = index(line, '=')
      if (eq == 0) cycle
      key = adjustl(line(:eq-1))
      select case (trim(key))
      case ('n')
        read(line(eq+1:), *) n
      case ('cycles')
        read(line(eq+1:), *) cycles
      case ('smooth')
        read(line(eq+1:), *) smooth
      case ('coarsest')
        read(line(eq+1:), *) coarsest
      case ('mode')
        read(line(eq+1:), *) mode
      end select
    end do
    close(u)
  end subroutine load
end module config

module solver_mod
  use mpi
  use config
  implicit none
  integer :: rowcomm, colcomm, prow, pcol, myrow, mycol
contains
  recursive subroutine cycle(m, level)
    integer, intent(in) :: m, level
    integer :: s, i, j, ierr
    double precision :: r, g
    do s = 1, smooth
      r = 0
      do j = 1, m / pcol
        do i = 1, m / prow
          r = r + dble(i * j)
        end do
      end do
      call MPI_Allreduce(r, g, 1, MPI_DOUBLE_PRECISION, MPI_SUM, rowcomm, ierr)
    end do
    if (m / 2 >= coarsest) then
      call cycle(m / 2, level + 1)
      if (trim(mode) == 'w') call cycle(m / 2, level + 1)
    end if
    do s = 1, smooth
      call MPI_Allreduce(r, g, 1, MPI_DOUBLE_PRECISION, MPI_SUM, colcomm, ierr)
    end do
  end subroutine cycle
end module solver_mod

program keyvalue
  use mpi
  use config
  use solver_mod
  implicit none
  integer :: rank, np, ierr, c
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call load('mg.cfg')
  prow = 1
  do while (prow * prow < np)
    prow = prow * 2
  end do
  if (prow * prow > np) prow = prow / 2
  pcol = np / prow
  myrow = rank / pcol
  mycol = mod(rank, pcol)
  call MPI_Comm_split(MPI_COMM_WORLD, myrow, mycol, rowcomm, ierr)
  call MPI_Comm_split(MPI_COMM_WORLD, mycol, myrow, colcomm, ierr)
  do c = 1, cycles
    call cycle(n, 1)
  end do
  if (rank == 0) print *, 'done'
  call MPI_Finalize(ierr)
end program keyvalue
