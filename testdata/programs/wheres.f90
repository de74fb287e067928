! wheres.f90: WHERE statements and constructs deciding work. A flag
! table set by a single-statement WHERE; a WHERE construct with a masked
! ELSEWHERE and a plain one over the neighbours of a rank (a boundary
! rank's are MPI_PROC_NULL) held in a derived type's component; a nested
! WHERE. Each branch's assignments run on the elements their masks
! select, so none is a choice taken with a frequency.
module nbrs
  implicit none
  integer, parameter :: external_face = -1
  type :: chunk_t
    integer :: nbr(2)
    integer :: weight(2)
  end type chunk_t
end module nbrs

program wheres
  use nbrs
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 10
  !mk$ param n = 10
  type(chunk_t) :: c
  integer :: ierr, rank, np, i, k, left, right
  integer :: a(6), b(6)
  double precision :: s, t

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  left = rank - 1
  right = rank + 1
  if (left < 0) left = MPI_PROC_NULL
  if (right >= np) right = MPI_PROC_NULL
  c%nbr = [left, right]
  where (c%nbr == MPI_PROC_NULL) c%nbr = external_face
  where (c%nbr /= external_face)
    c%weight = 3
  elsewhere
    c%weight = 1
  end where
  s = 0.0d0
  do i = 1, 2
    do k = 1, c%weight(i) * n
      s = s + 1.0d0 / dble(i + k)
    end do
  end do
  a = [1, 0, 3, 0, 5, 0]
  b = 2
  where (a == 0)
    a = 4
    b = 1
  elsewhere (a > 2)
    b = 3
  elsewhere
    b = 5
  end where
  where (a > 3)
    where (b == 1) a = a + rank
  end where
  do i = 1, 6
    do k = 1, (a(i) + b(i)) * n
      s = s + 1.0d0 / dble(k)
    end do
  end do
  call MPI_Reduce(s, t, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, t
  call MPI_Finalize(ierr)
end program wheres
