! mpi_hybrid.c in Fortran (`use mpi`, gfortran): each of STEPS steps, rank r computes (1 + r)
! units in a parallel region, then all ranks meet in MPI_Allreduce; rank 0 waits about one unit a
! step. One unit on every rank and an MPI_Barrier come first. Each rank prints its own wait.
! usage: mpi_hybrid_f [STEPS] [UNIT_MS]
program mpi_hybrid_f
  use mpi
  use omp_lib
  implicit none
  integer :: ierr, rank, nranks, s, steps, unit_ms
  double precision :: x, total, waited, t0
  character(len=32) :: arg
  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  steps = 10
  unit_ms = 50
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) steps
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) unit_ms
  end if
  x = compute(unit_ms)
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  total = 0
  waited = 0
  do s = 1, steps
    x = compute((1 + rank) * unit_ms)
    t0 = omp_get_wtime()
    call MPI_Allreduce(x, total, 1, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    waited = waited + (omp_get_wtime() - t0)
  end do
  write (*, '(a, i0, a, f0.1, a)') 'mpi_hybrid_f: rank ', rank, ' waited ', waited * 1000, ' ms in MPI_Allreduce'
  call MPI_Finalize(ierr)
contains
  double precision function compute(ms)
    integer, intent(in) :: ms
    double precision :: end_time
    compute = 0
    end_time = omp_get_wtime() + ms / 1000.0d0
    !$omp parallel reduction(+:compute)
    do while (omp_get_wtime() < end_time)
      compute = compute + 1
    end do
    !$omp end parallel
  end function
end program
