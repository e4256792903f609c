// C# version of the RESCUE example: the built-in multi-fidelity problem "branin-currin", seed 7,
// strategy "cost-aware-random", budget 1000. Replace the lambda with your own simulator. Prints
// one line per Pareto point, "pareto x_1 .. x_d y_1 .. y_M" (the same numbers as the C,
// Fortran, Java, R and Python examples).
using System;
using System.Globalization;
using System.Linq;
using Rescue;

public static class Example {
  public static void Main() {
    using (var problem = new Problem("branin-currin")) {
      problem.SetSeed(7);
      problem.SetStrategy("cost-aware-random");
      problem.SetBudget(1000.0);
      using (var opt = new Optimizer(problem)) {
        ParetoSet front = opt.Optimize((x, s) => problem.Evaluate(x, s).Objectives);
        for (int i = 0; i < front.Count; ++i) {
          var values = front.Point(i).Concat(front.Objectives(i));
          Console.WriteLine("pareto " + string.Join(" ", values.Select(v => v.ToString("R", CultureInfo.InvariantCulture))));
        }
      }
    }
  }
}
