# R version of the RESCUE example: the built-in multi-fidelity problem "branin-currin", seed 7,
# strategy "cost-aware-random", budget 1000. Replace the function with your own simulator.
# Prints one line per Pareto point, "pareto x_1 .. x_d y_1 .. y_M" (the same numbers as the C,
# Fortran, Java, C# and Python examples).
library(rescue)

problem <- rescue_builtin_problem("branin-currin", seed = 7, strategy = "cost-aware-random", budget = 1000)
front <- rescue_optimize(function(x, fidelity) rescue_evaluate(problem, x, fidelity)$objectives, problem)
close(problem)
for (i in seq_len(nrow(front$x)))
  cat("pareto", sprintf("%.17g", c(front$x[i, ], front$y[i, ])), "\n")
