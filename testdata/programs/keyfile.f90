! keyfile.f90 -- settings as 'key = value' lines in an optional file
! (INQUIRE EXIST=), each key kept in a deferred-length string
! (CHARACTER(LEN=:), ALLOCATABLE; ALLOCATE with a CHARACTER type-spec) and
! dispatched by SELECT CASE on it; internal procedures set and read the
! host's variables; the scheme read picks a sweep by CASE ranges. n,
! steps and scheme come from keyfile.cfg when it is there (defaults 100,
! 3, 1).
program keyfile
  use mpi
  implicit none
  integer :: me, np, ierr, n, steps, scheme, it
  logical :: there
  real(8) :: s
  call mpi_init(ierr)
  call mpi_comm_rank(mpi_comm_world, me, ierr)
  call mpi_comm_size(mpi_comm_world, np, ierr)
  call defaults()
  inquire(file='keyfile.cfg', exist=there)
  if (there) call load('keyfile.cfg')
  s = 0
  do it = 1, steps
    select case (scheme)
    case (1)
      call sweep(1)
    case (2:3)
      call sweep(scheme)
    case default
      call sweep(4)
    end select
  end do
  if (me == 0) print *, s
  call mpi_finalize(ierr)
contains
  subroutine defaults()
    n = 100
    steps = 3
    scheme = 1
  end subroutine defaults
  subroutine load(fname)
    character(len=*), intent(in) :: fname
    character(len=:), allocatable :: key
    character(len=80) :: line
    character(:), allocatable :: word
    integer :: u, ios, eq
    open(newunit=u, file=fname, status='old', action='read')
    do
      read(u, '(a)', iostat=ios) line
      if (ios /= 0) exit
      eq = index(line, '=')
      if (eq == 0) cycle
      allocate(character(len=eq - 1) :: word)
      word = line(:eq-1)
      key = trim(adjustl(word))
      deallocate(word)
      if (len(key) == 0) cycle
      select case (key)
      case ('n')
        read(line(eq+1:), *) n
      case ('steps')
        read(line(eq+1:), *) steps
      case ('scheme')
        read(line(eq+1:), *) scheme
      end select
    end do
    close(u)
  end subroutine load
  subroutine sweep(k)
    integer, intent(in) :: k
    integer :: i, j
    do j = 1, k
      do i = me + 1, n, np
        s = s + i * j
      end do
    end do
    call mpi_allreduce(mpi_in_place, s, 1, mpi_double_precision, mpi_sum, mpi_comm_world, ierr)
  end subroutine sweep
end program keyfile
