!> A simulator loop in Fortran: RESCUE suggests a configuration and a fidelity, the simulator
!! runs it, and the result is reported back, until the cost budget is spent.
!!
!! The "simulator" here is the library's built-in multi-fidelity problem "branin-currin"
!! (evaluated with rescue_problem_evaluate); put your own code in subroutine simulate.
!! With seed 7 and budget 1000 it reaches the same Pareto set as the C, Java, C#, R and
!! Python examples. Output: one line "pareto x_1 .. x_d y_1 .. y_M" per Pareto point.
program simulator_loop
  use, intrinsic :: iso_c_binding
  use rescue
  implicit none
  type(c_ptr) :: problem, opt
  integer(c_int) :: d, m, ticket, n, i, count
  real(c_double) :: s
  real(c_double), allocatable :: x(:), y(:), px(:, :), py(:, :)
  real(c_double) :: no_constraints(0)

  call check(rescue_problem_builtin("branin-currin", problem), 'library')
  call check(rescue_problem_set_seed(problem, 7_c_int), 'problem')
  call check(rescue_problem_set_strategy(problem, "cost-aware-random"), 'problem')
  call check(rescue_problem_set_budget(problem, 1000.0_c_double), 'problem')
  call check(rescue_create(problem, opt), 'library')

  d = rescue_dimension(opt)
  m = rescue_num_objectives(opt)
  allocate(x(d), y(m))
  do while (rescue_done(opt) == 0)
    i = rescue_suggest(opt, x, d, s, ticket)
    if (i == RESCUE_ERR_BUDGET_EXHAUSTED) exit
    call check(i, 'optimizer')
    call simulate(x, s, y)
    call check(rescue_observe(opt, ticket, y, no_constraints), 'optimizer')
  end do

  call check(rescue_pareto_count(opt, n), 'optimizer')
  allocate(px(d, n), py(m, n))
  call check(rescue_pareto(opt, px, py, n, count), 'optimizer')
  do i = 1, n
    call print_point(px(:, i), py(:, i))
  end do

  call rescue_close(opt)
  call rescue_problem_close(problem)

contains

  !> The simulator: objective values y at configuration x and fidelity s.
  subroutine simulate(x, s, y)
    real(c_double), intent(in) :: x(:), s
    real(c_double), intent(out) :: y(:)
    real(c_double) :: g(0)
    call check(rescue_problem_evaluate(problem, x, int(size(x), c_int), s, y, int(size(y), c_int), &
                                       g, 0_c_int, c_null_ptr, 0_c_int), &
               rescue_problem_errmsg(problem))
  end subroutine

  subroutine print_point(x, y)
    real(c_double), intent(in) :: x(:), y(:)
    integer :: j
    write(*, '(a)', advance='no') 'pareto'
    do j = 1, size(x)
      write(*, '(1x, es25.17)', advance='no') x(j)
    end do
    do j = 1, size(y)
      write(*, '(1x, es25.17)', advance='no') y(j)
    end do
    write(*, '(a)') ''
  end subroutine

  !> Stops with the library's message when a call failed. The message is read here, after
  !! the call, from the handle the call used ('problem', 'optimizer') or the thread ('library').
  subroutine check(status, handle)
    integer(c_int), intent(in) :: status
    character(*), intent(in) :: handle
    character(:), allocatable :: message
    if (status == RESCUE_OK) return
    select case (handle)
    case ('problem')
      message = rescue_problem_errmsg(problem)
    case ('optimizer')
      message = rescue_errmsg(opt)
    case default
      message = rescue_last_error()
    end select
    write(*, '(a, a, a, a)') 'RESCUE error (', rescue_status_string(status), '): ', message
    error stop 1
  end subroutine
end program simulator_loop
