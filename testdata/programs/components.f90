! components.f90: a derived type whose allocatable array component a
! routine allocates and fills through its dummy, in a loop whose trip
! count differs by rank; a whole component assigned at once; SIZE of
! components; array pointers associated with a column and with a whole
! array whose lower bound is 0, their SIZE, LBOUND and UBOUND bounding
! loops; an array of derived type whose components a loop fills, its
! trips a closed form. The values decide each rank's work.
module meshmod
  implicit none
  type :: patch_t
    integer :: nx, ny
  end type patch_t
  type :: mesh_t
    integer :: ncell = 0
    integer, allocatable :: nodes(:)
    integer, allocatable :: flags(:)
  end type mesh_t
contains
  subroutine build(m, n, rank)
    type(mesh_t), intent(inout) :: m
    integer, intent(in) :: n, rank
    integer :: i
    m%ncell = n + 3 * rank
    allocate(m%nodes(m%ncell), m%flags(0:m%ncell-1))
    do i = 1, m%ncell
      m%nodes(i) = mod(i, 4) + 1
    end do
    m%flags = 2
  end subroutine build
end module meshmod

program components
  use meshmod
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 10
  !mk$ param n = 10
  type(mesh_t) :: m
  type(patch_t) :: pt(64)
  integer, pointer :: col(:), all(:)
  integer, target :: tab(6, 3)
  integer, allocatable, target :: w(:)
  integer :: ierr, rank, np, i, k
  double precision :: s, t

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  call build(m, n, rank)
  s = 0.0d0
  do i = 1, size(m%nodes)
    do k = 1, m%nodes(i) * n
      s = s + 1.0d0 / dble(i + k)
    end do
  end do
  do i = lbound(m%flags, 1), ubound(m%flags, 1)
    do k = 1, m%flags(i) + i
      s = s + 1.0d0 / dble(k)
    end do
  end do
  tab = rank
  col => tab(2:5, 2)
  allocate(w(0:np+1))
  w = 1
  all => w
  do i = 1, size(col) * n
    s = s + 1.0d0 / dble(i)
  end do
  do i = lbound(all, 1), ubound(all, 1) * n
    s = s + 1.0d0 / dble(i + 1)
  end do
  do k = 1, n / 5
    pt(k)%nx = 3 * (1 + mod(k, 2))
    pt(k)%ny = k + 1
  end do
  do k = 1, n / 5
    do i = 1, pt(k)%nx * pt(k)%ny
      s = s + 1.0d0 / dble(i)
    end do
  end do
  call MPI_Reduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, t
  call MPI_Finalize(ierr)
end program components
