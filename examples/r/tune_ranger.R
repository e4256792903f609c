# Tuning a random forest (ranger) with RESCUE from R: two objectives (validation error and the
# forest's size in nodes), the fraction of the training rows as the fidelity, the nodes per tree
# and the rows used as indicators for the causal model.
#
#   Rscript examples/r/tune_ranger.R [BUDGET]     (BUDGET in target evaluations, default 10)
library(rescue)
library(ranger)

data("PimaIndiansDiabetes", package = "mlbench")
set.seed(1)
rows <- sample(nrow(PimaIndiansDiabetes))
train <- PimaIndiansDiabetes[rows[1:512], ]
valid <- PimaIndiansDiabetes[rows[513:768], ]

# One training: the configuration x (named as the options), on the first fraction s of the rows.
evaluate <- function(x, s) {
  used <- train[seq_len(max(10, round(s * nrow(train)))), ]
  fit <- ranger(diabetes ~ ., data = used, num.trees = round(x[["num.trees"]]),
                mtry = max(1, round(x[["mtry.ratio"]] * 8)), min.node.size = x[["min.node.size"]],
                sample.fraction = x[["sample.fraction"]], num.threads = 1, seed = 1)
  nodes <- vapply(fit$forest$child.nodeIDs, function(ch) length(ch[[1]]), 0)
  error <- mean(predict(fit, valid, num.threads = 1)$predictions != valid$diabetes)
  list(objectives = c(error, sum(nodes)), indicators = c(mean(nodes), nrow(used)))
}

args <- commandArgs(trailingOnly = TRUE)
budget <- if (length(args)) as.numeric(args[1]) else 10
options <- data.frame(name = c("min.node.size", "mtry.ratio", "num.trees", "sample.fraction"),
                      lower = c(1, 0, 1, 0.1), upper = c(100, 1, 2000, 1),
                      kind = c("integer", "continuous", "log", "continuous"))
problem <- rescue_problem(options, c(error = "min", nodes = "min"), fidelity = c(0.03, 1, 1),
                          indicators = c("nodes_per_tree", "rows"), reference_point = c(0.35, 1e5),
                          strategy = "rescue", seed = 1, budget = budget * exp(4.8), initial_budget = 2 * exp(4.8))
opt <- rescue_optimizer(problem)
close(problem)
front <- rescue_optimize(evaluate, opt, progress = function(opt) {
  cat(sprintf("\r%3d evaluations, %5.2f of %g target units spent", nrow(rescue_observations(opt)),
              rescue_budget(opt)[["spent"]] / exp(4.8), budget))
})
# What the causal model learned: its graph's edges, and how much the fitted surrogate relies on
# its estimates (a_m near 1: at face value; near 0: unused). A budget the initial design takes
# whole leaves no fitted prior to show.
tryCatch({
  edges <- rescue_causal_edges(opt)
  cat("\nlearned graph:", paste(edges$from, edges$to, sep = " -> ", collapse = ", "), "\n")
  weights <- rescue_prior_weights(opt)
  cat("causal estimates' scale a_m:", paste(sprintf("%s %.2f", names(weights$scale), weights$scale), collapse = ", "),
      if (weights$in_use) "" else "(the fit left the prior out)", "\n")
}, rescue_error = function(e) cat("\n", conditionMessage(e), "\n"))
close(opt)
# The recommended set holds the model's predictions; train its forests at the target to see the
# true values, and keep those that no other one beats on both.
truth <- t(apply(front$x, 1, function(x) evaluate(x, 1)$objectives))
best <- rescue_pareto_filter(truth)
cat(sprintf("%d recommended forests, %d non-dominated when trained on all rows:\n", nrow(truth), length(best)))
print(data.frame(round(front$x[best, , drop = FALSE], 3), error = truth[best, 1], nodes = truth[best, 2]))
