# Tests of the R package. The checkpoint written by the C reference program is read from
# $RESCUE_CHECKPOINT_IN; this test writes its own to $RESCUE_CHECKPOINT_OUT (when set).

reference_problem <- function() {
  rescue_builtin_problem("branin-currin", seed = 7, strategy = "cost-aware-random", budget = 1000)
}

run <- function(opt, problem, max_obs = Inf) {
  n <- 0
  while (!rescue_done(opt) && n < max_obs) {
    s <- tryCatch(rescue_suggest(opt), rescue_error = function(e) {
      expect_equal(e$status, RESCUE_STATUS[["BUDGET_EXHAUSTED"]])
      NULL
    })
    if (is.null(s)) break
    rescue_observe(opt, s$ticket, rescue_evaluate(problem, s$x, s$fidelity)$objectives)
    n <- n + 1
  }
}

# Every observation (comparing these needs no model fit).
history <- function(opt) rescue_observations(opt)

problem <- reference_problem()
reference <- local({
  opt <- rescue_optimizer(problem)
  run(opt, problem)
  on.exit(close(opt))
  history(opt)
})

test_that("version and strategies", {
  expect_match(rescue_version(), "^[0-9]+\\.[0-9]+\\.[0-9]+$")
  expect_true("cost-aware-random" %in% rescue_strategies())
  expect_equal(rescue_status_string(RESCUE_STATUS[["UNKNOWN_TICKET"]]), "unknown ticket")
})

test_that("parameters are listed, read back and checked", {
  params <- rescue_parameters()
  expect_true(nrow(params) >= 20)
  repair <- params[params$name == "rescue.repair", ]
  expect_equal(c(repair$default, repair$lower, repair$upper), c(2, 0, 2))
  expect_equal(repair$kind, "integer")
  p <- rescue_builtin_problem("branin-currin", params = list(rescue.weight = 0.25))
  expect_equal(rescue_get_param(p, "rescue.weight"), 0.25)
  expect_equal(rescue_get_param(p, "kg.fantasies"), params$default[params$name == "kg.fantasies"])
  e <- tryCatch(rescue_builtin_problem("branin-currin", params = list(rescue.weight = 1.5)),
                rescue_error = function(e) e)
  expect_equal(e$status, RESCUE_STATUS[["OUT_OF_RANGE"]])
  expect_match(conditionMessage(e), "[0, 1]", fixed = TRUE)
  expect_error(rescue_get_param(p, "kg.fantasy"), "kg.fantasies", class = "rescue_error")
  close(p)
})

test_that("bad input is an R error condition with the library's message", {
  e <- tryCatch(rescue_builtin_problem("no-such-problem"), rescue_error = function(e) e)
  expect_s3_class(e, "rescue_error")
  expect_equal(e$status, RESCUE_STATUS[["UNKNOWN_NAME"]])
  expect_match(conditionMessage(e), "unknown benchmark problem 'no-such-problem'", fixed = TRUE)
  expect_error(rescue_builtin_problem("branin-currin", strategy = "no-such-strategy"), "no-such-strategy",
               class = "rescue_error")
  opt <- rescue_optimizer(problem)
  s <- rescue_suggest(opt)
  expect_error(rescue_observe(opt, s$ticket, c(1, 2, 3)), "objective values: length 3", class = "rescue_error")
  e <- tryCatch(rescue_observe(opt, s$ticket + 100L, c(1, 2)), rescue_error = function(e) e)
  expect_equal(e$status, RESCUE_STATUS[["UNKNOWN_TICKET"]])
  expect_equal(rescue_pending(opt), s$ticket)
  rescue_cancel(opt, s$ticket)
  expect_equal(rescue_budget(opt), c(spent = 0, pending = 0, total = 1000))
  close(opt)
  expect_error(rescue_load("garbage"), "not a RESCUE checkpoint", class = "rescue_error")
})

test_that("scalar arguments take integers and refuse anything but one number", {
  status <- function(expr) tryCatch({ expr; RESCUE_STATUS[["OK"]] }, rescue_error = function(e) e$status)
  p <- rescue_builtin_problem("healthcare", budget = 20L, initial_budget = 5L, params = list(rescue.discovery = 1L))
  expect_equal(rescue_get_param(p, "rescue.discovery"), 1)
  expect_equal(rescue_evaluate(p, c(25, 0.5), 1L), rescue_evaluate(p, c(25, 0.5), 1))
  opt <- rescue_optimizer(p)
  expect_equal(rescue_budget(opt)[["total"]], 20)
  expect_equal(rescue_cost(opt, c(25, 0.5), 1L), rescue_cost(opt, c(25, 0.5), 1))
  for (bad in list(numeric(0), c(1, 0), "1")) {
    expect_equal(status(rescue_builtin_problem("healthcare", params = list(rescue.discovery = bad))),
                 RESCUE_STATUS[["INVALID_ARGUMENT"]])
    expect_equal(status(rescue_builtin_problem("healthcare", budget = bad)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
    expect_equal(status(rescue_evaluate(p, c(25, 0.5), bad)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
    expect_equal(status(rescue_observe_at(opt, c(25, 0.5), bad, c(1, 1), 0)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  }
  expect_equal(rescue_info(opt)$observational + nrow(rescue_observations(opt)), 0)
  expect_equal(status(rescue_builtin_problem("healthcare", budget = NA)), RESCUE_STATUS[["NON_FINITE"]])
  close(opt)
  close(p)
  own <- function(...) rescue_problem(data.frame(name = c("a", "b"), lower = c(0L, 1L), upper = c(1L, 3L)),
                                      c(f = "min"), ...)
  q <- own(fidelity = c(1L, 10L, 10L), cost_rate = 2L)
  qo <- rescue_optimizer(q)
  expect_equal(rescue_info(qo)$bounds$upper, c(1, 3))
  expect_equal(rescue_info(qo)$target_fidelity, 10)
  close(qo)
  close(q)
  expect_equal(status(own(fidelity = c(1, 10))), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(own(fidelity = list(levels = c(1, 2), target = c(2, 2)))), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(own(constraints = list(list("g", 1:2, "<=")))), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  # Names, keys, paths, tickets and seeds: one value, not NA (an empty vector was read past its end).
  invalid <- RESCUE_STATUS[["INVALID_ARGUMENT"]]
  for (bad in list(character(0), NA_character_, c("healthcare", "park")))
    expect_equal(status(rescue_builtin_problem(bad)), invalid)
  for (bad in list(integer(0), NA, 2.5, c(1, 2))) expect_equal(status(own(seed = bad)), invalid)
  expect_equal(status(own(strategy = character(0))), invalid)
  expect_equal(status(rescue_problem(data.frame(name = NA_character_, lower = 0, upper = 1), "f")), invalid)
  expect_equal(status(rescue_problem(data.frame(name = "a", lower = 0, upper = 1), c("f", NA))), invalid)
  expect_equal(status(own(categorical = list(c = c("x", NA)))), invalid)
  expect_equal(status(own(constraints = list(list("g", 1, c("<=", ">="))))), invalid)
  expect_equal(status(rescue_problem(data.frame(name = character(0), lower = numeric(0), upper = numeric(0)), "f")),
               RESCUE_STATUS[["OK"]])
  h <- rescue_builtin_problem("healthcare")
  expect_equal(status(rescue_get_param(h, character(0))), invalid)
  opt <- rescue_optimizer(h)
  s <- rescue_suggest(opt)
  for (bad in list(integer(0), NA_integer_, 1.5, c(s$ticket, s$ticket))) {
    expect_equal(status(rescue_cancel(opt, bad)), invalid)
    expect_equal(status(rescue_fail(opt, bad)), invalid)
    expect_equal(status(rescue_observe(opt, bad, c(1, 1), 0)), invalid)
  }
  expect_equal(rescue_pending(opt), s$ticket)
  for (bad in list(character(0), NA_character_)) {
    expect_equal(status(rescue_save_file(opt, bad)), invalid)
    expect_equal(status(rescue_journal_open(opt, bad)), invalid)
    expect_equal(status(rescue_load_file(bad)), invalid)
    expect_equal(status(rescue_load(bad)), invalid)
  }
  expect_equal(status(rescue_status_string(integer(0))), invalid)
  close(opt)
  close(h)
})

test_that("close frees deterministically, twice is harmless, the finalizer frees the rest", {
  opt <- rescue_optimizer(problem)
  expect_equal(rescue_info(opt)$options, c("x1", "x2"))
  close(opt)
  expect_null(opt$ptr)
  close(opt)
  e <- tryCatch(rescue_suggest(opt), rescue_error = function(e) e)
  expect_equal(e$status, RESCUE_STATUS[["INVALID_STATE"]])
  expect_match(conditionMessage(e), "closed")
  for (i in 1:5) rescue_optimizer(problem)  # left to the finalizer
  expect_silent(gc())
})

test_that("a checkpoint from C continues the reference run", {
  opt <- rescue_load_file(Sys.getenv("RESCUE_CHECKPOINT_IN"))
  on.exit(close(opt))
  expect_gt(nrow(history(opt)), 0)
  run(opt, problem)
  expect_identical(history(opt), reference)
})

test_that("checkpoints for the other languages and in memory", {
  opt <- rescue_optimizer(problem)
  run(opt, problem, max_obs = 3)
  out <- Sys.getenv("RESCUE_CHECKPOINT_OUT")
  if (nzchar(out)) rescue_save_file(opt, out)
  text <- rescue_save(opt)
  close(opt)
  opt <- rescue_load(text)
  on.exit(close(opt))
  expect_equal(nrow(history(opt)), 3)
  run(opt, problem)
  expect_identical(history(opt), reference)
})

test_that("rescue_optimize drives the loop with an R function and returns matrices", {
  opt <- rescue_optimizer(problem)
  on.exit(close(opt))
  front <- rescue_optimize(function(x, s) rescue_evaluate(problem, x, s)$objectives, opt)
  expect_identical(history(opt), reference)
  expect_true(is.matrix(front$x) && is.matrix(front$y))
  expect_equal(ncol(front$x), 2)
  expect_equal(nrow(front$x), nrow(front$y))
  expect_gt(nrow(front$x), 0)
  failing <- rescue_optimizer(problem)
  expect_error(rescue_optimize(function(x, s) stop("simulator crashed"), failing), "simulator crashed")
  expect_true(rescue_observations(failing)$failed[1])
  close(failing)
})

test_that("rescue_optimize takes constraints and indicators by name and reports progress", {
  p <- rescue_problem(data.frame(name = c("a", "b"), lower = 0, upper = 1), c(f1 = "min", f2 = "min"),
                      constraints = list(list("g", 0.5, "<=")), indicators = "z", strategy = "random", seed = 3,
                      budget = 6)
  on.exit(close(p))
  seen <- list()
  calls <- 0
  front <- rescue_optimize(function(x, s) {
    seen[[length(seen) + 1]] <<- x
    list(indicators = x[["a"]] * x[["b"]], objectives = c(x[["a"]], 1 - x[["b"]]), constraints = x[["a"]])
  }, p, progress = function(opt) calls <<- calls + 1)
  expect_equal(calls, 6)
  expect_equal(names(seen[[1]]), c("a", "b"))
  expect_true(all(front$x[, "a"] <= 0.5))
  opt <- rescue_optimizer(p)
  on.exit(close(opt), add = TRUE)
  expect_error(rescue_optimize(function(x, s) list(objectives = c(0, 0), constraint = 1), opt), "unknown element")
  expect_equal(nrow(rescue_observations(opt)), 1)
  expect_true(rescue_observations(opt)$failed[1])
  # A result the library refuses (one objective of two, NA) fails the evaluation too.
  for (bad in list(function(x, s) 1, function(x, s) list(objectives = c(NA, 1), constraints = 0))) {
    e <- tryCatch(rescue_optimize(bad, opt), rescue_error = function(e) e)
    expect_s3_class(e, "rescue_error")
    expect_equal(rescue_pending(opt), integer(0))
    expect_true(tail(rescue_observations(opt)$failed, 1))
  }
  expect_equal(nrow(rescue_observations(opt)), 3)
})

test_that("a journal resumes where the run stopped", {
  path <- tempfile(fileext = ".journal")
  opt <- rescue_optimizer(problem)
  rescue_journal_open(opt, path)
  run(opt, problem, max_obs = 4)
  close(opt)
  opt <- rescue_journal_resume(path)
  on.exit(close(opt))
  expect_equal(nrow(history(opt)), 4)
  expect_true(rescue_info(opt)$journal_open)
  expect_false(rescue_info(opt)$journal_torn_tail)
  rescue_journal_close(opt)
  expect_false(rescue_info(opt)$journal_open)
  # A record cut short by a crash is ignored, and said so.
  cat("observe 7 0.5", file = path, append = TRUE)
  torn <- rescue_journal_resume(path)
  on.exit(close(torn), add = TRUE)
  expect_true(rescue_info(torn)$journal_torn_tail)
  expect_equal(nrow(history(torn)), 4)
  run(opt, problem)
  expect_identical(history(opt), reference)
})

test_that("a problem of one's own: options, levels, constraints, indicators, data", {
  p <- rescue_problem(options = data.frame(name = c("x", "n"), lower = c(0, 1), upper = c(1, 8),
                                           kind = c("continuous", "integer")),
                      objectives = c(err = "min", speed = "max"), fidelity = list(levels = c(0.5, 1), target = 1),
                      constraints = list(list("mem", 16, "<=")), indicators = "cache", seed = 3, budget = 100,
                      cost_levels = c(1, 10))
  on.exit(close(p))
  expect_error(rescue_problem(options = list(name = "x", lower = 0, upper = 1, kind = "cubic"), objectives = "f"),
               "unknown option kind 'cubic'", class = "rescue_error")
  opt <- rescue_optimizer(p)
  info <- rescue_info(opt)
  expect_equal(info$options, c("x", "n"))
  expect_equal(info$constraints, "mem")
  expect_equal(info$indicators, "cache")
  expect_equal(info$bounds, data.frame(name = c("x", "n"), lower = c(0, 1), upper = c(1, 8),
                                       kind = c("continuous", "integer"), stringsAsFactors = FALSE))
  expect_equal(info$senses, c(err = "min", speed = "max"))
  expect_equal(info$thresholds, c(mem = 16))
  expect_equal(info$constraint_senses, c(mem = "<="))
  expect_null(info$reference_point)
  expect_equal(info$observational, 0L)
  expect_false(info$journal_open)
  s <- rescue_suggest(opt)
  expect_equal(s$x[2], round(s$x[2]))
  rescue_observe(opt, s$ticket, c(0.25, 3), 12, NA_real_)
  obs <- rescue_observations(opt)
  expect_equal(unname(unlist(obs[1, c("err", "speed")])), c(0.25, 3))
  expect_equal(rescue_budget(opt)[["spent"]], rescue_cost(opt, s$x, s$fidelity))
  rescue_add_observational(opt, rbind(c(0.1, 3, 1, 0.5, 0.2, 2, 10)))
  expect_equal(rescue_info(opt)$observational, 1L)
  expect_error(rescue_add_observational(opt, rbind(c(0.1, 3, 1))), "observational rows need 7 columns",
               class = "rescue_error")
  close(opt)
})

test_that("the prior's weights: near 1 for logs of the same system, and only for rescue", {
  # Evaluations measure `truth`; the causal model learns from 80 logs of it.
  truth <- function(x) {
    z <- x[1] + x[2]
    list(z = z, y = c(2 * z + x[1]^2, (1 - x[1])^2 + 0.5 * x[2]))
  }
  make <- function(strategy) {
    rescue_problem(options = list(name = c("a", "b"), lower = c(0, 0), upper = c(1, 1)),
                   objectives = c(f1 = "min", f2 = "min"), fidelity = c(0, 1, 1), indicators = "z",
                   strategy = strategy, seed = 3, budget = 1e6, initial_budget = 0.05,
                   params = list(kg.pool = 16, kg.fantasies = 2, acq.starts = 8, acq.refine = 1,
                                 acq.refine_evals = 8, acq.mc_samples = 16, recommend.population = 12,
                                 recommend.generations = 4))
  }
  set.seed(11)
  logs <- t(sapply(1:80, function(i) {
    x <- runif(2)
    e <- truth(x)
    c(x, 1, e$z, e$y)
  }))
  weights_after <- function(strategy, steps) {
    p <- make(strategy)
    on.exit(close(p))
    opt <- rescue_optimizer(p)
    on.exit(close(opt), add = TRUE)
    rescue_add_observational(opt, logs)
    for (i in seq_len(steps)) {
      s <- rescue_suggest(opt)
      e <- truth(s$x)
      rescue_observe(opt, s$ticket, e$y, indicators = e$z)
    }
    rescue_prior_weights(opt)
  }
  w <- weights_after("rescue", 8)
  expect_equal(names(w$scale), c("f1", "f2"))
  expect_true(all(abs(w$scale - 1) < 0.3))
  expect_true(w$in_use)
  expect_gt(w$kernel_weight, 0)
  e <- tryCatch(weights_after("hvkg", 4), rescue_error = function(e) e)
  expect_equal(e$status, RESCUE_STATUS[["INVALID_STATE"]])
  expect_match(conditionMessage(e), "no causal prior")
})

test_that("the causal model: its graph, its estimates, a DAG of one's own and background knowledge", {
  p <- rescue_builtin_problem("healthcare", seed = 3)
  on.exit(close(p))
  opt <- rescue_optimizer(p)
  on.exit(close(opt), add = TRUE)
  status <- function(expr) tryCatch({ expr; RESCUE_STATUS[["OK"]] }, rescue_error = function(e) e$status)
  info <- rescue_info(opt)
  expect_equal(info$reference_point, c(Statin = 0.5, PSA = 5))
  expect_equal(info$senses, c(Statin = "min", PSA = "min"))
  expect_equal(info$constraint_senses, c(Cancer = "<="))
  expect_equal(status(rescue_causal_graph(opt)), RESCUE_STATUS[["INVALID_STATE"]])
  rows <- rescue_sample_observational(p, 150, seed = 5)
  expect_equal(dim(rows), c(150L, 6L))
  expect_equal(colnames(rows), c("BMI", "Aspirin", "fidelity", "Statin", "PSA", "Cancer"))
  expect_identical(rows, rescue_sample_observational(p, 150, seed = 5))
  expect_false(identical(rows, rescue_sample_observational(p, 150, seed = 6)))
  expect_equal(status(rescue_sample_observational(p, 0, seed = 5)), RESCUE_STATUS[["SIZE_MISMATCH"]])
  for (bad in list(NA, -1, 2.5, 2^31, c(1, 2), "7"))
    expect_equal(status(rescue_sample_observational(p, 5, seed = bad)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(rescue_sample_observational(p, 2.5, seed = 5)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  text_column <- as.data.frame(rows)
  text_column$PSA <- as.character(text_column$PSA)
  expect_equal(status(rescue_add_observational(opt, text_column)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(info$observational, 0)
  with_missing <- as.data.frame(rows)
  with_missing$Cancer <- NA
  other <- rescue_optimizer(p)
  rescue_add_observational(other, with_missing[1:3, ])
  expect_equal(rescue_info(other)$observational, 3)
  close(other)
  rescue_add_observational(opt, rows)

  dot <- rescue_causal_graph(opt)
  expect_match(dot, "^digraph")
  expect_match(dot, "\"BMI\"", fixed = TRUE)
  expect_match(rescue_causal_graph(opt, "json"), "\"edges\"", fixed = TRUE)
  expect_match(rescue_causal_graph(opt, "json", as_discovered = TRUE), "\"directed\"", fixed = TRUE)
  expect_error(rescue_causal_graph(opt, "xml"))

  # The estimates against the problem's equations (Statin depends on BMI and the fidelity only),
  # with the configurations given by position or, in any order, by name.
  x <- rbind(c(25, 0.5), c(21, 0.1))
  est <- rescue_causal_estimates(opt, x, 1)
  expect_equal(dimnames(est$mean), list(NULL, c("Statin", "PSA", "Cancer")))
  expect_true(all(est$sd >= 0))
  truth <- sapply(1:2, function(i) rescue_evaluate(p, x[i, ], 1)$objectives[1])
  expect_equal(unname(est$mean[, "Statin"]), truth, tolerance = 0.05, scale = 1)
  expect_gt(est$mean[1, "Statin"], est$mean[2, "Statin"])
  expect_equal(rescue_causal_estimates(opt, data.frame(Aspirin = x[, 2], BMI = x[, 1]), c(1, 1)), est)
  expect_equal(status(rescue_causal_estimates(opt, x, c(1, 1, 1))), RESCUE_STATUS[["SIZE_MISMATCH"]])
  five <- rbind(x, x, x[1, ])
  expect_equal(status(rescue_causal_estimates(opt, five, rep(1, 4))), RESCUE_STATUS[["SIZE_MISMATCH"]])
  # The same below the R layer: the wrapper itself must not read 5 points with 4 fidelities as 4.
  expect_equal(status(.rescue(Optimizer_causalMeans(opt$ptr, as.numeric(t(five)), rep(1, 4)))),
               RESCUE_STATUS[["SIZE_MISMATCH"]])
  # A named vector is taken by name; other columns of a data frame leave the numbers as they are.
  expect_identical(rescue_causal_estimates(opt, c(Aspirin = 0.5, BMI = 25), 1), rescue_causal_estimates(opt, c(25, 0.5), 1))
  expect_identical(rescue_causal_estimates(opt, data.frame(id = "a", BMI = 25.123456789, Aspirin = 0.5), 1),
                   rescue_causal_estimates(opt, c(25.123456789, 0.5), 1))
  expect_equal(status(rescue_causal_estimates(opt, c(25, 0.5, 21), 1)), RESCUE_STATUS[["SIZE_MISMATCH"]])
  expect_equal(status(rescue_predict(opt, c(25, 0.5, 21), 1)), RESCUE_STATUS[["SIZE_MISMATCH"]])
  expect_equal(status(rescue_predict(opt, x, c(1, 1, 1))), RESCUE_STATUS[["SIZE_MISMATCH"]])
  expect_equal(status(rescue_causal_estimates(opt, data.frame(BMI = factor(25), Aspirin = 0.5), 1)),
               RESCUE_STATUS[["INVALID_ARGUMENT"]])

  # A DAG of one's own, as pairs, as a data frame or as the JSON the graph is read back in.
  expect_equal(status(rescue_set_dag(opt, list(c("PSA", "BMI")))), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  dag <- rbind(c("BMI", "Statin"), c("fidelity", "Statin"), c("Statin", "PSA"))
  rescue_set_dag(opt, list(dag[1, ], dag[2, ], dag[3, ]))
  mine <- rescue_causal_graph(opt)
  expect_match(mine, "\"Statin\" -> \"PSA\"", fixed = TRUE)
  expect_equal(lengths(regmatches(mine, gregexpr("->", mine, fixed = TRUE))), 3L)
  edges <- rescue_causal_edges(opt)
  expect_setequal(paste(edges$from, edges$to), c("BMI Statin", "fidelity Statin", "Statin PSA"))
  expect_true(all(edges$directed))
  rescue_set_dag(opt, NULL)
  rescue_set_dag(opt, data.frame(from = dag[, 1], to = dag[, 2]))
  expect_identical(rescue_causal_graph(opt), mine)
  json <- rescue_causal_graph(opt, "json")
  rescue_set_dag(opt, NULL)
  rescue_set_dag(opt, json)
  expect_identical(rescue_causal_graph(opt), mine)
  # Names are quoted for JSON: one with a quote is an unknown name, not malformed text.
  expect_equal(status(rescue_set_dag(opt, list(c("B\"MI\\", "Statin")))), RESCUE_STATUS[["UNKNOWN_NAME"]])
  expect_equal(status(rescue_set_dag(opt, matrix(c("BMI", "Statin", "PSA"), 1))), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(rescue_set_dag(opt, list(c("BMI", "Statin"), "PSA"))), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  for (bad in list(character(0), numeric(0), matrix(character(0), 0, 3), data.frame(from = "BMI", to = "Statin", directed = FALSE)))
    expect_equal(status(rescue_set_dag(opt, bad)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_identical(rescue_causal_graph(opt), mine)  # a refused DAG changes nothing
  # Columns by name, in any order; the edges' own data frame goes back in.
  rescue_set_dag(opt, data.frame(to = dag[, 2], from = dag[, 1]))
  expect_identical(rescue_causal_graph(opt), mine)
  rescue_set_dag(opt, NULL)
  rescue_set_dag(opt, edges)
  expect_identical(rescue_causal_graph(opt), mine)
  # No edges at all is a DAG too.
  for (none in list(list(), data.frame(from = character(0), to = character(0)))) {
    rescue_set_dag(opt, none)
    expect_equal(nrow(rescue_causal_edges(opt)), 0)
  }

  # Background knowledge for discovery.
  rescue_set_dag(opt, NULL)
  rescue_constrain_edge(opt, "Aspirin", "PSA", required = FALSE)
  expect_false(grepl("\"Aspirin\" -> \"PSA\"", rescue_causal_graph(opt), fixed = TRUE))
  rescue_constrain_edge(opt, "Aspirin", "Statin")
  expect_match(rescue_causal_graph(opt), "\"Aspirin\" -> \"Statin\"", fixed = TRUE)
  expect_equal(status(rescue_constrain_edge(opt, "Aspirin", "PSA")), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(rescue_constrain_edge(opt, "Nope", "PSA")), RESCUE_STATUS[["UNKNOWN_NAME"]])
  expect_equal(status(rescue_constrain_edge(opt, NA, "PSA")), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(rescue_constrain_edge(opt, "BMI", "PSA", required = NA)), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(rescue_constrain_edge(opt, c("BMI", "Aspirin"), "PSA")), RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_equal(status(rescue_causal_estimates(opt, c(NaN, 0.5), 1)), RESCUE_STATUS[["NON_FINITE"]])
  expect_equal(status(rescue_causal_estimates(opt, matrix(c(25, 0.5, 1), 1), 1)), RESCUE_STATUS[["SIZE_MISMATCH"]])
})

test_that("the causal graph's edges as a data frame: DirectLiNGAM's weights, PC's unoriented edges", {
  rows <- NULL
  for (discovery in 0:1) {
    p <- rescue_builtin_problem("healthcare", seed = 3, params = list(rescue.discovery = discovery))
    opt <- rescue_optimizer(p)
    if (is.null(rows)) rows <- rescue_sample_observational(p, 150, seed = 5)
    rescue_add_observational(opt, rows)
    names <- c(colnames(rows))
    for (as_discovered in c(FALSE, TRUE)) {
      e <- rescue_causal_edges(opt, as_discovered)
      expect_equal(names(e), c("from", "to", "directed", "weight"))
      expect_gt(nrow(e), 0)
      expect_true(all(e$from %in% names) && all(e$to %in% names))
      # One row per edge the DOT text draws.
      dot <- rescue_causal_graph(opt, "dot", as_discovered)
      expect_equal(nrow(e), lengths(regmatches(dot, gregexpr(" -> ", dot, fixed = TRUE))))
      if (!as_discovered) expect_true(all(e$directed))
    }
    edges <- rescue_causal_edges(opt)
    weights <- edges$weight
    if (discovery == 1) {
      expect_true(all(is.finite(weights)))
      expect_true(any(weights != signif(weights, 6)))  # not the DOT label's rounding
    } else {
      expect_true(all(is.na(weights)))
    }
    rescue_set_dag(opt, edges)
    expect_setequal(paste(rescue_causal_edges(opt)$from, rescue_causal_edges(opt)$to), paste(edges$from, edges$to))
    close(opt)
    close(p)
  }
})

test_that("a mixed problem with a categorical option runs end to end", {
  boosters <- c("gbtree", "dart", "linear")
  penalty <- c(0.3, 0, 0.6)
  p <- rescue_problem(options = list(name = "eta", lower = 0, upper = 1), categorical = list(booster = boosters),
                      objectives = c(error = "min", size = "min"), fidelity = c(0, 1, 1), strategy = "hvkg",
                      seed = 4, budget = 1e6, initial_budget = 0.05,
                      params = list(kg.pool = 16, kg.fantasies = 2, acq.starts = 8, acq.refine = 1,
                                    acq.refine_evals = 8, recommend.population = 12, recommend.generations = 4))
  on.exit(close(p))
  expect_error(rescue_problem(categorical = list(kind = c("a", "a")), objectives = "f"), "'a' is given twice",
               class = "rescue_error")
  expect_error(rescue_problem(categorical = list(c("a", "b")), objectives = "f"), "named list",
               class = "rescue_error")
  opt <- rescue_optimizer(p)
  on.exit(close(opt), add = TRUE)
  info <- rescue_info(opt)
  expect_equal(info$options, c("eta", "booster"))
  expect_equal(info$levels, list(booster = boosters))
  expect_equal(info$bounds$kind, c("continuous", "categorical"))
  expect_equal(info$bounds$upper, c(1, 2))
  chosen <- character(0)
  for (i in 1:20) {
    s <- rescue_suggest(opt)
    k <- s$x[2]
    expect_true(k == round(k) && k >= 0 && k <= 2)
    chosen <- c(chosen, info$levels$booster[k + 1])
    rescue_observe(opt, s$ticket, c((s$x[1] - 0.3)^2 + penalty[k + 1] + 0.1 * (1 - s$fidelity),
                                    1 - s$x[1] + penalty[k + 1]))
  }
  expect_gt(length(unique(chosen)), 1)
  err <- tryCatch(rescue_observe_at(opt, c(0.5, 0.5), 1, c(0.1, 0.2)), rescue_error = function(e) e)
  expect_equal(err$status, RESCUE_STATUS[["INVALID_ARGUMENT"]])
  expect_match(conditionMessage(err), "not a level index")
  expect_equal(nrow(rescue_observations(opt)), 20)
  front <- rescue_pareto(opt)
  expect_gt(nrow(front$x), 0)
  expect_true(all(front$x[, "booster"] == round(front$x[, "booster"])))
})

test_that("without a fidelity every evaluation costs 1, so a budget of 7 is 7 evaluations", {
  p <- rescue_problem(options = data.frame(name = c("a", "b"), lower = 0, upper = 1),
                      objectives = c(f1 = "min", f2 = "min"), strategy = "random", budget = 7)
  on.exit(close(p))
  opt <- rescue_optimizer(p)
  on.exit(close(opt), add = TRUE)
  fidelities <- numeric(0)
  while (!rescue_done(opt) && length(fidelities) < 100) {
    s <- rescue_suggest(opt)
    fidelities <- c(fidelities, s$fidelity)
    rescue_observe(opt, s$ticket, c(s$x[1]^2 + s$x[2], (1 - s$x[1])^2 + s$x[2]))
  }
  expect_identical(fidelities, rep(1, 7))
  expect_equal(nrow(rescue_observations(opt)), 7)
  expect_identical(rescue_budget(opt), c(spent = 7, pending = 0, total = 7))
})

test_that("an empty recommended set keeps the options and objectives as columns", {
  opt <- rescue_optimizer(problem)
  on.exit(close(opt))
  front <- rescue_pareto(opt)
  expect_equal(dim(front$x), c(0L, 2L))
  expect_equal(colnames(front$x), rescue_info(opt)$options)
  expect_equal(dim(front$y), c(0L, 2L))
  expect_equal(colnames(front$y), rescue_info(opt)$objectives)
})

test_that("utilities", {
  expect_equal(rescue_hypervolume(rbind(c(1, 2), c(2, 1)), c(3, 3)), 3)
  expect_equal(rescue_pareto_filter(rbind(c(1, 2), c(2, 1), c(3, 3))), c(1L, 2L))
})

test_that("the model predicts what it was told", {
  opt <- rescue_optimizer(problem)
  expect_error(rescue_predict(opt, c(0.5, 0.5), 1), class = "rescue_error")
  expect_error(rescue_cross_validate(opt), class = "rescue_error")
  run(opt, problem, 12)
  obs <- rescue_observations(opt)
  pred <- rescue_predict(opt, obs[, c("x1", "x2")], obs$fidelity)
  expect_equal(dim(pred$mean), c(nrow(obs), 2))
  expect_equal(colnames(pred$mean), rescue_info(opt)$objectives)
  expect_true(all(pred$sd >= 0))
  expect_equal(pred$feasible, rep(1, nrow(obs)))
  y <- as.matrix(obs[, rescue_info(opt)$objectives])
  scale <- apply(y, 2, max) - apply(y, 2, min)
  expect_true(all(abs(pred$mean - y) <= 0.1 * matrix(scale, nrow(y), 2, byrow = TRUE)))
  swapped <- rescue_predict(opt, obs[, c("x2", "x1")], obs$fidelity)
  expect_equal(swapped$mean, pred$mean)
  one <- rescue_predict(opt, c(obs$x1[1], obs$x2[1]), obs$fidelity[1])
  expect_equal(one$mean[1, ], pred$mean[1, ])
  expect_identical(rescue_predict(opt, c(x2 = obs$x2[1], x1 = obs$x1[1]), obs$fidelity[1]), one)
  e <- tryCatch(rescue_predict(opt, c(1.5, 0.5), 1), rescue_error = function(e) e)
  expect_equal(e$status, RESCUE_STATUS[["OUT_OF_RANGE"]])
  # Each observation held out: a wider spread than with it in, centred near what was observed.
  cv <- rescue_cross_validate(opt)
  expect_equal(dim(cv$mean), c(nrow(obs), 2))
  expect_equal(colnames(cv$sd), rescue_info(opt)$objectives)
  expect_true(all(cv$sd >= pred$sd * (1 - 1e-9)))
  expect_true(all(abs(cv$mean - y) <= 6 * cv$sd + 0.1 * matrix(scale, nrow(y), 2, byrow = TRUE)))
  # Per band of fidelities: how well it predicts the target observations.
  fa <- rescue_fidelity_agreement(opt, rbind(c(0, 1), c(1, 1)))
  expect_equal(dim(fa$rms_z), c(2, 2))
  expect_equal(colnames(fa$rank), rescue_info(opt)$objectives)
  expect_equal(fa$rows, c(nrow(obs), sum(obs$fidelity == 1)))
  expect_equal(fa$target_rows, sum(obs$fidelity == 1))
  e <- tryCatch(rescue_fidelity_agreement(opt, c(1, 0)), rescue_error = function(e) e)
  expect_equal(e$status, RESCUE_STATUS[["INVALID_ARGUMENT"]])
  close(opt)
})

