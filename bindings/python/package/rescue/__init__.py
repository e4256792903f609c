"""RESCUE: multi-objective, multi-fidelity Bayesian optimization with causal priors.

A Pythonic layer over the library's C ABI (through a SWIG module). Ask/tell loop::

    import rescue
    with rescue.Problem("branin-currin") as problem:
        problem.set_seed(7)
        problem.set_budget(1000.0)
        with rescue.Optimizer(problem) as opt:
            while not opt.done():
                s = opt.suggest()
                opt.observe(s.ticket, my_simulator(s.x, s.fidelity))
            front = opt.pareto()

Arrays come in as lists, tuples or NumPy arrays and go out as NumPy arrays (lists when NumPy
is not installed). Every failure raises RescueError with the library's message; its
``status`` attribute is the rescue_status code (e.g. RESCUE_ERR_UNKNOWN_NAME).
"""
import math
import numbers
import os
from collections import namedtuple

from . import rescue_swig as _swig

try:
    import numpy as _np
except ImportError:  # NumPy is optional: results are then plain lists
    _np = None

RescueError = _swig._rescue_swig.RescueError

# Status codes, option kinds and senses of the C header.
for _name in dir(_swig):
    if _name.startswith("RESCUE_"):
        globals()[_name] = getattr(_swig, _name)
del _name

__version__ = _swig.versionString()

_KINDS = {"continuous": _swig.RESCUE_CONTINUOUS, "integer": _swig.RESCUE_INTEGER, "log": _swig.RESCUE_LOG_SCALE}
_SENSES = {"min": _swig.RESCUE_MINIMIZE, "minimize": _swig.RESCUE_MINIMIZE,
           "max": _swig.RESCUE_MAXIMIZE, "maximize": _swig.RESCUE_MAXIMIZE}
_CONSTRAINT_SENSES = {">=": _swig.RESCUE_GEQ, "<=": _swig.RESCUE_LEQ}

Suggestion = namedtuple("Suggestion", "x fidelity ticket")
Observation = namedtuple("Observation", "x fidelity objectives constraints failed")
Budget = namedtuple("Budget", "spent pending total")
ParetoSet = namedtuple("ParetoSet", "x y")
Evaluation = namedtuple("Evaluation", "objectives constraints indicators")
Parameter = namedtuple("Parameter", "name default kind lower upper description")
Prediction = namedtuple("Prediction", "mean sd feasible")
CrossValidation = namedtuple("CrossValidation", "mean sd")
FidelityAgreement = namedtuple("FidelityAgreement", "rms_z rank rows target_rows")
PriorWeights = namedtuple("PriorWeights", "scale kernel_weight in_use")


def _error(status, message):
    e = RescueError(message)
    e.status = status
    return e


def _invalid(message):
    return _error(_swig.RESCUE_ERR_INVALID_ARGUMENT, message)


def _size(message):
    return _error(_swig.RESCUE_ERR_SIZE_MISMATCH, message)


def _vec(values, what="values"):
    """A flat tuple of floats from a number, list, tuple or NumPy array (nested ones row by row)."""
    if values is None:
        return ()
    if isinstance(values, numbers.Real):
        return (float(values),)
    if isinstance(values, (str, bytes, dict)):
        raise _invalid("%s: numbers expected, got a %s" % (what, type(values).__name__))
    try:
        if _np is not None:
            return tuple(float(v) for v in _np.asarray(values, dtype=float).ravel())
        out = []
        for v in values:
            out.extend(_vec(v, what))
        return tuple(out)
    except (TypeError, ValueError) as e:
        raise _invalid("%s: numbers expected (%s)" % (what, e)) from None


def _nested(values):
    """The rows of a table given as lists or tuples without NumPy, or None when it is flat."""
    rows = list(values)
    nested = [isinstance(r, (list, tuple)) for r in rows]
    if not any(nested):
        return None
    if not all(nested):
        raise _size("a table mixes rows and single values")
    return rows


def _table(values, width, what, allow_empty=False):
    """(flat values, number of rows) of a table with rows of `width` values: a 2-D array or nested
    sequence whose rows must have that width, or a flat sequence of whole rows."""
    if _np is not None and not isinstance(values, (str, bytes, dict, numbers.Real)):
        try:
            a = _np.asarray(values, dtype=float)
        except (TypeError, ValueError) as e:
            raise _invalid("%s: numbers expected (%s)" % (what, e)) from None
        if a.ndim > 2:
            raise _size("%s: a table of rows, got %d dimensions" % (what, a.ndim))
        if a.ndim == 2 and a.shape[1] != width:
            raise _size("%s: rows of %d values, got %d" % (what, width, a.shape[1]))
    elif not isinstance(values, (str, bytes, dict, numbers.Real)) and values is not None:
        rows = _nested(values)
        if rows is not None and any(len(r) != width for r in rows):
            raise _size("%s: rows of %d values, got %s" % (what, width, sorted({len(r) for r in rows})))
    flat = _vec(values, what)
    if allow_empty and not flat:
        return flat, 0
    if width < 1 or not flat or len(flat) % width:
        raise _size("%s: %d values do not make whole rows of %d" % (what, len(flat), width))
    return flat, len(flat) // width


def _rows(values, what):
    """(flat values, width) of a table of any width: a 2-D array or nested sequence (rows of equal
    length), or one row."""
    if _np is not None and not isinstance(values, (str, bytes, dict)):
        try:
            a = _np.atleast_2d(_np.asarray(values, dtype=float))
        except (TypeError, ValueError) as e:
            raise _invalid("%s: numbers expected (%s)" % (what, e)) from None
        if a.ndim > 2:
            raise _size("%s: a table of rows, got %d dimensions" % (what, a.ndim))
        return _vec(a, what), a.shape[1]
    flat = _vec(values, what)
    rows = None if isinstance(values, numbers.Real) else _nested(values)
    if rows is None:
        return flat, len(flat)
    if len({len(r) for r in rows}) > 1:
        raise _size("%s: rows of different lengths" % what)
    return flat, len(rows[0])


def _fidelities(fidelity, n):
    """One fidelity per point (one value given is used for all n)."""
    s = _vec(fidelity, "fidelity")
    if len(s) == 1:
        s = s * n
    if len(s) != n:
        raise _size("%d points need one fidelity each (or one for all), got %d" % (n, len(s)))
    return s


def _float(value, what):
    if not isinstance(value, numbers.Real):
        raise _invalid("%s must be a number, got %r" % (what, value))
    return float(value)


def _int(value, what, lower=-2**31, upper=2**31 - 1):
    """A whole number in [lower, upper] (the native layer takes a C int)."""
    ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value) \
        and value == int(value) and lower <= value <= upper
    if not ok:
        raise _invalid("%s must be a whole number from %d to %d, got %r" % (what, lower, upper, value))
    return int(value)


def _name(value, what):
    if not isinstance(value, str):
        raise _invalid("%s must be a string, got %r" % (what, value))
    return value


def _path(path):
    try:
        return os.fspath(path)
    except TypeError:
        raise _invalid("a path is a string or path-like object, got %r" % (path,)) from None


def _out(values):
    return _np.array(values, dtype=float) if _np is not None else list(values)


def _matrix(flat, rows, cols):
    if _np is not None:
        return _np.array(flat, dtype=float).reshape(rows, cols)
    return [list(flat[i * cols:(i + 1) * cols]) for i in range(rows)]


def _code(table, value, what):
    if isinstance(value, str):
        try:
            return table[value]
        except KeyError:
            raise _error(_swig.RESCUE_ERR_INVALID_ARGUMENT,
                         "unknown %s %r (known: %s)" % (what, value, ", ".join(sorted(table)))) from None
    return _int(value, what)


def version():
    """The library's version string."""
    return _swig.versionString()


def status_string(status):
    """A human-readable name for a status code."""
    return _swig.statusString(_int(status, "status"))


def strategies():
    """The names of the known strategies."""
    names, i = [], 0
    while _swig.strategyList(i):
        names.append(_swig.strategyList(i))
        i += 1
    return names


def parameters():
    """The strategy parameters (Problem.set_param), sorted by name: each a Parameter with its
    default, kind ("integer", "closed" or "open": the values accepted lie in [lower, upper], or
    in (lower, upper) for "open") and description."""
    kinds = {_swig.RESCUE_PARAM_INTEGER: "integer", _swig.RESCUE_PARAM_CLOSED: "closed",
             _swig.RESCUE_PARAM_OPEN: "open"}
    out, i = [], 0
    while _swig.paramList(i):
        p = _swig.describeParam(_swig.paramList(i))
        out.append(Parameter(p.name, p.defaultValue, kinds[p.kind], p.lower, p.upper, p.description))
        i += 1
    return out


def hypervolume(points, reference):
    """Exact hypervolume of a set of points (rows), all objectives minimized."""
    ref = _vec(reference, "reference")
    flat, _ = _table(points, len(ref), "points", allow_empty=True)
    return _swig.hypervolume(flat, len(ref), ref)


def pareto_filter(points, violation=None):
    """Indices of the non-dominated rows of points (all objectives minimized; one point as a flat
    sequence); violation, when given, one value per point (0 feasible)."""
    flat, m = _rows(points, "points")
    if not flat:
        return []
    return list(_swig.paretoFilter(flat, m, _vec(violation, "violation")))


class Problem:
    """A problem definition: options, fidelity and cost, objectives, constraints, settings.

    ``Problem()`` is empty; ``Problem("branin-currin")`` is a built-in benchmark problem.
    Use it as a context manager, or call close(); the optimizer keeps its own copy."""

    def __init__(self, builtin=None):
        self._p = _swig.Problem() if builtin is None else _swig.Problem(_name(builtin, "a built-in problem's name"))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Frees the problem now; calling it again is harmless."""
        if self._p is not None:
            self._p.close()
            self._p = None

    @property
    def closed(self):
        return self._p is None

    def _h(self):
        if self._p is None:
            raise _error(_swig.RESCUE_ERR_INVALID_STATE, "the problem is closed")
        return self._p

    def add_option(self, name, lower, upper, kind="continuous"):
        self._h().addOption(_name(name, "an option's name"), _float(lower, "lower"), _float(upper, "upper"),
                            _code(_KINDS, kind, "option kind"))
        return self

    def add_categorical(self, name, labels):
        """A categorical option with these labels: in every configuration its slot holds the
        0-based index of a label (Optimizer.option_labels turns it back)."""
        if isinstance(labels, str):
            raise _error(_swig.RESCUE_ERR_INVALID_ARGUMENT,
                         "labels of categorical option %r: give a list of strings, not one string" % name)
        self._h().addCategorical(_name(name, "an option's name"), [str(l) for l in labels])
        return self

    def set_fidelity_range(self, lower, upper, target):
        self._h().setFidelityRange(_float(lower, "lower"), _float(upper, "upper"), _float(target, "target"))
        return self

    def set_fidelity_levels(self, levels, target):
        self._h().setFidelityLevels(_vec(levels, "levels"), _float(target, "target"))
        return self

    def set_cost_exponential(self, rate):
        self._h().setCostExponential(_float(rate, "rate"))
        return self

    def set_cost_levels(self, costs):
        self._h().setCostLevels(_vec(costs, "costs"))
        return self

    def add_objective(self, name, sense="min"):
        self._h().addObjective(_name(name, "an objective's name"), _code(_SENSES, sense, "objective sense"))
        return self

    def add_constraint(self, name, threshold, sense):
        self._h().addConstraint(_name(name, "a constraint's name"), _float(threshold, "threshold"), _code(_CONSTRAINT_SENSES, sense, "constraint sense"))
        return self

    def add_indicator(self, name):
        self._h().addIndicator(_name(name, "an indicator's name"))
        return self

    def set_reference_point(self, reference):
        self._h().setReferencePoint(_vec(reference, "reference"))
        return self

    def set_seed(self, seed):
        self._h().setSeed(_int(seed, "seed", 0))
        return self

    def set_strategy(self, name):
        self._h().setStrategy(_name(name, "a strategy's name"))
        return self

    def set_budget(self, budget):
        self._h().setBudget(_float(budget, "budget"))
        return self

    def set_initial_budget(self, budget):
        self._h().setInitialBudget(_float(budget, "budget"))
        return self

    def set_param(self, key, value):
        self._h().setParam(_name(key, "a parameter's name"), _float(value, key))
        return self

    def get_param(self, key):
        """The parameter's value on this problem: the one set, or its default."""
        return self._h().getParam(_name(key, "a parameter's name"))

    def evaluate(self, x, fidelity):
        """Noise-free evaluation of a built-in problem: Evaluation(objectives, constraints, indicators)."""
        e = self._h().evaluate(_vec(x, "x"), _float(fidelity, "fidelity"))
        return Evaluation(_out(e.objectives), _out(e.constraints), _out(e.indicators))

    def sample_observational(self, n, seed=0):
        """n rows of observational data drawn from a built-in problem (a matrix: options, fidelity,
        indicators, objectives, constraints), ready for Optimizer.add_observational."""
        n = _int(n, "n", 0)
        flat = self._h().sampleObservational(n, _int(seed, "seed", 0))
        return _matrix(flat, n, len(flat) // n)


class Optimizer:
    """Ask (suggest) and tell (observe) until the budget is spent.

    Use it as a context manager, or call close(): the native optimizer is freed at once."""

    def __init__(self, problem, _native=None):
        self._o = _native if _native is not None else _swig.Optimizer(problem._h())

    @classmethod
    def load(cls, text):
        """An optimizer restored from a checkpoint text (see save())."""
        return cls(None, _swig.Optimizer.load(text))

    @classmethod
    def load_file(cls, path):
        """An optimizer restored from a checkpoint file (see save_file())."""
        return cls(None, _swig.Optimizer.loadFile(_path(path)))

    @classmethod
    def journal_resume(cls, path):
        """An optimizer rebuilt from a crash-safe journal (see journal_open()); the journal stays attached."""
        return cls(None, _swig.Optimizer.journalResume(_path(path)))

    def journal_open(self, path):
        """Starts a crash-safe journal: every state change is synced to the file before it returns."""
        self._h().journalOpen(_path(path))

    def journal_close(self):
        """Detaches the journal; the file stays resumable."""
        self._h().journalClose()

    @property
    def journal_is_open(self):
        return self._h().journalIsOpen()

    @property
    def journal_torn_tail(self):
        """After journal_resume(): whether a partly written last record was ignored."""
        return self._h().journalTornTail()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        """Frees the optimizer now; calling it again is harmless."""
        if self._o is not None:
            self._o.close()
            self._o = None

    @property
    def closed(self):
        return self._o is None

    def _h(self):
        if self._o is None:
            raise _error(_swig.RESCUE_ERR_INVALID_STATE, "the optimizer is closed")
        return self._o

    # ---- the problem --------------------------------------------------------------------------
    @property
    def dimension(self):
        return self._h().dimension()

    @property
    def num_objectives(self):
        return self._h().numObjectives()

    @property
    def num_constraints(self):
        return self._h().numConstraints()

    @property
    def num_indicators(self):
        return self._h().numIndicators()

    @property
    def strategy(self):
        return self._h().strategyName()

    @property
    def option_names(self):
        return [self._h().optionName(i) for i in range(self.dimension)]

    @property
    def objective_names(self):
        return [self._h().objectiveName(i) for i in range(self.num_objectives)]

    @property
    def constraint_names(self):
        return [self._h().constraintName(i) for i in range(self.num_constraints)]

    @property
    def indicator_names(self):
        return [self._h().indicatorName(i) for i in range(self.num_indicators)]

    def option_info(self, index):
        """(lower, upper, kind) of option index."""
        info = self._h().optionInfo(_int(index, "index"))
        return info.lower, info.upper, info.kind

    def option_labels(self, index):
        """The labels of categorical option index, by level (empty for any other option)."""
        return list(self._h().optionLabels(_int(index, "index")))

    def constraint_info(self, index):
        """(threshold, sense) of constraint index."""
        info = self._h().constraintInfo(_int(index, "index"))
        return info.threshold, info.sense

    def objective_sense(self, index):
        return self._h().objectiveSense(_int(index, "index"))

    def reference_point(self):
        return _out(self._h().referencePoint())

    @property
    def target_fidelity(self):
        return self._h().targetFidelity()

    # ---- ask and tell -------------------------------------------------------------------------
    def suggest(self):
        """The next Suggestion(x, fidelity, ticket) to evaluate."""
        s = self._h().suggest()
        return Suggestion(_out(s.x), s.fidelity, s.ticket)

    def observe(self, ticket, objectives, constraints=(), indicators=()):
        """Reports the results of a pending ticket."""
        self._h().observe(_int(ticket, "ticket"), _vec(objectives, "objectives"), _vec(constraints, "constraints"),
                          _vec(indicators, "indicators"))

    def observe_at(self, x, fidelity, objectives, constraints=(), indicators=()):
        """Reports an evaluation of a configuration and fidelity the caller chose."""
        self._h().observeAt(_vec(x, "x"), _float(fidelity, "fidelity"), _vec(objectives, "objectives"),
                            _vec(constraints, "constraints"), _vec(indicators, "indicators"))

    def cancel(self, ticket):
        self._h().cancel(_int(ticket, "ticket"))

    def fail(self, ticket):
        self._h().fail(_int(ticket, "ticket"))

    def pending(self):
        return list(self._h().pending())

    @property
    def num_observations(self):
        return self._h().numObservations()

    def observation(self, index):
        o = self._h().observation(_int(index, "index"))
        return Observation(_out(o.x), o.fidelity, _out(o.objectives), _out(o.constraints), bool(o.failed))

    def observations(self):
        return [self.observation(i) for i in range(self.num_observations)]

    def cost(self, x, fidelity):
        return self._h().cost(_vec(x, "x"), _float(fidelity, "fidelity"))

    def budget(self):
        b = self._h().budget()
        return Budget(b.spent, b.pending, b.total)

    def done(self):
        """Whether the budget is spent (reported plus pending cost)."""
        return self._h().done()

    # ---- results, data, checkpoints -----------------------------------------------------------
    def pareto(self):
        """ParetoSet(x, y): configurations (n x d) and objective values (n x M)."""
        p = self._h().pareto()
        return ParetoSet(_matrix(p.x, p.count, p.dimension), _matrix(p.y, p.count, p.numObjectives))

    def predict(self, x, fidelity):
        """Predictions of the model behind pareto() at configurations x (n x d, or one
        configuration of d values) and fidelities (n values, or one for all): Prediction(mean, sd,
        feasible) with mean and sd n x (M + Q) (objectives in their own sense, then constraint
        metrics; sd of the noise-free outputs) and the n probabilities that every constraint holds."""
        xs, n = _table(x, self.dimension, "x")
        p = self._h().predict(xs, _fidelities(fidelity, n))
        width = self.num_objectives + self.num_constraints
        return Prediction(_matrix(p.mean, n, width), _matrix(p.sd, n, width), _out(p.feasible))

    def cross_validate(self):
        """CrossValidation(mean, sd), each n x (M + Q) for the n observations in the order reported:
        what the model behind predict() predicts for each observed value (noise included) from
        all the other observations, hyperparameters held. Rows of failed evaluations are NaN.
        (observed - mean) / sd has a root mean square near 1 for a well-calibrated model."""
        c = self._h().crossValidate()
        width = self.num_objectives + self.num_constraints
        return CrossValidation(_matrix(c.mean, c.count, width), _matrix(c.sd, c.count, width))

    def fidelity_agreement(self, bands):
        """FidelityAgreement(rms_z, rank, rows, target_rows): how well the observations in each band
        of fidelities predict the observations at the target. bands is a list of (lower, upper)
        pairs in the problem's fidelity units ((s, s) selects the level s). rms_z and rank are
        bands x (M + Q): the root mean square of (observed - mean) / sd at the target, and the
        Spearman correlation of predicted with observed target values (NaN where too few).
        A band with the target predicts each target observation from its others; (target,
        target) is the reference. rows counts the observations in each band."""
        flat, n = _table(bands, 2, "bands", allow_empty=True)
        a = self._h().fidelityAgreement(flat)
        width = self.num_objectives + self.num_constraints
        return FidelityAgreement(_matrix(a.rmsZ, n, width), _matrix(a.rank, n, width), list(a.rows),
                                 int(a.targetRows))

    def prior_weights(self):
        """PriorWeights(scale, kernel_weight, in_use): how much the model behind predict() relies on
        the causal model ("rescue" only, from its first suggestion). scale holds a_m for each
        objective then constraint metric, the weight of the causal estimate in that output's prior
        mean (standardized): near 1 taken at face value, near 0 unused. kernel_weight is the weight
        w of the causal kernel term; in_use is False when the fit chose the model without the
        prior (every a_m 0)."""
        w = self._h().priorWeights()
        return PriorWeights(list(w.scale), float(w.kernelWeight), bool(w.inUse))

    def add_observational(self, rows):
        """Adds rows of observational data: options, fidelity, indicators, objectives, constraints."""
        flat, ncols = _rows(rows, "rows")
        self._h().addObservational(flat, ncols)

    @property
    def num_observational(self):
        return self._h().numObservational()

    def save(self):
        """The checkpoint text."""
        return self._h().save()

    def set_dag(self, dag):
        """Replaces causal discovery with your DAG: JSON text, or a list of (from, to) name pairs;
        None goes back to discovery."""
        if dag is None:
            self._h().clearDag()
            return self
        if not isinstance(dag, str):
            import json
            edges = []
            for e in ([] if isinstance(dag, dict) else dag):
                if isinstance(e, (str, bytes)) or len(e) != 2 or not all(isinstance(v, str) for v in e):
                    raise _invalid("a DAG is JSON text or a list of (from, to) pairs of names, got the element %r" % (e,))
                edges.append({"from": e[0], "to": e[1]})
            if isinstance(dag, dict):
                raise _invalid("a DAG is JSON text or a list of (from, to) pairs of names, got a dict")
            dag = json.dumps({"edges": edges})
        self._h().setDag(dag)
        return self

    def constrain_edge(self, source, target, required=True):
        """Requires (or, with required=False, forbids) the causal edge source -> target."""
        if not isinstance(required, bool):
            raise _invalid("required is True (require the edge) or False (forbid it), got %r" % (required,))
        self._h().constrainEdge(_name(source, "source"), _name(target, "target"), required)
        return self

    def causal_graph(self, fmt="dot", as_discovered=False):
        """The causal graph the model uses, as Graphviz DOT ("dot") or JSON ("json") text."""
        if fmt not in ("dot", "json"):
            raise _invalid("fmt must be 'dot' or 'json', got %r" % (fmt,))
        return self._h().causalGraph(fmt == "json", bool(as_discovered))

    def causal_estimates(self, x, fidelity):
        """Interventional means and standard deviations (two n x (M + Q) matrices) of the causal
        model at configurations x (n x d, or one configuration of d values) and fidelities (n
        values, or one for all)."""
        xs, n = _table(x, self.dimension, "x")
        s = _fidelities(fidelity, n)
        p = self.num_objectives + self.num_constraints
        mean = self._h().causalMeans(xs, s)
        sd = self._h().causalSds(xs, s)
        return _matrix(mean, n, p), _matrix(sd, n, p)

    def save_file(self, path):
        """Writes a checkpoint file atomically."""
        self._h().saveFile(_path(path))

    # ---- a callback-driven loop ---------------------------------------------------------------
    def optimize(self, f):
        """Runs the ask/tell loop until the budget is spent, calling ``f(x, fidelity)`` for each
        suggestion. f returns the objective values; on a problem with constraints, the pair
        (objectives, constraints); or a dict with any of "objectives", "constraints" and
        "indicators". An exception from f, or a result the library refuses, marks the evaluation
        as failed and is raised again. Returns pareto()."""
        while not self.done():
            try:
                s = self.suggest()
            except RescueError as e:
                if e.status == _swig.RESCUE_ERR_BUDGET_EXHAUSTED:
                    break
                raise
            try:
                result = f(s.x, s.fidelity)
            except BaseException:
                self.fail(s.ticket)
                raise
            try:
                if isinstance(result, dict):
                    unknown = sorted(set(result) - {"objectives", "constraints", "indicators"})
                    if unknown:
                        raise _invalid("the evaluation returned unknown key(s) %s (known: objectives, "
                                       "constraints, indicators)" % ", ".join(map(str, unknown)))
                    self.observe(s.ticket, result.get("objectives"), result.get("constraints"),
                                 result.get("indicators"))
                elif self.num_constraints > 0:
                    if not (isinstance(result, (tuple, list)) and len(result) == 2):
                        raise _invalid("on a problem with constraints, f returns (objectives, constraints) "
                                       "or a dict")
                    self.observe(s.ticket, result[0], result[1])
                else:
                    self.observe(s.ticket, result)
            except RescueError:
                self.fail(s.ticket)
                raise
        return self.pareto()


def optimize(f, problem):
    """Creates an optimizer for problem, runs Optimizer.optimize(f), and frees it."""
    with Optimizer(problem) as opt:
        return opt.optimize(f)
