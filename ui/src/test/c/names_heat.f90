! Fortran names: a module procedure with a parallel loop, called from the main program, so
! paths read names_heat;solver::relax;parallel at names_heat.f90:12 (gfortran's linker names are
! MAIN__, __solver_MOD_relax and __solver_MOD_relax._omp_fn.0). usage: names_heat SECONDS
module solver
  implicit none
contains
  subroutine relax(a, n)
    integer, intent(in) :: n
    double precision, intent(inout) :: a(n)
    double precision :: b(n)
    integer :: i
    !$omp parallel do
    do i = 2, n - 1
      b(i) = 0.5d0 * (a(i - 1) + a(i + 1)) + 1.0d-3 * sin(a(i))
    end do
    !$omp end parallel do
    a(2:n - 1) = b(2:n - 1)
  end subroutine relax
end module solver

program names_heat
  use solver
  use omp_lib
  implicit none
  double precision, allocatable :: a(:)
  double precision :: seconds, t0
  character(len=32) :: arg
  seconds = 1.0d0
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) seconds
  end if
  allocate (a(100000))
  a = 1.0d0
  t0 = omp_get_wtime()
  do while (omp_get_wtime() - t0 < seconds)
    call relax(a, size(a))
  end do
  print '(a, f10.4)', 'names_heat: ', a(5)
end program names_heat
