import java.util.Arrays;
import org.rescue.Budget;
import org.rescue.CrossValidation;
import org.rescue.FidelityAgreement;
import org.rescue.PriorWeights;
import org.rescue.Observation;
import org.rescue.Optimizer;
import org.rescue.ParamInfo;
import org.rescue.ParetoSet;
import org.rescue.Prediction;
import org.rescue.Problem;
import org.rescue.Rescue;
import org.rescue.RescueConstants;
import org.rescue.RescueException;
import org.rescue.Suggestion;

/**
 * Tests of the Java binding. The checkpoint written by the C reference program is read from
 * $RESCUE_CHECKPOINT_IN; this test writes its own to $RESCUE_CHECKPOINT_OUT.
 */
public final class TestRescue {
  private static int failures = 0;

  private static void check(boolean ok, String what) {
    if (!ok) {
      ++failures;
      System.out.println("FAILED: " + what);
    }
  }

  private interface Action {
    void run() throws Exception;
  }

  /** Runs the action and checks it throws RescueException with this status and message part. */
  private static void expectError(Action action, int status, String part, String what) {
    try {
      action.run();
      check(false, what + ": no exception");
    } catch (RescueException e) {
      check(e.getStatus() == status, what + ": status " + e.getStatus());
      check(e.getMessage().contains(part), what + ": message '" + e.getMessage() + "'");
    } catch (Exception e) {
      check(false, what + ": wrong exception " + e);
    }
  }

  private static Problem referenceProblem() {
    Problem p = new Problem("branin-currin");
    p.setSeed(7);
    p.setStrategy("cost-aware-random");
    p.setBudget(1000.0);
    return p;
  }

  private static void run(Optimizer opt, Problem problem, int maxObs) {
    for (int n = 0; !opt.done() && (maxObs < 0 || n < maxObs); ++n) {
      Suggestion s;
      try {
        s = opt.suggest();
      } catch (RescueException e) {
        check(e.getStatus() == RescueConstants.RESCUE_ERR_BUDGET_EXHAUSTED, "suggest: " + e.getMessage());
        break;
      }
      opt.observe(s.getTicket(), problem.evaluate(s.getX(), s.getFidelity()).getObjectives());
    }
  }

  /** Every observation as x, fidelity, objectives (comparing these needs no model fit). */
  private static double[][] history(Optimizer opt) {
    double[][] h = new double[opt.numObservations()][];
    for (int i = 0; i < h.length; ++i) {
      Observation o = opt.observation(i);
      double[] x = o.getX(), y = o.getObjectives();
      h[i] = new double[x.length + 1 + y.length];
      System.arraycopy(x, 0, h[i], 0, x.length);
      h[i][x.length] = o.getFidelity();
      System.arraycopy(y, 0, h[i], x.length + 1, y.length);
    }
    return h;
  }

  /** The README's loop with no fidelity set: every evaluation costs 1, so a budget of 7 is 7 of them. */
  private static void singleFidelityBudget() {
    try (Problem p = new Problem()) {
      p.addOption("a", 0.0, 1.0, RescueConstants.RESCUE_CONTINUOUS);
      p.addOption("b", 0.0, 1.0, RescueConstants.RESCUE_CONTINUOUS);
      p.addObjective("f1", RescueConstants.RESCUE_MINIMIZE);
      p.addObjective("f2", RescueConstants.RESCUE_MINIMIZE);
      p.setStrategy("random");
      p.setBudget(7.0);
      try (Optimizer opt = new Optimizer(p)) {
        int n = 0;
        boolean target = true;
        for (; !opt.done() && n < 100; ++n) {
          Suggestion s = opt.suggest();
          double[] x = s.getX();
          target &= s.getFidelity() == 1.0;
          opt.observe(s.getTicket(), new double[] {x[0] * x[0] + x[1], (1 - x[0]) * (1 - x[0]) + x[1]});
        }
        check(n == 7 && opt.numObservations() == 7, "a budget of 7 without a fidelity is 7 evaluations, got " + n);
        check(target, "every suggestion without a fidelity is at fidelity 1");
        Budget b = opt.budget();
        check(b.getSpent() == 7.0 && b.getPending() == 0.0 && b.getTotal() == 7.0, "7 evaluations cost 7");
      }
    }
  }

  /** A categorical option: level indices in, out and in the Pareto set; its labels read back. */
  private static void categoricalOption() {
    String[] boosters = {"gbtree", "dart", "linear"};
    double[] penalty = {0.3, 0.0, 0.6};
    try (Problem p = new Problem()) {
      p.addOption("eta", 0.0, 1.0, RescueConstants.RESCUE_CONTINUOUS);
      p.addCategorical("booster", boosters);
      expectError(() -> p.addCategorical("kind", new String[] {"a", "a"}), RescueConstants.RESCUE_ERR_INVALID_ARGUMENT,
                  "'a' is given twice", "a repeated label");
      p.setFidelityRange(0.0, 1.0, 1.0);
      p.addObjective("error", RescueConstants.RESCUE_MINIMIZE);
      p.addObjective("size", RescueConstants.RESCUE_MINIMIZE);
      p.setStrategy("hvkg");
      p.setSeed(4);
      p.setBudget(1e6);
      p.setInitialBudget(0.05);
      p.setParam("kg.pool", 16);
      p.setParam("acq.starts", 8);
      p.setParam("recommend.generations", 4);
      try (Optimizer opt = new Optimizer(p)) {
        check(java.util.Arrays.equals(opt.optionLabels(1), boosters), "labels read back");
        check(opt.optionLabels(0).length == 0, "a continuous option has no labels");
        check(opt.optionInfo(1).getKind() == RescueConstants.RESCUE_CATEGORICAL, "categorical kind");
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < 16; ++i) {
          Suggestion s = opt.suggest();
          double[] x = s.getX();
          int k = (int) x[1];
          check(x[1] == k && k >= 0 && k <= 2, "a level index, got " + x[1]);
          seen.add(k);
          opt.observe(s.getTicket(), new double[] {(x[0] - 0.3) * (x[0] - 0.3) + penalty[k] + 0.1 * (1 - s.getFidelity()),
                                                   1 - x[0] + penalty[k]});
        }
        check(seen.size() > 1, "more than one level tried");
        expectError(() -> opt.observeAt(new double[] {0.5, 0.5}, 1.0, new double[] {0.1, 0.2}, new double[0], new double[0]),
                    RescueConstants.RESCUE_ERR_INVALID_ARGUMENT, "not a level index", "a fractional level");
        check(opt.numObservations() == 16, "a rejected observation adds nothing");
        ParetoSet front = opt.pareto();
        double[] fx = front.getX();
        check(front.getCount() > 0, "a recommended set");
        for (int i = 0; i < front.getCount(); ++i) check(fx[i * 2 + 1] == Math.rint(fx[i * 2 + 1]), "level index in the set");
      }
    }
  }

  // Evaluations measure this system: an indicator z, then two objectives.
  private static double[] truth(double a, double b) {
    double z = a + b;
    return new double[] {z, 2 * z + a * a, (1 - a) * (1 - a) + 0.5 * b};
  }

  // The prior's weights after a few steps with 80 logs of the same system.
  private static PriorWeights priorWeightsAfter(String strategy, int steps) {
    try (Problem p = new Problem()) {
      p.addOption("a", 0.0, 1.0, RescueConstants.RESCUE_CONTINUOUS);
      p.addOption("b", 0.0, 1.0, RescueConstants.RESCUE_CONTINUOUS);
      p.setFidelityRange(0.0, 1.0, 1.0);
      p.addObjective("f1", RescueConstants.RESCUE_MINIMIZE);
      p.addObjective("f2", RescueConstants.RESCUE_MINIMIZE);
      p.addIndicator("z");
      p.setStrategy(strategy);
      p.setSeed(3);
      p.setBudget(1e6);
      p.setInitialBudget(0.05);
      p.setParam("kg.pool", 16);
      p.setParam("kg.fantasies", 2);
      p.setParam("acq.starts", 8);
      p.setParam("acq.refine", 1);
      p.setParam("acq.refine_evals", 8);
      p.setParam("acq.mc_samples", 16);
      p.setParam("recommend.population", 12);
      p.setParam("recommend.generations", 4);
      try (Optimizer opt = new Optimizer(p)) {
        java.util.Random rng = new java.util.Random(11);
        double[] logs = new double[80 * 6];
        for (int i = 0; i < 80; ++i) {
          double a = rng.nextDouble(), b = rng.nextDouble();
          double[] t = truth(a, b);
          System.arraycopy(new double[] {a, b, 1.0, t[0], t[1], t[2]}, 0, logs, 6 * i, 6);
        }
        opt.addObservational(logs, 6);
        for (int i = 0; i < steps; ++i) {
          Suggestion s = opt.suggest();
          double[] t = truth(s.getX()[0], s.getX()[1]);
          opt.observe(s.getTicket(), new double[] {t[1], t[2]}, new double[0], new double[] {t[0]});
        }
        return opt.priorWeights();
      }
    }
  }

  private static void priorWeights() {
    PriorWeights w = priorWeightsAfter("rescue", 8);
    double[] a = w.getScale();
    check(a.length == 2 && Math.abs(a[0] - 1) < 0.3 && Math.abs(a[1] - 1) < 0.3 && w.getInUse()
          && w.getKernelWeight() > 0, "a causal model of the same system is taken near face value");
    expectError(() -> priorWeightsAfter("hvkg", 4), RescueConstants.RESCUE_ERR_INVALID_STATE, "no causal prior",
                "a strategy without a causal model");
  }

  // The causal model of the healthcare problem: its graph, its estimates, a DAG of one's own and
  // background knowledge.
  private static void causalModel() {
    try (Problem p = new Problem("healthcare")) {
      p.setSeed(3);
      try (Optimizer opt = new Optimizer(p)) {
        expectError(() -> opt.causalGraph(false, false), RescueConstants.RESCUE_ERR_INVALID_STATE, "causal",
                    "no causal model before any data");
        double[] rows = p.sampleObservational(150, 5);
        check(rows.length == 150 * 6, "observational rows: 150 x 6 values");
        opt.addObservational(rows, 6);
        String dot = opt.causalGraph(false, false);
        check(dot.startsWith("digraph") && dot.contains("\"BMI\""), "the graph as DOT");
        check(opt.causalGraph(true, false).contains("\"edges\""), "the graph as JSON");
        double[] x = {25.0, 0.5, 21.0, 0.1};
        double[] s = {1.0, 1.0};
        double[] mean = opt.causalMeans(x, s);
        double[] sd = opt.causalSds(x, s);
        check(mean.length == 6 && sd.length == 6 && sd[0] >= 0 && sd[3] >= 0, "estimates: 2 x 3 values");
        // Statin rises with BMI (the problem's first equation): sigmoid(-13 + 6.5 + 0.2 BMI).
        double truth = 1 / (1 + Math.exp(1.5));
        check(Math.abs(mean[0] - truth) < 0.05 && mean[0] > mean[3], "Statin's estimate at BMI 25: " + mean[0]);
        expectError(() -> opt.setDag("{\"edges\": [{\"from\": \"PSA\", \"to\": \"BMI\"}]}"),
                    RescueConstants.RESCUE_ERR_INVALID_ARGUMENT, "", "an edge into an option");
        opt.setDag("{\"edges\": [{\"from\": \"BMI\", \"to\": \"Statin\"}, {\"from\": \"fidelity\", \"to\": \"Statin\"},"
                   + " {\"from\": \"Statin\", \"to\": \"PSA\"}]}");
        check(opt.causalGraph(false, false).contains("\"Statin\" -> \"PSA\""), "a DAG of one's own");
        opt.clearDag();
        opt.constrainEdge("Aspirin", "PSA", false);
        check(!opt.causalGraph(false, false).contains("\"Aspirin\" -> \"PSA\""), "a forbidden edge");
        expectError(() -> opt.constrainEdge("Nope", "PSA", true), RescueConstants.RESCUE_ERR_UNKNOWN_NAME, "Nope",
                    "an unknown name");
      }
    }
  }

  public static void main(String[] args) throws Exception {
    check(Rescue.versionNumber() > 0 && !Rescue.versionString().isEmpty(), "version");
    check(Rescue.statusString(RescueConstants.RESCUE_ERR_UNKNOWN_TICKET).equals("unknown ticket"), "status string");
    boolean found = false;
    for (int i = 0; !Rescue.strategyList(i).isEmpty(); ++i) found |= Rescue.strategyList(i).equals("cost-aware-random");
    check(found, "cost-aware-random is a known strategy");
    int params = 0;
    for (; !Rescue.paramList(params).isEmpty(); ++params) {
      ParamInfo info = Rescue.describeParam(Rescue.paramList(params));
      check(info.getLower() <= info.getDefaultValue() && info.getDefaultValue() <= info.getUpper(), "parameter default in bounds");
    }
    check(params >= 20, "parameters listed");
    categoricalOption();
    priorWeights();
    causalModel();
    ParamInfo repair = Rescue.describeParam("rescue.repair");
    check(repair.getKind() == RescueConstants.RESCUE_PARAM_INTEGER && repair.getUpper() == 2.0, "rescue.repair's values");

    // Bad input: RescueException with the library's message and status.
    expectError(() -> new Problem("no-such-problem"), RescueConstants.RESCUE_ERR_UNKNOWN_NAME,
                "unknown benchmark problem 'no-such-problem'", "unknown problem");
    try (Problem problem = referenceProblem()) {
      expectError(() -> problem.setStrategy("no-such-strategy"), RescueConstants.RESCUE_ERR_UNKNOWN_NAME,
                  "no-such-strategy", "unknown strategy");
      double[][] reference;
      try (Optimizer opt = new Optimizer(problem)) {
        check(opt.dimension() == 2 && opt.numObjectives() == 2, "dimensions");
        check(opt.strategyName().equals("cost-aware-random"), "strategy name");
        Suggestion s = opt.suggest();
        expectError(() -> opt.observe(s.getTicket(), new double[] {1, 2, 3}), RescueConstants.RESCUE_ERR_SIZE_MISMATCH,
                    "objective values: length 3", "three objective values");
        expectError(() -> opt.observe(s.getTicket() + 100, new double[] {1, 2}),
                    RescueConstants.RESCUE_ERR_UNKNOWN_TICKET, "ticket", "unknown ticket");
        check(Arrays.equals(opt.pending(), new int[] {s.getTicket()}), "pending tickets");
        opt.cancel(s.getTicket());
        check(opt.budget().getSpent() == 0 && opt.budget().getTotal() == 1000, "a cancelled ticket costs nothing");
      }
      expectError(() -> Optimizer.load("garbage"), RescueConstants.RESCUE_ERR_CORRUPT_CHECKPOINT,
                  "not a RESCUE checkpoint", "corrupt checkpoint");

      // Deterministic release; a double close is harmless and a closed object raises.
      Optimizer closed = new Optimizer(problem);
      closed.close();
      check(closed.isClosed(), "isClosed after close");
      closed.close();
      expectError(closed::suggest, RescueConstants.RESCUE_ERR_INVALID_STATE, "closed", "use after close");

      // The reference run, and the callback helper.
      try (Optimizer opt = new Optimizer(problem)) {
        run(opt, problem, -1);
        reference = history(opt);
      }
      check(reference.length > 3, "the reference run has observations");
      try (Optimizer opt = new Optimizer(problem)) {
        ParetoSet front = opt.optimize((x, s) -> problem.evaluate(x, s).getObjectives());
        check(Arrays.deepEquals(history(opt), reference), "the optimize helper runs the reference loop");
        check(front.getCount() > 0 && front.getX().length == 2 * front.getCount()
              && front.point(0).length == 2 && front.objectives(0).length == 2, "Pareto set shape");
        double[] target = new double[front.getCount()];
        Arrays.fill(target, 1.0);
        Prediction pred = opt.predict(front.getX(), target);
        boolean same = pred.getMean().length == 2 * front.getCount() && pred.getFeasible().length == front.getCount();
        for (int i = 0; same && i < front.getCount(); ++i)
          for (int k = 0; k < 2; ++k)
            same &= Math.abs(pred.getMean()[2 * i + k] - front.objectives(i)[k]) <= 1e-9 * (1 + Math.abs(front.objectives(i)[k]));
        check(same, "predictions at the Pareto set are its values");
        CrossValidation cv = opt.crossValidate();
        boolean held = cv.getCount() == opt.numObservations() && cv.getMean().length == 2 * cv.getCount()
                       && cv.getSd().length == cv.getMean().length;
        for (int i = 0; held && i < cv.getSd().length; ++i) held &= cv.getSd()[i] > 0 && Double.isFinite(cv.getMean()[i]);
        check(held, "cross-validation holds out every observation");
        FidelityAgreement fa = opt.fidelityAgreement(new double[] {0.0, 1.0, 1.0, 1.0});
        check(fa.getRows().length == 2 && fa.getRows()[0] == opt.numObservations() && fa.getRows()[1] == fa.getTargetRows()
              && fa.getRmsZ().length == 4 && fa.getRank().length == 4, "fidelity agreement per band");
      }

      // Checkpoints: from C, to the other languages, and in memory.
      try (Optimizer opt = Optimizer.loadFile(System.getenv("RESCUE_CHECKPOINT_IN"))) {
        check(opt.numObservations() > 0, "the C checkpoint holds observations");
        run(opt, problem, -1);
        check(Arrays.deepEquals(history(opt), reference), "the resumed C checkpoint makes the reference observations");
      }
      String text;
      try (Optimizer opt = new Optimizer(problem)) {
        run(opt, problem, 3);
        opt.saveFile(System.getenv("RESCUE_CHECKPOINT_OUT"));
        text = opt.save();
      }
      try (Optimizer opt = Optimizer.load(text)) {
        check(opt.numObservations() == 3, "loaded observations");
        run(opt, problem, -1);
        check(Arrays.deepEquals(history(opt), reference), "an in-memory round trip makes the reference observations");
      }
    }
    check(Math.abs(Rescue.hypervolume(new double[] {1, 2, 2, 1}, 2, new double[] {3, 3}) - 3.0) < 1e-15, "hypervolume");
    check(Arrays.equals(Rescue.paretoFilter(new double[] {1, 2, 2, 1, 3, 3}, 2, new double[0]), new int[] {0, 1}),
          "pareto filter");
    singleFidelityBudget();

    if (failures > 0) {
      System.out.println(failures + " check(s) failed");
      System.exit(1);
    }
    System.out.println("all Java checks passed");
  }
}
