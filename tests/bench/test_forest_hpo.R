# Tests of the forest problems (src/bench/r/forest_hpo.R): the metrics against closed forms and
# brute force, the data split, determinism and bad input. RESCUE_SOURCE_DIR names the source tree:
#   RESCUE_SOURCE_DIR=. Rscript -e "testthat::test_file('tests/bench/test_forest_hpo.R')"
source(file.path(Sys.getenv("RESCUE_SOURCE_DIR", "."), "src", "bench", "r", "forest_hpo.R"))

test_that("interaction strength is zero for an additive function and one for a pure interaction", {
  set.seed(3)
  x <- matrix(runif(3000), ncol = 3)
  expect_lt(.interaction_strength(function(z) sin(3 * z[, 1]) + z[, 2]^2, x), 1e-3)
  expect_gt(.interaction_strength(function(z) (z[, 1] - 0.5) * (z[, 2] - 0.5), x), 0.97)
  expect_equal(.interaction_strength(function(z) rep(0.3, nrow(z)), x), 0)
})

test_that("interaction strength matches its closed form for x1 + c x1 x2 on independent uniforms", {
  # ALE_1 = (1 + c/2) x1, ALE_2 = (c/2) x2 (centred), remainder c (x1 - 1/2)(x2 - 1/2): its variance
  # c^2 / 144 over Var(f) = (1 + c + c^2/3) / 3 - (1 + c/2)^2 / 4.
  set.seed(5)
  x <- matrix(runif(8000), ncol = 2)
  for (c in c(0.5, 2, 6)) {
    exact <- (c^2 / 144) / ((1 + c + c^2 / 3) / 3 - (1 + c / 2)^2 / 4)
    expect_equal(.interaction_strength(function(z) z[, 1] + c * z[, 1] * z[, 2], x), exact, tolerance = 0.05)
  }
})

test_that("predicting distinct rows once gives every row's prediction", {
  set.seed(9)
  calls <- integer(0)
  f <- function(z) {
    calls <<- c(calls, nrow(z))
    z[, 1] * 1e3 + z[, 2]
  }
  z <- matrix(sample(1:6, 400, replace = TRUE) / 7, ncol = 2)  # 36 distinct rows
  expect_identical(.predict_distinct(f, z), f(z))
  expect_equal(calls, c(nrow(unique(z)), nrow(z)))
  # Rows that print alike but differ in the last place are predicted apart: the whole call is made.
  calls <- integer(0)
  w <- rbind(c(0.1 + 0.2, 1), c(0.3, 1), c(0.3, 1))
  expect_identical(.predict_distinct(f, w), f(w))
  expect_equal(calls, c(3L, 3L))
})

test_that("AUC counts the ordered pairs, ties half, and log loss is the clipped mean", {
  set.seed(7)
  for (rep in 1:20) {
    n <- sample(5:40, 1)
    y <- c(0, 1, rbinom(n - 2, 1, 0.4))
    score <- round(runif(n), 1)  # ties
    pos <- score[y == 1]
    neg <- score[y == 0]
    brute <- mean(outer(pos, neg, function(a, b) (a > b) + 0.5 * (a == b)))
    expect_equal(.auc(score, y), brute)
    p <- c(0, 1, runif(n - 2))
    q <- pmin(pmax(p, 1e-6), 1 - 1e-6)
    expect_equal(.log_loss(p, y), mean(ifelse(y == 1, -log(q), -log(1 - q))))
  }
})

test_that("every prefix of the training rows holds both classes in proportion", {
  d <- .forest_split(1)
  expect_equal(nrow(d$x_train), 512)
  expect_equal(nrow(d$x_valid), 256)
  expect_equal(length(intersect(rownames(d$x_train), rownames(d$x_valid))), 0)
  share <- mean(d$y_train)
  for (k in c(2, 15, 50, 200, 512)) expect_lte(abs(mean(d$y_train[seq_len(k)]) - share), 1 / k + 1e-12)
  expect_identical(.forest_split(1), d)
  expect_false(identical(.forest_split(2)$y_valid, d$y_valid))
})

# Depth of every tree by recursion from the root, independent of .tree_shape's sweep.
recursive_depth <- function(ch) {
  depth <- function(node) {
    if (ch[[1]][node + 1] == 0) return(0)
    1 + max(depth(ch[[1]][node + 1]), depth(ch[[2]][node + 1]))
  }
  depth(0)
}

test_that("evaluations are deterministic, counted as stated and checked", {
  plain <- forest_problem("forest-hpo")
  cons <- forest_problem("forest-hpo-constrained")
  x <- c(5, 0.4, 30, 0.7)
  a <- plain$evaluate(x, 0.5)
  b <- plain$evaluate(x, 0.5)
  a$seconds <- b$seconds <- NULL
  expect_identical(a, b)
  expect_equal(names(a$objectives), c("mmce", "nf", "ias"))
  expect_true(a$objectives[["nf"]] %in% 1:8)
  expect_true(a$objectives[["ias"]] >= 0 && a$objectives[["ias"]] <= 1)
  expect_equal(a$indicators[["rows"]], 256)

  e <- cons$evaluate(x, 1)
  expect_equal(names(e$objectives), c("auc", "logloss"))
  # train_mops from the forest itself: in-bag rows x mtry x each tree's depth (at least 1).
  d <- .forest_split(1)
  fit <- ranger::ranger(x = d$x_train, y = factor(d$y_train, levels = c(0, 1)), num.trees = 30, mtry = 3,
                        min.node.size = 5, sample.fraction = 0.7, replace = TRUE, splitrule = "gini",
                        probability = TRUE, num.threads = 1, seed = 1, verbose = FALSE)
  depths <- vapply(fit$forest$child.nodeIDs, recursive_depth, 0)
  expect_equal(e$constraints[["train_mops"]], sum(round(0.7 * 512) * 3 * pmax(1, depths)) / 1e6)
  expect_equal(e$indicators[["depth"]], mean(depths))
  prob <- predict(fit, d$x_valid, num.threads = 1)$predictions[, "1"]
  expect_equal(e$objectives[["auc"]], .auc(prob, d$y_valid))

  # A single stump-sized tree on the fewest rows: no split, no feature, nothing to decompose.
  stump <- plain$evaluate(c(100, 0.1, 1, 0.1), 0.03)
  expect_equal(stump$objectives[["nf"]], 0)
  expect_equal(stump$objectives[["ias"]], 0)
  expect_equal(stump$indicators[["rows"]], 15)

  expect_error(plain$evaluate(c(5, 0.4, 30), 1), "4 finite values")
  expect_error(plain$evaluate(c(5, NaN, 30, 0.7), 1), "4 finite values")
  expect_error(plain$evaluate(x, 0.01), "fidelity")
  expect_error(plain$evaluate(x, NA), "fidelity")
})

source(file.path(Sys.getenv("RESCUE_SOURCE_DIR", "."), "src", "bench", "r", "forest_diagnosis.R"))

test_that("held-out errors by band match a direct computation", {
  set.seed(13)
  n <- 60
  y <- matrix(rnorm(2 * n), n, dimnames = list(NULL, c("a", "b")))
  m <- y + matrix(rnorm(2 * n, sd = 0.3), n)
  sd <- matrix(runif(2 * n, 0.1, 1), n)
  s <- c(runif(n - 2, 0.03, 0.6), 0.5, 0.5)  # nothing in [0.75, 1]; 0.5 opens the third band
  breaks <- c(0.03, 0.25, 0.5, 0.75, 1)
  r <- loo_by_band(y, m, sd, s, breaks)
  expect_equal(r$count, c(sum(s < 0.25), sum(s >= 0.25 & s < 0.5), sum(s >= 0.5 & s < 0.75), 0))
  for (b in 1:3) {
    rows <- s >= breaks[b] & s < breaks[b + 1]
    for (o in 1:2) {
      expect_equal(r$rmse[b, o], sqrt(mean((y[rows, o] - m[rows, o])^2)))
      expect_equal(r$rms_z[b, o], sqrt(mean(((y[rows, o] - m[rows, o]) / sd[rows, o])^2)))
    }
  }
  expect_true(all(is.na(r$rms_z[4, ])) && all(is.na(r$rmse[4, ])))
  expect_equal(colnames(r$rmse), c("a", "b"))
  # The last band is closed: the target itself belongs to it.
  expect_equal(loo_by_band(y[1:2, ], m[1:2, ], sd[1:2, ], c(1, 0.8), breaks)$count, c(0, 0, 0, 2))
})

test_that("fidelity ranks: Spearman correlation with the target, exact for a monotone transform", {
  problem <- list(options = data.frame(name = c("u", "v"), lower = c(0, 1), upper = c(1, 100),
                                       kind = c("continuous", "log"), stringsAsFactors = FALSE),
                  fidelity = c(lower = 0, upper = 1, target = 1), objectives = c(f = "min", g = "max"),
                  constraints = list(list("h", 1, "<=")))
  # f keeps its order at every fidelity; g's order reverses below 0.5; h ignores the fidelity.
  evaluate <- function(x, s) list(objectives = c(f = exp(s * x[1]), g = (s - 0.5) * log(x[2])),
                                  constraints = c(h = x[1] + log(x[2])))
  r <- forest_fidelity_ranks(problem, evaluate, 12, 3L, c(0.2, 0.7))
  expect_equal(dim(r), c(3L, 3L))
  expect_equal(colnames(r), c("f", "g", "h"))
  expect_equal(unname(r[, "f"]), c(1, 1, 1))
  expect_equal(unname(r[, "g"]), c(-1, 1, 1))
  expect_equal(unname(r[, "h"]), c(1, 1, 1))
})
