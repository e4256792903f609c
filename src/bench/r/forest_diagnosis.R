# Why `rescue` gains or not on a forest problem (forest_bench.R --diagnose): how well each fidelity
# ranks configurations as the target does, the graph the causal model learns, how much the fitted
# surrogate relies on the causal estimates, and how well it predicts held-out evaluations in each
# band of fidelities beside `hvkg`'s surrogate on the same data. The last three come from replaying
# `rescue`'s run files: the run's observational rows and evaluations, recomputed (every metric is a
# deterministic function of configuration, fidelity and seed), given to a fresh optimizer that then
# makes one suggestion, so that its models are learned and fitted as at the run's end. Sourced by
# forest_bench.R, whose helpers (observational_rows, new_optimizer, memo_evaluator) it uses; of the
# options it reads --problems, --seeds, --first-seed, --out, --report and --quick.

# Spearman correlation of each output (objectives, then constraint metrics) at each fidelity with
# the same output at the target, over n configurations drawn uniformly with the seed: a matrix with
# a row per fidelity.
forest_fidelity_ranks <- function(problem, evaluate, n, seed, fidelities) {
  set.seed(seed)
  configs <- lapply(seq_len(n), function(i) draw_configuration(problem$options))
  fidelities <- sort(unique(c(fidelities, problem$fidelity[["target"]])))
  outputs <- c(names(problem$objectives), vapply(problem$constraints, function(con) con[[1]], ""))
  values <- lapply(fidelities, function(s) t(vapply(configs, function(x) {
    e <- evaluate(x, s)
    c(e$objectives, e$constraints)
  }, numeric(length(outputs)))))
  target <- values[[which(fidelities == problem$fidelity[["target"]])]]
  ranks <- t(vapply(values, function(v) vapply(seq_along(outputs), function(o)
    stats::cor(v[, o], target[, o], method = "spearman"), 0), numeric(length(outputs))))
  dimnames(ranks) <- list(format(fidelities), outputs)
  ranks
}

# Held-out errors by band of fidelities: for observed values y, leave-one-out means m and standard
# deviations sd (matrices, a column per output) and the observations' fidelities s, a list of two
# matrices with a row per band [lower, upper) (the last band closed) and a column per output: the
# root mean square of (y - m) / sd, and of y - m. NA where a band holds no observation.
loo_by_band <- function(y, m, sd, s, breaks) {
  band <- findInterval(s, breaks, rightmost.closed = TRUE)
  per_band <- function(f) t(vapply(seq_len(length(breaks) - 1), function(b) {
    rows <- band == b
    if (!any(rows)) return(rep(NA_real_, ncol(y)))
    sqrt(colMeans(f(rows)^2))
  }, numeric(ncol(y))))
  labels <- sprintf("[%g, %g%s", head(breaks, -1), breaks[-1], c(rep(")", length(breaks) - 2), "]"))
  z <- per_band(function(rows) (y[rows, , drop = FALSE] - m[rows, , drop = FALSE]) / sd[rows, , drop = FALSE])
  err <- per_band(function(rows) y[rows, , drop = FALSE] - m[rows, , drop = FALSE])
  dimnames(z) <- dimnames(err) <- list(labels, colnames(y))
  list(rms_z = z, rmse = err, count = tabulate(band, length(breaks) - 1))
}

# The replay of one `rescue` run file into a fresh optimizer of each strategy in `models`: for each,
# the held-out errors by band (loo_by_band) and, for "rescue", the prior's weights and the edges of
# the DAG its structural equations are fitted on ("from -> to").
replay_run <- function(problem, evaluate, path, seed, models, breaks) {
  lines <- readLines(path)
  runs <- utils::read.csv(text = grep("^#", lines, value = TRUE, invert = TRUE), check.names = FALSE)
  xs <- as.matrix(runs[, paste0("x.", problem$options$name), drop = FALSE])
  meta <- sub("^# ", "", grep("^# [a-z_]+=", lines, value = TRUE))
  n_rows <- as.integer(sub("^observational_rows=", "", grep("^observational_rows=", meta, value = TRUE)))
  rows <- observational_rows(problem, evaluate, seed, n_rows)
  evaluations <- lapply(seq_len(nrow(xs)), function(i) evaluate(xs[i, ], runs$fidelity[i]))
  y <- t(vapply(evaluations, function(e) c(e$objectives, e$constraints),
                numeric(length(problem$objectives) + length(problem$constraints))))
  colnames(y) <- c(names(problem$objectives), vapply(problem$constraints, function(con) con[[1]], ""))
  unit <- exp(problem$cost_rate)
  out <- list()
  for (model in models) {
    opt <- new_optimizer(problem, model, seed, 1e6 * unit, 0, list())
    if (!is.null(rows)) rescue_add_observational(opt, rows)
    for (i in seq_along(evaluations)) {
      e <- evaluations[[i]]
      rescue_observe_at(opt, xs[i, ], runs$fidelity[i], e$objectives, e$constraints, e$indicators)
    }
    rescue_suggest(opt)  # learns the causal model and fits the surrogate, as a run's next step would
    cv <- rescue_cross_validate(opt)
    r <- list(loo = loo_by_band(y, cv$mean, cv$sd, runs$fidelity, breaks))
    if (model == "rescue") {
      r$weights <- rescue_prior_weights(opt)
      e <- rescue_causal_edges(opt)
      r$edges <- paste(e$from, e$to, sep = " -> ")
    }
    close(opt)
    out[[model]] <- r
  }
  out
}

.md_table <- function(m, digits = 3, first = "") {
  fmtd <- ifelse(is.na(m), "-", formatC(m, digits = digits, format = "f"))
  c(paste0("| ", first, " | ", paste(colnames(m), collapse = " | "), " |"),
    paste0("|", strrep("---|", ncol(m) + 1)),
    vapply(seq_len(nrow(m)), function(i) paste0("| ", rownames(m)[i], " | ", paste(fmtd[i, ], collapse = " | "), " |"), ""))
}

# The report for one problem (markdown lines) from the rank table and the replays of its seeds.
diagnosis_markdown <- function(problem, ranks, replays, models, n_ranks) {
  md <- c(paste0("## ", problem$name), "",
          sprintf("**Fidelity ranks.** Spearman correlation of each output with its value at the target, over %d uniformly drawn configurations:", n_ranks),
          "", .md_table(ranks, first = "fidelity"), "")
  if (!length(replays)) return(c(md, "No `rescue` run file to replay.", ""))
  seeds <- names(replays)
  edges <- table(unlist(lapply(replays, function(r) unique(r$rescue$edges))))
  edges <- sort(edges, decreasing = TRUE)
  md <- c(md, sprintf("**Learned graph.** Edges of the fitted DAG at the end of the run, in how many of the %d replayed runs (seeds %s):",
                      length(seeds), paste(seeds, collapse = ", ")), "",
          paste0("- `", names(edges), "`: ", as.integer(edges)), "")
  scale <- do.call(rbind, lapply(replays, function(r) r$rescue$weights$scale))
  w <- vapply(replays, function(r) r$rescue$weights$kernel_weight, 0)
  in_use <- vapply(replays, function(r) r$rescue$weights$in_use, TRUE)
  summary_rows <- rbind(mean = colMeans(scale), min = apply(scale, 2, min), max = apply(scale, 2, max))
  md <- c(md, sprintf("**Causal scale.** The scale a_m of each output's causal estimate in the fitted prior mean (`rescue_prior_weights`); the prior is in use in %d of %d runs, causal kernel weight w %.3g on average:",
                      sum(in_use), length(in_use), mean(w)), "", .md_table(summary_rows, first = "a_m"), "")
  for (what in c("rmse", "rms_z")) {
    title <- if (what == "rmse") "root mean square error" else "root mean square of the standardized error (near 1: calibrated)"
    md <- c(md, sprintf("**Held-out errors by fidelity band, %s** (leave-one-out, `rescue_cross_validate`; mean over the runs, %s):",
                        title, paste(sprintf("`%s`", models), collapse = " then ")), "")
    tables <- lapply(models, function(m) {
      arr <- simplify2array(lapply(replays, function(r) r[[m]]$loo[[what]]))
      t <- apply(arr, c(1, 2), mean, na.rm = TRUE)
      t[is.nan(t)] <- NA
      colnames(t) <- paste0(colnames(t), " (", m, ")")
      t
    })
    both <- do.call(cbind, tables)
    counts <- rowSums(vapply(replays, function(r) r[[models[1]]]$loo$count, numeric(nrow(both))))
    rownames(both) <- sprintf("%s (%d)", rownames(both), as.integer(counts))
    md <- c(md, .md_table(both[, order(rep(seq_len(ncol(tables[[1]])), length(models))), drop = FALSE], first = "band (evaluations)"), "")
  }
  md
}

run_diagnosis <- function(opts) {
  models <- c("rescue", "hvkg")
  breaks <- c(0.03, 0.25, 0.5, 0.75, 1)
  n_ranks <- if (opts$quick) 5 else 40
  fidelities <- if (opts$quick) c(0.1, 0.5) else c(0.03, 0.1, 0.25, 0.5, 0.75)
  md <- c("# Forest problems: diagnosis", "",
          paste0("Command: `Rscript src/bench/r/forest_bench.R ", opts$command, "`"), "",
          "Replays of `rescue`'s run files: the run's observational rows and evaluations given to a fresh optimizer of each strategy, which makes one suggestion so that its models are fitted as at the run's end. For `rescue` the leave-one-out prior is the causal model learned from all the data, the held-out point included, so its errors read somewhat smaller than a refit would make them.", "")
  for (name in opts$problems) {
    problem <- forest_problem(name)
    evaluate <- memo_evaluator(problem)
    ranks <- forest_fidelity_ranks(problem, evaluate, n_ranks, 1L, fidelities)
    replays <- list()
    for (seed in opts$first_seed + seq_len(opts$seeds) - 1) {
      path <- file.path(opts$out, "runs", name, "rescue", paste0("seed-", seed, ".csv"))
      if (!file.exists(path)) next
      t0 <- proc.time()[["elapsed"]]
      replays[[as.character(seed)]] <- replay_run(problem, memo_evaluator(problem), path, seed, models, breaks)
      cat(sprintf("%s seed %d replayed, %.0f s\n", name, seed, proc.time()[["elapsed"]] - t0))
    }
    md <- c(md, diagnosis_markdown(problem, ranks, replays, models, n_ranks))
    if (length(replays)) {
      in_use <- vapply(replays, function(r) r$rescue$weights$in_use, TRUE)
      cat(sprintf("%s: the causal prior in use in %d of %d replays\n", name, sum(in_use), length(in_use)))
    }
  }
  report <- if (is.null(opts$report)) file.path(opts$out, "forest-diagnosis.md") else opts$report
  writeLines(md, report)
  cat("wrote", report, "\n")
}
