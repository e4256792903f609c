"""Python version of the RESCUE example: the built-in multi-fidelity problem "branin-currin",
seed 7, strategy "cost-aware-random", budget 1000. Replace simulate() with your own simulator. Prints one line per Pareto point:
"pareto x_1 .. x_d y_1 .. y_M" (the same numbers as the C, Fortran, Java, C# and R examples)."""
import rescue


def main():
    with rescue.Problem("branin-currin") as problem:
        problem.set_seed(7)
        problem.set_strategy("cost-aware-random")
        problem.set_budget(1000.0)

        def simulate(x, fidelity):
            return problem.evaluate(x, fidelity).objectives

        with rescue.Optimizer(problem) as opt:
            front = opt.optimize(simulate)

    for x, y in zip(front.x, front.y):
        print("pareto", " ".join(repr(float(v)) for v in list(x) + list(y)))


if __name__ == "__main__":
    main()
