// Tests of the C# binding. The checkpoint written by the C reference program is read from
// $RESCUE_CHECKPOINT_IN; this test writes its own to $RESCUE_CHECKPOINT_OUT.
using System;
using System.Collections.Generic;
using System.Linq;
using Rescue;

public static class TestRescue {
  static int failures = 0;

  static void Check(bool ok, string what) {
    if (!ok) {
      ++failures;
      Console.WriteLine("FAILED: " + what);
    }
  }

  static void ExpectError(Action action, int status, string part, string what) {
    try {
      action();
      Check(false, what + ": no exception");
    } catch (RescueException e) {
      Check(e.Status == status, what + ": status " + e.Status);
      Check(e.Message.Contains(part), what + ": message '" + e.Message + "'");
    } catch (Exception e) {
      Check(false, what + ": wrong exception " + e);
    }
  }

  static Problem ReferenceProblem() {
    var p = new Problem("branin-currin");
    p.SetSeed(7);
    p.SetStrategy("cost-aware-random");
    p.SetBudget(1000.0);
    return p;
  }

  static void Run(Optimizer opt, Problem problem, int maxObs) {
    for (int n = 0; !opt.Done() && (maxObs < 0 || n < maxObs); ++n) {
      Suggestion s;
      try {
        s = opt.Suggest();
      } catch (RescueException e) {
        Check(e.Status == Library.RESCUE_ERR_BUDGET_EXHAUSTED, "suggest: " + e.Message);
        break;
      }
      opt.Observe(s.Ticket, problem.Evaluate(s.X, s.Fidelity).Objectives);
    }
  }

  // Every observation as x, fidelity, objectives (comparing these needs no model fit).
  static List<double> History(Optimizer opt) {
    var h = new List<double>();
    for (int i = 0; i < opt.NumObservations(); ++i) {
      Observation o = opt.Observation(i);
      h.AddRange(o.X);
      h.Add(o.Fidelity);
      h.AddRange(o.Objectives);
    }
    return h;
  }

  // The README's loop with no fidelity set: every evaluation costs 1, so a budget of 7 is 7 of them.
  static void SingleFidelityBudget() {
    using (var p = new Problem()) {
      p.AddOption("a", 0.0, 1.0, Library.RESCUE_CONTINUOUS);
      p.AddOption("b", 0.0, 1.0, Library.RESCUE_CONTINUOUS);
      p.AddObjective("f1", Library.RESCUE_MINIMIZE);
      p.AddObjective("f2", Library.RESCUE_MINIMIZE);
      p.SetStrategy("random");
      p.SetBudget(7.0);
      using (var opt = new Optimizer(p)) {
        int n = 0;
        bool target = true;
        for (; !opt.Done() && n < 100; ++n) {
          Suggestion s = opt.Suggest();
          double[] x = s.X;
          target &= s.Fidelity == 1.0;
          opt.Observe(s.Ticket, new double[] {x[0] * x[0] + x[1], (1 - x[0]) * (1 - x[0]) + x[1]});
        }
        Check(n == 7 && opt.NumObservations() == 7, "a budget of 7 without a fidelity is 7 evaluations, got " + n);
        Check(target, "every suggestion without a fidelity is at fidelity 1");
        Budget b = opt.Budget();
        Check(b.Spent == 7.0 && b.Pending == 0.0 && b.Total == 7.0, "7 evaluations cost 7");
      }
    }
  }

  // Evaluations measure this system: an indicator z, then two objectives.
  static double[] Truth(double a, double b) {
    double z = a + b;
    return new[] {z, 2 * z + a * a, (1 - a) * (1 - a) + 0.5 * b};
  }

  // The prior's weights after a few steps with 80 logs of the same system.
  static PriorWeights PriorWeightsAfter(string strategy, int steps) {
    using (var p = new Problem()) {
      p.AddOption("a", 0.0, 1.0, Library.RESCUE_CONTINUOUS);
      p.AddOption("b", 0.0, 1.0, Library.RESCUE_CONTINUOUS);
      p.SetFidelityRange(0.0, 1.0, 1.0);
      p.AddObjective("f1", Library.RESCUE_MINIMIZE);
      p.AddObjective("f2", Library.RESCUE_MINIMIZE);
      p.AddIndicator("z");
      p.SetStrategy(strategy);
      p.SetSeed(3);
      p.SetBudget(1e6);
      p.SetInitialBudget(0.05);
      p.SetParam("kg.pool", 16);
      p.SetParam("kg.fantasies", 2);
      p.SetParam("acq.starts", 8);
      p.SetParam("acq.refine", 1);
      p.SetParam("acq.refine_evals", 8);
      p.SetParam("acq.mc_samples", 16);
      p.SetParam("recommend.population", 12);
      p.SetParam("recommend.generations", 4);
      using (var opt = new Optimizer(p)) {
        var rng = new Random(11);
        var logs = new List<double>();
        for (int i = 0; i < 80; ++i) {
          double a = rng.NextDouble(), b = rng.NextDouble();
          double[] t = Truth(a, b);
          logs.AddRange(new[] {a, b, 1.0, t[0], t[1], t[2]});
        }
        opt.AddObservational(logs.ToArray(), 6);
        for (int i = 0; i < steps; ++i) {
          Suggestion s = opt.Suggest();
          double[] t = Truth(s.X[0], s.X[1]);
          opt.Observe(s.Ticket, new[] {t[1], t[2]}, new double[0], new[] {t[0]});
        }
        return opt.PriorWeights();
      }
    }
  }

  static void PriorWeightsChecks() {
    PriorWeights w = PriorWeightsAfter("rescue", 8);
    Check(w.Scale.Length == 2 && Math.Abs(w.Scale[0] - 1) < 0.3 && Math.Abs(w.Scale[1] - 1) < 0.3 && w.InUse
          && w.KernelWeight > 0, "a causal model of the same system is taken near face value");
    ExpectError(() => PriorWeightsAfter("hvkg", 4), Library.RESCUE_ERR_INVALID_STATE, "no causal prior",
                "a strategy without a causal model");
  }

  // The causal model of the healthcare problem: its graph, its estimates, a DAG of one's own and
  // background knowledge.
  static void CausalModelChecks() {
    using (var p = new Problem("healthcare")) {
      p.SetSeed(3);
      using (var opt = new Optimizer(p)) {
        ExpectError(() => opt.CausalGraph(false, false), Library.RESCUE_ERR_INVALID_STATE, "causal",
                    "no causal model before any data");
        double[] rows = p.SampleObservational(150, 5);
        Check(rows.Length == 150 * 6, "observational rows: 150 x 6 values");
        opt.AddObservational(rows, 6);
        string dot = opt.CausalGraph(false, false);
        Check(dot.StartsWith("digraph") && dot.Contains("\"BMI\""), "the graph as DOT");
        Check(opt.CausalGraph(true, false).Contains("\"edges\""), "the graph as JSON");
        double[] x = {25.0, 0.5, 21.0, 0.1};
        double[] s = {1.0, 1.0};
        double[] mean = opt.CausalMeans(x, s);
        double[] sd = opt.CausalSds(x, s);
        Check(mean.Length == 6 && sd.Length == 6 && sd[0] >= 0 && sd[3] >= 0, "estimates: 2 x 3 values");
        // Statin rises with BMI (the problem's first equation): sigmoid(-13 + 6.5 + 0.2 BMI).
        double truth = 1 / (1 + Math.Exp(1.5));
        Check(Math.Abs(mean[0] - truth) < 0.05 && mean[0] > mean[3], "Statin's estimate at BMI 25: " + mean[0]);
        ExpectError(() => opt.SetDag("{\"edges\": [{\"from\": \"PSA\", \"to\": \"BMI\"}]}"),
                    Library.RESCUE_ERR_INVALID_ARGUMENT, "", "an edge into an option");
        opt.SetDag("{\"edges\": [{\"from\": \"BMI\", \"to\": \"Statin\"}, {\"from\": \"fidelity\", \"to\": \"Statin\"},"
                   + " {\"from\": \"Statin\", \"to\": \"PSA\"}]}");
        Check(opt.CausalGraph(false, false).Contains("\"Statin\" -> \"PSA\""), "a DAG of one's own");
        opt.ClearDag();
        opt.ConstrainEdge("Aspirin", "PSA", false);
        Check(!opt.CausalGraph(false, false).Contains("\"Aspirin\" -> \"PSA\""), "a forbidden edge");
        ExpectError(() => opt.ConstrainEdge("Nope", "PSA", true), Library.RESCUE_ERR_UNKNOWN_NAME, "Nope",
                    "an unknown name");
      }
    }
  }

  // A categorical option: level indices in, out and in the Pareto set; its labels read back.
  static void CategoricalOption() {
    string[] boosters = {"gbtree", "dart", "linear"};
    double[] penalty = {0.3, 0.0, 0.6};
    using (var p = new Problem()) {
      p.AddOption("eta", 0.0, 1.0, Library.RESCUE_CONTINUOUS);
      p.AddCategorical("booster", boosters);
      ExpectError(() => p.AddCategorical("kind", new[] {"a", "a"}), Library.RESCUE_ERR_INVALID_ARGUMENT,
                  "'a' is given twice", "a repeated label");
      p.SetFidelityRange(0.0, 1.0, 1.0);
      p.AddObjective("error", Library.RESCUE_MINIMIZE);
      p.AddObjective("size", Library.RESCUE_MINIMIZE);
      p.SetStrategy("hvkg");
      p.SetSeed(4);
      p.SetBudget(1e6);
      p.SetInitialBudget(0.05);
      p.SetParam("kg.pool", 16);
      p.SetParam("acq.starts", 8);
      p.SetParam("recommend.generations", 4);
      using (var opt = new Optimizer(p)) {
        Check(opt.OptionLabels(1).SequenceEqual(boosters), "labels read back");
        Check(opt.OptionLabels(0).Length == 0, "a continuous option has no labels");
        Check(opt.OptionInfo(1).Kind == Library.RESCUE_CATEGORICAL, "categorical kind");
        var seen = new HashSet<int>();
        for (int i = 0; i < 16; ++i) {
          Suggestion s = opt.Suggest();
          double[] x = s.X;
          int k = (int)x[1];
          Check(x[1] == k && k >= 0 && k <= 2, "a level index, got " + x[1]);
          seen.Add(k);
          opt.Observe(s.Ticket, new double[] {(x[0] - 0.3) * (x[0] - 0.3) + penalty[k] + 0.1 * (1 - s.Fidelity),
                                              1 - x[0] + penalty[k]});
        }
        Check(seen.Count > 1, "more than one level tried");
        ExpectError(() => opt.ObserveAt(new double[] {0.5, 0.5}, 1.0, new double[] {0.1, 0.2}),
                    Library.RESCUE_ERR_INVALID_ARGUMENT, "not a level index", "a fractional level");
        Check(opt.NumObservations() == 16, "a rejected observation adds nothing");
        ParetoSet front = opt.Pareto();
        double[] fx = front.X;
        Check(front.Count > 0, "a recommended set");
        for (int i = 0; i < front.Count; ++i) Check(fx[i * 2 + 1] == Math.Round(fx[i * 2 + 1]), "level index in the set");
      }
    }
  }

  public static int Main() {
    Check(Library.VersionNumber() > 0 && Library.VersionString().Length > 0, "version");
    Check(Library.StatusString(Library.RESCUE_ERR_UNKNOWN_TICKET) == "unknown ticket", "status string");
    bool found = false;
    for (int i = 0; Library.StrategyList(i).Length > 0; ++i) found |= Library.StrategyList(i) == "cost-aware-random";
    Check(found, "cost-aware-random is a known strategy");
    int parameters = 0;
    for (; Library.ParamList(parameters).Length > 0; ++parameters) {
      ParamInfo info = Library.DescribeParam(Library.ParamList(parameters));
      Check(info.Lower <= info.DefaultValue && info.DefaultValue <= info.Upper, "parameter default in bounds");
    }
    Check(parameters >= 20, "parameters listed");
    CategoricalOption();
    PriorWeightsChecks();
    CausalModelChecks();
    ParamInfo repair = Library.DescribeParam("rescue.repair");
    Check(repair.Kind == Library.RESCUE_PARAM_INTEGER && repair.Upper == 2.0, "rescue.repair's values");

    ExpectError(() => new Problem("no-such-problem"), Library.RESCUE_ERR_UNKNOWN_NAME,
                "unknown benchmark problem 'no-such-problem'", "unknown problem");
    using (var problem = ReferenceProblem()) {
      ExpectError(() => problem.SetStrategy("no-such-strategy"), Library.RESCUE_ERR_UNKNOWN_NAME, "no-such-strategy",
                  "unknown strategy");
      using (var opt = new Optimizer(problem)) {
        Check(opt.Dimension() == 2 && opt.NumObjectives() == 2, "dimensions");
        Check(opt.StrategyName() == "cost-aware-random", "strategy name");
        Suggestion s = opt.Suggest();
        ExpectError(() => opt.Observe(s.Ticket, new double[] {1, 2, 3}), Library.RESCUE_ERR_SIZE_MISMATCH,
                    "objective values: length 3", "three objective values");
        ExpectError(() => opt.Observe(s.Ticket + 100, new double[] {1, 2}), Library.RESCUE_ERR_UNKNOWN_TICKET, "ticket",
                    "unknown ticket");
        Check(opt.Pending().SequenceEqual(new[] {s.Ticket}), "pending tickets");
        opt.Cancel(s.Ticket);
        Check(opt.Budget().Spent == 0 && opt.Budget().Total == 1000, "a cancelled ticket costs nothing");
      }
      ExpectError(() => Optimizer.Load("garbage"), Library.RESCUE_ERR_CORRUPT_CHECKPOINT, "not a RESCUE checkpoint",
                  "corrupt checkpoint");

      // Deterministic release; a double Dispose is harmless and a disposed object raises.
      var closed = new Optimizer(problem);
      closed.Dispose();
      closed.Dispose();
      ExpectError(() => closed.Suggest(), Library.RESCUE_ERR_INVALID_STATE, "closed", "use after Dispose");

      List<double> reference;
      using (var opt = new Optimizer(problem)) {
        Run(opt, problem, -1);
        reference = History(opt);
      }
      Check(reference.Count > 15, "the reference run has observations");
      // A result the library refuses fails the evaluation instead of leaving it pending.
      using (var opt = new Optimizer(problem)) {
        ExpectError(() => opt.Optimize((x, s) => new double[] {1.0}), Library.RESCUE_ERR_SIZE_MISMATCH, "objective",
                    "Optimize with a result of the wrong size");
        Check(opt.Pending().Length == 0 && opt.NumObservations() == 1 && opt.Observation(0).Failed,
              "the refused evaluation is failed, not pending");
      }
      // A string holding a NUL would be marshalled cut short: it is refused.
      using (var p = new Problem()) {
        ExpectError(() => p.AddObjective("f1\0junk", Library.RESCUE_MINIMIZE), Library.RESCUE_ERR_INVALID_ARGUMENT, "NUL",
                    "a name holding NUL");
        ExpectError(() => p.SetStrategy("random\0x"), Library.RESCUE_ERR_INVALID_ARGUMENT, "NUL", "a strategy holding NUL");
      }
      using (var opt = new Optimizer(problem)) {
        ParetoSet front = opt.Optimize((x, s) => problem.Evaluate(x, s).Objectives);
        Check(History(opt).SequenceEqual(reference), "the Optimize helper runs the reference loop");
        Check(front.Count > 0 && front.X.Length == 2 * front.Count && front.Point(0).Length == 2, "Pareto set shape");
        var target = Enumerable.Repeat(1.0, front.Count).ToArray();
        Prediction pred = opt.Predict(front.X, target);
        bool same = pred.Mean.Length == 2 * front.Count && pred.Feasible.Length == front.Count;
        for (int i = 0; same && i < front.Count; ++i)
          for (int k = 0; k < 2; ++k)
            same &= Math.Abs(pred.Mean[2 * i + k] - front.Y[2 * i + k]) <= 1e-9 * (1 + Math.Abs(front.Y[2 * i + k]));
        Check(same, "predictions at the Pareto set are its values");
        CrossValidation cv = opt.CrossValidate();
        bool held = cv.Count == opt.NumObservations() && cv.Mean.Length == 2 * cv.Count && cv.Sd.Length == cv.Mean.Length;
        for (int i = 0; held && i < cv.Sd.Length; ++i) held &= cv.Sd[i] > 0 && double.IsFinite(cv.Mean[i]);
        Check(held, "cross-validation holds out every observation");
        FidelityAgreement fa = opt.FidelityAgreement(new double[] {0.0, 1.0, 1.0, 1.0});
        Check(fa.Rows.Length == 2 && fa.Rows[0] == opt.NumObservations() && fa.Rows[1] == fa.TargetRows
              && fa.RmsZ.Length == 4 && fa.Rank.Length == 4, "fidelity agreement per band");
      }

      using (var opt = Optimizer.LoadFile(Environment.GetEnvironmentVariable("RESCUE_CHECKPOINT_IN"))) {
        Check(opt.NumObservations() > 0, "the C checkpoint holds observations");
        Run(opt, problem, -1);
        Check(History(opt).SequenceEqual(reference), "the resumed C checkpoint makes the reference observations");
      }
      string text;
      using (var opt = new Optimizer(problem)) {
        Run(opt, problem, 3);
        opt.SaveFile(Environment.GetEnvironmentVariable("RESCUE_CHECKPOINT_OUT"));
        text = opt.Save();
      }
      using (var opt = Optimizer.Load(text)) {
        Check(opt.NumObservations() == 3, "loaded observations");
        Run(opt, problem, -1);
        Check(History(opt).SequenceEqual(reference), "an in-memory round trip makes the reference observations");
      }
    }
    Check(Math.Abs(Library.Hypervolume(new double[] {1, 2, 2, 1}, 2, new double[] {3, 3}) - 3.0) < 1e-15, "hypervolume");
    Check(Library.ParetoFilter(new double[] {1, 2, 2, 1, 3, 3}, 2, new double[0]).SequenceEqual(new[] {0, 1}),
          "pareto filter");
    SingleFidelityBudget();

    if (failures > 0) {
      Console.WriteLine(failures + " check(s) failed");
      return 1;
    }
    Console.WriteLine("all C# checks passed");
    return 0;
  }
}
