! hostfill.f90: settings that an internal procedure computes into its host's
! arrays, a deck read to its end with END=, and sections of REAL arrays
! handed to assumed-shape dummies whose SIZE bounds the work, as codes
! that keep their set-up in internal procedures do.
program hostfill
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 100, steps = 4
  integer :: counts(0:63), weights(16), scales(16), nw, ns, rank, nprocs, ierr, p, i, it
  double precision :: field(n, 3), s, total
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  call deal()
  call readweights()
  ! The same deck again, formatted, in a DO loop the end of file leaves.
  ns = 0
  open (unit=8, file='weights.in', status='old', iostat=ierr)
  if (ierr /= 0) goto 30
  do p = 1, 16
    read (8, '(I6)', end=30) scales(p)
    ns = ns + 1
  end do
30 close (8)
  field = 1.0d0
  s = 0.0d0
  do it = 1, steps
    do i = 1, counts(rank)
      s = s + 1.0d0 / i
    end do
    s = s + colsum(field(1:counts(rank), 2))
    s = s + colsum(field(:, 3))
  end do
  do p = 1, nw
    do i = 1, weights(p)
      s = s + 0.5d0 * i
    end do
  end do
  do p = 1, ns
    do i = 1, scales(p) + rank
      s = s - 0.25d0 * i
    end do
  end do
  call MPI_Reduce(s, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, total
  call MPI_Finalize(ierr)
contains
  ! deal hands out n items round robin, counting each rank's share in the
  ! host's table.
  subroutine deal()
    integer :: item
    counts = 0
    do item = 1, n
      p = mod(item, nprocs)
      if (p < nprocs) counts(p) = counts(p) + 1
    end do
  end subroutine deal
  ! readweights reads one weight per line to the end of the deck.
  subroutine readweights()
    integer :: w, ios
    nw = 0
    ! Without a deck, no weights.
    open (unit=7, file='weights.in', status='old', iostat=ios)
    if (ios /= 0) return
10  read (7, *, end=20) w
    nw = nw + 1
    weights(nw) = w * steps
    goto 10
20  close (7)
  end subroutine readweights
  double precision function colsum(x)
    double precision, intent(in) :: x(:)
    integer :: j
    colsum = 0.0d0
    do j = 1, size(x)
      colsum = colsum + x(j)
    end do
  end function colsum
end program hostfill
