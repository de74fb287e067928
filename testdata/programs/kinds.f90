! kinds.f90: kinds and units from the intrinsic modules, as modern Fortran
! names them: real64 and int64 from iso_fortran_env, c_int and c_double
! from iso_c_binding, a message of bytes sized by storage_size over
! character_storage_size, output to output_unit.
module precision
  use, intrinsic :: iso_fortran_env, only: real64, int64, character_storage_size
  implicit none
  integer, parameter :: wp = real64
end module precision

program kinds
  use mpi
  use precision
  use, intrinsic :: iso_fortran_env, only: output_unit
  use, intrinsic :: iso_c_binding, only: c_int, c_double
  implicit none
  integer, parameter :: n = 64, steps = 3
  !mk$ param n = 64
  !mk$ param steps = 3
  integer(c_int) :: rank, np, ierr, i, s, nbytes, other
  integer(int64) :: total
  real(wp), allocatable :: a(:), b(:)
  real(c_double) :: acc

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  allocate(a(n), b(n))
  a = 1.0_wp
  nbytes = n * (storage_size(a) / character_storage_size)
  other = mod(rank + 1, np)
  total = 0_int64
  acc = 0.0_c_double
  do s = 1, steps
    do i = 1, n * int(wp / 4)
      total = total + i
    end do
    call MPI_Sendrecv(a, nbytes, MPI_BYTE, other, 0, b, nbytes, MPI_BYTE, &
         mod(rank - 1 + np, np), 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE, ierr)
    acc = acc + sum(b)
  end do
  if (rank == 0) write(output_unit, *) total, acc
  call MPI_Finalize(ierr)
end program kinds
