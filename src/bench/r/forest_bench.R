# Runs the forest problems (forest_hpo.R) under the experiment protocol through the rescue R
# package, as rescue-bench runs its own problems, and writes run files in rescue-bench's format
# (docs/results/README.md, "Run files"), so that `rescue-bench --summarize-only` summarizes them.
#
#   Rscript src/bench/r/forest_bench.R --out DIR [--problems forest-hpo,forest-hpo-constrained]
#       [--strategies rescue,hvkg,ehvi,momf,random] [--seeds 20] [--first-seed 1] [--budget 10]
#       [--initial-budget 2] [--observational-rows 200] [--max-suggestions 200]
#       [--recommend-every 0.5] [--recommend-points 50] [--quick]
#   Rscript src/bench/r/forest_bench.R --check-max-hv [--problems ...] [--quick]
#   Rscript src/bench/r/forest_bench.R --diagnose --out DIR [--problems ...] [--seeds 20]
#       [--report FILE] [--quick]     (forest_diagnosis.R; the report goes to DIR/forest-diagnosis.md)
#
# A complete run file with the same settings is not run again, so an interrupted benchmark resumes.
# Needs R_LIBS to hold the rescue package (a build installs it in <build>/bindings/r/library).

suppressPackageStartupMessages(library(rescue))
here <- dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
source(file.path(here, "forest_hpo.R"))
source(file.path(here, "forest_diagnosis.R"))

parse_args <- function(args) {
  opts <- list(out = NULL, problems = "forest-hpo,forest-hpo-constrained", strategies = "rescue,hvkg,ehvi,momf,random",
               seeds = 20, first_seed = 1, budget = NA, initial_budget = 2, observational_rows = 200,
               max_suggestions = 200, recommend_every = 0.5, recommend_points = 50, quick = FALSE,
               check_max_hv = FALSE, diagnose = FALSE, report = NULL)
  i <- 1
  while (i <= length(args)) {
    key <- gsub("-", "_", sub("^--", "", args[i]))
    if (!key %in% names(opts)) stop("unknown argument '", args[i], "'")
    if (is.logical(opts[[key]])) {
      opts[[key]] <- TRUE
      i <- i + 1
      next
    }
    if (i == length(args)) stop("argument '", args[i], "' needs a value")
    value <- args[i + 1]
    opts[[key]] <- if (is.character(opts[[key]]) || is.null(opts[[key]])) value else as.numeric(value)
    if (!is.character(opts[[key]]) && is.na(opts[[key]])) stop("argument '", args[i], "': '", value, "' is not a number")
    i <- i + 2
  }
  if (opts$quick) {
    # What CI affords: one seed, two strategies, a fraction of a target unit, a small recommender.
    opts$seeds <- 1
    opts$strategies <- "random,rescue"
    opts$budget <- 0.3
    opts$initial_budget <- 0.3
    opts$observational_rows <- 30
    opts$recommend_every <- 0.3
    opts$recommend_points <- 10
    opts$max_suggestions <- 10
  }
  opts$command <- paste(args, collapse = " ")
  opts$problems <- strsplit(opts$problems, ",")[[1]]
  opts$strategies <- strsplit(opts$strategies, ",")[[1]]
  if (!opts$check_max_hv && is.null(opts$out)) stop("--out DIR is required")
  opts
}

fmt <- function(v) sprintf("%.17g", v)

# The objectives as minimized (a maximized one negated), as the hypervolume takes them.
to_min <- function(problem, y) ifelse(problem$objectives == "max", -1, 1) * y

# Evaluations are deterministic: a configuration already evaluated at a fidelity is not trained again.
memo_evaluator <- function(problem) {
  cache <- new.env(hash = TRUE, parent = emptyenv())
  function(x, s) {
    key <- paste(fmt(c(x, s)), collapse = " ")
    if (!is.null(cache[[key]])) return(cache[[key]])
    e <- problem$evaluate(x, s)
    cache[[key]] <- e
    e
  }
}

# Hypervolume at the target of the feasible members of a set of configurations (rows of x).
set_hypervolume <- function(problem, evaluate, x) {
  points <- NULL
  for (i in seq_len(nrow(x))) {
    e <- evaluate(x[i, ], problem$fidelity[["target"]])
    if (forest_feasible(problem, e$constraints)) points <- rbind(points, to_min(problem, e$objectives))
  }
  if (is.null(points)) return(0)
  rescue_hypervolume(points, to_min(problem, problem$reference_point))
}

# A run's observational rows (not in the budget; NULL for none): uniform configurations at uniform
# fidelities, the same for every strategy with the same seed, in the layout of
# rescue_add_observational. Leaves R's random stream where the run continues from.
observational_rows <- function(problem, evaluate, seed, n) {
  set.seed(seed)
  if (n <= 0) return(NULL)
  t(vapply(seq_len(n), function(i) {
    x <- draw_configuration(problem$options)
    s <- stats::runif(1, problem$fidelity[["lower"]], problem$fidelity[["upper"]])
    e <- evaluate(x, s)
    c(x, s, e$indicators, e$objectives, e$constraints)
  }, numeric(nrow(problem$options) + 1 + length(problem$indicators) + length(problem$objectives) +
               length(problem$constraints))))
}

new_optimizer <- function(problem, strategy, seed, budget, initial_budget, params) {
  p <- rescue_problem(problem$options, problem$objectives, fidelity = problem$fidelity,
                      constraints = problem$constraints, indicators = problem$indicators, seed = seed,
                      strategy = strategy, budget = budget, initial_budget = initial_budget, params = params,
                      reference_point = problem$reference_point, cost_rate = problem$cost_rate)
  on.exit(close(p))
  rescue_optimizer(p)
}

run_one <- function(problem, strategy, seed, settings) {
  evaluate <- memo_evaluator(problem)
  target <- problem$fidelity[["target"]]
  recommender <- list()
  if (settings$recommend_points > 0)
    recommender <- list(recommend.population = settings$recommend_points, recommend.points = settings$recommend_points)
  shared <- strategy != "random"
  # Without the shared recommender the strategy's own recommender is the measure, and it must be the
  # shared one's: fidelity levels at their values (as rescue-bench runs it).
  own_params <- c(recommender, if (!shared) list(gp.fidelity_levels = 0))
  # The budget in the library's units: one target evaluation costs exp(4.8).
  unit <- exp(problem$cost_rate)
  total <- settings$initial_budget + settings$budget
  opt <- new_optimizer(problem, strategy, seed, total * unit, settings$initial_budget * unit, own_params)
  on.exit(close(opt), add = TRUE)
  unit_lib <- rescue_cost(opt, problem$options$lower, target)
  if (abs(unit_lib - unit) > 1e-9 * unit) stop("the library's target cost differs from the problem's")
  shadow <- if (shared) new_optimizer(problem, "random", seed, total * unit, NULL,
                                      c(list(gp.fidelity_levels = 0), recommender)) else NULL
  if (!is.null(shadow)) on.exit(close(shadow), add = TRUE)

  rows <- observational_rows(problem, evaluate, seed, settings$observational_rows)
  observational_cost <- 0
  if (!is.null(rows)) {
    observational_cost <- sum(vapply(rows[, nrow(problem$options) + 1], function(s) rescue_cost(opt, problem$options$lower, s), 0)) / unit
    rescue_add_observational(opt, rows)
  }

  records <- list()
  evaluation_seconds <- 0
  last_hv <- 0
  last_own_hv <- 0
  last_recommend_cost <- -Inf
  stop_reason <- "suggestion limit"
  result <- tryCatch({
    for (it in seq_len(settings$max_suggestions)) {
      if (rescue_done(opt)) {
        stop_reason <- "budget spent"
        break
      }
      spent_before <- rescue_budget(opt)[["spent"]]
      t0 <- proc.time()[["elapsed"]]
      s <- tryCatch(rescue_suggest(opt), rescue_error = function(e) {
        if (e$status == RESCUE_STATUS[["BUDGET_EXHAUSTED"]]) NULL else stop(e)
      })
      suggest_seconds <- proc.time()[["elapsed"]] - t0
      if (is.null(s)) {
        stop_reason <- "budget spent"
        break
      }
      t1 <- proc.time()[["elapsed"]]
      e <- evaluate(s$x, s$fidelity)
      evaluation_seconds <- evaluation_seconds + proc.time()[["elapsed"]] - t1
      rescue_observe(opt, s$ticket, e$objectives, e$constraints, e$indicators)
      if (!is.null(shadow)) rescue_observe_at(shadow, s$x, s$fidelity, e$objectives, e$constraints, e$indicators)
      spent <- rescue_budget(opt)[["spent"]]
      cost <- spent / unit
      violated_at_target <- length(problem$constraints) > 0 && !forest_feasible(problem, evaluate(s$x, target)$constraints)
      last <- rescue_done(opt) || it == settings$max_suggestions
      recommended <- -1
      recommend_seconds <- 0
      if (settings$recommend_every <= 0 || last || cost - last_recommend_cost >= settings$recommend_every) {
        t2 <- proc.time()[["elapsed"]]
        own <- rescue_pareto(opt)$x
        last_own_hv <- set_hypervolume(problem, evaluate, own)
        recommended <- nrow(own)
        if (!is.null(shadow)) {
          common <- rescue_pareto(shadow)$x
          last_hv <- set_hypervolume(problem, evaluate, common)
          recommended <- nrow(common)
        } else {
          last_hv <- last_own_hv
        }
        recommend_seconds <- proc.time()[["elapsed"]] - t2
        last_recommend_cost <- cost
      }
      records[[it]] <- c(it, spent_before < settings$initial_budget * unit &&
                           spent <= settings$initial_budget * unit * (1 + 1e-12),
                         cost, s$fidelity, s$x, last_hv, NaN,
                         !forest_feasible(problem, e$constraints), violated_at_target, suggest_seconds, recommend_seconds,
                         recommended, last_own_hv)
    }
    if (stop_reason == "suggestion limit" && rescue_done(opt)) stop_reason <- "budget spent"
    stop_reason
  }, error = function(err) paste("error:", conditionMessage(err)))
  list(records = records, stop_reason = result, observational_cost = observational_cost,
       evaluation_seconds = evaluation_seconds)
}

write_run <- function(path, problem, strategy, seed, settings, run) {
  dir.create(dirname(path), recursive = TRUE, showWarnings = FALSE)
  meta <- c("# rescue-bench run", paste0("# problem=", problem$name), paste0("# strategy=", strategy),
            paste0("# seed=", seed), paste0("# budget=", fmt(settings$budget)),
            paste0("# initial_budget=", fmt(settings$initial_budget)),
            paste0("# observational_rows=", settings$observational_rows),
            paste0("# max_suggestions=", settings$max_suggestions),
            paste0("# recommend_every=", fmt(settings$recommend_every)),
            if (settings$recommend_points > 0) paste0("# recommend_points=", settings$recommend_points),
            if (strategy != "random") "# shared_recommender=1",
            paste0("# hv_max=", fmt(NaN)), paste0("# target_fidelity=", fmt(problem$fidelity[["target"]])),
            paste0("# observational_cost=", fmt(run$observational_cost)),
            if (run$evaluation_seconds > 0) paste0("# evaluation_seconds=", fmt(run$evaluation_seconds)))
  header <- paste(c("iteration", "initial", "cumulative_cost", "fidelity", paste0("x.", problem$options$name),
                    "inferred_hv", "log10_regret", "best_log10_regret", "violated", "violated_at_target",
                    "suggest_seconds", "recommend_seconds", "recommended", "own_inferred_hv"), collapse = ",")
  d <- nrow(problem$options)
  best <- Inf
  lines <- vapply(run$records, function(r) {
    best <<- min(best, r[6 + d])
    cells <- c(sprintf("%d", r[1]), sprintf("%d", r[2]), fmt(r[3:(4 + d)]), fmt(r[5 + d]), fmt(r[6 + d]), fmt(best),
               sprintf("%d", r[7 + d]), sprintf("%d", r[8 + d]), fmt(r[9 + d]), fmt(r[10 + d]),
               sprintf("%d", r[11 + d]), fmt(r[12 + d]))
    paste(cells, collapse = ",")
  }, "")
  tmp <- paste0(path, ".tmp")
  writeLines(c(meta, header, lines, paste0("# complete stop=", run$stop_reason)), tmp)
  file.rename(tmp, path)
}

# Whether a complete run file with these settings exists. Run files carry no maximum
# hypervolume (hv_max and the regret columns are NaN): rescue-bench's summary measures regret
# against the one it stores.
already_done <- function(path, problem, strategy, settings) {
  if (!file.exists(path)) return(FALSE)
  lines <- readLines(path)
  if (!length(lines) || !startsWith(lines[length(lines)], "# complete")) return(FALSE)
  meta <- sub("^# ", "", grep("^# [a-z_]+=", lines, value = TRUE))
  values <- setNames(sub("^[^=]*=", "", meta), sub("=.*$", "", meta))
  want <- c(budget = fmt(settings$budget), initial_budget = fmt(settings$initial_budget),
            observational_rows = as.character(settings$observational_rows),
            max_suggestions = as.character(settings$max_suggestions), recommend_every = fmt(settings$recommend_every))
  isTRUE(all(values[names(want)] == want)) &&
    identical(unname(values["recommend_points"]), if (settings$recommend_points > 0) as.character(settings$recommend_points) else NA_character_)
}

run_experiment <- function(opts) {
  for (name in opts$problems) {
    problem <- forest_problem(name)
    settings <- opts
    if (is.na(settings$budget)) settings$budget <- problem$budget
    for (seed in opts$first_seed + seq_len(opts$seeds) - 1)
      for (strategy in opts$strategies) {
        path <- file.path(opts$out, "runs", name, strategy, paste0("seed-", seed, ".csv"))
        if (already_done(path, problem, strategy, settings)) next
        t0 <- proc.time()[["elapsed"]]
        run <- run_one(problem, strategy, seed, settings)
        write_run(path, problem, strategy, seed, settings, run)
        cat(sprintf("%s %s seed %d: %d iterations, %s, %.0f s\n", name, strategy, seed, length(run$records),
                    run$stop_reason, proc.time()[["elapsed"]] - t0))
      }
  }
}

# The search behind the stored maximum (src/bench/problem_registry.cpp): the union of the fronts of the searches of seeds 1 and 2
# (one small search with --quick) and of the configurations of the run files under --out, if any,
# evaluated at the target; the precision is the worse search's shortfall against the union.
check_max_hv <- function(opts) {
  for (name in opts$problems) {
    problem <- forest_problem(name)
    extra <- NULL
    if (!is.null(opts$out)) {
      files <- list.files(file.path(opts$out, "runs", name), pattern = "^seed-[0-9]+[.]csv$", recursive = TRUE,
                          full.names = TRUE)
      for (f in files) {
        rows <- utils::read.csv(text = grep("^#", readLines(f), value = TRUE, invert = TRUE))
        extra <- rbind(extra, as.matrix(rows[, paste0("x.", make.names(problem$options$name))]))
      }
      if (!is.null(extra)) extra <- unique(extra)
    }
    searches <- lapply(if (opts$quick) 1L else 1:2, function(seed)
      forest_max_hypervolume(problem, seed = seed, extra = if (seed == 1L) extra else NULL, quick = opts$quick))
    ys <- do.call(rbind, lapply(searches, function(r) r$y))
    ref <- ifelse(problem$objectives == "max", -1, 1) * problem$reference_point
    union <- rescue_hypervolume(ys[rescue_pareto_filter(ys), , drop = FALSE], ref)
    values <- vapply(searches, function(r) r$value, 0)
    cat(sprintf("%s: %.17g, precision %.17g (searches %s; %d evaluations at the target, %d from run files)\n",
                name, union, union - min(values), paste(sprintf("%.6g", values), collapse = ", "),
                sum(vapply(searches, function(r) r$evaluations, 0L)), NROW(extra)))
  }
}

opts <- parse_args(commandArgs(trailingOnly = TRUE))
if (opts$check_max_hv) check_max_hv(opts) else if (opts$diagnose) run_diagnosis(opts) else run_experiment(opts)
