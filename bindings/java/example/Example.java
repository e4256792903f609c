import org.rescue.Optimizer;
import org.rescue.ParetoSet;
import org.rescue.Problem;

/**
 * Java version of the RESCUE example: the built-in multi-fidelity problem "branin-currin",
 * seed 7, strategy "cost-aware-random", budget 1000.
 * Replace the lambda with your own simulator. Prints one line per Pareto point,
 * "pareto x_1 .. x_d y_1 .. y_M" (the same numbers as the C, Fortran, C#, R and Python examples).
 */
public final class Example {
  public static void main(String[] args) throws Exception {
    try (Problem problem = new Problem("branin-currin")) {
      problem.setSeed(7);
      problem.setStrategy("cost-aware-random");
      problem.setBudget(1000.0);
      try (Optimizer opt = new Optimizer(problem)) {
        ParetoSet front = opt.optimize((x, s) -> problem.evaluate(x, s).getObjectives());
        for (int i = 0; i < front.getCount(); ++i) {
          StringBuilder line = new StringBuilder("pareto");
          for (double v : front.point(i)) line.append(' ').append(v);
          for (double v : front.objectives(i)) line.append(' ').append(v);
          System.out.println(line);
        }
      }
    }
  }
}
