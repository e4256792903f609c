# The R interface over the SWIG module (the functions generated into rescue_swig.R).
#
# Problems and optimizers are environments holding the native object; close() frees it at once
# (a second close() is harmless) and a finalizer frees it when the object is garbage-collected.
# Every failure is an R error condition of class "rescue_error" whose message is the library's
# own and whose field `status` is the rescue_status code (see RESCUE_STATUS).

#' Status codes of the C library, by name.
RESCUE_STATUS <- c(OK = 0L, NULL_POINTER = 1L, INVALID_ARGUMENT = 2L, OUT_OF_RANGE = 3L, NON_FINITE = 4L,
                   SIZE_MISMATCH = 5L, BUFFER_TOO_SMALL = 6L, UNKNOWN_TICKET = 7L, UNKNOWN_NAME = 8L,
                   INVALID_STATE = 9L, BUDGET_EXHAUSTED = 10L, IO = 11L, CORRUPT_CHECKPOINT = 12L,
                   UNSUPPORTED_VERSION = 13L, NUMERICAL = 14L, OUT_OF_MEMORY = 15L, CALLBACK = 16L,
                   INTERNAL = 99L)

rescue_condition <- function(status, message, call = NULL) {
  structure(class = c("rescue_error", "error", "condition"),
            list(message = message, call = call, status = as.integer(status)))
}

# Runs expr, turning the native layer's errors ("[rescue status N] message") into rescue_error.
.rescue <- function(expr) {
  tryCatch(expr, error = function(e) {
    if (inherits(e, "rescue_error")) stop(e)
    m <- regmatches(conditionMessage(e),
                    regexec("^\\[rescue status ([0-9]+)\\] (.*)$", conditionMessage(e), perl = TRUE))[[1]]
    if (length(m) == 3) stop(rescue_condition(as.integer(m[2]), m[3], sys.call(-4)))
    stop(e)
  })
}

.closed <- function(what) stop(rescue_condition(RESCUE_STATUS[["INVALID_STATE"]], paste("the", what, "is closed")))

.handle <- function(obj) {
  if (is.null(obj$ptr)) .closed(if (inherits(obj, "rescue_problem")) "problem" else "optimizer")
  obj$ptr
}

.code <- function(value, table, what) {
  if (is.character(value)) {
    if (length(value) != 1 || !value %in% names(table))
      stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]],
                            sprintf("unknown %s '%s' (known: %s)", what, paste(value, collapse = "', '"),
                                    paste(names(table), collapse = ", "))))
    return(table[[value]])
  }
  .int1(value, what)
}

# A scalar argument of the library as one double. The native layer reads only a vector's first
# element and refuses integers, so an empty vector, a longer one or 2L must be handled here.
.number <- function(v, what) {
  if (!(is.numeric(v) || is.logical(v)) || length(v) != 1)
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], sprintf("%s must be one number", what)))
  as.numeric(v)
}

# A whole number for an int argument (a ticket, a seed, a status): the native layer reads an empty
# vector past its end.
.int1 <- function(v, what) {
  if (!is.numeric(v) || length(v) != 1 || is.na(v) || v != round(v) || abs(v) > .Machine$integer.max)
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], sprintf("%s must be one whole number", what)))
  as.integer(v)
}

# One string for a name, key or path (not NA, which the native layer would read as "NA").
.str1 <- function(v, what) {
  if (!(is.character(v) || is.factor(v)) || length(v) != 1 || is.na(v))
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], sprintf("%s must be one string", what)))
  as.character(v)
}

# The fidelity of a problem: c(lower, upper, target) or list(levels = ..., target = ...).
.set_fidelity <- function(ptr, fidelity) {
  if (is.list(fidelity) && !is.null(fidelity$levels)) {
    if (!is.numeric(fidelity$levels))
      stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], "fidelity levels must be numbers"))
    .rescue(Problem_setFidelityLevels(ptr, as.numeric(fidelity$levels), .number(fidelity$target, "the target fidelity")))
  } else if (!is.null(fidelity)) {
    if (!is.numeric(fidelity) || length(fidelity) != 3)
      stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]],
                            "a fidelity range is c(lower, upper, target), or list(levels = ..., target = ...)"))
    f <- as.numeric(fidelity)
    .rescue(Problem_setFidelityRange(ptr, f[1], f[2], f[3]))
  }
}

.kinds <- c(continuous = 0L, integer = 1L, log = 2L)
.senses <- c(min = 0L, minimize = 0L, max = 1L, maximize = 1L)
.constraint_senses <- c(">=" = 0L, "<=" = 1L)

.wrap <- function(ptr, class, deleter) {
  obj <- new.env(parent = emptyenv())
  obj$ptr <- ptr
  class(obj) <- class
  reg.finalizer(obj, function(e) close(e), onexit = TRUE)
  obj
}

#' The library's version string.
rescue_version <- function() versionString()

#' A human-readable name for a status code.
rescue_status_string <- function(status) statusString(.int1(status, "a status"))

#' The names of the known strategies.
rescue_strategies <- function() {
  out <- character(0)
  repeat {
    s <- strategyList(length(out))
    if (!nzchar(s)) return(out)
    out <- c(out, s)
  }
}

#' The strategy parameters (the `params` of rescue_problem), sorted by name: a data frame with
#' each one's default, kind ("integer", "closed" or "open": accepted values lie in [lower, upper],
#' or in (lower, upper) for "open") and description.
rescue_parameters <- function() {
  names <- character(0)
  repeat {
    s <- paramList(length(names))
    if (!nzchar(s)) break
    names <- c(names, s)
  }
  kinds <- c("integer", "closed", "open")
  rows <- lapply(names, function(n) {
    p <- .rescue(describeParam(n))
    data.frame(name = n, default = ParamInfo_defaultValue_get(p), kind = kinds[ParamInfo_kind_get(p) + 1L],
               lower = ParamInfo_lower_get(p), upper = ParamInfo_upper_get(p),
               description = ParamInfo_description_get(p), stringsAsFactors = FALSE)
  })
  do.call(rbind, rows)
}

#' The value of a strategy parameter on a problem: the one set, or its default.
rescue_get_param <- function(problem, key) .rescue(Problem_getParam(.handle(problem), .str1(key, "a parameter's name")))

#' Exact hypervolume of the rows of `points` (all objectives minimized) against `reference`.
rescue_hypervolume <- function(points, reference) {
  points <- as.matrix(points)
  if (length(points) == 0) points <- matrix(numeric(0), 0, length(reference))
  .rescue(hypervolume(as.numeric(t(points)), ncol(points), as.numeric(reference)))
}

#' Row indices (1-based) of the non-dominated rows of `points`.
rescue_pareto_filter <- function(points, violation = NULL) {
  points <- as.matrix(points)
  .rescue(paretoFilter(as.numeric(t(points)), ncol(points), as.numeric(violation))) + 1L
}

#' A problem definition.
#'
#' `options` is a data frame or list with `name`, `lower`, `upper` and optional `kind`
#' ("continuous", "integer", "log"); `categorical` a named list of character vectors, one
#' categorical option per entry with those levels, added after `options` (its slot in every
#' configuration holds the 0-based index of a level; rescue_info(opt)$levels has the labels);
#' `objectives` a named character vector of senses
#' ("min"/"max") or a character vector of names (minimized); `constraints` a list of
#' `list(name, threshold, sense)` with sense ">=" or "<="; `fidelity` either `c(lower, upper,
#' target)` or `list(levels = ..., target = ...)`.
rescue_problem <- function(options = NULL, objectives, fidelity = NULL, constraints = list(), indicators = character(0),
                           seed = 0L, strategy = NULL, budget = NULL, initial_budget = NULL, params = list(),
                           reference_point = NULL, cost_rate = NULL, cost_levels = NULL, categorical = list()) {
  p <- .wrap(.rescue(Problem()), "rescue_problem")
  ptr <- p$ptr
  if (!is.null(options)) {
    options <- as.data.frame(options, stringsAsFactors = FALSE)
    if (is.null(options$kind)) options$kind <- rep("continuous", nrow(options))
    for (i in seq_len(nrow(options)))
      .rescue(Problem_addOption(ptr, .str1(options$name[i], "an option's name"), .number(options$lower[i], sprintf("the lower bound of '%s'", options$name[i])),
                                .number(options$upper[i], sprintf("the upper bound of '%s'", options$name[i])),
                                .code(options$kind[i], .kinds, "option kind")))
  }
  if (length(categorical) > 0 && (is.null(names(categorical)) || any(!nzchar(names(categorical)))))
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]],
                          "categorical must be a named list: list(name = c(\"level\", ...), ...)"))
  for (name in names(categorical))
    .rescue(Problem_addCategorical(ptr, name, vapply(categorical[[name]], .str1, "", sprintf("a level of '%s'", name))))
  .set_fidelity(ptr, fidelity)
  if (!is.null(cost_rate)) .rescue(Problem_setCostExponential(ptr, .number(cost_rate, "cost_rate")))
  if (!is.null(cost_levels)) .rescue(Problem_setCostLevels(ptr, as.numeric(cost_levels)))
  senses <- if (is.null(names(objectives))) setNames(rep("min", length(objectives)), objectives) else objectives
  for (name in names(senses)) .rescue(Problem_addObjective(ptr, .str1(name, "an objective's name"), .code(senses[[name]], .senses, "objective sense")))
  for (con in constraints)
    .rescue(Problem_addConstraint(ptr, .str1(con[[1]], "a constraint's name"), .number(con[[2]], sprintf("the threshold of '%s'", con[[1]])), .code(con[[3]], .constraint_senses, "constraint sense")))
  for (name in indicators) .rescue(Problem_addIndicator(ptr, .str1(name, "an indicator's name")))
  .configure(p, seed, strategy, budget, initial_budget, params, reference_point)
}

.configure <- function(p, seed, strategy, budget, initial_budget, params, reference_point) {
  ptr <- p$ptr
  if (!is.null(seed)) .rescue(Problem_setSeed(ptr, .int1(seed, "the seed")))
  if (!is.null(strategy)) .rescue(Problem_setStrategy(ptr, .str1(strategy, "the strategy")))
  if (!is.null(budget)) .rescue(Problem_setBudget(ptr, .number(budget, "budget")))
  if (!is.null(initial_budget)) .rescue(Problem_setInitialBudget(ptr, .number(initial_budget, "initial_budget")))
  for (key in names(params)) .rescue(Problem_setParam(ptr, .str1(key, "a parameter's name"), .number(params[[key]], sprintf("parameter '%s'", key))))
  if (!is.null(reference_point)) .rescue(Problem_setReferencePoint(ptr, as.numeric(reference_point)))
  p
}

#' A built-in benchmark problem ("branin-currin", "park", "healthcare", "robot-standin").
rescue_builtin_problem <- function(name, seed = NULL, strategy = NULL, budget = NULL, initial_budget = NULL,
                                   params = list(), fidelity = NULL) {
  p <- .wrap(.rescue(Problem(.str1(name, "a built-in problem's name"))), "rescue_problem")
  .set_fidelity(p$ptr, fidelity)
  .configure(p, seed, strategy, budget, initial_budget, params, NULL)
}

#' Noise-free evaluation of a built-in problem: list(objectives, constraints, indicators).
rescue_evaluate <- function(problem, x, fidelity) {
  e <- .rescue(Problem_evaluate(.handle(problem), as.numeric(x), .number(fidelity, "the fidelity")))
  list(objectives = Evaluation_objectives_get(e), constraints = Evaluation_constraints_get(e),
       indicators = Evaluation_indicators_get(e))
}

#' Rows of observational data drawn from a built-in problem (for demos and experiments): an n-row
#' matrix in the layout of rescue_add_observational (options, fidelity, indicators, objectives,
#' constraint metrics), columns named, drawn with the given seed.
rescue_sample_observational <- function(problem, n, seed = 0) {
  whole <- function(v, lo) is.numeric(v) && length(v) == 1 && !is.na(v) && v >= lo && v == round(v) && v <= .Machine$integer.max
  if (!whole(seed, 0))
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], "the seed must be a whole number from 0 to 2^31 - 1"))
  if (!whole(n, -Inf)) stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], "n must be a whole number of rows"))
  n <- as.integer(n)
  rows <- .rescue(Problem_sampleObservational(.handle(problem), n, as.integer(seed)))
  opt <- rescue_optimizer(problem)
  on.exit(close(opt))
  info <- rescue_info(opt)
  cols <- c(info$options, "fidelity", info$indicators, info$objectives, info$constraints)
  matrix(rows, nrow = n, byrow = TRUE, dimnames = list(NULL, cols))
}

#' Frees the problem now; a second close is harmless.
close.rescue_problem <- function(con, ...) {
  if (!is.null(con$ptr)) {
    Problem_close(con$ptr)
    con$ptr <- NULL
  }
  invisible(NULL)
}

#' An optimizer for a (copy of a) problem.
rescue_optimizer <- function(problem) {
  .wrap(.rescue(Optimizer(.handle(problem))), "rescue_optimizer")
}

.adopt <- function(native) {
  reg.finalizer(native@ref, delete_Optimizer)
  .wrap(native, "rescue_optimizer")
}

#' An optimizer restored from a checkpoint text.
rescue_load <- function(text) .adopt(.rescue(Optimizer_load(.str1(text, "a checkpoint text"))))

#' An optimizer restored from a checkpoint file.
rescue_load_file <- function(path) .adopt(.rescue(Optimizer_loadFile(path.expand(.str1(path, "a path")))))

#' Frees the optimizer now; a second close is harmless.
close.rescue_optimizer <- function(con, ...) {
  if (!is.null(con$ptr)) {
    Optimizer_close(con$ptr)
    con$ptr <- NULL
  }
  invisible(NULL)
}

print.rescue_optimizer <- function(x, ...) {
  if (is.null(x$ptr)) {
    cat("<rescue optimizer (closed)>\n")
  } else {
    b <- rescue_budget(x)
    cat(sprintf("<rescue optimizer: %s, %d observations, spent %g of %g>\n", Optimizer_strategyName(x$ptr),
                Optimizer_numObservations(x$ptr), b[["spent"]], b[["total"]]))
  }
  invisible(x)
}

#' The optimizer's problem and state: list(strategy, options, objectives, constraints, indicators
#' (names), bounds (a data frame of each option's name, lower, upper and kind, the numeric ones as
#' rescue_problem's `options` takes them; a categorical option's bounds are 0 and its number of
#' levels - 1), levels (the labels of each categorical option), target_fidelity, senses (each
#' objective's "min" or "max", named), thresholds (each constraint's bound, named), constraint_senses
#' ("<=" or ">=", named), reference_point (named; NULL when the problem has none), observational
#' (the number of observational rows given), journal_open, journal_torn_tail (after
#' rescue_journal_resume: whether a partly written last record was ignored)).
rescue_info <- function(opt) {
  h <- .handle(opt)
  names_of <- function(n, f) vapply(seq_len(n) - 1L, function(i) f(h, i), "")
  objectives <- names_of(Optimizer_numObjectives(h), Optimizer_objectiveName)
  constraints <- names_of(Optimizer_numConstraints(h), Optimizer_constraintName)
  limits <- lapply(seq_along(constraints) - 1L, function(i) .rescue(Optimizer_constraintInfo(h, i)))
  options <- names_of(Optimizer_dimension(h), Optimizer_optionName)
  ranges <- lapply(seq_along(options) - 1L, function(i) .rescue(Optimizer_optionInfo(h, i)))
  kinds <- c(names(.kinds), "categorical")
  reference <- tryCatch(.rescue(Optimizer_referencePoint(h)), rescue_error = function(e) {
    if (e$status == RESCUE_STATUS[["INVALID_STATE"]]) NULL else stop(e)
  })
  list(strategy = Optimizer_strategyName(h),
       options = options,
       bounds = data.frame(name = options, lower = vapply(ranges, OptionInfo_lower_get, 0),
                           upper = vapply(ranges, OptionInfo_upper_get, 0),
                           kind = kinds[vapply(ranges, OptionInfo_kind_get, 0L) + 1L], stringsAsFactors = FALSE),
       objectives = objectives,
       constraints = constraints,
       indicators = names_of(Optimizer_numIndicators(h), Optimizer_indicatorName),
       levels = .levels(h),
       target_fidelity = .rescue(Optimizer_targetFidelity(h)),
       senses = setNames(vapply(seq_along(objectives) - 1L, function(i)
         if (.rescue(Optimizer_objectiveSense(h, i)) == 1L) "max" else "min", ""), objectives),
       thresholds = setNames(vapply(limits, ConstraintInfo_threshold_get, 0), constraints),
       constraint_senses = setNames(vapply(limits, function(l) names(.constraint_senses)[.constraint_senses == ConstraintInfo_sense_get(l)], ""), constraints),
       reference_point = if (!is.null(reference)) setNames(reference, objectives),
       observational = Optimizer_numObservational(h),
       journal_open = Optimizer_journalIsOpen(h),
       journal_torn_tail = Optimizer_journalTornTail(h))
}

# The labels of each categorical option, named by option (level index k is label k + 1).
.levels <- function(h) {
  out <- list()
  for (i in seq_len(Optimizer_dimension(h)) - 1L) {
    labels <- .rescue(Optimizer_optionLabels(h, i))
    if (length(labels) > 0) out[[Optimizer_optionName(h, i)]] <- as.character(labels)
  }
  out
}

#' The next suggestion: list(x, fidelity, ticket).
rescue_suggest <- function(opt) {
  s <- .rescue(Optimizer_suggest(.handle(opt)))
  list(x = Suggestion_x_get(s), fidelity = Suggestion_fidelity_get(s), ticket = Suggestion_ticket_get(s))
}

#' Reports the results of a pending ticket.
rescue_observe <- function(opt, ticket, objectives, constraints = numeric(0), indicators = numeric(0)) {
  invisible(.rescue(Optimizer_observe(.handle(opt), .int1(ticket, "a ticket"), as.numeric(objectives),
                                      as.numeric(constraints), as.numeric(indicators))))
}

#' Reports an evaluation of a configuration and fidelity the caller chose.
rescue_observe_at <- function(opt, x, fidelity, objectives, constraints = numeric(0), indicators = numeric(0)) {
  invisible(.rescue(Optimizer_observeAt(.handle(opt), as.numeric(x), .number(fidelity, "the fidelity"), as.numeric(objectives),
                                        as.numeric(constraints), as.numeric(indicators))))
}

rescue_cancel <- function(opt, ticket) invisible(.rescue(Optimizer_cancel(.handle(opt), .int1(ticket, "a ticket"))))
rescue_fail <- function(opt, ticket) invisible(.rescue(Optimizer_fail(.handle(opt), .int1(ticket, "a ticket"))))
rescue_pending <- function(opt) .rescue(Optimizer_pending(.handle(opt)))
rescue_done <- function(opt) .rescue(Optimizer_done(.handle(opt)))

#' Budget accounting: c(spent, pending, total) (total 0 means unlimited).
rescue_budget <- function(opt) {
  b <- .rescue(Optimizer_budget(.handle(opt)))
  c(spent = Budget_spent_get(b), pending = Budget_pending_get(b), total = Budget_total_get(b))
}

rescue_cost <- function(opt, x, fidelity) .rescue(Optimizer_cost(.handle(opt), as.numeric(x), .number(fidelity, "the fidelity")))

#' All observations: a data frame with the options, the fidelity, the objectives and `failed`.
rescue_observations <- function(opt) {
  h <- .handle(opt)
  info <- rescue_info(opt)
  n <- Optimizer_numObservations(h)
  rows <- lapply(seq_len(n) - 1L, function(i) {
    o <- .rescue(Optimizer_observation(h, i))
    c(Observation_x_get(o), Observation_fidelity_get(o), Observation_objectives_get(o),
      Observation_failed_get(o))
  })
  cols <- c(info$options, "fidelity", info$objectives, "failed")
  m <- if (n > 0) do.call(rbind, rows) else matrix(numeric(0), 0, length(cols))
  df <- as.data.frame(m)
  names(df) <- cols
  df$failed <- as.logical(df$failed)
  df
}

#' The recommended Pareto set: list(x = n x d matrix, y = n x M matrix).
rescue_pareto <- function(opt) {
  p <- .rescue(Optimizer_pareto(.handle(opt)))
  n <- ParetoSet_count_get(p)
  info <- rescue_info(opt)
  x <- matrix(ParetoSet_x_get(p), nrow = n, ncol = length(info$options), byrow = TRUE,
              dimnames = list(NULL, info$options))
  y <- matrix(ParetoSet_y_get(p), nrow = n, ncol = length(info$objectives), byrow = TRUE,
              dimnames = list(NULL, info$objectives))
  list(x = x, y = y)
}

# Configurations as a numeric matrix with a row per point: a matrix or data frame (columns named
# after the options taken by name, whatever their order, other columns ignored) or a vector (one
# configuration, entries named after the options taken by name; or with one option one value per
# point).
.points <- function(x, options) {
  d <- length(options)
  refuse <- function(status, message) stop(rescue_condition(RESCUE_STATUS[[status]], message))
  if (is.null(dim(x))) {
    if (!is.null(names(x)) && !anyDuplicated(names(x)) && all(options %in% names(x))) x <- x[options]
    if (!is.numeric(x)) refuse("INVALID_ARGUMENT", "a configuration holds numbers")
    if (length(x) == 0 || length(x) %% d != 0)
      refuse("SIZE_MISMATCH", sprintf("%d values do not make whole configurations of %d options", length(x), d))
    return(matrix(as.numeric(x), ncol = d, byrow = TRUE))
  }
  if (!is.null(colnames(x)) && all(options %in% colnames(x))) x <- x[, options, drop = FALSE]
  # Selected before as.matrix: a character column elsewhere would turn every number into text.
  numeric_columns <- if (is.data.frame(x)) all(vapply(x, is.numeric, TRUE)) else is.numeric(x)
  if (!numeric_columns) refuse("INVALID_ARGUMENT", "configurations hold numbers (a categorical option its level's 0-based index)")
  x <- as.matrix(x)
  if (ncol(x) != d) refuse("SIZE_MISMATCH", sprintf("configurations have %d options, got %d columns", d, ncol(x)))
  storage.mode(x) <- "double"
  x
}

.check_fidelities <- function(fidelity, n) {
  if (length(fidelity) != n)
    stop(rescue_condition(RESCUE_STATUS[["SIZE_MISMATCH"]],
                          sprintf("%d points need one fidelity each (or one for all), got %d", n, length(fidelity))))
}

#' Predictions of the model behind rescue_pareto at configurations `x` (a matrix or data frame,
#' one row per point, columns taken by name when they are named after the options; or one
#' configuration as a vector) and fidelities (one per row, or one for all): list(mean, sd, feasible), mean and sd matrices with a column per objective (in its own
#' sense) then per constraint metric (sd of the noise-free outputs), feasible the probabilities
#' that every constraint holds.
rescue_predict <- function(opt, x, fidelity) {
  info <- rescue_info(opt)
  x <- .points(x, info$options)
  if (length(fidelity) == 1) fidelity <- rep(fidelity, nrow(x))
  .check_fidelities(fidelity, nrow(x))
  p <- .rescue(Optimizer_predict(.handle(opt), as.numeric(t(x)), as.numeric(fidelity)))
  cols <- c(info$objectives, info$constraints)
  list(mean = matrix(Prediction_mean_get(p), nrow = nrow(x), byrow = TRUE, dimnames = list(NULL, cols)),
       sd = matrix(Prediction_sd_get(p), nrow = nrow(x), byrow = TRUE, dimnames = list(NULL, cols)),
       feasible = Prediction_feasible_get(p))
}

#' Leave-one-out cross-validation of the model behind rescue_predict: list(mean, sd), matrices with
#' a row per observation (in the order reported; NA for failed evaluations) and a column per
#' objective (in its own sense) then per constraint metric: what the model predicts for each
#' observed value (noise included) from all the other observations, hyperparameters held.
#' (observed - mean) / sd has a root mean square near 1 for a well-calibrated model.
rescue_cross_validate <- function(opt) {
  cv <- .rescue(Optimizer_crossValidate(.handle(opt)))
  info <- rescue_info(opt)
  cols <- c(info$objectives, info$constraints)
  n <- CrossValidation_count_get(cv)
  list(mean = matrix(CrossValidation_mean_get(cv), nrow = n, byrow = TRUE, dimnames = list(NULL, cols)),
       sd = matrix(CrossValidation_sd_get(cv), nrow = n, byrow = TRUE, dimnames = list(NULL, cols)))
}

#' How well the observations in each band of fidelities predict the target: list(rms_z, rank,
#' rows, target_rows). bands is a two-column matrix (or a vector of pairs) of (lower, upper) in the
#' problem's fidelity units; c(s, s) selects the level s. rms_z and rank have a row per band and a
#' column per objective then constraint metric: the root mean square of (observed - mean) / sd at
#' the target, and the Spearman correlation of predicted with observed target values (NA where too
#' few). A band with the target predicts each target observation from its others, so c(target,
#' target) is the reference to read the others against.
rescue_fidelity_agreement <- function(opt, bands) {
  bands <- matrix(as.numeric(t(as.matrix(bands))), ncol = 2, byrow = TRUE)
  a <- .rescue(Optimizer_fidelityAgreement(.handle(opt), as.numeric(t(bands))))
  info <- rescue_info(opt)
  cols <- c(info$objectives, info$constraints)
  nb <- nrow(bands)
  na <- function(v) { v[is.nan(v)] <- NA; v }
  list(rms_z = matrix(na(FidelityAgreement_rmsZ_get(a)), nrow = nb, byrow = TRUE, dimnames = list(NULL, cols)),
       rank = matrix(na(FidelityAgreement_rank_get(a)), nrow = nb, byrow = TRUE, dimnames = list(NULL, cols)),
       rows = FidelityAgreement_rows_get(a), target_rows = FidelityAgreement_targetRows_get(a))
}

#' How much the model behind rescue_predict relies on the causal model ("rescue" only, from its
#' first suggestion): list(scale, kernel_weight, in_use). scale is a named vector of a_m for each
#' objective then constraint metric, the weight of the causal estimate in that output's prior mean
#' (standardized): near 1 taken at face value, near 0 unused. kernel_weight is the weight w of the
#' causal kernel term; in_use is FALSE when the fit chose the model without the prior (every a_m 0).
rescue_prior_weights <- function(opt) {
  w <- .rescue(Optimizer_priorWeights(.handle(opt)))
  info <- rescue_info(opt)
  scale <- PriorWeights_scale_get(w)
  names(scale) <- c(info$objectives, info$constraints)
  list(scale = scale, kernel_weight = PriorWeights_kernelWeight_get(w), in_use = PriorWeights_inUse_get(w))
}

#' Interventional estimates of the causal model ("rescue" only, once it has learned one):
#' list(mean, sd), matrices with a row per point and a column per objective (in its own sense) then
#' per constraint metric, of E[outcome | do(options = x), fidelity] and its standard deviation. x
#' and fidelity as in rescue_predict.
rescue_causal_estimates <- function(opt, x, fidelity) {
  info <- rescue_info(opt)
  x <- .points(x, info$options)
  if (length(fidelity) == 1) fidelity <- rep(fidelity, nrow(x))
  .check_fidelities(fidelity, nrow(x))
  h <- .handle(opt)
  flat <- as.numeric(t(x))
  s <- as.numeric(fidelity)
  mean <- .rescue(Optimizer_causalMeans(h, flat, s))
  sd <- .rescue(Optimizer_causalSds(h, flat, s))
  cols <- c(info$objectives, info$constraints)
  list(mean = matrix(mean, nrow = nrow(x), byrow = TRUE, dimnames = list(NULL, cols)),
       sd = matrix(sd, nrow = nrow(x), byrow = TRUE, dimnames = list(NULL, cols)))
}

#' The causal graph the model uses, as text: Graphviz DOT (format "dot") or JSON ("json": nodes with
#' their roles, edges with whether they are directed). as_discovered = TRUE gives the graph as
#' discovery produced it (PC's partially directed graph, for instance) rather than the DAG the
#' structural equations are fitted on. A categorical option appears as one variable "name=label"
#' per level but the first.
rescue_causal_graph <- function(opt, format = c("dot", "json"), as_discovered = FALSE) {
  format <- match.arg(format)
  .rescue(Optimizer_causalGraph(.handle(opt), format == "json", isTRUE(as_discovered)))
}

#' The edges of the causal graph (rescue_causal_graph's DAG, or with as_discovered = TRUE the graph
#' as discovery produced it) as a data frame: from, to, directed (FALSE for an edge discovery left
#' unoriented), weight (the edge's coefficient, at full precision, where the method gives one, as
#' DirectLiNGAM does; else NA). rescue_set_dag takes it back.
rescue_causal_edges <- function(opt, as_discovered = FALSE) {
  g <- jsonlite::fromJSON(rescue_causal_graph(opt, "json", as_discovered), simplifyVector = FALSE)
  field <- function(name, type, missing) vapply(g$edges, function(e) if (is.null(e[[name]])) missing else e[[name]], type)
  data.frame(from = field("from", "", NA_character_), to = field("to", "", NA_character_),
             directed = field("directed", TRUE, NA), weight = field("weight", 0, NA_real_), stringsAsFactors = FALSE)
}

#' Replaces causal discovery with your own DAG, used from the next suggestion on: JSON text
#' ({"edges": [{"from": name, "to": name}, ...]}, as rescue_causal_graph writes it), or the edges
#' as (from, to) names: a data frame or matrix (columns `from` and `to` taken by name, as
#' rescue_causal_edges writes them; unnamed, the first two columns), or a list of c(from, to) pairs.
#' Zero rows (or list()) is the DAG without edges. NULL goes back to discovery. Returns opt,
#' invisibly.
rescue_set_dag <- function(opt, dag) {
  h <- .handle(opt)
  if (is.null(dag)) {
    .rescue(Optimizer_clearDag(h))
    return(invisible(opt))
  }
  if (!(is.character(dag) && length(dag) == 1 && is.null(dim(dag)))) {
    refuse <- function(why) stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], paste0(
      "a DAG is JSON text or (from, to) pairs of names: a data frame or matrix, or a list of pairs (", why, ")")))
    if (is.list(dag) && !is.data.frame(dag)) {
      if (!all(lengths(dag) == 2)) refuse("an element of the list is not a pair")
      edges <- matrix(as.character(unlist(dag)), ncol = 2, byrow = TRUE, dimnames = list(NULL, c("from", "to")))
    } else {
      if (is.null(dim(dag))) refuse("got a vector")
      if (!is.null(colnames(dag)) && all(c("from", "to") %in% colnames(dag))) {
        if ("directed" %in% colnames(dag) && !all(as.logical(dag[, "directed"]) %in% TRUE))
          refuse("an edge is not directed")
        dag <- dag[, c("from", "to"), drop = FALSE]
      }
      if (ncol(dag) != 2) refuse(sprintf("%d columns", ncol(dag)))
      edges <- matrix(as.character(as.matrix(dag)), ncol = 2, dimnames = list(NULL, c("from", "to")))
    }
    if (anyNA(edges)) refuse("a name is NA")
    dag <- as.character(jsonlite::toJSON(list(edges = as.data.frame(edges, stringsAsFactors = FALSE))))
  }
  .rescue(Optimizer_setDag(h, dag))
  invisible(opt)
}

#' Requires (required = TRUE) or forbids (FALSE) the causal edge from -> to in discovery. Returns
#' opt, invisibly.
rescue_constrain_edge <- function(opt, from, to, required = TRUE) {
  if (length(from) != 1 || length(to) != 1 || is.na(from) || is.na(to))
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], "an edge is one name `from` and one name `to`"))
  if (!is.logical(required) || length(required) != 1 || is.na(required))
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]], "`required` is TRUE (require the edge) or FALSE (forbid it)"))
  .rescue(Optimizer_constrainEdge(.handle(opt), as.character(from), as.character(to), required))
  invisible(opt)
}

#' Adds observational data: a matrix or data frame whose columns are the options, the fidelity,
#' the indicators, the objectives and the constraint metrics, in that order (NA: missing).
rescue_add_observational <- function(opt, rows) {
  numeric_or_missing <- function(v) is.numeric(v) || all(is.na(v))
  if (if (is.data.frame(rows)) !all(vapply(rows, numeric_or_missing, TRUE)) else !numeric_or_missing(rows))
    stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]],
                          "observational rows hold numbers (NA: missing); a text or factor column is not read as missing"))
  rows <- as.matrix(rows)
  invisible(.rescue(Optimizer_addObservational(.handle(opt), as.numeric(t(rows)), ncol(rows))))
}

#' The checkpoint text.
rescue_save <- function(opt) .rescue(Optimizer_save(.handle(opt)))

#' Writes a checkpoint file atomically.
rescue_save_file <- function(opt, path) invisible(.rescue(Optimizer_saveFile(.handle(opt), path.expand(.str1(path, "a path")))))

#' Runs the ask/tell loop until the budget is spent, calling `f(x, fidelity)` for each
#' suggestion, `x` named after the options; f returns the objective values, or a list: either
#' list(objectives, constraints) by position or any of `objectives`, `constraints` and
#' `indicators` by name. An error in f, or a result the library refuses, marks the evaluation as
#' failed and is signalled again.
#' `problem` is a rescue_problem (an optimizer is created and closed) or a rescue_optimizer.
#' `progress`, when given, is called as progress(opt) after every observation. Returns
#' rescue_pareto().
rescue_optimize <- function(f, problem, progress = NULL) {
  own <- inherits(problem, "rescue_problem")
  opt <- if (own) rescue_optimizer(problem) else problem
  if (own) on.exit(close(opt))
  names_x <- rescue_info(opt)$options
  while (!rescue_done(opt)) {
    s <- tryCatch(rescue_suggest(opt), rescue_error = function(e) {
      if (e$status == RESCUE_STATUS[["BUDGET_EXHAUSTED"]]) NULL else stop(e)
    })
    if (is.null(s)) break
    y <- withCallingHandlers(f(setNames(s$x, names_x), s$fidelity), error = function(e) rescue_fail(opt, s$ticket))
    # A result the library refuses (wrong sizes, NA) fails the evaluation rather than leaving it pending.
    withCallingHandlers({
      if (!is.list(y)) {
        rescue_observe(opt, s$ticket, y)
      } else if (is.null(names(y))) {
        rescue_observe(opt, s$ticket, y[[1]], if (length(y) > 1) y[[2]] else numeric(0))
      } else {
        unknown <- setdiff(names(y), c("objectives", "constraints", "indicators"))
        if (length(unknown))
          stop(rescue_condition(RESCUE_STATUS[["INVALID_ARGUMENT"]],
                                paste0("the evaluation returned unknown element(s) ", paste(unknown, collapse = ", "),
                                       " (known: objectives, constraints, indicators)")))
        rescue_observe(opt, s$ticket, y$objectives, if (is.null(y$constraints)) numeric(0) else y$constraints,
                       if (is.null(y$indicators)) numeric(0) else y$indicators)
      }
    }, rescue_error = function(e) rescue_fail(opt, s$ticket))
    if (!is.null(progress)) progress(opt)
  }
  rescue_pareto(opt)
}

#' Starts a crash-safe journal: every state change is synced to the file before it returns.
rescue_journal_open <- function(opt, path) invisible(.rescue(Optimizer_journalOpen(.handle(opt), path.expand(.str1(path, "a path")))))

#' Detaches the journal; the file stays resumable.
rescue_journal_close <- function(opt) invisible(.rescue(Optimizer_journalClose(.handle(opt))))

#' An optimizer rebuilt from a journal (which stays attached).
rescue_journal_resume <- function(path) .adopt(.rescue(Optimizer_journalResume(path.expand(.str1(path, "a path")))))
