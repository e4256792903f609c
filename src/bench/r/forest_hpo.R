# The forest problems of the harness: random forests (ranger) trained for real on the Pima Indians
# diabetes data of R's mlbench (768 women, 8 numeric measurements, binary outcome), the paper's
# "Ranger HPO" configuration space (table "Configuration Spaces of All Problems"). docs/problems.md
# states every metric.
#
#   forest-hpo              minimize mmce, nf (features the forest splits on) and ias (interaction
#                           strength: the share of the prediction variance that the first-order ALE
#                           decomposition leaves unexplained)
#   forest-hpo-constrained  maximize auc, minimize logloss, subject to train_mops (the split search's
#                           work, a count that stands for the training time) at most a threshold
#
# forest_problem(name, seed) returns the definition and evaluate(x, s), a deterministic function of
# the configuration, the fidelity s (the fraction of the training rows used) and the seed.

.forest_options <- data.frame(
  name = c("min.node.size", "mtry.ratio", "num.trees", "sample.fraction"),
  lower = c(1, 0, 1, 0.1),
  upper = c(100, 1, 2000, 1),
  kind = c("integer", "continuous", "log", "continuous"),
  stringsAsFactors = FALSE)

# The work threshold is the median over 200 uniformly drawn configurations at the target (problem
# seed 1), so that about half are feasible. The reference points: errors below the majority class's
# (30.1% of the validation rows), one feature more than the data have, an interaction strength
# above every one drawn (at most 0.55); for the constrained task, AUC and log loss between the
# median and the better quartile of the feasible draws, so that a set of 12 feasible draws reaches
# about half of their hypervolume (at the worse quartiles it reached 82%, too close to the whole
# for the regret to tell strategies apart).
.forest_work_threshold <- 0.167
.forest_reference <- list(plain = c(mmce = 0.30, nf = 9, ias = 0.6),
                          constrained = c(auc = 0.85, logloss = 0.46))

# Train / validation split (2/3, 1/3) by the seed, stratified so that every prefix of the training
# rows (a fidelity's rows) holds both classes in the data's proportion.
.forest_split <- function(seed) {
  data("PimaIndiansDiabetes", package = "mlbench", envir = environment())
  d <- PimaIndiansDiabetes
  x <- as.matrix(d[, setdiff(names(d), "diabetes")])
  y <- as.integer(d$diabetes == "pos")
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv()) else NULL
  on.exit(if (is.null(old)) rm(".Random.seed", envir = globalenv()) else assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  perm <- sample.int(nrow(x))
  n_train <- round(2 / 3 * nrow(x))
  train <- perm[seq_len(n_train)]
  valid <- perm[-seq_len(n_train)]
  # Within each class in the permuted order, a row's place as a fraction of its class: sorting by
  # it interleaves the classes in proportion.
  frac <- ave(seq_along(train), y[train], FUN = function(i) seq_along(i) / length(i))
  train <- train[order(frac, y[train])]
  list(x_train = x[train, , drop = FALSE], y_train = y[train], x_valid = x[valid, , drop = FALSE],
       y_valid = y[valid])
}

# Depth of every tree (edges from the root to the deepest leaf) and its leaves, from ranger's child
# arrays (0 marks a leaf; a child's id is larger than its parent's).
.tree_shape <- function(forest) {
  vapply(forest$child.nodeIDs, function(ch) {
    left <- ch[[1]]
    right <- ch[[2]]
    depth <- integer(length(left))
    for (i in seq_along(left)) {
      if (left[i] != 0) depth[c(left[i], right[i]) + 1L] <- depth[i] + 1L
    }
    c(depth = max(depth), leaves = sum(left == 0))
  }, c(depth = 0, leaves = 0))
}

# predict_fn on the rows of z, calling it once on z's distinct rows: a row's prediction must not
# depend on the other rows of the call (true of a forest's). Rows are matched by their printed
# values; if two rows print alike but differ, every row is predicted.
.predict_distinct <- function(predict_fn, z) {
  key <- do.call(paste, c(as.data.frame(z), sep = "\r"))
  first <- match(key, key)
  if (any(z != z[first, , drop = FALSE])) return(predict_fn(z))
  distinct <- which(first == seq_along(first))
  p <- predict_fn(z[distinct, , drop = FALSE])
  p[match(first, distinct)]
}

# Interaction strength (Molnar, Casalicchio & Bischl 2020): 1 - R^2 of the first-order ALE
# decomposition f0 + sum_j ALE_j(x_j) as an approximation of the predictions f on the rows of x.
# ALE_j is accumulated over bins between the quantiles (0, 1/K, ..., 1) of feature j (duplicates
# merged), linear within a bin, centred on the rows; a row's local effect in its bin (z_b, z_b+1]
# is f(x with x_j = z_b+1) - f(x with x_j = z_b). One prediction call for the distinct rows of all
# features' shifts: since the bin edges are data values, a quarter of the shifted rows repeat a row.
.interaction_strength <- function(predict_fn, x, bins = 20) {
  n <- nrow(x)
  edges <- lapply(seq_len(ncol(x)), function(j)
    unique(stats::quantile(x[, j], probs = seq(0, 1, length.out = bins + 1), type = 1, names = FALSE)))
  bin <- lapply(seq_len(ncol(x)), function(j) pmax(1L, findInterval(x[, j], edges[[j]], left.open = TRUE)))
  active <- which(lengths(edges) > 1)
  shifted <- lapply(active, function(j) {
    lo <- hi <- x
    lo[, j] <- edges[[j]][bin[[j]]]
    hi[, j] <- edges[[j]][bin[[j]] + 1L]
    rbind(lo, hi)
  })
  p <- .predict_distinct(predict_fn, do.call(rbind, c(list(x), shifted)))
  f <- p[seq_len(n)]
  total <- sum((f - mean(f))^2)
  if (total <= 1e-12 * n) return(0)  # a constant forest: nothing to decompose
  approx <- rep(mean(f), n)
  for (a in seq_along(active)) {
    j <- active[a]
    z <- edges[[j]]
    b <- bin[[j]]
    off <- n + (a - 1L) * 2L * n
    delta <- p[off + n + seq_len(n)] - p[off + seq_len(n)]
    mean_delta <- vapply(seq_len(length(z) - 1L), function(k) if (any(b == k)) mean(delta[b == k]) else 0, 0)
    at_edges <- c(0, cumsum(mean_delta))
    w <- (x[, j] - z[b]) / (z[b + 1L] - z[b])
    ale <- at_edges[b] + w * (at_edges[b + 1L] - at_edges[b])
    approx <- approx + ale - mean(ale)
  }
  min(1, sum((f - approx)^2) / total)
}

# A configuration drawn uniformly (log-scale options uniformly in their logarithm), integers rounded.
draw_configuration <- function(options) {
  u <- stats::runif(nrow(options))
  log_scale <- options$kind == "log"
  v <- ifelse(log_scale, exp(log(options$lower) + u * (log(options$upper) - log(options$lower))),
              options$lower + u * (options$upper - options$lower))
  ifelse(options$kind == "integer", round(v), v)
}

# Whether constraint values g (named) satisfy every constraint of the problem.
forest_feasible <- function(problem, g) {
  all(vapply(problem$constraints, function(con) {
    v <- g[[con[[1]]]]
    if (con[[3]] == "<=") v <= con[[2]] else v >= con[[2]]
  }, TRUE))
}

# AUC: the probability that a positive row's score ranks above a negative row's, ties counted
# half (the Mann-Whitney statistic from mid-ranks).
.auc <- function(score, y) {
  r <- rank(score)
  n1 <- sum(y == 1)
  n0 <- sum(y == 0)
  (sum(r[y == 1]) - n1 * (n1 + 1) / 2) / (n1 * n0)
}

# Mean log loss of predicted probabilities of class 1, clipped to [1e-6, 1 - 1e-6] so that a
# forest sure of a wrong answer costs log(1e6) on that row rather than infinity.
.log_loss <- function(p, y) {
  q <- pmin(pmax(p, 1e-6), 1 - 1e-6)
  -mean(y * log(q) + (1 - y) * log(1 - q))
}

forest_problem <- function(name = c("forest-hpo", "forest-hpo-constrained"), seed = 1L) {
  name <- match.arg(name)
  constrained <- name == "forest-hpo-constrained"
  data <- .forest_split(seed)
  p <- ncol(data$x_train)
  rows_used <- function(s) max(2L, as.integer(round(s * nrow(data$x_train))))

  train <- function(x, s) {
    if (length(x) != 4 || any(!is.finite(x))) stop("forest: a configuration has 4 finite values")
    if (!is.finite(s) || s < 0.03 - 1e-12 || s > 1 + 1e-12) stop("forest: the fidelity must lie in [0.03, 1]")
    rows <- rows_used(s)
    mtry <- max(1L, as.integer(round(x[2] * p)))
    trees <- max(1L, as.integer(round(x[3])))
    y <- factor(data$y_train[seq_len(rows)], levels = c(0, 1))
    start <- proc.time()[["elapsed"]]
    fit <- ranger::ranger(x = data$x_train[seq_len(rows), , drop = FALSE], y = y, num.trees = trees, mtry = mtry,
                          min.node.size = as.integer(round(x[1])), sample.fraction = x[4], replace = TRUE,
                          splitrule = "gini", probability = TRUE, num.threads = 1, seed = seed, verbose = FALSE)
    seconds <- proc.time()[["elapsed"]] - start
    list(fit = fit, rows = rows, mtry = mtry, seconds = seconds)
  }
  predict_fn <- function(fit) function(newx) {
    pr <- stats::predict(fit, newx, num.threads = 1, verbose = FALSE)$predictions
    pr[, "1"]
  }

  evaluate <- function(x, s) {
    t <- train(x, s)
    shape <- .tree_shape(t$fit$forest)
    inbag <- round(x[4] * t$rows)
    indicators <- c(rows = t$rows, leaves = mean(shape["leaves", ]), depth = mean(shape["depth", ]))
    prob <- predict_fn(t$fit)(data$x_valid)
    yv <- data$y_valid
    if (!constrained) {
      used <- length(unique(unlist(Map(function(v, ch) v[ch[[1]] != 0], t$fit$forest$split.varIDs,
                                       t$fit$forest$child.nodeIDs))))
      objectives <- c(mmce = mean((prob > 0.5) != (yv == 1)), nf = used,
                      ias = .interaction_strength(predict_fn(t$fit), data$x_valid))
      constraints <- numeric(0)
    } else {
      objectives <- c(auc = .auc(prob, yv), logloss = .log_loss(prob, yv))
      # The split search's work: every level of a tree sorts through its in-bag rows once for each of
      # the mtry candidate features.
      constraints <- c(train_mops = sum(inbag * t$mtry * pmax(1, shape["depth", ])) / 1e6)
    }
    list(objectives = objectives, constraints = constraints, indicators = indicators, seconds = t$seconds)
  }

  list(name = name, seed = seed, options = .forest_options,
       fidelity = c(lower = 0.03, upper = 1, target = 1), cost_rate = 4.8,
       objectives = if (constrained) c(auc = "max", logloss = "min") else c(mmce = "min", nf = "min", ias = "min"),
       constraints = if (constrained) list(list("train_mops", .forest_work_threshold, "<=")) else list(),
       indicators = c("rows", "leaves", "depth"),
       reference_point = if (constrained) .forest_reference$constrained else .forest_reference$plain,
       budget = 10, evaluate = evaluate)
}

# The search behind the forest problems' maximum hypervolume (stored by rescue-bench, in
# src/bench/problem_registry.cpp): `points` uniform configurations at the target (a log-scale
# option uniform in its logarithm), then `levels` rounds of local refinement, each drawing
# `per_point` configurations around every member of the current front within a box of half-width
# `width` of each option's range (in the option's scale), the width shrinking by 4 a round. Every
# configuration in `extra` (rows) is evaluated too. Returns the hypervolume, the front's
# configurations, their objectives as minimized and the number of evaluations.
forest_max_hypervolume <- function(problem, seed = 1L, points = 2000L, levels = 3L, per_point = 4L, width = 0.05,
                                   extra = NULL, quick = FALSE) {
  if (quick) {
    points <- 40L
    levels <- 1L
    per_point <- 2L
  }
  o <- problem$options
  log_scale <- o$kind == "log"
  lo <- ifelse(log_scale, log(o$lower), o$lower)
  hi <- ifelse(log_scale, log(o$upper), o$upper)
  from_unit <- function(u) {
    v <- lo + u * (hi - lo)
    v <- ifelse(log_scale, exp(v), v)
    v <- ifelse(o$kind == "integer", round(v), v)
    pmin(pmax(v, o$lower), o$upper)
  }
  to_unit <- function(v) (ifelse(log_scale, log(v), v) - lo) / (hi - lo)
  sense <- ifelse(problem$objectives == "max", -1, 1)
  ref <- sense * problem$reference_point
  xs <- NULL
  ys <- NULL
  add <- function(x) {
    e <- problem$evaluate(x, problem$fidelity[["target"]])
    if (!forest_feasible(problem, e$constraints)) return()
    y <- sense * e$objectives
    if (any(y >= ref)) return()
    xs <<- rbind(xs, x)
    ys <<- rbind(ys, y)
  }
  old <- if (exists(".Random.seed", globalenv())) get(".Random.seed", globalenv()) else NULL
  on.exit(if (is.null(old)) rm(".Random.seed", envir = globalenv()) else assign(".Random.seed", old, globalenv()))
  set.seed(seed)
  evaluations <- 0L
  for (i in seq_len(points)) add(from_unit(stats::runif(nrow(o))))
  evaluations <- evaluations + points
  if (!is.null(extra)) for (i in seq_len(nrow(extra))) add(extra[i, ])
  evaluations <- evaluations + NROW(extra)
  front <- function() if (is.null(ys)) integer(0) else rescue::rescue_pareto_filter(ys)
  for (level in seq_len(levels)) {
    f <- front()
    draws <- per_point
    for (i in f) for (k in seq_len(draws)) {
      u <- pmin(pmax(to_unit(xs[i, ]) + stats::runif(nrow(o), -width, width), 0), 1)
      add(from_unit(u))
    }
    evaluations <- evaluations + length(f) * draws
    width <- width / 4
  }
  f <- front()
  list(value = if (length(f)) rescue::rescue_hypervolume(ys[f, , drop = FALSE], ref) else 0,
       x = xs[f, , drop = FALSE], y = ys[f, , drop = FALSE], evaluations = evaluations)
}
