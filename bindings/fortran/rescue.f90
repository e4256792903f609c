!> Fortran 2003 interface to the RESCUE C ABI (rescue.h), through iso_c_binding.
!!
!! - Handles are type(c_ptr); c_null_ptr plays the role of NULL.
!! - Every function returning a status returns integer(c_int); compare with RESCUE_OK.
!!   The status, option-kind, sense and version constants are generated from rescue.h
!!   at build time (rescue_constants.inc), so they cannot drift from the C header.
!! - Functions taking strings accept ordinary Fortran character values: trailing blanks are
!!   dropped, as Fortran compares strings ('a' == 'a   '), and the NUL terminator is added
!!   here; functions returning strings return character(:), allocatable. (The c_rescue_*
!!   interfaces are the raw C calls and take NUL-terminated text.)
!! - Arrays of several points are point-major: x(d, n) in Fortran is the C layout a[i*d + j].
!! - rescue_problem_set_seed takes the C unsigned int as integer(c_int) (same bits).
module rescue
  use, intrinsic :: iso_c_binding
  implicit none
  private :: c_str, f_str, f_text

  include 'rescue_constants.inc'

  ! ---- interfaces that need no string conversion: the C functions themselves ----------------
  interface
    function rescue_version_number() bind(C, name="rescue_version_number")
      import :: c_int
      integer(c_int) :: rescue_version_number
    end function

    function rescue_problem_new(out) bind(C, name="rescue_problem_new")
      import :: c_int, c_ptr
      type(c_ptr), intent(out) :: out
      integer(c_int) :: rescue_problem_new
    end function

    subroutine rescue_problem_free(problem) bind(C, name="rescue_problem_free")
      import :: c_ptr
      type(c_ptr), value :: problem
    end subroutine

    function rescue_problem_set_fidelity_range(problem, lower, upper, target) &
        bind(C, name="rescue_problem_set_fidelity_range")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), value :: lower, upper, target
      integer(c_int) :: rescue_problem_set_fidelity_range
    end function

    function rescue_problem_set_fidelity_levels(problem, levels, n, target) &
        bind(C, name="rescue_problem_set_fidelity_levels")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), intent(in) :: levels(*)
      integer(c_int), value :: n
      real(c_double), value :: target
      integer(c_int) :: rescue_problem_set_fidelity_levels
    end function

    function rescue_problem_set_cost_exponential(problem, rate) bind(C, name="rescue_problem_set_cost_exponential")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), value :: rate
      integer(c_int) :: rescue_problem_set_cost_exponential
    end function

    function rescue_problem_set_cost_levels(problem, costs, n) bind(C, name="rescue_problem_set_cost_levels")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), intent(in) :: costs(*)
      integer(c_int), value :: n
      integer(c_int) :: rescue_problem_set_cost_levels
    end function

    !> fn: c_funloc of a function
    !!   real(c_double) function cost(x, d, s, user) bind(C)
    !!     integer(c_int), value :: d; real(c_double), intent(in) :: x(d)
    !!     real(c_double), value :: s; type(c_ptr), value :: user
    function rescue_problem_set_cost_callback(problem, fn, user) bind(C, name="rescue_problem_set_cost_callback")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: problem
      type(c_funptr), value :: fn
      type(c_ptr), value :: user
      integer(c_int) :: rescue_problem_set_cost_callback
    end function

    function rescue_problem_set_reference_point(problem, ref, m) bind(C, name="rescue_problem_set_reference_point")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), intent(in) :: ref(*)
      integer(c_int), value :: m
      integer(c_int) :: rescue_problem_set_reference_point
    end function

    function rescue_problem_set_seed(problem, seed) bind(C, name="rescue_problem_set_seed")
      import :: c_int, c_ptr
      type(c_ptr), value :: problem
      integer(c_int), value :: seed
      integer(c_int) :: rescue_problem_set_seed
    end function

    function rescue_problem_set_budget(problem, budget) bind(C, name="rescue_problem_set_budget")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), value :: budget
      integer(c_int) :: rescue_problem_set_budget
    end function

    function rescue_problem_set_initial_budget(problem, budget) bind(C, name="rescue_problem_set_initial_budget")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), value :: budget
      integer(c_int) :: rescue_problem_set_initial_budget
    end function

    !> g may be any array when q = 0 (it is not written); z is c_null_ptr with k = 0 to skip the
    !! indicators, or c_loc of K values.
    function rescue_problem_evaluate(problem, x, d, s, y, m, g, q, z, k) bind(C, name="rescue_problem_evaluate")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      real(c_double), intent(in) :: x(*)
      integer(c_int), value :: d
      real(c_double), value :: s
      real(c_double), intent(out) :: y(*)
      integer(c_int), value :: m
      real(c_double), intent(out) :: g(*)
      integer(c_int), value :: q
      type(c_ptr), value :: z
      integer(c_int), value :: k
      integer(c_int) :: rescue_problem_evaluate
    end function

    function rescue_create(problem, out) bind(C, name="rescue_create")
      import :: c_int, c_ptr
      type(c_ptr), value :: problem
      type(c_ptr), intent(out) :: out
      integer(c_int) :: rescue_create
    end function

    subroutine rescue_destroy(opt) bind(C, name="rescue_destroy")
      import :: c_ptr
      type(c_ptr), value :: opt
    end subroutine

    function rescue_set_cost_callback(opt, fn, user) bind(C, name="rescue_set_cost_callback")
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: opt
      type(c_funptr), value :: fn
      type(c_ptr), value :: user
      integer(c_int) :: rescue_set_cost_callback
    end function

    function rescue_dimension(opt) bind(C, name="rescue_dimension")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_dimension
    end function

    function rescue_num_objectives(opt) bind(C, name="rescue_num_objectives")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_num_objectives
    end function

    function rescue_num_constraints(opt) bind(C, name="rescue_num_constraints")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_num_constraints
    end function

    function rescue_num_indicators(opt) bind(C, name="rescue_num_indicators")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_num_indicators
    end function

    !> index is 0-based.
    function rescue_option_info(opt, index, lower, upper, kind) bind(C, name="rescue_option_info")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      real(c_double), intent(out) :: lower, upper
      integer(c_int), intent(out) :: kind
      integer(c_int) :: rescue_option_info
    end function

    !> Levels of categorical option index (0-based): 0 for other options, -1 out of range.
    function rescue_option_levels(opt, index) bind(C, name="rescue_option_levels")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      integer(c_int) :: rescue_option_levels
    end function

    function rescue_constraint_info(opt, index, threshold, sense) bind(C, name="rescue_constraint_info")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      real(c_double), intent(out) :: threshold
      integer(c_int), intent(out) :: sense
      integer(c_int) :: rescue_constraint_info
    end function

    function rescue_objective_sense(opt, index) bind(C, name="rescue_objective_sense")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      integer(c_int) :: rescue_objective_sense
    end function

    function rescue_reference_point(opt, ref, m) bind(C, name="rescue_reference_point")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(out) :: ref(*)
      integer(c_int), value :: m
      integer(c_int) :: rescue_reference_point
    end function

    function rescue_target_fidelity(opt, target) bind(C, name="rescue_target_fidelity")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(out) :: target
      integer(c_int) :: rescue_target_fidelity
    end function

    function rescue_suggest(opt, x, d, s, ticket) bind(C, name="rescue_suggest")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(out) :: x(*)
      integer(c_int), value :: d
      real(c_double), intent(out) :: s
      integer(c_int), intent(out) :: ticket
      integer(c_int) :: rescue_suggest
    end function

    !> Up to q suggestions at once: x(d, q), s(q), tickets(q); count receives how many were made.
    function rescue_suggest_batch(opt, q, x, d, s, tickets, count) bind(C, name="rescue_suggest_batch")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      integer(c_int), value :: q
      real(c_double), intent(out) :: x(*)
      integer(c_int), value :: d
      real(c_double), intent(out) :: s(*)
      integer(c_int), intent(out) :: tickets(*)
      integer(c_int), intent(out) :: count
      integer(c_int) :: rescue_suggest_batch
    end function

    !> Pass c_null_ptr-free arrays: g may be any array when q = 0. Indicators are optional
    !! in C (z = NULL, k = 0); use rescue_observe_z to pass them.
    function rescue_observe_c(opt, ticket, y, m, g, q, z, k) bind(C, name="rescue_observe")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      integer(c_int), value :: ticket
      real(c_double), intent(in) :: y(*)
      integer(c_int), value :: m
      real(c_double), intent(in) :: g(*)
      integer(c_int), value :: q
      type(c_ptr), value :: z
      integer(c_int), value :: k
      integer(c_int) :: rescue_observe_c
    end function

    function rescue_observe_at_c(opt, x, d, s, y, m, g, q, z, k) bind(C, name="rescue_observe_at")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(in) :: x(*)
      integer(c_int), value :: d
      real(c_double), value :: s
      real(c_double), intent(in) :: y(*)
      integer(c_int), value :: m
      real(c_double), intent(in) :: g(*)
      integer(c_int), value :: q
      type(c_ptr), value :: z
      integer(c_int), value :: k
      integer(c_int) :: rescue_observe_at_c
    end function

    function rescue_cancel(opt, ticket) bind(C, name="rescue_cancel")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int), value :: ticket
      integer(c_int) :: rescue_cancel
    end function

    function rescue_fail(opt, ticket) bind(C, name="rescue_fail")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int), value :: ticket
      integer(c_int) :: rescue_fail
    end function

    function rescue_pending(opt, tickets, capacity, count) bind(C, name="rescue_pending")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int), intent(out) :: tickets(*)
      integer(c_int), value :: capacity
      integer(c_int), intent(out) :: count
      integer(c_int) :: rescue_pending
    end function

    function rescue_num_observations(opt) bind(C, name="rescue_num_observations")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_num_observations
    end function

    !> index is 0-based. Buffers must have the problem's sizes (d, M, Q); pass q = 0 when Q = 0.
    function rescue_get_observation(opt, index, x, d, s, y, m, g, q, failed) bind(C, name="rescue_get_observation")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      real(c_double), intent(out) :: x(*)
      integer(c_int), value :: d
      real(c_double), intent(out) :: s
      real(c_double), intent(out) :: y(*)
      integer(c_int), value :: m
      real(c_double), intent(out) :: g(*)
      integer(c_int), value :: q
      integer(c_int), intent(out) :: failed
      integer(c_int) :: rescue_get_observation
    end function

    function rescue_cost(opt, x, d, s, cost) bind(C, name="rescue_cost")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(in) :: x(*)
      integer(c_int), value :: d
      real(c_double), value :: s
      real(c_double), intent(out) :: cost
      integer(c_int) :: rescue_cost
    end function

    function rescue_budget(opt, spent, pending, budget) bind(C, name="rescue_budget")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(out) :: spent, pending, budget
      integer(c_int) :: rescue_budget
    end function

    function rescue_done(opt) bind(C, name="rescue_done")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_done
    end function

    !> x(d, capacity) and y(M, capacity); call first with capacity 0 via rescue_pareto_count.
    function rescue_pareto(opt, x, y, capacity, count) bind(C, name="rescue_pareto")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(out) :: x(*), y(*)
      integer(c_int), value :: capacity
      integer(c_int), intent(out) :: count
      integer(c_int) :: rescue_pareto
    end function

    !> rows(ncols, n): each column of the Fortran array is one row of the C layout.
    function rescue_add_observational(opt, rows, n, ncols) bind(C, name="rescue_add_observational")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(in) :: rows(*)
      integer(c_int), value :: n, ncols
      integer(c_int) :: rescue_add_observational
    end function

    function rescue_num_observational(opt) bind(C, name="rescue_num_observational")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_num_observational
    end function

    function rescue_save(opt, buffer, capacity, length) bind(C, name="rescue_save")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: opt
      type(c_ptr), value :: buffer
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out) :: length
      integer(c_int) :: rescue_save
    end function

    function rescue_load_c(buffer, length, out) bind(C, name="rescue_load")
      import :: c_int, c_ptr, c_char, c_size_t
      character(kind=c_char), intent(in) :: buffer(*)
      integer(c_size_t), value :: length
      type(c_ptr), intent(out) :: out
      integer(c_int) :: rescue_load_c
    end function

    function rescue_hypervolume(points, n, m, ref, hv) bind(C, name="rescue_hypervolume")
      import :: c_int, c_double
      real(c_double), intent(in) :: points(*)
      integer(c_int), value :: n, m
      real(c_double), intent(in) :: ref(*)
      real(c_double), intent(out) :: hv
      integer(c_int) :: rescue_hypervolume
    end function

    !> format RESCUE_GRAPH_DOT or RESCUE_GRAPH_JSON; as_discovered 0 or 1. Call with buffer
    !! c_null_ptr and capacity 0 for the length, or use rescue_causal_graph_text.
    function rescue_causal_graph(opt, format, as_discovered, buffer, capacity, length) bind(C, name="rescue_causal_graph")
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: opt
      integer(c_int), value :: format, as_discovered
      type(c_ptr), value :: buffer
      integer(c_size_t), value :: capacity
      integer(c_size_t), intent(out) :: length
      integer(c_int) :: rescue_causal_graph
    end function

    !> x(d, n), s(n); mean(p, n) and sd(p, n) with p = M + Q (sd may be c_null_ptr via the raw C call).
    function rescue_causal_estimates(opt, x, n, d, s, mean, sd, p) bind(C, name="rescue_causal_estimates")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(in) :: x(*)
      integer(c_int), value :: n, d
      real(c_double), intent(in) :: s(*)
      real(c_double), intent(out) :: mean(*), sd(*)
      integer(c_int), value :: p
      integer(c_int) :: rescue_causal_estimates
    end function

    !> The model's predictions: x(d, n), s(n); mean(p, n) and sd(p, n) with p = M + Q, feasible(n).
    function rescue_predict(opt, x, n, d, s, mean, sd, p, feasible) bind(C, name="rescue_predict")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(in) :: x(*)
      integer(c_int), value :: n, d
      real(c_double), intent(in) :: s(*)
      real(c_double), intent(out) :: mean(*), sd(*)
      integer(c_int), value :: p
      real(c_double), intent(out) :: feasible(*)
      integer(c_int) :: rescue_predict
    end function

    !> Leave-one-out predictions of the model behind rescue_predict, one column per observation:
    !> mean(p, capacity) and sd(p, capacity) with p = M + Q and capacity >= rescue_num_observations.
    function rescue_cross_validate(opt, mean, sd, p, capacity, count) bind(C, name="rescue_cross_validate")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(out) :: mean(*), sd(*)
      integer(c_int), value :: p, capacity
      integer(c_int), intent(out) :: count
      integer(c_int) :: rescue_cross_validate
    end function

    !> How well each band of fidelities predicts the target: bands(2, nbands) holds (lower, upper);
    !> rms_z(p, nbands) and rank(p, nbands) with p = M + Q; rows(nbands) the observations per band.
    function rescue_fidelity_agreement(opt, bands, nbands, rms_z, rank, rows, p, target_rows) &
        bind(C, name="rescue_fidelity_agreement")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(in) :: bands(*)
      integer(c_int), value :: nbands, p
      real(c_double), intent(out) :: rms_z(*), rank(*)
      integer(c_int), intent(out) :: rows(*), target_rows
      integer(c_int) :: rescue_fidelity_agreement
    end function

    !> How much the model behind rescue_predict relies on the causal model ("rescue" only):
    !> scale(p) receives a_m for each objective then constraint metric (p = M + Q), kernel_weight
    !> the weight w of the causal kernel term, in_use 1 if the fit kept the prior, 0 if not.
    function rescue_prior_weights(opt, scale, p, kernel_weight, in_use) bind(C, name="rescue_prior_weights")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: opt
      real(c_double), intent(out) :: scale(*)
      integer(c_int), value :: p
      real(c_double), intent(out) :: kernel_weight
      integer(c_int), intent(out) :: in_use
      integer(c_int) :: rescue_prior_weights
    end function

    !> rows(ncols, n) receives n rows in the layout of rescue_add_observational.
    function rescue_problem_sample_observational(problem, n, seed, rows, ncols) &
        bind(C, name="rescue_problem_sample_observational")
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: problem
      integer(c_int), value :: n, seed
      real(c_double), intent(out) :: rows(*)
      integer(c_int), value :: ncols
      integer(c_int) :: rescue_problem_sample_observational
    end function

    function rescue_journal_close(opt) bind(C, name="rescue_journal_close")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_journal_close
    end function

    function rescue_journal_is_open(opt) bind(C, name="rescue_journal_is_open")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt
      integer(c_int) :: rescue_journal_is_open
    end function

    !> violation: c_null_ptr (all feasible) or c_loc of n values. keep receives 0-based indices.
    function rescue_pareto_filter(points, n, m, violation, keep, count) bind(C, name="rescue_pareto_filter")
      import :: c_int, c_double, c_ptr
      real(c_double), intent(in) :: points(*)
      integer(c_int), value :: n, m
      type(c_ptr), value :: violation
      integer(c_int), intent(out) :: keep(*)
      integer(c_int), intent(out) :: count
      integer(c_int) :: rescue_pareto_filter
    end function
  end interface

  ! ---- raw C entry points with string arguments or results; the wrappers below, named as in C,
  ! ---- take and return Fortran strings ----------------------------------------------------------
  interface
    function c_rescue_version_string() bind(C, name="rescue_version_string")
      import :: c_ptr
      type(c_ptr) :: c_rescue_version_string
    end function
    function c_rescue_status_string(status) bind(C, name="rescue_status_string")
      import :: c_ptr, c_int
      integer(c_int), value :: status
      type(c_ptr) :: c_rescue_status_string
    end function
    function c_rescue_last_error() bind(C, name="rescue_last_error")
      import :: c_ptr
      type(c_ptr) :: c_rescue_last_error
    end function
    function c_rescue_errmsg(opt) bind(C, name="rescue_errmsg")
      import :: c_ptr
      type(c_ptr), value :: opt
      type(c_ptr) :: c_rescue_errmsg
    end function
    function c_rescue_problem_errmsg(problem) bind(C, name="rescue_problem_errmsg")
      import :: c_ptr
      type(c_ptr), value :: problem
      type(c_ptr) :: c_rescue_problem_errmsg
    end function
    function c_rescue_problem_builtin(name, out) bind(C, name="rescue_problem_builtin")
      import :: c_int, c_ptr, c_char
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: c_rescue_problem_builtin
    end function
    function c_rescue_problem_add_option(problem, name, lower, upper, kind) bind(C, name="rescue_problem_add_option")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), value :: lower, upper
      integer(c_int), value :: kind
      integer(c_int) :: c_rescue_problem_add_option
    end function
    function c_rescue_problem_add_categorical(problem, name, labels, n) bind(C, name="rescue_problem_add_categorical")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), intent(in) :: labels(*)
      integer(c_int), value :: n
      integer(c_int) :: c_rescue_problem_add_categorical
    end function
    function c_rescue_problem_add_objective(problem, name, sense) bind(C, name="rescue_problem_add_objective")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), value :: sense
      integer(c_int) :: c_rescue_problem_add_objective
    end function
    function c_rescue_problem_add_constraint(problem, name, threshold, sense) bind(C, name="rescue_problem_add_constraint")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), value :: threshold
      integer(c_int), value :: sense
      integer(c_int) :: c_rescue_problem_add_constraint
    end function
    function c_rescue_problem_add_indicator(problem, name) bind(C, name="rescue_problem_add_indicator")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: c_rescue_problem_add_indicator
    end function
    function c_rescue_problem_set_strategy(problem, name) bind(C, name="rescue_problem_set_strategy")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: c_rescue_problem_set_strategy
    end function
    function c_rescue_problem_set_param(problem, key, value) bind(C, name="rescue_problem_set_param")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: key(*)
      real(c_double), value :: value
      integer(c_int) :: c_rescue_problem_set_param
    end function
    function c_rescue_problem_get_param(problem, key, value) bind(C, name="rescue_problem_get_param")
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: problem
      character(kind=c_char), intent(in) :: key(*)
      real(c_double), intent(out) :: value
      integer(c_int) :: c_rescue_problem_get_param
    end function
    function c_rescue_param_list(index) bind(C, name="rescue_param_list")
      import :: c_ptr, c_int
      integer(c_int), value :: index
      type(c_ptr) :: c_rescue_param_list
    end function
    function c_rescue_param_info(name, default_value, kind, lower, upper, description) bind(C, name="rescue_param_info")
      import :: c_int, c_ptr, c_char, c_double
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), intent(out) :: default_value, lower, upper
      integer(c_int), intent(out) :: kind
      type(c_ptr), intent(out) :: description
      integer(c_int) :: c_rescue_param_info
    end function
    function c_rescue_strategy_name(opt) bind(C, name="rescue_strategy_name")
      import :: c_ptr
      type(c_ptr), value :: opt
      type(c_ptr) :: c_rescue_strategy_name
    end function
    function c_rescue_strategy_list(index) bind(C, name="rescue_strategy_list")
      import :: c_ptr, c_int
      integer(c_int), value :: index
      type(c_ptr) :: c_rescue_strategy_list
    end function
    function c_rescue_option_name(opt, index) bind(C, name="rescue_option_name")
      import :: c_ptr, c_int
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      type(c_ptr) :: c_rescue_option_name
    end function
    function c_rescue_option_label(opt, index, level) bind(C, name="rescue_option_label")
      import :: c_ptr, c_int
      type(c_ptr), value :: opt
      integer(c_int), value :: index, level
      type(c_ptr) :: c_rescue_option_label
    end function
    function c_rescue_objective_name(opt, index) bind(C, name="rescue_objective_name")
      import :: c_ptr, c_int
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      type(c_ptr) :: c_rescue_objective_name
    end function
    function c_rescue_constraint_name(opt, index) bind(C, name="rescue_constraint_name")
      import :: c_ptr, c_int
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      type(c_ptr) :: c_rescue_constraint_name
    end function
    function c_rescue_indicator_name(opt, index) bind(C, name="rescue_indicator_name")
      import :: c_ptr, c_int
      type(c_ptr), value :: opt
      integer(c_int), value :: index
      type(c_ptr) :: c_rescue_indicator_name
    end function
    function c_rescue_set_dag(opt, json) bind(C, name="rescue_set_dag")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: opt
      character(kind=c_char), intent(in) :: json(*)
      integer(c_int) :: c_rescue_set_dag
    end function
    function c_rescue_clear_dag(opt, json) bind(C, name="rescue_set_dag")
      import :: c_int, c_ptr
      type(c_ptr), value :: opt, json
      integer(c_int) :: c_rescue_clear_dag
    end function
    function c_rescue_constrain_edge(opt, from, to, kind) bind(C, name="rescue_constrain_edge")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: opt
      character(kind=c_char), intent(in) :: from(*), to(*)
      integer(c_int), value :: kind
      integer(c_int) :: c_rescue_constrain_edge
    end function
    function c_rescue_journal_open(opt, path) bind(C, name="rescue_journal_open")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: opt
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: c_rescue_journal_open
    end function
    function c_rescue_journal_resume(path, out, torn_tail) bind(C, name="rescue_journal_resume")
      import :: c_int, c_ptr, c_char
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: out
      integer(c_int), intent(out) :: torn_tail
      integer(c_int) :: c_rescue_journal_resume
    end function
    function c_rescue_save_file(opt, path) bind(C, name="rescue_save_file")
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: opt
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: c_rescue_save_file
    end function
    function c_rescue_load_file(path, out) bind(C, name="rescue_load_file")
      import :: c_int, c_ptr, c_char
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: out
      integer(c_int) :: c_rescue_load_file
    end function
  end interface

contains

  ! ---- string helpers ---------------------------------------------------------------------------

  !> A Fortran string as a NUL-terminated C string, trailing blanks dropped (a name held in a
  !! longer character variable is the same name).
  pure function c_str(s) result(r)
    character(*), intent(in) :: s
    character(kind=c_char, len=len_trim(s) + 1) :: r
    r = trim(s) // c_null_char
  end function

  !> The first `length` characters of a buffer the library filled, as a Fortran string.
  function f_text(buf, length) result(r)
    character(kind=c_char), intent(in) :: buf(:)
    integer(c_size_t), intent(in) :: length
    character(:), allocatable :: r
    integer :: i
    allocate(character(length) :: r)
    do i = 1, int(length)
      r(i:i) = buf(i)
    end do
  end function

  !> Copies a NUL-terminated C string; a NULL pointer gives "".
  function f_str(p) result(r)
    type(c_ptr), intent(in) :: p
    character(:), allocatable :: r
    character(kind=c_char), pointer :: chars(:)
    integer :: i, n
    if (.not. c_associated(p)) then
      r = ''
      return
    end if
    ! The length is unknown until the NUL; only the characters up to it are read.
    call c_f_pointer(p, chars, [huge(0)])
    n = 0
    do while (chars(n + 1) /= c_null_char)
      n = n + 1
    end do
    allocate(character(n) :: r)
    do i = 1, n
      r(i:i) = chars(i)
    end do
  end function

  ! ---- version and errors -----------------------------------------------------------------------

  function rescue_version_string() result(r)
    character(:), allocatable :: r
    r = f_str(c_rescue_version_string())
  end function

  function rescue_status_string(status) result(r)
    integer(c_int), intent(in) :: status
    character(:), allocatable :: r
    r = f_str(c_rescue_status_string(status))
  end function

  function rescue_last_error() result(r)
    character(:), allocatable :: r
    r = f_str(c_rescue_last_error())
  end function

  function rescue_errmsg(opt) result(r)
    type(c_ptr), intent(in) :: opt
    character(:), allocatable :: r
    r = f_str(c_rescue_errmsg(opt))
  end function

  function rescue_problem_errmsg(problem) result(r)
    type(c_ptr), intent(in) :: problem
    character(:), allocatable :: r
    r = f_str(c_rescue_problem_errmsg(problem))
  end function

  ! ---- problem definition -----------------------------------------------------------------------

  function rescue_problem_builtin(name, out) result(status)
    character(*), intent(in) :: name
    type(c_ptr), intent(out) :: out
    integer(c_int) :: status
    status = c_rescue_problem_builtin(c_str(name), out)
  end function

  function rescue_problem_add_option(problem, name, lower, upper, kind) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: name
    real(c_double), intent(in) :: lower, upper
    integer(c_int), intent(in) :: kind
    integer(c_int) :: status
    status = c_rescue_problem_add_option(problem, c_str(name), lower, upper, kind)
  end function

  !> A categorical option with these labels; its slot in every configuration holds the 0-based
  !! index of a label. The elements of a Fortran character array share one length, so each
  !! label's trailing blanks are dropped.
  function rescue_problem_add_categorical(problem, name, labels) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: name
    character(*), intent(in) :: labels(:)
    integer(c_int) :: status
    character(kind=c_char, len=len(labels) + 1), allocatable, target :: buffer(:)
    type(c_ptr), allocatable :: pointers(:)
    integer :: k
    allocate(buffer(size(labels)), pointers(max(size(labels), 1)))
    pointers = c_null_ptr
    do k = 1, size(labels)
      buffer(k) = trim(labels(k)) // c_null_char
      pointers(k) = c_loc(buffer(k))
    end do
    status = c_rescue_problem_add_categorical(problem, c_str(name), pointers, int(size(labels), c_int))
  end function

  function rescue_problem_add_objective(problem, name, sense) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: name
    integer(c_int), intent(in) :: sense
    integer(c_int) :: status
    status = c_rescue_problem_add_objective(problem, c_str(name), sense)
  end function

  function rescue_problem_add_constraint(problem, name, threshold, sense) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: name
    real(c_double), intent(in) :: threshold
    integer(c_int), intent(in) :: sense
    integer(c_int) :: status
    status = c_rescue_problem_add_constraint(problem, c_str(name), threshold, sense)
  end function

  function rescue_problem_add_indicator(problem, name) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: name
    integer(c_int) :: status
    status = c_rescue_problem_add_indicator(problem, c_str(name))
  end function

  function rescue_problem_set_strategy(problem, name) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: name
    integer(c_int) :: status
    status = c_rescue_problem_set_strategy(problem, c_str(name))
  end function

  function rescue_problem_set_param(problem, key, value) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: key
    real(c_double), intent(in) :: value
    integer(c_int) :: status
    status = c_rescue_problem_set_param(problem, c_str(key), value)
  end function

  !> The parameter's value on the problem: the one set, or its default.
  function rescue_problem_get_param(problem, key, value) result(status)
    type(c_ptr), intent(in) :: problem
    character(*), intent(in) :: key
    real(c_double), intent(out) :: value
    integer(c_int) :: status
    status = c_rescue_problem_get_param(problem, c_str(key), value)
  end function

  !> Name of strategy parameter index (0-based, sorted by name); "" when out of range.
  function rescue_param_list(index) result(r)
    integer(c_int), intent(in) :: index
    character(:), allocatable :: r
    r = f_str(c_rescue_param_list(index))
  end function

  !> A strategy parameter's default, kind (RESCUE_PARAM_INTEGER, _CLOSED or _OPEN), bounds of the
  !! accepted values (infinite when there is none) and, optionally, its description.
  function rescue_param_info(name, default_value, kind, lower, upper, description) result(status)
    character(*), intent(in) :: name
    real(c_double), intent(out) :: default_value, lower, upper
    integer(c_int), intent(out) :: kind
    character(:), allocatable, intent(out), optional :: description
    integer(c_int) :: status
    type(c_ptr) :: text
    text = c_null_ptr
    status = c_rescue_param_info(c_str(name), default_value, kind, lower, upper, text)
    if (present(description)) description = f_str(text)
  end function

  ! ---- optimizer --------------------------------------------------------------------------------

  !> Destroys an optimizer and sets the handle to c_null_ptr, so a second close is harmless.
  subroutine rescue_close(opt)
    type(c_ptr), intent(inout) :: opt
    call rescue_destroy(opt)
    opt = c_null_ptr
  end subroutine

  !> Frees a problem and sets the handle to c_null_ptr, so a second free is harmless.
  subroutine rescue_problem_close(problem)
    type(c_ptr), intent(inout) :: problem
    call rescue_problem_free(problem)
    problem = c_null_ptr
  end subroutine

  function rescue_strategy_name(opt) result(r)
    type(c_ptr), intent(in) :: opt
    character(:), allocatable :: r
    r = f_str(c_rescue_strategy_name(opt))
  end function

  !> The index-th (0-based) known strategy, or "" past the end.
  function rescue_strategy_list(index) result(r)
    integer(c_int), intent(in) :: index
    character(:), allocatable :: r
    r = f_str(c_rescue_strategy_list(index))
  end function

  !> Name of option index (0-based); "" when out of range.
  function rescue_option_name(opt, index) result(r)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(in) :: index
    character(:), allocatable :: r
    r = f_str(c_rescue_option_name(opt, index))
  end function

  !> Label of level `level` (0-based) of categorical option index (0-based); "" when there is none.
  function rescue_option_label(opt, index, level) result(r)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(in) :: index, level
    character(:), allocatable :: r
    r = f_str(c_rescue_option_label(opt, index, level))
  end function

  function rescue_objective_name(opt, index) result(r)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(in) :: index
    character(:), allocatable :: r
    r = f_str(c_rescue_objective_name(opt, index))
  end function

  function rescue_constraint_name(opt, index) result(r)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(in) :: index
    character(:), allocatable :: r
    r = f_str(c_rescue_constraint_name(opt, index))
  end function

  function rescue_indicator_name(opt, index) result(r)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(in) :: index
    character(:), allocatable :: r
    r = f_str(c_rescue_indicator_name(opt, index))
  end function

  !> Reports objective values y(M) and constraint metrics g(Q) (pass a zero-size array when Q = 0)
  !! for a pending ticket; indicators z(K) are optional.
  function rescue_observe(opt, ticket, y, g, z) result(status)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(in) :: ticket
    real(c_double), intent(in) :: y(:), g(:)
    real(c_double), intent(in), optional :: z(:)
    integer(c_int) :: status
    real(c_double) :: gbuf(max(1, size(g)))
    ! z may be a strided section (zlog(i, :)); C reads k consecutive values, so it is copied.
    real(c_double), allocatable, target :: zbuf(:)
    gbuf(1:size(g)) = g
    if (present(z)) then
      if (size(z) > 0) then
        zbuf = z
        status = rescue_observe_c(opt, ticket, y, int(size(y), c_int), gbuf, int(size(g), c_int), &
                                  c_loc(zbuf(1)), int(size(z), c_int))
        return
      end if
    end if
    status = rescue_observe_c(opt, ticket, y, int(size(y), c_int), gbuf, int(size(g), c_int), c_null_ptr, 0_c_int)
  end function

  !> Reports an evaluation of a configuration x(d) at fidelity s chosen by the caller.
  function rescue_observe_at(opt, x, s, y, g, z) result(status)
    type(c_ptr), intent(in) :: opt
    real(c_double), intent(in) :: x(:), y(:), g(:)
    real(c_double), intent(in) :: s
    real(c_double), intent(in), optional :: z(:)
    integer(c_int) :: status
    real(c_double) :: gbuf(max(1, size(g)))
    real(c_double), allocatable, target :: zbuf(:)
    gbuf(1:size(g)) = g
    if (present(z)) then
      if (size(z) > 0) then
        zbuf = z
        status = rescue_observe_at_c(opt, x, int(size(x), c_int), s, y, int(size(y), c_int), gbuf, &
                                     int(size(g), c_int), c_loc(zbuf(1)), int(size(z), c_int))
        return
      end if
    end if
    status = rescue_observe_at_c(opt, x, int(size(x), c_int), s, y, int(size(y), c_int), gbuf, &
                                 int(size(g), c_int), c_null_ptr, 0_c_int)
  end function

  !> The number of points of the current Pareto set (for sizing x(d, n) and y(M, n)).
  function rescue_pareto_count(opt, count) result(status)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(out) :: count
    integer(c_int) :: status
    interface
      function c_pareto_query(opt, x, y, capacity, count) bind(C, name="rescue_pareto")
        import :: c_int, c_ptr
        type(c_ptr), value :: opt, x, y
        integer(c_int), value :: capacity
        integer(c_int), intent(out) :: count
        integer(c_int) :: c_pareto_query
      end function
    end interface
    status = c_pareto_query(opt, c_null_ptr, c_null_ptr, 0_c_int, count)
  end function

  ! ---- checkpoints ------------------------------------------------------------------------------

  !> The checkpoint text of an optimizer.
  function rescue_save_string(opt, text) result(status)
    type(c_ptr), intent(in) :: opt
    character(:), allocatable, intent(out) :: text
    integer(c_int) :: status
    integer(c_size_t) :: length, capacity
    character(kind=c_char), allocatable, target :: buf(:)
    text = ''
    status = rescue_save(opt, c_null_ptr, 0_c_size_t, length)
    if (status /= RESCUE_OK) return
    capacity = length + 1
    allocate(buf(capacity))
    status = rescue_save(opt, c_loc(buf(1)), capacity, length)
    if (status == RESCUE_OK) text = f_text(buf, length)
  end function

  !> Creates an optimizer from a checkpoint text.
  function rescue_load(text, out) result(status)
    character(*), intent(in) :: text
    type(c_ptr), intent(out) :: out
    integer(c_int) :: status
    status = rescue_load_c(text // c_null_char, int(len(text), c_size_t), out)
  end function

  function rescue_save_file(opt, path) result(status)
    type(c_ptr), intent(in) :: opt
    character(*), intent(in) :: path
    integer(c_int) :: status
    status = c_rescue_save_file(opt, c_str(path))
  end function

  function rescue_load_file(path, out) result(status)
    character(*), intent(in) :: path
    type(c_ptr), intent(out) :: out
    integer(c_int) :: status
    status = c_rescue_load_file(c_str(path), out)
  end function

  ! ---- causal model and journal ------------------------------------------------------------------

  ! rescue_causal_graph, rescue_causal_estimates and rescue_problem_sample_observational are
  ! declared above with their C arguments.

  !> Replaces causal discovery with a DAG given as JSON text ({"edges": [{"from": "a", "to":
  !! "b"}, ...]}, as rescue_causal_graph_text writes it), used from the next suggestion on.
  function rescue_set_dag(opt, json) result(status)
    type(c_ptr), intent(in) :: opt
    character(*), intent(in) :: json
    integer(c_int) :: status
    status = c_rescue_set_dag(opt, c_str(json))
  end function

  !> Goes back to causal discovery after rescue_set_dag.
  function rescue_clear_dag(opt) result(status)
    type(c_ptr), intent(in) :: opt
    integer(c_int) :: status
    status = c_rescue_clear_dag(opt, c_null_ptr)
  end function

  !> Requires (kind RESCUE_EDGE_REQUIRED) or forbids (RESCUE_EDGE_FORBIDDEN) the edge from -> to.
  function rescue_constrain_edge(opt, from, to, kind) result(status)
    type(c_ptr), intent(in) :: opt
    character(*), intent(in) :: from, to
    integer(c_int), intent(in) :: kind
    integer(c_int) :: status
    status = c_rescue_constrain_edge(opt, c_str(from), c_str(to), kind)
  end function

  !> The causal graph as text: format RESCUE_GRAPH_DOT or RESCUE_GRAPH_JSON, as_discovered 0 (the
  !! DAG the equations are fitted on) or 1 (the graph as discovery produced it).
  function rescue_causal_graph_text(opt, format, as_discovered, text) result(status)
    type(c_ptr), intent(in) :: opt
    integer(c_int), intent(in) :: format, as_discovered
    character(:), allocatable, intent(out) :: text
    integer(c_int) :: status
    integer(c_size_t) :: length, capacity
    character(kind=c_char), allocatable, target :: buf(:)
    text = ''
    status = rescue_causal_graph(opt, format, as_discovered, c_null_ptr, 0_c_size_t, length)
    if (status /= RESCUE_OK) return
    capacity = length + 1
    allocate(buf(capacity))
    status = rescue_causal_graph(opt, format, as_discovered, c_loc(buf(1)), capacity, length)
    if (status == RESCUE_OK) text = f_text(buf, length)
  end function

  !> Starts a crash-safe journal at path (see rescue.h).
  function rescue_journal_open(opt, path) result(status)
    type(c_ptr), intent(in) :: opt
    character(*), intent(in) :: path
    integer(c_int) :: status
    status = c_rescue_journal_open(opt, c_str(path))
  end function

  !> Rebuilds an optimizer from a journal; torn_tail is 1 when a partly written last record was ignored.
  function rescue_journal_resume(path, out, torn_tail) result(status)
    character(*), intent(in) :: path
    type(c_ptr), intent(out) :: out
    integer(c_int), intent(out) :: torn_tail
    integer(c_int) :: status
    status = c_rescue_journal_resume(c_str(path), out, torn_tail)
  end function

end module rescue
