!> Tests of the Fortran module: constants and version, errors with the library's message,
!! deterministic release, checkpoints across languages, and the utilities.
!! Environment: RESCUE_CHECKPOINT_IN, a checkpoint file written by another language to load, and
!! RESCUE_CHECKPOINT_OUT, where this test writes its own (after 3 observations of the reference run).
program test_rescue_fortran
  use, intrinsic :: iso_c_binding
  use rescue
  implicit none
  integer :: failures = 0, i
  logical :: found
  character(len=4096) :: in_path, out_path
  type(c_ptr) :: problem, opt, opt2
  integer(c_int) :: st, ticket, d, m, cnt, keep(3)
  real(c_double) :: x(2), s, y(2), bad(3), hv, spent, pending, budget
  real(c_double), allocatable :: h1(:, :), h2(:, :), px(:, :), py(:, :)
  real(c_double), allocatable :: pmean(:, :), psd(:, :), pfeas(:), ps(:), cvm(:, :), cvs(:, :)
  real(c_double) :: fbands(2, 2), frms(2, 2), frank(2, 2)
  integer(c_int) :: frows(2), ftarget
  real(c_double) :: pweights(3), pkernel
  integer(c_int) :: pinuse
  real(c_double) :: none(0)
  character(:), allocatable :: text, ptext
  real(c_double) :: pdefault, plower, pupper
  integer(c_int) :: pkind

  call get_environment_variable('RESCUE_CHECKPOINT_IN', in_path, status=st)
  if (st == 0) call get_environment_variable('RESCUE_CHECKPOINT_OUT', out_path, status=st)
  if (st /= 0) then
    write(*, '(a)') 'test_rescue_fortran needs RESCUE_CHECKPOINT_IN and RESCUE_CHECKPOINT_OUT'
    error stop 2
  end if

  ! Version and constants come from the same header.
  call expect(rescue_version_number() == RESCUE_HEADER_VERSION_NUMBER, 'version number matches the header')
  call expect(rescue_version_string() == RESCUE_HEADER_VERSION_STRING, 'version string matches the header')
  call expect(rescue_status_string(RESCUE_ERR_UNKNOWN_TICKET) == 'unknown ticket', 'status string')
  found = .false.
  do i = 0, 99
    if (rescue_strategy_list(int(i, c_int)) == 'cost-aware-random') found = .true.
  end do
  call expect(found, 'cost-aware-random is a known strategy')
  call expect(rescue_strategy_list(1000_c_int) == '', 'strategy list past the end is empty')
  call expect(rescue_param_list(0_c_int) /= '', 'parameters are listed')
  st = rescue_param_info('rescue.repair', pdefault, pkind, plower, pupper, ptext)
  call expect(st == RESCUE_OK .and. pkind == RESCUE_PARAM_INTEGER .and. pdefault == 2.0_c_double &
              .and. plower == 0.0_c_double .and. pupper == 2.0_c_double .and. len(ptext) > 10, &
              'rescue.repair is described')
  st = rescue_param_info('kg.fantasy', pdefault, pkind, plower, pupper)
  call expect(st == RESCUE_ERR_UNKNOWN_NAME, 'an unknown parameter is refused')

  call categorical_option()
  call prior_weights_of_a_faithful_model()
  call causal_model_through_strings()
  call indicators_from_an_array_section()

  ! Bad input: the status and the library's own message.
  st = rescue_problem_builtin('no-such-problem', problem)
  call expect(st == RESCUE_ERR_UNKNOWN_NAME, 'unknown problem gives RESCUE_ERR_UNKNOWN_NAME')
  call expect(index(rescue_last_error(), "unknown benchmark problem 'no-such-problem'") > 0, &
              'unknown problem message: '//rescue_last_error())
  call expect(.not. c_associated(problem), 'no handle on failure')

  call reference_problem(problem)
  st = rescue_problem_get_param(problem, 'kg.fantasies', pdefault)
  call expect(st == RESCUE_OK .and. pdefault == 8.0_c_double, 'an unset parameter reads as its default')
  st = rescue_problem_set_strategy(problem, 'no-such-strategy')
  call expect(st == RESCUE_ERR_UNKNOWN_NAME, 'unknown strategy is rejected')
  call expect(index(rescue_problem_errmsg(problem), 'no-such-strategy') > 0, &
              'strategy message names it: '//rescue_problem_errmsg(problem))
  call expect(rescue_create(problem, opt) == RESCUE_OK, 'create')
  d = rescue_dimension(opt)
  m = rescue_num_objectives(opt)
  call expect(d == 2 .and. m == 2, 'branin-currin has 2 options and 2 objectives')
  call expect(rescue_strategy_name(opt) == 'cost-aware-random', 'strategy name')
  call expect(rescue_suggest(opt, x, d, s, ticket) == RESCUE_OK, 'suggest')
  st = rescue_observe(opt, ticket, bad, none)
  call expect(st == RESCUE_ERR_SIZE_MISMATCH, 'three objective values for two objectives are rejected')
  call expect(index(rescue_errmsg(opt), 'objective values: length 3') > 0, 'size message: '//rescue_errmsg(opt))
  st = rescue_observe(opt, ticket + 100, y, none)
  call expect(st == RESCUE_ERR_UNKNOWN_TICKET, 'unknown ticket is rejected')
  call expect(rescue_cancel(opt, ticket) == RESCUE_OK, 'cancel the pending ticket')
  call expect(rescue_budget(opt, spent, pending, budget) == RESCUE_OK, 'budget')
  call expect(spent == 0 .and. pending == 0 .and. budget == 1000, 'a cancelled ticket costs nothing')

  ! Deterministic release: closing twice is harmless.
  call rescue_close(opt)
  call expect(.not. c_associated(opt), 'close nulls the handle')
  call rescue_close(opt)
  call expect(rescue_dimension(opt) == -1, 'a closed handle is NULL to the library')

  ! Uninterrupted reference run: its observation history, and its Pareto set (one model fit).
  call expect(rescue_create(problem, opt) == RESCUE_OK, 'create')
  call run(opt, -1)
  call history(opt, h1)
  call expect(size(h1, 2) > 3, 'the reference run has observations')
  call pareto(opt, px, py)
  call expect(size(px, 2) > 0 .and. size(py, 1) == 2, 'the reference run has a Pareto set')
  ! The recommended values are the model's predictions at the target fidelity.
  allocate(pmean(2, size(px, 2)), psd(2, size(px, 2)), pfeas(size(px, 2)), ps(size(px, 2)))
  ps = 1.0_c_double
  st = rescue_predict(opt, px, int(size(px, 2), c_int), 2_c_int, ps, pmean, psd, 2_c_int, pfeas)
  call expect(st == RESCUE_OK, 'predict at the Pareto set: '//rescue_errmsg(opt))
  call expect(all(abs(pmean - py) <= 1d-9 * (1d0 + abs(py))) .and. all(psd >= 0) .and. all(pfeas == 1), &
              'predictions at the Pareto set are its values')
  ! Every observation held out: a positive spread, one column each.
  allocate(cvm(2, rescue_num_observations(opt)), cvs(2, rescue_num_observations(opt)))
  st = rescue_cross_validate(opt, cvm, cvs, 2_c_int, int(size(cvm, 2), c_int), cnt)
  call expect(st == RESCUE_OK .and. cnt == size(cvm, 2), 'cross-validate: '//rescue_errmsg(opt))
  call expect(all(cvs > 0), 'held-out spreads are positive')
  ! The whole range against the target alone: every observation in the first band.
  fbands = reshape([0.0_c_double, 1.0_c_double, 1.0_c_double, 1.0_c_double], [2, 2])
  st = rescue_fidelity_agreement(opt, fbands, 2_c_int, frms, frank, frows, 2_c_int, ftarget)
  call expect(st == RESCUE_OK, 'fidelity agreement: '//rescue_errmsg(opt))
  call expect(frows(1) == cnt .and. frows(2) == ftarget, 'bands count their observations')
  ! Only "rescue" has a causal prior to weigh; p is checked first.
  st = rescue_prior_weights(opt, pweights, 3_c_int, pkernel, pinuse)
  call expect(st == RESCUE_ERR_SIZE_MISMATCH, 'prior weights need p = M + Q')
  st = rescue_prior_weights(opt, pweights, 2_c_int, pkernel, pinuse)
  call expect(st == RESCUE_ERR_INVALID_STATE .and. index(rescue_errmsg(opt), 'no causal prior') > 0, &
              'prior weights of a strategy without a causal model: '//rescue_errmsg(opt))

  ! A checkpoint written by another language: loading it and finishing gives the same set.
  st = rescue_load_file(trim(in_path), opt2)
  call expect(st == RESCUE_OK, 'load checkpoint '//trim(in_path)//': '//rescue_last_error())
  if (st == RESCUE_OK) then
    call expect(rescue_num_observations(opt2) > 0, 'the checkpoint holds observations')
    call run(opt2, -1)
    call history(opt2, h2)
    call expect(same(h1, h2), 'the resumed run makes exactly the reference observations')
    call rescue_close(opt2)
  end if

  ! This language's checkpoint, for the others; and an in-memory round trip.
  call rescue_close(opt)
  call expect(rescue_create(problem, opt) == RESCUE_OK, 'create')
  call run(opt, 3)
  call expect(rescue_save_file(opt, trim(out_path)) == RESCUE_OK, 'save checkpoint: '//rescue_errmsg(opt))
  call expect(rescue_save_string(opt, text) == RESCUE_OK, 'save to a string')
  call expect(rescue_load(text, opt2) == RESCUE_OK, 'load from a string: '//rescue_last_error())
  call expect(rescue_num_observations(opt2) == 3, 'the loaded optimizer has the 3 observations')
  call run(opt2, -1)
  call history(opt2, h2)
  call expect(same(h1, h2), 'after an in-memory round trip the run makes exactly the reference observations')
  call rescue_close(opt2)
  st = rescue_load('not a checkpoint', opt2)
  call expect(st == RESCUE_ERR_CORRUPT_CHECKPOINT, 'garbage is a corrupt checkpoint')
  call expect(index(rescue_last_error(), 'not a RESCUE checkpoint') > 0, 'corrupt message: '//rescue_last_error())
  call rescue_close(opt)
  call rescue_problem_close(problem)
  call rescue_problem_close(problem)

  ! Utilities: hypervolume of {(1,2),(2,1)} against (3,3) is 3; (2,2) is dominated by neither.
  call expect(rescue_hypervolume([1d0, 2d0, 2d0, 1d0], 2_c_int, 2_c_int, [3d0, 3d0], hv) == RESCUE_OK, 'hypervolume')
  call expect(abs(hv - 3d0) < 1d-15, 'hypervolume value')
  call expect(rescue_pareto_filter([1d0, 2d0, 2d0, 1d0, 3d0, 3d0], 3_c_int, 2_c_int, c_null_ptr, keep, cnt) &
              == RESCUE_OK, 'pareto filter')
  call expect(cnt == 2 .and. keep(1) == 0 .and. keep(2) == 1, 'pareto filter drops the dominated point')

  call single_fidelity_budget()

  if (failures > 0) then
    write(*, '(i0, a)') failures, ' check(s) failed'
    error stop 1
  end if
  write(*, '(a)') 'all Fortran checks passed'

contains

  subroutine reference_problem(p)
    type(c_ptr), intent(out) :: p
    call expect(rescue_problem_builtin('branin-currin', p) == RESCUE_OK, 'builtin problem')
    call expect(rescue_problem_set_seed(p, 7_c_int) == RESCUE_OK, 'seed')
    call expect(rescue_problem_set_strategy(p, 'cost-aware-random') == RESCUE_OK, 'strategy')
    call expect(rescue_problem_set_budget(p, 1000d0) == RESCUE_OK, 'budget')
  end subroutine

  !> The README's loop with no fidelity set: every evaluation costs 1, so a budget of 7 is 7 of them.
  subroutine single_fidelity_budget()
    type(c_ptr) :: p, o
    integer(c_int) :: t, status, n
    real(c_double) :: xx(2), ss, yy(2), g(0), used, waiting, total
    logical :: at_one
    call expect(rescue_problem_new(p) == RESCUE_OK, 'new problem')
    call expect(rescue_problem_add_option(p, 'a', 0d0, 1d0, RESCUE_CONTINUOUS) == RESCUE_OK, 'option a')
    call expect(rescue_problem_add_option(p, 'b', 0d0, 1d0, RESCUE_CONTINUOUS) == RESCUE_OK, 'option b')
    call expect(rescue_problem_add_objective(p, 'f1', RESCUE_MINIMIZE) == RESCUE_OK, 'objective f1')
    call expect(rescue_problem_add_objective(p, 'f2', RESCUE_MINIMIZE) == RESCUE_OK, 'objective f2')
    call expect(rescue_problem_set_strategy(p, 'random') == RESCUE_OK, 'strategy random')
    call expect(rescue_problem_set_budget(p, 7d0) == RESCUE_OK, 'budget 7')
    call expect(rescue_create(p, o) == RESCUE_OK, 'create without a fidelity')
    n = 0
    at_one = .true.
    do while (rescue_done(o) == 0 .and. n < 100)
      status = rescue_suggest(o, xx, 2_c_int, ss, t)
      call expect(status == RESCUE_OK, 'suggest without a fidelity')
      if (status /= RESCUE_OK) exit
      at_one = at_one .and. ss == 1d0
      yy = [xx(1)**2 + xx(2), (1 - xx(1))**2 + xx(2)]
      call expect(rescue_observe(o, t, yy, g) == RESCUE_OK, 'observe without a fidelity')
      n = n + 1
    end do
    call expect(n == 7 .and. rescue_num_observations(o) == 7, 'a budget of 7 without a fidelity is 7 evaluations')
    call expect(at_one, 'every suggestion without a fidelity is at fidelity 1')
    call expect(rescue_budget(o, used, waiting, total) == RESCUE_OK, 'budget without a fidelity')
    call expect(used == 7d0 .and. waiting == 0d0 .and. total == 7d0, '7 evaluations cost 7')
    call rescue_close(o)
    call rescue_problem_close(p)
  end subroutine

  !> The reference loop; stops after max_obs observations when max_obs >= 0.
  subroutine run(o, max_obs)
    type(c_ptr), intent(in) :: o
    integer, intent(in) :: max_obs
    integer(c_int) :: t, status
    integer :: k
    real(c_double) :: xx(2), ss, yy(2), g(0)
    k = 0
    do while (rescue_done(o) == 0 .and. (max_obs < 0 .or. k < max_obs))
      status = rescue_suggest(o, xx, 2_c_int, ss, t)
      if (status == RESCUE_ERR_BUDGET_EXHAUSTED) exit
      call expect(status == RESCUE_OK, 'suggest in the loop')
      call expect(rescue_problem_evaluate(problem, xx, 2_c_int, ss, yy, 2_c_int, g, 0_c_int, c_null_ptr, 0_c_int) &
                  == RESCUE_OK, 'evaluate')
      call expect(rescue_observe(o, t, yy, g) == RESCUE_OK, 'observe')
      k = k + 1
    end do
  end subroutine

  !> A categorical option: labels read back, level indices suggested, a fractional level refused.
  subroutine categorical_option()
    type(c_ptr) :: p, o
    integer(c_int) :: t, k
    real(c_double) :: xx(2), ss, yy(2), g(0)
    character(len=6) :: labels(3) = ['gbtree', 'dart  ', 'linear']
    logical :: integral
    call expect(rescue_problem_new(p) == RESCUE_OK, 'new problem')
    call expect(rescue_problem_add_option(p, 'eta', 0.0_c_double, 1.0_c_double, RESCUE_CONTINUOUS) == RESCUE_OK, &
                'continuous option')
    call expect(rescue_problem_add_categorical(p, 'booster', labels) == RESCUE_OK, 'categorical option')
    call expect(rescue_problem_add_categorical(p, 'kind', ['a', 'a']) == RESCUE_ERR_INVALID_ARGUMENT, &
                'a repeated label is refused')
    call expect(rescue_problem_add_categorical(p, 'kind', ['a']) == RESCUE_ERR_INVALID_ARGUMENT, &
                'one level is refused')
    call expect(rescue_problem_add_objective(p, 'error', RESCUE_MINIMIZE) == RESCUE_OK, 'objective')
    call expect(rescue_problem_add_objective(p, 'size', RESCUE_MINIMIZE) == RESCUE_OK, 'objective')
    call expect(rescue_problem_set_strategy(p, 'random') == RESCUE_OK, 'strategy')
    call expect(rescue_create(p, o) == RESCUE_OK, 'create')
    call rescue_problem_free(p)
    call expect(rescue_option_levels(o, 1_c_int) == 3 .and. rescue_option_levels(o, 0_c_int) == 0, 'level counts')
    call expect(rescue_option_label(o, 1_c_int, 1_c_int) == 'dart', 'label without its padding')
    call expect(rescue_option_label(o, 1_c_int, 3_c_int) == '', 'no label past the last level')
    integral = .true.
    do k = 1, 10
      call expect(rescue_suggest(o, xx, 2_c_int, ss, t) == RESCUE_OK, 'suggest')
      integral = integral .and. xx(2) == anint(xx(2)) .and. xx(2) >= 0 .and. xx(2) <= 2
      yy = [xx(1) ** 2 + xx(2), 1 - xx(1)]
      call expect(rescue_observe(o, t, yy, g) == RESCUE_OK, 'observe')
    end do
    call expect(integral, 'level indices only')
    call expect(rescue_observe_at(o, [0.5_c_double, 0.5_c_double], 1.0_c_double, yy, g) == RESCUE_ERR_INVALID_ARGUMENT, &
                'a fractional level is refused')
    call expect(rescue_num_observations(o) == 10, 'a refused observation adds nothing')
    call rescue_destroy(o)
  end subroutine

  !> The prior's weights: a causal model learned from 80 logs of the system the evaluations
  !> measure is taken near face value.
  subroutine prior_weights_of_a_faithful_model()
    type(c_ptr) :: p, o
    integer(c_int) :: t, k, used
    real(c_double) :: xx(2), ss, yy(2), zz(1), g(0), logs(6, 80), a(2), w
    character(len=24) :: keys(8) = [character(len=24) :: 'kg.pool', 'kg.fantasies', 'acq.starts', 'acq.refine', &
                                    'acq.refine_evals', 'acq.mc_samples', 'recommend.population', &
                                    'recommend.generations']
    real(c_double) :: values(8) = [16, 2, 8, 1, 8, 16, 12, 4]
    call expect(rescue_problem_new(p) == RESCUE_OK, 'new problem')
    call expect(rescue_problem_add_option(p, 'a', 0.0_c_double, 1.0_c_double, RESCUE_CONTINUOUS) == RESCUE_OK, 'a')
    call expect(rescue_problem_add_option(p, 'b', 0.0_c_double, 1.0_c_double, RESCUE_CONTINUOUS) == RESCUE_OK, 'b')
    call expect(rescue_problem_set_fidelity_range(p, 0.0_c_double, 1.0_c_double, 1.0_c_double) == RESCUE_OK, 'fidelity')
    call expect(rescue_problem_add_objective(p, 'f1', RESCUE_MINIMIZE) == RESCUE_OK, 'f1')
    call expect(rescue_problem_add_objective(p, 'f2', RESCUE_MINIMIZE) == RESCUE_OK, 'f2')
    call expect(rescue_problem_add_indicator(p, 'z') == RESCUE_OK, 'indicator')
    call expect(rescue_problem_set_strategy(p, 'rescue') == RESCUE_OK, 'strategy')
    call expect(rescue_problem_set_seed(p, 3_c_int) == RESCUE_OK, 'seed')
    call expect(rescue_problem_set_budget(p, 1d6) == RESCUE_OK, 'budget')
    call expect(rescue_problem_set_initial_budget(p, 0.05_c_double) == RESCUE_OK, 'initial budget')
    do k = 1, 8
      call expect(rescue_problem_set_param(p, trim(keys(k)), values(k)) == RESCUE_OK, 'param '//trim(keys(k)))
    end do
    call expect(rescue_create(p, o) == RESCUE_OK, 'create')
    call rescue_problem_free(p)
    ! Logs on a low-discrepancy sequence (golden-ratio steps), at the target fidelity.
    do k = 1, 80
      xx = [modulo(0.6180339887d0 * k, 1d0), modulo(0.7548776662d0 * k, 1d0)]
      call truth(xx, zz, yy)
      logs(:, k) = [xx(1), xx(2), 1d0, zz(1), yy(1), yy(2)]
    end do
    call expect(rescue_add_observational(o, logs, 80_c_int, 6_c_int) == RESCUE_OK, 'logs: '//rescue_errmsg(o))
    do k = 1, 8
      call expect(rescue_suggest(o, xx, 2_c_int, ss, t) == RESCUE_OK, 'suggest: '//rescue_errmsg(o))
      call truth(xx, zz, yy)
      call expect(rescue_observe(o, t, yy, g, zz) == RESCUE_OK, 'observe: '//rescue_errmsg(o))
    end do
    call expect(rescue_prior_weights(o, a, 2_c_int, w, used) == RESCUE_OK, 'prior weights: '//rescue_errmsg(o))
    call expect(all(abs(a - 1) < 0.3d0) .and. used == 1 .and. w > 0, 'a faithful causal model is taken near face value')
    call rescue_destroy(o)
  end subroutine

  !> The causal model through the module's string functions: JSON and names as plain Fortran
  !> strings, names held in longer (blank-padded) variables.
  subroutine causal_model_through_strings()
    type(c_ptr) :: p, o
    real(c_double) :: rows(6, 150)
    character(:), allocatable :: graph
    character(len=16) :: from, to
    call expect(rescue_problem_builtin('healthcare', p) == RESCUE_OK, 'healthcare')
    call expect(rescue_problem_set_seed(p, 3_c_int) == RESCUE_OK, 'seed')
    call expect(rescue_problem_sample_observational(p, 150_c_int, 5_c_int, rows, 6_c_int) == RESCUE_OK, 'sample')
    call expect(rescue_create(p, o) == RESCUE_OK, 'create')
    call rescue_problem_free(p)
    call expect(rescue_causal_graph_text(o, RESCUE_GRAPH_DOT, 0_c_int, graph) == RESCUE_ERR_INVALID_STATE, &
                'no graph before any data')
    call expect(rescue_add_observational(o, rows, 150_c_int, 6_c_int) == RESCUE_OK, 'logs: '//rescue_errmsg(o))
    call expect(rescue_causal_graph_text(o, RESCUE_GRAPH_DOT, 0_c_int, graph) == RESCUE_OK, 'graph: '//rescue_errmsg(o))
    call expect(graph(1:7) == 'digraph' .and. index(graph, '"Aspirin" -> "PSA"') > 0, 'the learned graph: '//graph)
    call expect(rescue_causal_graph_text(o, RESCUE_GRAPH_JSON, 1_c_int, graph) == RESCUE_OK &
                .and. index(graph, '"directed"') > 0, 'the graph as discovered, as JSON')
    call expect(rescue_set_dag(o, '{"edges": [{"from": "BMI", "to": "Statin"}, {"from": "Statin", "to": "PSA"}]}') &
                == RESCUE_OK, 'a DAG of my own: '//rescue_errmsg(o))
    call expect(rescue_causal_graph_text(o, RESCUE_GRAPH_DOT, 0_c_int, graph) == RESCUE_OK, 'graph')
    call expect(index(graph, '"Statin" -> "PSA"') > 0 .and. index(graph, '"Aspirin" -> "PSA"') == 0, 'my DAG: '//graph)
    call expect(rescue_set_dag(o, '{"edges": [{"from": "PSA", "to": "BMI"}]}') == RESCUE_ERR_INVALID_ARGUMENT, &
                'an edge into an option is refused')
    call expect(rescue_clear_dag(o) == RESCUE_OK, 'back to discovery')
    from = 'Aspirin'
    to = 'PSA'
    call expect(rescue_constrain_edge(o, from, to, RESCUE_EDGE_FORBIDDEN) == RESCUE_OK, &
                'blank-padded names: '//rescue_errmsg(o))
    call expect(rescue_causal_graph_text(o, RESCUE_GRAPH_DOT, 0_c_int, graph) == RESCUE_OK, 'graph')
    call expect(index(graph, '"Aspirin" -> "PSA"') == 0 .and. index(graph, '"BMI"') > 0, 'a forbidden edge is gone: '//graph)
    call expect(rescue_constrain_edge(o, 'Nope', 'PSA', RESCUE_EDGE_REQUIRED) == RESCUE_ERR_UNKNOWN_NAME, 'unknown name')
    call rescue_destroy(o)
  end subroutine

  !> Indicators passed as a strided section (a row of a log kept variable by variable) arrive as
  !> the section's values.
  subroutine indicators_from_an_array_section()
    type(c_ptr) :: p, o
    integer(c_int) :: t
    real(c_double) :: xx(1), ss, g(0), zlog(2, 2)
    character(:), allocatable :: saved
    call expect(rescue_problem_new(p) == RESCUE_OK, 'new problem')
    call expect(rescue_problem_add_option(p, 'a', 0.0_c_double, 1.0_c_double, RESCUE_CONTINUOUS) == RESCUE_OK, 'a')
    call expect(rescue_problem_add_objective(p, 'f', RESCUE_MINIMIZE) == RESCUE_OK, 'f')
    call expect(rescue_problem_add_indicator(p, 'z1') == RESCUE_OK, 'z1')
    call expect(rescue_problem_add_indicator(p, 'z2') == RESCUE_OK, 'z2')
    call expect(rescue_problem_set_strategy(p, 'random') == RESCUE_OK, 'strategy')
    call expect(rescue_problem_set_budget(p, 10d0) == RESCUE_OK, 'budget')
    call expect(rescue_create(p, o) == RESCUE_OK, 'create')
    call rescue_problem_free(p)
    zlog = reshape([0.4375d0, 0.8125d0, 0.5625d0, 0.6875d0], [2, 2])
    call expect(rescue_suggest(o, xx, 1_c_int, ss, t) == RESCUE_OK, 'suggest')
    call expect(rescue_observe(o, t, [1d0], g, zlog(1, :)) == RESCUE_OK, 'observe: '//rescue_errmsg(o))
    call expect(rescue_observe_at(o, [0.5d0], 1d0, [2d0], g, zlog(2, :)) == RESCUE_OK, 'observe at: '//rescue_errmsg(o))
    call expect(rescue_save_string(o, saved) == RESCUE_OK, 'save')
    ! Rows (0.4375, 0.5625) and (0.8125, 0.6875): read as consecutive memory they would be
    ! (0.4375, 0.8125) and (0.8125, 0.5625).
    call expect(index(saved, '0.4375,' // new_line('a')) > 0 .and. index(saved, '0.8125,' // new_line('a')) > 0 &
                .and. index(saved, '0.5625' // new_line('a')) > 0 .and. index(saved, '0.6875' // new_line('a')) > 0 &
                .and. index(saved, '0.5625,') == 0, 'indicators of a strided section')
    call rescue_destroy(o)
  end subroutine

  subroutine truth(x, z, y)
    real(c_double), intent(in) :: x(2)
    real(c_double), intent(out) :: z(1), y(2)
    z(1) = x(1) + x(2)
    y = [2 * z(1) + x(1) ** 2, (1 - x(1)) ** 2 + 0.5d0 * x(2)]
  end subroutine

  subroutine pareto(o, px, py)
    type(c_ptr), intent(in) :: o
    real(c_double), allocatable, intent(out) :: px(:, :), py(:, :)
    integer(c_int) :: n, c
    call expect(rescue_pareto_count(o, n) == RESCUE_OK, 'pareto size')
    allocate(px(2, n), py(2, n))
    call expect(rescue_pareto(o, px, py, n, c) == RESCUE_OK .and. c == n, 'pareto')
  end subroutine

  !> Every observation as a column: x (2), fidelity, y (2).
  subroutine history(o, h)
    type(c_ptr), intent(in) :: o
    real(c_double), allocatable, intent(out) :: h(:, :)
    integer(c_int) :: i, failed
    real(c_double) :: g(0)
    allocate(h(5, rescue_num_observations(o)))
    do i = 1, size(h, 2)
      call expect(rescue_get_observation(o, i - 1, h(1:2, i), 2_c_int, h(3, i), h(4:5, i), 2_c_int, g, 0_c_int, failed) &
                  == RESCUE_OK .and. failed == 0, 'observation')
    end do
  end subroutine

  logical function same(a, b)
    real(c_double), intent(in) :: a(:, :), b(:, :)
    same = all(shape(a) == shape(b))
    if (same) same = all(a == b)
  end function

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      write(*, '(a, a)') 'FAILED: ', what
    end if
  end subroutine
end program test_rescue_fortran
