! constructs_free.F90 -- construct coverage for the free-form reader and
! Fortran 90 features, written in the style of CloverLeaf: modules with
! USE and CONTAINS, derived types with allocatable components, TYPE(...)
! declarations and % references, INTENT, real(kind=8), ALLOCATE and
! DEALLOCATE, array sections, SELECT CASE, construct names with EXIT and
! CYCLE, WHERE, FORALL, ; and & continuation, the preprocessor, OpenMP and HPF
! directives, every mkvet annotation, and every MPI call through the mpi
! module. It runs on any number of ranks.
#include "cdefs.h"
#define NCELLS 24

module definitions_module
  implicit none
  integer, parameter :: g_ibig = 640000
  real(kind=8), parameter :: g_small = 1.0e-16_8, g_big = 1.0e+21_8
  type :: field_type
    integer :: x_min, x_max, y_min, y_max
    real(kind=8), dimension(:, :), allocatable :: density, energy
    real(kind=8), allocatable :: work(:)
  end type field_type
  type chunk_type
    integer :: task
    integer :: left, right
    type(field_type) :: field
  end type chunk_type
  type(chunk_type), save :: chunk
  integer :: parallel_rank, parallel_size
  logical :: parallel_boss
end module definitions_module

module kernels_module
  use definitions_module, only: field_type, g_small
  implicit none
contains
  subroutine ideal_gas_kernel(x_min, x_max, y_min, y_max, density, energy, pressure)
    integer, intent(in) :: x_min, x_max, y_min, y_max
    real(kind=8), dimension(x_min:x_max, y_min:y_max), intent(in) :: density, energy
    real(kind=8), dimension(x_min:x_max, y_min:y_max), intent(out) :: pressure
    integer :: j, k
    real(kind=8) :: v
    !$omp parallel do private(v, j)
    do k = y_min, y_max
      do j = x_min, x_max
        v = 1.0_8/max(density(j, k), g_small)
        pressure(j, k) = (1.4_8 - 1.0_8)*density(j, k)*energy(j, k)
        pressure(j, k) = pressure(j, k) + 0.0_8*sqrt(v)
      end do
    end do
    !$omp end parallel do
  end subroutine ideal_gas_kernel

  pure function cell_volume(dx, dy) result(vol)
    real(kind=8), intent(in) :: dx, dy
    real(kind=8) :: vol
    vol = dx*dy
  end function cell_volume
end module kernels_module

module comms_module
  use mpi
  use definitions_module
  implicit none
contains
  subroutine clover_init_comms()
    integer :: err, rank, size
    call MPI_Init(err)
    call MPI_Comm_rank(MPI_COMM_WORLD, rank, err)
    call MPI_Comm_size(MPI_COMM_WORLD, size, err)
    parallel_rank = rank; parallel_size = size
    parallel_boss = rank == 0
    chunk%task = rank
    chunk%left = rank - 1
    chunk%right = rank + 1
    if (rank == 0) chunk%left = MPI_PROC_NULL
    if (rank == size - 1) chunk%right = MPI_PROC_NULL
  end subroutine clover_init_comms

  subroutine clover_exchange(field, n)
    type(field_type), intent(inout) :: field
    integer, intent(in) :: n
    integer :: err, req(4), status(MPI_STATUS_SIZE, 4), single(MPI_STATUS_SIZE)
    real(kind=8) :: sbuf(NCELLS), rbuf(NCELLS)
    sbuf(1:n) = field%density(field%x_min:field%x_min + n - 1, field%y_min)
    call MPI_Irecv(rbuf, n, MPI_DOUBLE_PRECISION, chunk%left, 10, MPI_COMM_WORLD, req(1), err)
    call MPI_Isend(sbuf, n, MPI_DOUBLE_PRECISION, chunk%right, 10, MPI_COMM_WORLD, req(2), err)
    call MPI_Waitall(2, req, status, err)
    call MPI_Sendrecv(sbuf, n, MPI_DOUBLE_PRECISION, chunk%right, 11, &
                      rbuf, n, MPI_DOUBLE_PRECISION, chunk%left, 11, &
                      MPI_COMM_WORLD, single, err)
    if (mod(parallel_rank, 2) == 0) then
      call MPI_Ssend(sbuf, n, MPI_DOUBLE_PRECISION, chunk%right, 12, MPI_COMM_WORLD, err)
      call MPI_Recv(rbuf, n, MPI_DOUBLE_PRECISION, chunk%left, 12, MPI_COMM_WORLD, single, err)
    else
      call MPI_Recv(rbuf, n, MPI_DOUBLE_PRECISION, chunk%left, 12, MPI_COMM_WORLD, single, err)
      call MPI_Ssend(sbuf, n, MPI_DOUBLE_PRECISION, chunk%right, 12, MPI_COMM_WORLD, err)
    end if
    call MPI_Irecv(rbuf, n, MPI_DOUBLE_PRECISION, chunk%left, 13, MPI_COMM_WORLD, req(3), err)
    call MPI_Barrier(MPI_COMM_WORLD, err)
    call MPI_Rsend(sbuf, n, MPI_DOUBLE_PRECISION, chunk%right, 13, MPI_COMM_WORLD, err)
    call MPI_Wait(req(3), single, err)
    call MPI_Send(sbuf, 0, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 14, MPI_COMM_WORLD, err)
    call MPI_Bsend(sbuf, 0, MPI_DOUBLE_PRECISION, MPI_PROC_NULL, 15, MPI_COMM_WORLD, err)
  end subroutine clover_exchange

  subroutine clover_collectives(total, n)
    real(kind=8), intent(inout) :: total
    integer, intent(in) :: n
    integer :: err, i
    real(kind=8) :: mine
    integer, allocatable :: counts(:), displs(:)
    real(kind=8), allocatable :: sendv(:), recvv(:)
    allocate (counts(parallel_size), displs(parallel_size))
    allocate (sendv(n*parallel_size), recvv(n*parallel_size))
    counts = n
    displs = [(i*n, i = 0, parallel_size - 1)]
    sendv = real(parallel_rank, kind=8)
    mine = total
    call MPI_Bcast(mine, 1, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, err)
    call MPI_Reduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, 0, MPI_COMM_WORLD, err)
    call MPI_Allreduce(mine, total, 1, MPI_DOUBLE_PRECISION, MPI_MIN, MPI_COMM_WORLD, err)
    call MPI_Gather(sendv, n, MPI_DOUBLE_PRECISION, recvv, n, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, err)
    call MPI_Gatherv(sendv, n, MPI_DOUBLE_PRECISION, recvv, counts, displs, MPI_DOUBLE_PRECISION, 0, &
                     MPI_COMM_WORLD, err)
    call MPI_Scatter(recvv, n, MPI_DOUBLE_PRECISION, sendv, n, MPI_DOUBLE_PRECISION, 0, MPI_COMM_WORLD, err)
    call MPI_Scatterv(recvv, counts, displs, MPI_DOUBLE_PRECISION, sendv, n, MPI_DOUBLE_PRECISION, 0, &
                      MPI_COMM_WORLD, err)
    call MPI_Allgather(sendv, n, MPI_DOUBLE_PRECISION, recvv, n, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, err)
    call MPI_Allgatherv(sendv, n, MPI_DOUBLE_PRECISION, recvv, counts, displs, MPI_DOUBLE_PRECISION, &
                        MPI_COMM_WORLD, err)
    call MPI_Alltoall(recvv, n, MPI_DOUBLE_PRECISION, sendv, n, MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, err)
    call MPI_Alltoallv(recvv, counts, displs, MPI_DOUBLE_PRECISION, sendv, counts, displs, &
                       MPI_DOUBLE_PRECISION, MPI_COMM_WORLD, err)
    if (total /= total) call MPI_Abort(MPI_COMM_WORLD, 3, err)
    deallocate (counts, displs, sendv, recvv)
  end subroutine clover_collectives
end module comms_module

program constructs_free
  use definitions_module
  use kernels_module
  use comms_module
  implicit none
  integer :: i, j, n, step, code, err
  real(kind=8) :: total, dt
  real(kind=8), allocatable :: pressure(:, :)
  character(len=16) :: label
  !mk$ param ncells = 24
  !mk$ assume ncells >= 4

  call clover_init_comms()
  n = NCELLS
  chunk%field%x_min = 1; chunk%field%x_max = n
  chunk%field%y_min = 1; chunk%field%y_max = n
  allocate (chunk%field%density(n, n), chunk%field%energy(n, n), pressure(n, n))
  allocate (chunk%field%work(n))
  chunk%field%density = 1.0_8
  chunk%field%energy(:, :) = 2.5_8
  chunk%field%work(1:n:2) = 0.0_8
  where (chunk%field%density > 0.5_8) chunk%field%energy = chunk%field%energy*1.0_8
  call ideal_gas_kernel(1, n, 1, n, chunk%field%density, chunk%field%energy, pressure)
  total = sum(pressure)
  dt = cell_volume(0.1_8, 0.2_8)
  !mk$ region begin timestep
  outer: do step = 1, 10
    inner: do i = 1, n
      if (i > n/2) cycle outer
      if (step > 8) exit outer
      code = mod(i + step, 4)
      select case (code)
      case (0)
        label = 'zero'
      case (1, 2)
        label = 'small'
      case default
        label = 'other'
      end select
    end do inner
  end do outer
  !mk$ region end timestep
  !mk$ iterations 4
  do
    n = n - 5
    if (n < 5) exit
  end do
  n = NCELLS
#ifdef USE_TIMER
  dt = dt + MPI_Wtime()*0.0_8
#else
  dt = dt + 0.0_8
#endif
#if defined(DEBUG) && DEBUG > 0
  print *, 'debug'
#endif
  do j = 1, n
!hpf$ independent
    do i = 1, n
      pressure(i, j) = pressure(i, j) + &
        & chunk%field%density(i, j)*dt
    end do
  end do
  forall (i = 1:n, j = 1:n, i == j) pressure(i, j) = pressure(i, j) + 1.0_8
  forall (i = 1:n)
    chunk%field%work(i) = pressure(i, i)
  end forall
  call clover_exchange(chunk%field, n)
  call clover_collectives(total, n)
  if (parallel_boss) then
    write (*, '(a, es16.8)') ' constructs_free total', total
  end if
  deallocate (chunk%field%density, chunk%field%energy, chunk%field%work, pressure)
  call MPI_Finalize(err)
end program constructs_free
