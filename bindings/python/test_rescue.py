"""Tests of the Python binding (pytest). The checkpoint written by the C reference program is
read from $RESCUE_CHECKPOINT_IN; this test writes its own to $RESCUE_CHECKPOINT_OUT."""
import math
import os

import numpy as np
import pytest

import rescue

def reference_problem():
    p = rescue.Problem("branin-currin")
    p.set_seed(7).set_strategy("cost-aware-random").set_budget(1000.0)
    return p


def run(opt, problem, max_obs=None):
    n = 0
    while not opt.done() and (max_obs is None or n < max_obs):
        try:
            s = opt.suggest()
        except rescue.RescueError as e:
            assert e.status == rescue.RESCUE_ERR_BUDGET_EXHAUSTED
            break
        opt.observe(s.ticket, problem.evaluate(s.x, s.fidelity).objectives)
        n += 1


@pytest.fixture
def problem():
    with reference_problem() as p:
        yield p


def history(opt):
    """Every observation as a row: x, fidelity, objectives (comparing these needs no model fit)."""
    return np.array([list(o.x) + [o.fidelity] + list(o.objectives) for o in opt.observations()])


@pytest.fixture(scope="module")
def reference_history():
    with reference_problem() as p, rescue.Optimizer(p) as opt:
        run(opt, p)
        return history(opt)


def test_version_and_strategies():
    assert rescue.__version__ == rescue.version()
    assert "cost-aware-random" in rescue.strategies()
    assert rescue.status_string(rescue.RESCUE_ERR_UNKNOWN_TICKET) == "unknown ticket"


def test_parameters_are_listed_and_checked(problem):
    params = {p.name: p for p in rescue.parameters()}
    assert len(params) >= 20
    repair = params["rescue.repair"]
    assert (repair.default, repair.kind, repair.lower, repair.upper) == (2.0, "integer", 0.0, 2.0)
    assert "repair" in repair.description or "missed parents" in repair.description
    assert params["rescue.alpha"].kind == "open"
    assert math.isinf(params["kg.zero_gain"].lower)
    for name, p in params.items():
        assert problem.get_param(name) == p.default
    problem.set_param("rescue.weight", 0.25)
    assert problem.get_param("rescue.weight") == 0.25
    with pytest.raises(rescue.RescueError, match=r"\[0, 1\]") as info:
        problem.set_param("rescue.weight", 1.5)
    assert info.value.status == rescue.RESCUE_ERR_OUT_OF_RANGE
    assert problem.get_param("rescue.weight") == 0.25
    with pytest.raises(rescue.RescueError, match="kg.fantasies") as info:
        problem.get_param("kg.fantasy")
    assert info.value.status == rescue.RESCUE_ERR_UNKNOWN_NAME


def test_bad_input_raises_with_the_library_message(problem):
    with pytest.raises(rescue.RescueError, match="unknown benchmark problem 'no-such-problem'") as info:
        rescue.Problem("no-such-problem")
    assert info.value.status == rescue.RESCUE_ERR_UNKNOWN_NAME
    with pytest.raises(rescue.RescueError, match="no-such-strategy") as info:
        problem.set_strategy("no-such-strategy")
    assert info.value.status == rescue.RESCUE_ERR_UNKNOWN_NAME
    with rescue.Optimizer(problem) as opt:
        s = opt.suggest()
        with pytest.raises(rescue.RescueError, match="objective values: length 3") as info:
            opt.observe(s.ticket, [1.0, 2.0, 3.0])
        assert info.value.status == rescue.RESCUE_ERR_SIZE_MISMATCH
        with pytest.raises(rescue.RescueError) as info:
            opt.observe(s.ticket + 100, [1.0, 2.0])
        assert info.value.status == rescue.RESCUE_ERR_UNKNOWN_TICKET
        assert opt.pending() == [s.ticket]
        opt.cancel(s.ticket)
        assert opt.budget() == (0.0, 0.0, 1000.0)
    with pytest.raises(rescue.RescueError, match="not a RESCUE checkpoint") as info:
        rescue.Optimizer.load("garbage")
    assert info.value.status == rescue.RESCUE_ERR_CORRUPT_CHECKPOINT


def test_release_is_deterministic_and_double_close_is_harmless(problem):
    opt = rescue.Optimizer(problem)
    assert opt.dimension == 2 and opt.num_objectives == 2 and opt.strategy == "cost-aware-random"
    opt.close()
    assert opt.closed
    opt.close()
    with pytest.raises(rescue.RescueError, match="closed") as info:
        opt.suggest()
    assert info.value.status == rescue.RESCUE_ERR_INVALID_STATE
    with rescue.Optimizer(problem) as opt2:
        pass
    assert opt2.closed
    problem.close()
    problem.close()


def test_numpy_and_list_inputs_agree(problem):
    with rescue.Optimizer(problem) as a, rescue.Optimizer(problem) as b:
        sa, sb = a.suggest(), b.suggest()
        assert isinstance(sa.x, np.ndarray) and np.array_equal(sa.x, sb.x)
        y = problem.evaluate(sa.x, sa.fidelity).objectives
        a.observe(sa.ticket, np.asarray(y))
        b.observe(sb.ticket, [float(v) for v in y])
        assert np.array_equal(a.observation(0).objectives, b.observation(0).objectives)
        assert a.cost(sa.x, sa.fidelity) == pytest.approx(a.budget().spent)


def test_checkpoint_from_c_continues_the_reference_run(problem, reference_history):
    with rescue.Optimizer.load_file(os.environ["RESCUE_CHECKPOINT_IN"]) as opt:
        assert 0 < opt.num_observations < len(reference_history)
        run(opt, problem)
        assert np.array_equal(history(opt), reference_history)


def test_checkpoint_for_other_languages_and_in_memory_round_trip(problem, reference_history):
    with rescue.Optimizer(problem) as opt:
        run(opt, problem, max_obs=3)
        opt.save_file(os.environ["RESCUE_CHECKPOINT_OUT"])
        text = opt.save()
    with rescue.Optimizer.load(text) as opt:
        assert opt.num_observations == 3
        run(opt, problem)
        assert np.array_equal(history(opt), reference_history)


def test_optimize_helper_runs_the_reference_loop(problem, reference_history):
    with rescue.Optimizer(problem) as opt:
        front = opt.optimize(lambda x, s: problem.evaluate(x, s).objectives)
        assert np.array_equal(history(opt), reference_history)
        again = opt.pareto()
    assert front.x.shape == (len(front.y), 2) and front.y.shape[1] == 2 and len(front.x) > 0
    assert np.array_equal(front.x, again.x) and np.array_equal(front.y, again.y)


def test_optimize_helper_marks_a_crashed_evaluation_failed(problem):
    def crash(x, s):
        raise ValueError("simulator crashed")

    with rescue.Optimizer(problem) as opt:
        with pytest.raises(ValueError, match="simulator crashed"):
            opt.optimize(crash)
        assert opt.num_observations == 1 and opt.observation(0).failed
        assert opt.pending() == []


def test_utilities():
    assert rescue.hypervolume([[1, 2], [2, 1]], [3, 3]) == pytest.approx(3.0, abs=1e-15)
    assert rescue.pareto_filter(np.array([[1, 2], [2, 1], [3, 3]])) == [0, 1]
    assert math.isclose(rescue.hypervolume([], [1, 1]), 0.0)


def test_journal_resumes_where_the_run_stopped(problem, reference_history, tmp_path):
    path = tmp_path / "run.journal"
    with rescue.Optimizer(problem) as opt:
        opt.journal_open(path)
        assert opt.journal_is_open
        run(opt, problem, max_obs=4)
    with rescue.Optimizer.journal_resume(path) as opt:
        assert opt.journal_is_open and not opt.journal_torn_tail
        assert opt.num_observations == 4
        opt.journal_close()
        assert not opt.journal_is_open
        run(opt, problem)
        assert np.array_equal(history(opt), reference_history)


def test_own_problem_with_constraints_and_indicators():
    with rescue.Problem() as p:
        p.add_option("x", 0.0, 1.0).add_option("n", 1, 8, kind="integer")
        p.set_fidelity_levels([0.5, 1.0], 1.0).set_cost_levels([1.0, 10.0])
        p.add_objective("err", "min").add_objective("speed", "max")
        p.add_constraint("mem", 16.0, "<=").add_indicator("cache")
        p.set_seed(3).set_budget(100.0)
        with pytest.raises(rescue.RescueError, match="unknown option kind 'cubic'"):
            p.add_option("z", 0.0, 1.0, kind="cubic")
        with rescue.Optimizer(p) as opt:
            assert opt.option_names == ["x", "n"] and opt.objective_names == ["err", "speed"]
            assert opt.constraint_names == ["mem"] and opt.indicator_names == ["cache"]
            assert opt.option_info(1)[2] == rescue.RESCUE_INTEGER
            assert opt.constraint_info(0) == (16.0, rescue.RESCUE_LEQ)
            assert opt.objective_sense(1) == rescue.RESCUE_MAXIMIZE
            s = opt.suggest()
            assert s.x[1] == round(s.x[1]) and s.fidelity in (0.5, 1.0)
            opt.observe(s.ticket, [0.25, 3.0], [12.0], [float("nan")])
            o = opt.observation(0)
            assert list(o.objectives) == [0.25, 3.0] and list(o.constraints) == [12.0]
            assert opt.budget().spent == opt.cost(s.x, s.fidelity) in (1.0, 10.0)
            opt.observe_at([0.5, 2], 1.0, [0.5, 1.0], [20.0])
            assert opt.num_observations == 2
            opt.add_observational(np.array([[0.1, 3, 1.0, 0.5, 0.2, 2.0, 10.0]]))
            assert opt.num_observational == 1
            with pytest.raises(rescue.RescueError, match="observational rows need 7 columns"):
                opt.add_observational([[0.1, 3, 1.0]])


def test_mixed_problem_with_a_categorical_option_end_to_end():
    levels = ["gbtree", "dart", "linear"]
    penalty = {0: 0.3, 1: 0.0, 2: 0.6}
    with rescue.Problem() as p:
        p.add_option("eta", 0.0, 1.0).add_categorical("booster", levels)
        p.set_fidelity_range(0.0, 1.0, 1.0)
        p.add_objective("error", "min").add_objective("size", "min")
        p.set_strategy("hvkg").set_seed(4).set_budget(1e6).set_initial_budget(0.05)
        for key, value in [("kg.pool", 16), ("kg.fantasies", 2), ("acq.starts", 8), ("acq.refine", 1),
                           ("acq.refine_evals", 8), ("recommend.population", 12), ("recommend.generations", 4)]:
            p.set_param(key, value)
        with pytest.raises(rescue.RescueError, match="'dart' is given twice") as e:
            p.add_categorical("kind", ["dart", "dart"])
        assert e.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT
        with pytest.raises(rescue.RescueError, match="not one string"):
            p.add_categorical("kind", "dart")
        with rescue.Optimizer(p) as opt:
            assert opt.dimension == 2
            assert opt.option_info(1) == (0.0, 2.0, rescue.RESCUE_CATEGORICAL)
            assert opt.option_labels(1) == levels and opt.option_labels(0) == []
            with pytest.raises(rescue.RescueError):
                opt.option_labels(2)
            chosen = []
            for _ in range(20):
                s = opt.suggest()
                eta, k = s.x
                assert k == int(k) and 0 <= k <= 2
                chosen.append(levels[int(k)])
                opt.observe(s.ticket, [(eta - 0.3) ** 2 + penalty[int(k)] + 0.1 * (1 - s.fidelity),
                                       1 - eta + penalty[int(k)]])
            assert len(set(chosen)) > 1
            with pytest.raises(rescue.RescueError, match="not a level index") as e:
                opt.observe_at([0.5, 0.5], 1.0, [0.1, 0.2])
            assert e.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT
            assert opt.num_observations == 20
            front = opt.pareto()
            assert len(front.x) > 0
            assert all(x[1] == int(x[1]) for x in front.x)


def test_without_a_fidelity_the_budget_counts_evaluations():
    # The README's loop with no fidelity set: every evaluation costs 1, so a budget of 7 is 7 of them.
    with rescue.Problem() as p:
        p.add_option("a", 0.0, 1.0).add_option("b", 0.0, 1.0)
        p.add_objective("f1", "min").add_objective("f2", "min")
        p.set_strategy("random").set_budget(7)
        with rescue.Optimizer(p) as opt:
            fidelities = []
            while not opt.done() and len(fidelities) < 100:
                s = opt.suggest()
                fidelities.append(s.fidelity)
                a, b = s.x
                opt.observe(s.ticket, [a * a + b, (1 - a) ** 2 + b])
            assert fidelities == [1.0] * 7
            assert opt.num_observations == 7
            assert opt.budget() == (7.0, 0.0, 7.0)


def test_causal_model_graph_and_estimates():
    with rescue.Problem("healthcare") as p, rescue.Optimizer(p.set_seed(3)) as opt:
        with pytest.raises(rescue.RescueError) as err:
            opt.causal_graph()
        assert err.value.status == rescue.RESCUE_ERR_INVALID_STATE
        rows = p.sample_observational(150, seed=5)
        assert np.asarray(rows).shape == (150, 6)
        opt.add_observational(rows)
        dot = opt.causal_graph()
        assert dot.startswith("digraph") and '"BMI"' in dot
        assert '"edges"' in opt.causal_graph("json")
        mean, sd = opt.causal_estimates([[25.0, 0.5], [21.0, 0.1]], [1.0, 1.0])
        assert np.asarray(mean).shape == (2, 3) and np.all(np.asarray(sd) >= 0)
        # Statin rises with BMI at the target fidelity (the problem's first equation).
        assert mean[0][0] > mean[1][0]
        # Five points need five fidelities: four are refused, not read as fewer points.
        with pytest.raises(rescue.RescueError) as err:
            opt.causal_estimates([[25.0, 0.5]] * 5, [1.0] * 4)
        assert err.value.status == rescue.RESCUE_ERR_SIZE_MISMATCH
        with pytest.raises(rescue.RescueError) as err:
            opt.set_dag([("PSA", "BMI")])
        assert err.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT
        opt.set_dag([("BMI", "Statin"), ("fidelity", "Statin"), ("Statin", "PSA")])
        assert '"Statin" -> "PSA"' in opt.causal_graph()
        opt.set_dag(None).constrain_edge("Aspirin", "PSA", required=False)
        assert '"Aspirin" -> "PSA"' not in opt.causal_graph()


def test_prior_weights():
    """Logs of the same system give a causal model the fit takes near face value; a strategy
    without a causal model has no prior to weigh."""
    def truth(a, b):
        z = a + b
        return z, [2 * z + a * a, (1 - a) ** 2 + 0.5 * b]

    rng = np.random.default_rng(11)
    logs = []
    for a, b in rng.uniform(size=(80, 2)):
        z, y = truth(a, b)
        logs.append([a, b, 1.0, z] + y)

    def weights_after(strategy, steps):
        p = rescue.Problem()
        p.add_option("a", 0.0, 1.0).add_option("b", 0.0, 1.0).set_fidelity_range(0.0, 1.0, 1.0)
        p.add_objective("f1", "min").add_objective("f2", "min").add_indicator("z")
        p.set_strategy(strategy).set_seed(3).set_budget(1e6).set_initial_budget(0.05)
        for key, value in [("kg.pool", 16), ("kg.fantasies", 2), ("acq.starts", 8), ("acq.refine", 1),
                           ("acq.refine_evals", 8), ("acq.mc_samples", 16), ("recommend.population", 12),
                           ("recommend.generations", 4)]:
            p.set_param(key, value)
        with p, rescue.Optimizer(p) as opt:
            opt.add_observational(logs)
            for _ in range(steps):
                s = opt.suggest()
                z, y = truth(*s.x)
                opt.observe(s.ticket, y, indicators=[z])
            return opt.prior_weights()

    w = weights_after("rescue", 8)
    assert len(w.scale) == 2 and all(abs(a - 1.0) < 0.3 for a in w.scale)
    assert w.in_use is True and w.kernel_weight > 0
    with pytest.raises(rescue.RescueError, match="no causal prior") as err:
        weights_after("hvkg", 4)
    assert err.value.status == rescue.RESCUE_ERR_INVALID_STATE


def test_model_predictions(problem):
    with rescue.Optimizer(problem) as opt:
        with pytest.raises(rescue.RescueError) as err:
            opt.predict([0.5, 0.5], 1.0)
        assert err.value.status == rescue.RESCUE_ERR_INVALID_STATE
        with pytest.raises(rescue.RescueError) as err:
            opt.cross_validate()
        assert err.value.status == rescue.RESCUE_ERR_INVALID_STATE
        run(opt, problem, max_obs=12)
        obs = opt.observations()
        x = [list(o.x) for o in obs]
        s = [o.fidelity for o in obs]
        pred = opt.predict(x, s)
        assert np.asarray(pred.mean).shape == (len(obs), 2)
        assert np.all(np.asarray(pred.sd) >= 0) and np.allclose(pred.feasible, 1.0)
        # Branin-Currin is noise-free: the model reproduces what it was told, in the
        # objectives' own (maximized) sense.
        y = np.array([list(o.objectives) for o in obs])
        scale = y.max(axis=0) - y.min(axis=0)
        assert np.all(np.abs(np.asarray(pred.mean) - y) <= 0.1 * scale)
        listed = opt.predict([list(r) for r in x], list(s))
        assert np.allclose(listed.mean, pred.mean)
        one = opt.predict(x[0], s[0])
        assert np.allclose(one.mean[0], pred.mean[0])
        with pytest.raises(rescue.RescueError) as err:
            opt.predict([0.5, 0.5, 0.5], 1.0)
        assert err.value.status == rescue.RESCUE_ERR_SIZE_MISMATCH
        with pytest.raises(rescue.RescueError) as err:
            opt.predict([1.5, 0.5], 1.0)
        assert err.value.status == rescue.RESCUE_ERR_OUT_OF_RANGE
        # Each observation held out: a wider spread than with it in, centred near what was observed.
        cv = opt.cross_validate()
        assert np.asarray(cv.mean).shape == (len(obs), 2)
        assert np.all(np.asarray(cv.sd) >= np.asarray(pred.sd) * (1 - 1e-9))
        assert np.all(np.abs(np.asarray(cv.mean) - y) <= 6 * np.asarray(cv.sd) + 0.1 * scale)
        # Per band of fidelities: how well it predicts the target observations.
        t = opt.target_fidelity
        fa = opt.fidelity_agreement([(0.0, t), (t, t)])
        assert np.asarray(fa.rms_z).shape == (2, 2) and np.asarray(fa.rank).shape == (2, 2)
        assert fa.rows[0] == len(obs) and fa.target_rows == sum(1 for v in s if v == t) == fa.rows[1]
        with pytest.raises(rescue.RescueError) as err:
            opt.fidelity_agreement([(t, 0.0)])
        assert err.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT
        with pytest.raises(rescue.RescueError) as err:
            opt.fidelity_agreement([])
        assert err.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT


def agreement_of_cheap_band(name, target_correlation=0):
    """Rank correlations of the band [0, 0.5] and of the target alone, after 30 uniformly drawn
    evaluations at s = 0.2 and 10 at the target (the guide's reading of fidelity_agreement)."""
    with rescue.Problem(name) as p:
        p.set_seed(1).set_strategy("random").set_budget(1e9)
        p.set_param("gp.target_correlation", target_correlation)
        with rescue.Optimizer(p) as opt:
            rng = np.random.default_rng(1)
            bounds = [opt.option_info(j)[:2] for j in range(opt.dimension)]
            for i in range(40):
                x = [float(rng.uniform(lo, hi)) for lo, hi in bounds]
                s = 0.2 if i < 30 else 1.0
                e = p.evaluate(x, s)
                opt.observe_at(x, s, e.objectives, e.constraints, e.indicators)
            fa = opt.fidelity_agreement([(0.0, 0.5), (1.0, 1.0)])
            assert fa.rows == [30, 10] and fa.target_rows == 10
            return np.asarray(fa.rank)


def test_fidelity_agreement_tells_a_mirrored_simulator():
    faithful = agreement_of_cheap_band("healthcare")
    mirrored = agreement_of_cheap_band("healthcare-reflected")
    assert np.all(faithful[0] > 0.9) and np.all(faithful[1] > 0.9)
    assert np.all(mirrored[0] < -0.5) and np.all(mirrored[1] > 0.9)
    # A model that has learned the mirror (a negative target correlation) still has the band
    # judged as if it spoke for the target.
    learned = agreement_of_cheap_band("healthcare-reflected", target_correlation=1)
    assert np.all(learned[0] < -0.5) and np.all(learned[1] > 0.9)


def _status(call):
    """The status a call raises with (RESCUE_OK when it returns)."""
    try:
        call()
    except rescue.RescueError as e:
        return e.status
    return rescue.RESCUE_OK


def test_misshaped_tables_are_refused_not_reread():
    with rescue.Problem("healthcare") as p, rescue.Optimizer(p.set_seed(3)) as opt:
        opt.add_observational(p.sample_observational(150, seed=5))
        x = np.array([[25.0, 0.5], [21.0, 0.1], [29.0, 0.9]])
        mean, _ = opt.causal_estimates(x, 1.0)
        assert np.asarray(mean).shape == (3, 3)
        # Transposed (2 x 3): rows of three values for two options, not 3 other points.
        assert _status(lambda: opt.causal_estimates(x.T, [1.0, 1.0, 1.0])) == rescue.RESCUE_ERR_SIZE_MISMATCH
        assert _status(lambda: opt.causal_estimates(x[None], 1.0)) == rescue.RESCUE_ERR_SIZE_MISMATCH
        assert _status(lambda: opt.causal_estimates([[25.0, 0.5], [21.0]], 1.0)) in (
            rescue.RESCUE_ERR_SIZE_MISMATCH, rescue.RESCUE_ERR_INVALID_ARGUMENT)
        # Fortran-ordered and non-contiguous arrays are the same points.
        assert np.array_equal(opt.causal_estimates(np.asfortranarray(x), 1.0)[0], mean)
        wide = np.zeros((3, 4))
        wide[:, ::2] = x
        assert not wide[:, ::2].flags.c_contiguous
        assert np.array_equal(opt.causal_estimates(wide[:, ::2], 1.0)[0], mean)
        with pytest.raises(rescue.RescueError, match="numbers expected") as err:
            opt.causal_estimates([["a", "b"]], 1.0)
        assert err.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT
    # Three objectives against a reference of two is refused, not read as three points of two.
    assert _status(lambda: rescue.hypervolume([[1, 2, 3], [2, 1, 3]], [4, 4])) == rescue.RESCUE_ERR_SIZE_MISMATCH
    assert rescue.hypervolume([1, 2], [3, 3]) == pytest.approx(2.0)
    assert rescue.pareto_filter([1, 2]) == [0]
    assert rescue.pareto_filter([]) == []
    assert _status(lambda: rescue.pareto_filter({"a": 1})) == rescue.RESCUE_ERR_INVALID_ARGUMENT


def test_fidelity_bands_must_be_pairs(problem):
    with rescue.Optimizer(problem) as opt:
        run(opt, problem, 12)
        assert len(opt.fidelity_agreement([(0.0, 1.0), (1.0, 1.0)]).rows) == 2
        assert _status(lambda: opt.fidelity_agreement([(0, 0.5, 1), (1, 1, 1)])) == rescue.RESCUE_ERR_SIZE_MISMATCH


def test_scalars_names_and_paths_are_checked():
    with rescue.Problem("healthcare") as p:
        for bad in (7.9, -1, 2**31, float("nan"), "7", None, True):
            assert _status(lambda: p.set_seed(bad)) == rescue.RESCUE_ERR_INVALID_ARGUMENT
        p.set_seed(np.int64(7))
        assert _status(lambda: p.sample_observational(2.5)) == rescue.RESCUE_ERR_INVALID_ARGUMENT
        assert _status(lambda: p.sample_observational(3, seed=-1)) == rescue.RESCUE_ERR_INVALID_ARGUMENT
        assert _status(lambda: p.set_budget("100")) == rescue.RESCUE_ERR_INVALID_ARGUMENT
        assert _status(lambda: p.set_param(None, 1)) == rescue.RESCUE_ERR_INVALID_ARGUMENT
        with rescue.Optimizer(p) as opt:
            s = opt.suggest()
            assert _status(lambda: opt.cancel(s.ticket + 0.5)) == rescue.RESCUE_ERR_INVALID_ARGUMENT
            assert _status(lambda: opt.observe(2**31, [1.0, 1.0])) == rescue.RESCUE_ERR_INVALID_ARGUMENT
            assert opt.pending() == [s.ticket]
            assert _status(lambda: opt.causal_graph("xml")) == rescue.RESCUE_ERR_INVALID_ARGUMENT
            assert _status(lambda: opt.set_dag({"BMI": "Statin"})) == rescue.RESCUE_ERR_INVALID_ARGUMENT
            assert _status(lambda: opt.set_dag(["BMI"])) == rescue.RESCUE_ERR_INVALID_ARGUMENT
            assert _status(lambda: opt.constrain_edge(None, "PSA")) == rescue.RESCUE_ERR_INVALID_ARGUMENT
            assert _status(lambda: opt.save_file(3.5)) == rescue.RESCUE_ERR_INVALID_ARGUMENT
    # A name holding a NUL would reach the library cut short: it is refused.
    with rescue.Problem() as p:
        p.add_option("a", 0.0, 1.0)
        for call in (lambda: p.add_objective("f1\0junk"), lambda: p.add_constraint("g\0x", 1.0, "<="),
                     lambda: p.add_indicator("i\0"), lambda: rescue.Problem("branin-currin\0junk"),
                     lambda: p.add_categorical("c", ["x\0y", "z"])):
            with pytest.raises(rescue.RescueError, match="NUL") as err:
                call()
            assert err.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT
        p.add_objective("f1")
        with rescue.Optimizer(p) as opt:
            assert opt.objective_names == ["f1"] and opt.constraint_names == [] and opt.indicator_names == []


def test_optimize_reads_results_by_the_problem_and_fails_a_refused_one():
    def make(constrained):
        p = rescue.Problem()
        p.add_option("x", 0.0, 1.0).add_objective("f", "min")
        if constrained:
            p.add_constraint("g", 0.5, "<=")
        return p.set_strategy("random").set_seed(1).set_budget(3)

    # One objective and one constraint, returned as two plain floats.
    with make(True) as p, rescue.Optimizer(p) as opt:
        opt.optimize(lambda x, s: (float(x[0]), 0.25))
        assert opt.num_observations == 3 and list(opt.observation(0).constraints) == [0.25]
    with make(False) as p, rescue.Optimizer(p) as opt:
        opt.optimize(lambda x, s: {"objectives": [np.float32(x[0])]})
        assert opt.num_observations == 3
    # A result the library refuses marks the evaluation failed rather than leaving it pending.
    with make(True) as p, rescue.Optimizer(p) as opt:
        with pytest.raises(rescue.RescueError) as err:
            opt.optimize(lambda x, s: float(x[0]))
        assert err.value.status == rescue.RESCUE_ERR_INVALID_ARGUMENT
        assert opt.pending() == [] and opt.observation(0).failed
    with make(False) as p, rescue.Optimizer(p) as opt:
        with pytest.raises(rescue.RescueError, match="unknown key"):
            opt.optimize(lambda x, s: {"objective": [x[0]]})
        assert opt.pending() == [] and opt.observation(0).failed
