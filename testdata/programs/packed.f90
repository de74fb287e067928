! packed.f90: settings read on rank 0 from a file, packed with MPI_PACK
! into a byte buffer (integers, a double, a table of sweeps), broadcast as
! MPI_PACKED and unpacked on the other ranks; a second buffer, allocated
! at the size MPI_PACK_SIZE gives, carries the row counts the same way.
! The values decide the work and the messages.
program packed
  use mpi
  implicit none
  integer :: rank, np, ierr, pos, nx, ny, steps, sweeps(3), isz, dsz
  integer :: rows, step, s, i, j, u, nrecv, ios
  double precision :: dt, acc
  character(len=1) :: buf(256)
  character(len=1), allocatable :: small(:)

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, np, ierr)
  if (rank == 0) then
    ! The file's settings where it is there, else the defaults.
    nx = 16
    ny = 8
    steps = 2
    dt = 0.5d0
    sweeps = [1, 2, 1]
    open(newunit=u, file='packed.in', status='old', iostat=ios)
    if (ios == 0) then
      read(u, *) nx, ny
      read(u, *) steps, dt
      read(u, *) sweeps
      close(u)
    end if
    pos = 0
    call MPI_Pack(nx, 1, MPI_INTEGER, buf, 256, pos, MPI_COMM_WORLD, ierr)
    call MPI_Pack(ny, 1, MPI_INTEGER, buf, 256, pos, MPI_COMM_WORLD, ierr)
    call MPI_Pack(dt, 1, MPI_DOUBLE_PRECISION, buf, 256, pos, MPI_COMM_WORLD, ierr)
    call MPI_Pack(steps, 1, MPI_INTEGER, buf, 256, pos, MPI_COMM_WORLD, ierr)
    call MPI_Pack(sweeps, 3, MPI_INTEGER, buf, 256, pos, MPI_COMM_WORLD, ierr)
  end if
  call MPI_Bcast(buf, 256, MPI_PACKED, 0, MPI_COMM_WORLD, ierr)
  if (rank /= 0) then
    pos = 0
    call MPI_Unpack(buf, 256, pos, nx, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call MPI_Unpack(buf, 256, pos, ny, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call MPI_Unpack(buf, 256, pos, dt, 1, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, ierr)
    call MPI_Unpack(buf, 256, pos, steps, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
    call MPI_Unpack(buf, 256, pos, sweeps, 3, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  end if
  rows = ny / np
  if (rank < mod(ny, np)) rows = rows + 1
  ! Every rank's row count, packed on rank 0 into a buffer of the size
  ! MPI_PACK_SIZE gives, broadcast, the next rank's unpacked.
  call MPI_Pack_size(np, MPI_INTEGER, MPI_COMM_WORLD, isz, ierr)
  call MPI_Pack_size(1, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, dsz, ierr)
  allocate(small(isz + dsz))
  if (rank == 0) then
    pos = 0
    call MPI_Pack(dt, 1, MPI_DOUBLE_PRECISION, small, isz + dsz, pos, MPI_COMM_WORLD, ierr)
    do i = 0, np - 1
      j = ny / np
      if (i < mod(ny, np)) j = j + 1
      call MPI_Pack(j, 1, MPI_INTEGER, small, isz + dsz, pos, MPI_COMM_WORLD, ierr)
    end do
  end if
  call MPI_Bcast(small, isz + dsz, MPI_PACKED, 0, MPI_COMM_WORLD, ierr)
  pos = dsz + 4 * mod(rank + 1, np)
  call MPI_Unpack(small, isz + dsz, pos, nrecv, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  acc = 0.0d0
  do step = 1, steps
    do s = 1, sweeps(mod(step - 1, 3) + 1)
      do j = 1, rows + nrecv
        do i = 1, nx
          acc = acc + dt * i
        end do
      end do
    end do
  end do
  call MPI_Allreduce(MPI_IN_PLACE, acc, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print *, 'acc', acc
  call MPI_Finalize(ierr)
end program packed
