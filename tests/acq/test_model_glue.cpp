// The surrogate's data conventions, the outer search, and the recommender.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "acq/candidate_search.hpp"
#include "acq/causal_prior.hpp"
#include "acq/hvkg.hpp"
#include "acq/recommender.hpp"
#include "acq/rescue_strategy.hpp"
#include "acq/surrogate.hpp"
#include "moo/pareto.hpp"
#include "util/rng.hpp"

namespace {

using namespace rescue;

ProblemSpec two_objective_spec(bool constrained) {
  ProblemSpec p;
  p.add_option("a", 0.0, 1.0, OptionKind::Continuous);
  p.add_option("b", 10.0, 20.0, OptionKind::Continuous);
  p.set_fidelity_range(0.0, 1.0, 1.0);
  p.add_objective("f1", Sense::Minimize);
  p.add_objective("f2", Sense::Maximize);
  if (constrained) p.add_constraint("g", 0.5, ConstraintSense::LessEqual);
  return p;
}

// f1 = a, f2 = 1 - a^2 + 0.1 (b - 15)/5 (maximized), g = a + 0.3 (b - 10)/10.
Observation observe(const ProblemSpec& p, double a, double b, double s) {
  Observation o;
  o.x = {a, b};
  o.s = s;
  o.y = {a + 0.05 * (1 - s), 1.0 - a * a + 0.1 * (b - 15.0) / 5.0};
  if (p.num_constraints() > 0) o.g = {a + 0.3 * (b - 10.0) / 10.0};
  o.cost = 1.0;
  return o;
}

TEST(TrainingSet, ObjectivesInMinimizationConventionAndFailuresLeftOut) {
  const ProblemSpec p = two_objective_spec(true);
  std::vector<Observation> obs = {observe(p, 0.2, 15.0, 1.0), observe(p, 0.6, 12.0, 0.5)};
  Observation failed = observe(p, 0.9, 19.0, 0.1);
  failed.failed = true;
  obs.insert(obs.begin() + 1, failed);
  const acq::TrainingSet t = acq::training_set(p, obs);
  ASSERT_EQ(t.X.rows(), 2);
  ASSERT_EQ(t.X.cols(), 3);
  ASSERT_EQ(t.Y.cols(), 3);
  EXPECT_DOUBLE_EQ(t.X(0, 1), 0.5);                // b = 15 is the middle of [10, 20]
  EXPECT_DOUBLE_EQ(t.X(1, 2), 0.5);                // fidelity
  EXPECT_DOUBLE_EQ(t.Y(0, 1), -obs[0].y[1]);       // maximized objective negated
  EXPECT_DOUBLE_EQ(t.Y(1, 2), obs[2].g[0]);        // constraint metric as given
}

// Brute force for the knowledge gradients: for each row of E, the observation
// at `cand` drawn from the predictive there with that row as its normal
// sample, the GP conditioned on the data plus it (same hyperparameters), and
// its posterior mean and variance at `pool`.
std::vector<std::pair<Eigen::MatrixXd, Eigen::MatrixXd>> conditioned_on_draws(const gp::MultiFidelityGp& gp,
                                                                                const acq::TrainingSet& data,
                                                                                const Eigen::VectorXd& cand,
                                                                                const Eigen::MatrixXd& E,
                                                                                const Eigen::MatrixXd& pool) {
  const gp::Posterior pc = gp.posterior(cand.transpose(), true);
  const Eigen::MatrixXd L = pc.covariance.llt().matrixL();
  std::vector<std::pair<Eigen::MatrixXd, Eigen::MatrixXd>> out;
  for (Eigen::Index k = 0; k < E.rows(); ++k) {
    const Eigen::VectorXd y = pc.mean.row(0).transpose() + L * E.row(k).transpose();
    Eigen::MatrixXd Xa(data.X.rows() + 1, data.X.cols()), Ya(data.Y.rows() + 1, data.Y.cols());
    Xa << data.X, cand.transpose();
    Ya << data.Y, y.transpose();
    Eigen::MatrixXd m2, v2;
    gp.conditioned_on(Xa, Ya).posterior_mean_variance(pool, m2, v2);
    out.emplace_back(std::move(m2), std::move(v2));
  }
  return out;
}

TEST(ReferencePoint, ProblemsOwnOrInferredFromTheFront) {
  ProblemSpec p = two_objective_spec(false);
  std::vector<Observation> obs = {observe(p, 0.0, 15.0, 1.0), observe(p, 1.0, 15.0, 1.0), observe(p, 0.5, 15.0, 1.0),
                                  observe(p, 0.9, 11.0, 1.0)};
  obs[0].y = {0.0, 0.0};
  obs[1].y = {1.0, 1.0};
  obs[2].y = {0.5, 0.75};
  obs[3].y = {2.0, -5.0};  // dominated: it must not move the nadir
  // Front in min convention: (0, 0), (1, -1), (0.5, -0.75): nadir (1, 0), ideal (0, -1).
  const auto ref = acq::reference_point_min(p, obs);
  EXPECT_NEAR(ref[0], 1.1, 1e-12);
  EXPECT_NEAR(ref[1], 0.1, 1e-12);
  p.set_reference_point({2.0, -3.0});
  const auto own = acq::reference_point_min(p, obs);
  EXPECT_EQ(own[0], 2.0);
  EXPECT_EQ(own[1], 3.0);

  // With a constraint, the front of the feasible observations: an infeasible
  // observation that dominates them all must not pull the box in front of them.
  ProblemSpec c = two_objective_spec(true);  // g <= 0.5
  std::vector<Observation> cobs = obs;
  for (auto& o : cobs) o.g = {0.2};
  cobs.push_back(cobs[0]);
  cobs.back().y = {-1.0, 3.0};  // (-1, -3) in min convention: dominates every other point
  cobs.back().g = {0.9};
  const auto feasible_ref = acq::reference_point_min(c, cobs);
  EXPECT_NEAR(feasible_ref[0], 1.1, 1e-12);
  EXPECT_NEAR(feasible_ref[1], 0.1, 1e-12);
  // Without a feasible observation, the front of all of them: (-1, -3) alone,
  // pushed out by the smallest range.
  for (auto& o : cobs) o.g = {0.9};
  const auto all_ref = acq::reference_point_min(c, cobs);
  EXPECT_NEAR(all_ref[0], -1.0, 1e-6);
  EXPECT_NEAR(all_ref[1], -3.0, 1e-6);
}

// The inner maximization's reference point: the inferred one, unless no
// target prediction lies inside its box (cheap fidelities that read better
// than the target set the observed front); then the one inferred from the
// predictions. A reference point the user gives is always kept.
TEST(ReferencePoint, InnerMaximizationKeepsTargetPredictionsInsideTheBox) {
  ProblemSpec p = two_objective_spec(false);
  std::vector<Observation> obs = {observe(p, 0.2, 15.0, 0.1), observe(p, 0.8, 15.0, 0.1)};
  obs[0].y = {-5.0, 10.0};  // (-5, -10) in min convention
  obs[1].y = {-4.0, 12.0};  // (-4, -12): nadir (-4, -10), range (1, 2)
  const auto inferred = acq::reference_point_min(p, obs);
  EXPECT_NEAR(inferred[0], -3.9, 1e-12);
  EXPECT_NEAR(inferred[1], -9.8, 1e-12);
  acq::RowMatrix far(2, 2);
  far << 0.1, -0.5, 0.5, -0.9;
  // Front of the predictions (0.1, -0.5), (0.5, -0.9): nadir (0.5, -0.5), range (0.4, 0.4).
  const auto moved = acq::inner_reference_point(p, obs, far);
  EXPECT_NEAR(moved[0], 0.54, 1e-12);
  EXPECT_NEAR(moved[1], -0.46, 1e-12);
  acq::RowMatrix one_inside = far;
  one_inside.row(1) << -4.5, -11.0;
  EXPECT_EQ(acq::inner_reference_point(p, obs, one_inside), inferred);
  p.set_reference_point({-1.0, 1.0});
  const auto own = acq::inner_reference_point(p, obs, far);
  EXPECT_EQ(own[0], -1.0);
  EXPECT_EQ(own[1], -1.0);
}

TEST(CandidateSearch, FindsKnownOptimaRespectingCostAndFidelityKinds) {
  ProblemSpec p = two_objective_spec(false);
  Rng rng(5);
  // Continuous fidelity: the optimum is at u = (0.3, 0.8), s = 0.2.
  auto f = [](const double* u, double s) {
    return -(u[0] - 0.3) * (u[0] - 0.3) - (u[1] - 0.8) * (u[1] - 0.8) - (s - 0.2) * (s - 0.2);
  };
  acq::SearchOptions o;
  o.starts = 64;
  o.refine = 3;
  o.refine_evals = 80;
  acq::SearchResult r = acq::maximize_acquisition(p, f, rng, o);
  EXPECT_NEAR(r.u[0], 0.3, 0.02);
  EXPECT_NEAR(r.u[1], 0.8, 0.02);
  EXPECT_NEAR(r.s, 0.2, 0.02);
  // A cost ceiling exp(4.8 * 0.1) keeps s <= 0.1.
  o.max_cost = std::exp(0.48);
  r = acq::maximize_acquisition(p, f, rng, o);
  EXPECT_LE(r.s, 0.1 + 1e-12);
  EXPECT_NEAR(r.s, 0.1, 0.02);
  // Target only.
  o.max_cost = HUGE_VAL;
  o.target_only = true;
  r = acq::maximize_acquisition(p, f, rng, o);
  EXPECT_EQ(r.s, 1.0);
  // Discrete levels are enumerated: the best level is 0.25.
  p.set_fidelity_levels({0.0, 0.25, 1.0}, 1.0);
  o.target_only = false;
  r = acq::maximize_acquisition(p, f, rng, o);
  EXPECT_EQ(r.s, 0.25);
  // Integer options only ever see integral values.
  ProblemSpec q;
  q.add_option("n", 0.0, 10.0, OptionKind::Integer);
  q.add_objective("f", Sense::Minimize);
  bool all_integral = true;
  auto g = [&](const double* u, double) {
    double x;
    q.from_unit(u, &x);
    all_integral = all_integral && x == std::round(x);
    return -std::fabs(x - 7.0);
  };
  r = acq::maximize_acquisition(q, g, rng, acq::search_options(q));
  EXPECT_TRUE(all_integral);
  double x;
  q.from_unit(r.u.data(), &x);
  EXPECT_EQ(x, 7.0);
}

TEST(Recommender, ReturnsPredictedFeasibleNonDominatedConfigurations) {
  const ProblemSpec p = two_objective_spec(true);
  Rng rng(9);
  std::vector<Observation> obs;
  for (int i = 0; i < 40; ++i) obs.push_back(observe(p, rng.uniform(), rng.uniform(10.0, 20.0), 1.0));
  acq::Surrogate model(p);
  ASSERT_TRUE(model.fit(obs, rng));
  const auto rec = acq::recommend_from_model(p, model, obs, rng, acq::RecommenderOptions::from(p));
  ASSERT_TRUE(rec.has_value());
  ASSERT_GE(rec->x.size(), 5u);
  std::vector<double> pts;
  for (std::size_t i = 0; i < rec->x.size(); ++i) {
    const double a = rec->x[i][0], b = rec->x[i][1];
    // The true constraint a + 0.3 (b - 10) / 10 <= 0.5, learned by the model: small slack.
    EXPECT_LE(a + 0.3 * (b - 10.0) / 10.0, 0.5 + 0.03) << a << " " << b;
    pts.push_back(rec->y[i][0]);
    pts.push_back(-rec->y[i][1]);
  }
  // The set is mutually non-dominated in its predicted values.
  EXPECT_EQ(moo::nondominated_indices(pts.data(), rec->x.size(), 2).size(), rec->x.size());
  // Too little data: no model.
  acq::Surrogate empty(p);
  EXPECT_FALSE(empty.fit({obs[0]}, rng));
  EXPECT_FALSE(acq::recommend_from_model(p, empty, obs, rng, acq::RecommenderOptions::from(p)).has_value());
}

// gp.target_correlation: the models learn it only when asked; the decision's
// model differs from the fitted one only in its target link, drawn afresh each
// time (deterministic given the generator), and only once the target has been
// evaluated.
TEST(Surrogate, TheTargetLinkIsDrawnOnlyWhenLearnedAndTheTargetEvaluated) {
  ProblemSpec p = two_objective_spec(false);
  Rng rng(4);
  std::vector<Observation> cheap;
  for (int i = 0; i < 20; ++i) cheap.push_back(observe(p, rng.uniform(), rng.uniform(10.0, 20.0), 0.3 * rng.uniform()));
  acq::Surrogate plain(p);
  ASSERT_TRUE(plain.fit(cheap, rng));
  EXPECT_EQ(plain.gp().layout().target_link_offset(), -1);
  p.set_param("gp.target_correlation", 1);
  acq::Surrogate linked(p);
  ASSERT_TRUE(linked.fit(cheap, rng));
  const int k = linked.gp().layout().target_link_offset();
  ASSERT_GE(k, 0);
  const double fitted = linked.gp().hyperparameters().target_link;
  auto drawn_with = [&](unsigned seed) {
    acq::Surrogate copy = linked;
    Rng r(seed);
    copy.draw_target_link(r);
    return copy;
  };
  EXPECT_FALSE(linked.draws_target_link());
  EXPECT_EQ(drawn_with(1).gp().hyperparameters().target_link, fitted);  // no target row yet
  std::vector<Observation> both = cheap;
  for (int i = 0; i < 3; ++i) both.push_back(observe(p, rng.uniform(), rng.uniform(10.0, 20.0), 1.0));
  ASSERT_TRUE(linked.fit(both, rng));
  const gp::Hyperparameters h = linked.gp().hyperparameters();
  EXPECT_TRUE(linked.draws_target_link());
  const acq::Surrogate drawn = drawn_with(2);
  const gp::Hyperparameters g = drawn.gp().hyperparameters();
  EXPECT_NE(g.target_link, h.target_link);
  EXPECT_EQ(g.target_link, drawn_with(2).gp().hyperparameters().target_link);
  EXPECT_NE(g.target_link, drawn_with(3).gp().hyperparameters().target_link);
  EXPECT_EQ(linked.gp().layout().pack(g).size(), linked.gp().layout().size());
  Eigen::VectorXd tg = linked.gp().layout().pack(g), th = linked.gp().layout().pack(h);
  tg[k] = th[k];
  EXPECT_EQ(tg, th);  // everything else as fitted
  EXPECT_EQ(linked.gp().hyperparameters().target_link, h.target_link);  // the fitted model is untouched
}

}  // namespace

namespace {

// The outer objective of hvkg and rescue ranks a positive gain by gain per
// cost, and never lets a non-positive (noise) estimate favour expensive
// candidates: on random gains and costs, every positive gain beats every
// non-positive one, a cheaper candidate wins at an equal gain of either sign,
// and a larger gain wins at an equal cost.
TEST(CostNormalizedGain, RanksCheapCandidatesFirstWhateverTheSignOfTheGain) {
  rescue::Rng rng(17);
  for (int trial = 0; trial < 2000; ++trial) {
    const double g1 = rng.normal() * std::pow(10.0, -4.0 * rng.uniform());
    const double g2 = rng.normal() * std::pow(10.0, -4.0 * rng.uniform());
    const double c1 = std::exp(4.8 * rng.uniform()), c2 = std::exp(4.8 * rng.uniform());
    const double cheap = std::min(c1, c2), dear = std::max(c1, c2);
    const double v1 = acq::cost_normalized_gain(g1, c1), v2 = acq::cost_normalized_gain(g2, c2);
    if (g1 > 0.0 && g2 <= 0.0) {
      EXPECT_GT(v1, v2);
    }
    if (g1 > 0.0) {
      EXPECT_DOUBLE_EQ(v1, g1 / c1);  // the paper's form where it is meaningful
    }
    if (cheap < dear && g1 != 0.0) {
      EXPECT_GT(acq::cost_normalized_gain(g1, cheap), acq::cost_normalized_gain(g1, dear)) << g1;
    }
    if (g1 < g2) {
      EXPECT_LT(acq::cost_normalized_gain(g1, c1), acq::cost_normalized_gain(g2, c1));
    }
  }
  EXPECT_EQ(acq::cost_normalized_gain(0.0, 50.0), 0.0);
}

// The calibrated prior queries the causal model at the target fidelity
// whatever the fidelity of the GP input, so the prior carries no fidelity
// trend (the GP's fidelity kernel models the discrepancy); the paper's fixed
// form queries f_do(x, s), which follows the fidelity effect the data show.
TEST(CausalPrior, PriorAtTargetIgnoresTheQueriedFidelity) {
  ProblemSpec p;
  p.add_option("a", 0.0, 1.0, OptionKind::Continuous);
  p.set_fidelity_range(0.0, 1.0, 1.0);
  p.add_objective("f1", Sense::Minimize);
  p.add_objective("f2", Sense::Minimize);
  Rng rng(3);
  std::vector<std::vector<double>> rows;
  for (int i = 0; i < 300; ++i) {
    const double a = rng.uniform(), s = rng.uniform();
    rows.push_back({a, s, 2.0 * a + 1.5 * (1.0 - s) + 0.05 * rng.normal(), 1.0 - a + 0.05 * rng.normal()});
  }
  const causal::DataTable table = acq::causal_table(p, rows, {}, 0);
  const causal::CausalPerformanceModel cpm = causal::learn_cpm(table);
  Eigen::MatrixXd low(3, 2), high(3, 2);
  low << 0.2, 0.0, 0.5, 0.0, 0.8, 0.0;
  high << 0.2, 1.0, 0.5, 1.0, 0.8, 1.0;
  acq::CausalPrior at_target(p, cpm, true);
  acq::CausalPrior at_s(p, cpm, false);
  const Eigen::MatrixXd m_low = at_s.mean(low), m_high = at_s.mean(high);
  // The learned fidelity effect on f1 (1.5 from s = 1 down to s = 0).
  EXPECT_NEAR((m_low - m_high).col(0).mean(), 1.5, 0.3);
  const Eigen::MatrixXd t_low = at_target.mean(low), t_high = at_target.mean(high);
  EXPECT_LE((t_low - m_high).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LE((t_high - m_high).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LE((at_target.sd(low) - at_s.sd(high)).cwiseAbs().maxCoeff(), 1e-12);
}


// Exposes C-HVKG's causal term for checking.
class RescueProbe : public acq::Rescue {
 public:
  using acq::Rescue::Rescue;
  using acq::Rescue::causal_objectives;
};

// One option, two objectives: 200 log rows in which f1 responds to a with
// slope log_slope, and 12 evaluations at s = 0.5 and 1 where it responds with
// slope 2 (f2 = 1 - a in both).
struct LineProblem {
  ProblemSpec p;
  std::vector<std::vector<double>> rows;
  std::vector<Observation> obs;
};

LineProblem line_problem(std::uint64_t seed, double log_slope) {
  LineProblem t;
  t.p.add_option("a", 0.0, 1.0, OptionKind::Continuous);
  t.p.set_fidelity_range(0.0, 1.0, 1.0);
  t.p.add_objective("f1", Sense::Minimize);
  t.p.add_objective("f2", Sense::Minimize);
  Rng rng(seed);
  for (int i = 0; i < 200; ++i) {
    const double a = rng.uniform(), s = rng.uniform();
    t.rows.push_back({a, s, log_slope * a + 0.05 * rng.normal(), 1.0 - a + 0.05 * rng.normal()});
  }
  for (int i = 0; i < 12; ++i) {
    Observation o;
    o.x = {rng.uniform()};
    o.s = i % 2 ? 1.0 : 0.5;
    o.y = {2.0 * o.x[0] + 0.01 * rng.normal(), 1.0 - o.x[0] + 0.01 * rng.normal()};
    o.cost = o.s;
    t.obs.push_back(o);
  }
  return t;
}

TEST(RescueStrategy, CausalTermFromTheEstimatesOrTheirCalibration) {
  // The logs overstate f1's response to a threefold, so the fitted scale of
  // the causal mean is far from 1.
  LineProblem t = line_problem(5, 6.0);
  ProblemSpec& p = t.p;
  const auto& rows = t.rows;
  const auto& obs = t.obs;
  const std::vector<acq::PendingTicket> pending;
  Eigen::MatrixXd z(4, 2);
  z << 0.1, 1.0, 0.4, 1.0, 0.7, 1.0, 0.95, 1.0;
  // The calibrated estimates b_m + a_m f_do; the paper's fixed form keeps f_do itself.
  for (const double fixed : {0.0, 1.0}) {
    SCOPED_TRACE(testing::Message() << "fixed_prior " << fixed);
    p.set_param("rescue.fixed_prior", fixed);
    RescueProbe r(p);
    const acq::EngineView view{p, obs, pending, rows, 6.0, HUGE_VAL};
    Rng srng(1);
    ASSERT_TRUE(r.suggest(view, srng).has_value());  // learns the causal model and fits the GP
    acq::RowMatrix ci;
    ASSERT_TRUE(r.causal_objectives(z, &ci));
    const Eigen::MatrixXd f_do = r.causal(view)->mean(z).leftCols(2);
    const bool use_calibrated = fixed == 0.0;
    const Eigen::MatrixXd want = use_calibrated ? r.model()->gp().prior_mean(z).leftCols(2) : f_do;
    EXPECT_LE((Eigen::MatrixXd(ci) - want).cwiseAbs().maxCoeff(), 1e-12);
    if (use_calibrated) {
      EXPECT_GT((Eigen::MatrixXd(ci) - f_do).cwiseAbs().maxCoeff(), 0.1);
    }
  }
}

// rescue.causal_kernel = 0 leaves the kernel term sigma sigma' out of MF-CGP
// and keeps the causal mean; the paper's fixed form always has the term.
TEST(RescueStrategy, CausalKernelTermCanBeLeftOut) {
  LineProblem t = line_problem(6, 2.0);
  ProblemSpec& p = t.p;
  const auto& rows = t.rows;
  const auto& obs = t.obs;
  const std::vector<acq::PendingTicket> pending;
  Eigen::MatrixXd z(3, 2);
  z << 0.1, 1.0, 0.5, 1.0, 0.9, 1.0;
  // {causal_kernel, fixed_prior}
  for (const auto& [kernel, fixed] : {std::pair{1.0, 0.0}, std::pair{0.0, 0.0}, std::pair{0.0, 1.0}}) {
    SCOPED_TRACE(testing::Message() << "causal_kernel " << kernel << ", fixed_prior " << fixed);
    p.set_param("rescue.causal_kernel", kernel);
    p.set_param("rescue.fixed_prior", fixed);
    RescueProbe r(p);
    const acq::EngineView view{p, obs, pending, rows, 6.0, HUGE_VAL};
    Rng srng(1);
    ASSERT_TRUE(r.suggest(view, srng).has_value());
    const gp::MultiFidelityGp& g = r.model()->gp();
    const bool with_term = kernel != 0.0 || fixed != 0.0;
    EXPECT_EQ(g.prepare_pool(z).hook_sigma.size() > 0, with_term);
    EXPECT_EQ(g.layout().hook_weight_offset() >= 0, kernel != 0.0 && fixed == 0.0);
    // The causal mean stays in either case.
    const Eigen::MatrixXd f_do = r.causal(view)->mean(z);
    if (fixed != 0.0) {
      EXPECT_LE((g.prior_mean(z) - f_do).cwiseAbs().maxCoeff(), 1e-9);
    } else {
      EXPECT_GE(g.layout().mean_scale_offset(), 0);
    }
  }
}

// rescue.prior_mean = 0 leaves the GP as hvkg's (no causal mean, scale or
// kernel term: its predictions are hvkg's on the same data), while HV_CI still
// comes from the causal estimates, f_do itself since nothing calibrates them;
// the paper's fixed form keeps the mean.
TEST(RescueStrategy, CausalMeanCanBeLeftOutOfTheGp) {
  LineProblem t = line_problem(7, 6.0);
  ProblemSpec& p = t.p;
  const std::vector<acq::PendingTicket> pending;
  Eigen::MatrixXd z(4, 2);
  z << 0.1, 1.0, 0.4, 0.5, 0.7, 1.0, 0.95, 0.2;
  acq::Hvkg h(p);
  {
    const acq::EngineView view{p, t.obs, pending, t.rows, 6.0, HUGE_VAL};
    Rng srng(1);
    ASSERT_TRUE(h.suggest(view, srng).has_value());
  }
  Eigen::MatrixXd hvkg_mean, hvkg_var;
  h.model()->predict(z, &hvkg_mean, &hvkg_var);
  // {prior_mean, fixed_prior}
  for (const auto& [mean_on, fixed] : {std::pair{0.0, 0.0}, std::pair{1.0, 0.0}, std::pair{0.0, 1.0}}) {
    SCOPED_TRACE(testing::Message() << "prior_mean " << mean_on << ", fixed_prior " << fixed);
    p.set_param("rescue.prior_mean", mean_on);
    p.set_param("rescue.fixed_prior", fixed);
    RescueProbe r(p);
    const acq::EngineView view{p, t.obs, pending, t.rows, 6.0, HUGE_VAL};
    Rng srng(1);
    ASSERT_TRUE(r.suggest(view, srng).has_value());
    const gp::MultiFidelityGp& g = r.model()->gp();
    const Eigen::MatrixXd f_do = r.causal(view)->mean(z);
    acq::RowMatrix ci;
    ASSERT_TRUE(r.causal_objectives(z, &ci));
    Eigen::MatrixXd mean, var;
    r.model()->predict(z, &mean, &var);
    if (mean_on == 0.0 && fixed == 0.0) {
      EXPECT_LT(g.layout().mean_scale_offset(), 0);
      EXPECT_EQ(g.prepare_pool(z).hook_sigma.size(), 0);
      EXPECT_LE((mean - hvkg_mean).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((var - hvkg_var).cwiseAbs().maxCoeff(), 1e-12);
      EXPECT_LE((Eigen::MatrixXd(ci) - f_do.leftCols(2)).cwiseAbs().maxCoeff(), 1e-12);
    } else {
      // The logs overstate f1's slope threefold, so the causal mean shows in the fit.
      EXPECT_GT((mean - hvkg_mean).cwiseAbs().maxCoeff(), 1e-3);
      if (fixed != 0.0) EXPECT_LE((g.prior_mean(z) - f_do).cwiseAbs().maxCoeff(), 1e-9);
      else EXPECT_GE(g.layout().mean_scale_offset(), 0);
    }
  }
}

}  // namespace

namespace {

// The knowledge gradient of feasibility (the search while nothing is predicted
// feasible) against brute force: for each fantasy, the observation is drawn
// from the model's predictive at the candidate with the same normal sample,
// the GP is conditioned on it (same hyperparameters), and the best probability
// of feasibility over the pool is taken from the conditioned posterior. And,
// for a one-point pool, the expectation is today's probability (a
// martingale), which a coarse quadrature over the fantasies would miss.
TEST(FeasibilitySearch, ExpectedBestFeasibilityMatchesConditioningOnTheDrawnObservations) {
  const ProblemSpec p = two_objective_spec(true);
  Rng rng(31);
  std::vector<Observation> obs;
  // Noisy constraint values, so that the model is unsure near its boundary.
  for (int i = 0; i < 30; ++i) {
    obs.push_back(observe(p, rng.uniform(), rng.uniform(10.0, 20.0), i < 10 ? 1.0 : 0.2));
    obs.back().g[0] += 0.05 * rng.normal();
  }
  acq::Surrogate model(p);
  ASSERT_TRUE(model.fit(obs, rng));
  const gp::MultiFidelityGp& gp = model.gp();
  const acq::TrainingSet data = acq::training_set(p, obs);
  // Configurations just beyond the constraint's boundary a + 0.3 (b - 10) / 10
  // = 0.5, spread along it (unit b from 0 to 1).
  Eigen::MatrixXd pool(6, 3);
  for (int i = 0; i < 6; ++i) pool.row(i) << 0.505 - 0.055 * i, 0.2 * i, 1.0;
  Eigen::MatrixXd mean, var;
  model.predict(pool, &mean, &var);
  const Eigen::VectorXd pof = model.probability_feasible(mean, var);
  ASSERT_GT(pof.maxCoeff(), 0.02) << pof.transpose();
  ASSERT_LT(pof.maxCoeff(), 0.9) << pof.transpose();
  const gp::PreparedPool prepared = gp.prepare_pool(pool);
  const Eigen::MatrixXd E = gp.draw_base_samples(64, rng);
  Eigen::VectorXd cand(3);
  for (const Eigen::Vector3d& c : {Eigen::Vector3d(0.23, 1.0, 1.0), Eigen::Vector3d(0.5, 0.55, 0.2),
                                  Eigen::Vector3d(0.2, 0.9, 0.6)}) {
    cand = c;
    const double got = acq::expected_best_feasibility(model, prepared, mean, var, cand, E);
    double want = 0.0;
    for (const auto& [m2, v2] : conditioned_on_draws(gp, data, cand, E, pool))
      want += model.probability_feasible(m2, v2).maxCoeff() / static_cast<double>(E.rows());
    EXPECT_NEAR(got, want, 1e-7) << c.transpose();
  }
  // The expected best is never below today's best (Jensen: each probability
  // is a martingale, and the best of them is convex), to Monte Carlo accuracy.
  const Eigen::MatrixXd many = gp.draw_base_samples(4000, rng);
  for (int k = 0; k < 5; ++k) {
    cand << rng.uniform(), rng.uniform(), k < 2 ? 1.0 : rng.uniform();
    EXPECT_GT(acq::expected_best_feasibility(model, prepared, mean, var, cand, many) - pof.maxCoeff(), -0.005)
        << cand.transpose();
  }
  // One pool point: E[PF after] = PF now, to Monte Carlo accuracy; also in the
  // tail, where a coarse quadrature over the fantasies is far off.
  for (const double a : {0.45, 0.48, 0.505}) {
    Eigen::MatrixXd z1(1, 3), m1, v1;
    z1 << a, 0.0, 1.0;
    model.predict(z1, &m1, &v1);
    const double now = model.probability_feasible(m1, v1)[0];
    const gp::PreparedPool one = gp.prepare_pool(z1);
    for (const double s : {1.0, 0.2}) {
      cand << a, 0.0, s;
      EXPECT_NEAR(acq::expected_best_feasibility(model, one, m1, v1, cand, many), now, 0.005)
          << cand.transpose() << " PF now " << now;
    }
  }
}

// log_probability_feasible is the logarithm of probability_feasible where
// that is representable, and keeps ranking rows where it underflows to zero.
TEST(FeasibilitySearch, LogProbabilityOfFeasibilityRanksWhereTheProbabilityUnderflows) {
  ProblemSpec p = two_objective_spec(true);
  p.add_constraint("h", 2.0, ConstraintSense::GreaterEqual);
  Rng rng(5);
  std::vector<Observation> obs;
  for (int i = 0; i < 12; ++i) {
    Observation o = observe(p, rng.uniform(), rng.uniform(10.0, 20.0), 1.0);
    o.g.push_back(2.0 + rng.normal());
    obs.push_back(o);
  }
  acq::Surrogate model(p);
  ASSERT_TRUE(model.fit(obs, rng));
  Eigen::MatrixXd mean(5, 4), var(5, 4);
  for (int i = 0; i < 5; ++i) {
    mean.row(i) << 0.0, 0.0, 0.5 + 0.1 * rng.normal(), 2.0 + 0.5 * rng.normal();
    var.row(i) << 1.0, 1.0, 0.01 * (1 + rng.uniform()), 0.2 * (1 + rng.uniform());
  }
  const Eigen::VectorXd pf = model.probability_feasible(mean, var), lp = model.log_probability_feasible(mean, var);
  for (int i = 0; i < 5; ++i) EXPECT_NEAR(lp[i], std::log(pf[i]), 1e-9 * (1 + std::abs(lp[i])));
  // Far beyond the threshold: 40, 60 and 80 standard deviations.
  for (double k : {40.0, 60.0, 80.0}) {
    mean.row(static_cast<Eigen::Index>(k / 20 - 2)) << 0.0, 0.0, 0.5 + k * 0.1, 2.0;
    var.row(static_cast<Eigen::Index>(k / 20 - 2)) << 1.0, 1.0, 0.01, 0.2;
  }
  const Eigen::VectorXd pf2 = model.probability_feasible(mean, var), lp2 = model.log_probability_feasible(mean, var);
  EXPECT_EQ(pf2[0], 0.0);
  EXPECT_EQ(pf2[2], 0.0);
  EXPECT_GT(lp2[0], lp2[1]);
  EXPECT_GT(lp2[1], lp2[2]);
  // log Phi(-z) ~ -z^2/2 - log(z sqrt(2 pi)), plus log Phi of the second constraint at its threshold.
  EXPECT_NEAR(lp2[1], -1800.0 - std::log(60.0 * std::sqrt(2.0 * 3.141592653589793)) + std::log(0.5), 1e-3);
}

// A model of the constraint a + 0.3 (b - 10) / 10 <= 0.5 from exact
// observations at the target, for the pool searches below.
acq::Surrogate constrained_model(const ProblemSpec& p, Rng& rng, std::vector<Observation>* obs) {
  for (int i = 0; i < 24; ++i) obs->push_back(observe(p, rng.uniform(), rng.uniform(10.0, 20.0), 1.0));
  acq::Surrogate model(p);
  EXPECT_TRUE(model.fit(*obs, rng));
  return model;
}

// widen_feasible_pool appends only moves the model predicts feasible at the
// target, with their posterior, stops at the number wanted, leaves the rows it
// was given alone, and draws nothing when it has no seed.
TEST(FeasibilitySearch, WidenedPoolHoldsPredictedFeasibleMovesUpToTheNumberWanted) {
  const ProblemSpec p = two_objective_spec(true);
  Rng rng(8);
  std::vector<Observation> obs;
  const acq::Surrogate model = constrained_model(p, rng, &obs);
  // Row 0 inside the feasible region (a = 0.3, b = 11), rows 1 and 2 far
  // outside; a seed that mixed rows, (0.3, 0.95), would be outside too.
  Eigen::MatrixXd pool(3, 2);
  pool << 0.3, 0.1, 0.95, 0.9, 0.9, 0.5;
  Eigen::MatrixXd z(3, 3), mean, var;
  z << pool, Eigen::Vector3d::Constant(model.target_unit());
  model.predict(z, &mean, &var);
  const Eigen::VectorXd pof0 = model.probability_feasible(mean, var);
  ASSERT_GT(pof0[0], 0.9);
  ASSERT_LT(pof0[1], 0.1);
  ASSERT_LT(pof0[2], 0.1);
  const Eigen::MatrixXd pool_before = pool, mean_before = mean;

  for (const std::size_t want : {std::size_t{1}, std::size_t{5}, std::size_t{40}}) {
    Eigen::MatrixXd pl = pool, zz = z, mm = mean, vv = var;
    std::vector<Eigen::Index> keep = {0};
    const int added = acq::widen_feasible_pool(p, model, {}, 0.5, want, 4, rng, &pl, &zz, &mm, &vv, &keep);
    ASSERT_EQ(keep.size(), std::max<std::size_t>(1, want)) << "want " << want;  // the region is wide: always reached
    EXPECT_EQ(added, static_cast<int>(keep.size()) - 1);
    ASSERT_EQ(pl.rows(), 3 + added);
    ASSERT_EQ(zz.rows(), pl.rows());
    ASSERT_EQ(mm.rows(), pl.rows());
    ASSERT_EQ(vv.rows(), pl.rows());
    EXPECT_EQ(pl.topRows(3), pool_before);
    EXPECT_EQ(mm.topRows(3), mean_before);
    EXPECT_EQ(vv.topRows(3), var);
    EXPECT_EQ(zz.topRows(3), z);
    if (added == 0) continue;
    Eigen::MatrixXd m2, v2;
    model.predict(zz.bottomRows(added), &m2, &v2);
    EXPECT_LT((m2 - mm.bottomRows(added)).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((v2 - vv.bottomRows(added)).cwiseAbs().maxCoeff(), 1e-12);
    const Eigen::VectorXd pof = model.probability_feasible(m2, v2);
    for (Eigen::Index r = 0; r < added; ++r) {
      EXPECT_EQ(keep[static_cast<std::size_t>(r) + 1], 3 + r);
      EXPECT_GE(pof[r], 0.5) << zz.row(3 + r);
      EXPECT_EQ(zz.row(3 + r).head(2), pl.row(3 + r));
      EXPECT_EQ(zz(3 + r, 2), model.target_unit());
      for (int j = 0; j < 2; ++j) EXPECT_TRUE(pl(3 + r, j) >= 0.0 && pl(3 + r, j) <= 1.0);
      // A move, not a copy of the seed.
      EXPECT_NE(pl.row(3 + r), pool.row(0));
    }
    // A quarter of the moves have sd 0.02: some lie next to the seed.
    EXPECT_LT((pl.bottomRows(added).rowwise() - pool.row(0)).cwiseAbs().rowwise().maxCoeff().minCoeff(), 0.06);
  }

  // No row kept and no observation predicted feasible: nothing to move from.
  // A failed evaluation is no seed either, wherever it lies.
  {
    Eigen::MatrixXd pl = pool, zz = z, mm = mean, vv = var;
    std::vector<Eigen::Index> keep;
    const std::string state = rng.to_string();
    std::vector<Observation> infeasible;
    for (const Observation& o : obs)
      if (o.g[0] > 0.7) infeasible.push_back(o);
    ASSERT_FALSE(infeasible.empty());
    Observation failed = observe(p, 0.3, 11.0, 1.0);
    failed.failed = true;
    failed.y = {NAN, NAN};
    failed.g = {NAN};
    infeasible.push_back(failed);
    EXPECT_EQ(acq::widen_feasible_pool(p, model, infeasible, 0.5, 10, 4, rng, &pl, &zz, &mm, &vv, &keep), 0);
    EXPECT_TRUE(keep.empty());
    EXPECT_EQ(pl.rows(), 3);
    EXPECT_EQ(rng.to_string(), state);
  }
  // No row kept, but observed configurations predicted feasible seed the moves.
  {
    Eigen::MatrixXd pl = pool, zz = z, mm = mean, vv = var;
    std::vector<Eigen::Index> keep;
    EXPECT_EQ(acq::widen_feasible_pool(p, model, obs, 0.5, 10, 4, rng, &pl, &zz, &mm, &vv, &keep), 10);
    EXPECT_EQ(keep.size(), 10u);
    // Some moves (sd 0.02) lie next to an observed configuration that is feasible.
    double nearest = HUGE_VAL;
    for (const Observation& o : obs) {
      if (o.g[0] > 0.45) continue;
      const Eigen::RowVector2d u(o.x[0], (o.x[1] - 10.0) / 10.0);
      nearest = std::min(nearest, (pl.bottomRows(10).rowwise() - u).cwiseAbs().rowwise().maxCoeff().minCoeff());
    }
    EXPECT_LT(nearest, 0.06);
  }
}

// most_likely_feasible finds, from starts that are all infeasible, a
// configuration whose probability of feasibility is as high as the best of a
// fine grid (brute force), and reports that probability.
TEST(FeasibilitySearch, MostLikelyFeasibleMatchesAGridSearch) {
  ProblemSpec p = two_objective_spec(true);
  // A narrow band: a + 0.3 (b - 10) / 10 <= 0.5 and >= 0.45 (as -g <= -0.45).
  p.add_constraint("h", -0.45, ConstraintSense::LessEqual);
  Rng rng(12);
  std::vector<Observation> obs;
  for (int i = 0; i < 30; ++i) {
    Observation o = observe(p, rng.uniform(), rng.uniform(10.0, 20.0), 1.0);
    o.g.push_back(-o.g[0]);
    obs.push_back(o);
  }
  acq::Surrogate model(p);
  ASSERT_TRUE(model.fit(obs, rng));
  Eigen::MatrixXd pool(4, 2);
  pool << 0.95, 0.9, 0.9, 0.5, 0.0, 0.0, 0.05, 0.1;
  Eigen::MatrixXd z(4, 3), mean, var;
  z << pool, Eigen::Vector4d::Constant(model.target_unit());
  model.predict(z, &mean, &var);
  const acq::LikelyFeasible found =
      acq::most_likely_feasible(p, model, acq::search_options(p), pool, model.log_probability_feasible(mean, var), rng);
  const std::vector<double>& u = found.u;
  const double pof = found.probability;
  ASSERT_EQ(u.size(), 2u);
  Eigen::MatrixXd zu(1, 3), mu, vu;
  zu << u[0], u[1], model.target_unit();
  model.predict(zu, &mu, &vu);
  EXPECT_NEAR(pof, model.probability_feasible(mu, vu)[0], 1e-12);
  const int n = 201;
  Eigen::MatrixXd grid(n * n, 3), mg, vg;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) grid.row(i * n + j) << i / (n - 1.0), j / (n - 1.0), model.target_unit();
  model.predict(grid, &mg, &vg);
  const double best = model.probability_feasible(mg, vg).maxCoeff();
  ASSERT_GT(best, 0.5);
  EXPECT_GT(pof, model.probability_feasible(mean, var).maxCoeff());
  EXPECT_GE(pof, best - 1e-3) << "found " << u[0] << ", " << u[1];
}

}  // namespace

namespace {

// Exact hypervolume of 2-D points (rows, minimized) against ref: sorted by the
// first objective, each point adds the strip below the best second value so far.
double hv2(const Eigen::MatrixXd& pts, const double* ref) {
  std::vector<std::pair<double, double>> v;
  for (Eigen::Index i = 0; i < pts.rows(); ++i)
    if (pts(i, 0) < ref[0] && pts(i, 1) < ref[1]) v.emplace_back(pts(i, 0), pts(i, 1));
  std::sort(v.begin(), v.end());
  double hv = 0.0, low = ref[1];
  for (const auto& [a, b] : v)
    if (b < low) {
      hv += (ref[0] - a) * (low - b);
      low = b;
    }
  return hv;
}

// The (C-)HVKG lookahead value against brute force: for each fantasy the
// observation is drawn from the model's predictive at the candidate with the
// same normal sample, the GP is conditioned on it (same hyperparameters), and
// the inner maximization is done exactly on the conditioned posterior means
// of the objectives. With a set size of the whole pool the greedy set is the
// pool (HV_GP + w HV_CI of all of it); with a set size of one it is the best
// single point by its box under the reference point plus w times its causal box.
TEST(Hvkg, ExpectedInnerValueMatchesConditioningOnTheDrawnObservations) {
  const ProblemSpec p = two_objective_spec(false);
  Rng rng(47);
  std::vector<Observation> obs;
  for (int i = 0; i < 24; ++i) {
    obs.push_back(observe(p, rng.uniform(), rng.uniform(10.0, 20.0), i < 8 ? 1.0 : rng.uniform(0.0, 0.6)));
    obs.back().y[0] += 0.02 * rng.normal();
    obs.back().y[1] += 0.02 * rng.normal();
  }
  acq::Surrogate model(p);
  ASSERT_TRUE(model.fit(obs, rng));
  const gp::MultiFidelityGp& gp = model.gp();
  const acq::TrainingSet data = acq::training_set(p, obs);
  // Eight target-fidelity configurations along the trade-off of a.
  constexpr int n = 8;
  Eigen::MatrixXd pool(n, 3);
  for (int i = 0; i < n; ++i) pool.row(i) << (i + 0.5) / n, rng.uniform(), 1.0;
  Eigen::MatrixXd mean, var;
  model.predict(pool, &mean, &var);
  // A reference point every pool mean dominates by a margin, and causal
  // estimates near the means but not equal to them.
  const double ref[2] = {mean.col(0).maxCoeff() + 0.2, mean.col(1).maxCoeff() + 0.2};
  acq::RowMatrix ci(n, 2);
  for (int i = 0; i < n; ++i) ci.row(i) << mean(i, 0) + 0.1 * rng.normal(), mean(i, 1) + 0.1 * rng.normal();
  const gp::PreparedPool prepared = gp.prepare_pool(pool);
  const Eigen::MatrixXd E = gp.draw_base_samples(16, rng);
  auto box = [&](double a, double b) { return std::max(0.0, ref[0] - a) * std::max(0.0, ref[1] - b); };
  Eigen::VectorXd cand(3);
  for (const Eigen::Vector3d& c : {Eigen::Vector3d(0.3, 0.5, 1.0), Eigen::Vector3d(0.7, 0.2, 0.1),
                                  Eigen::Vector3d(0.55, 0.9, 0.5)}) {
    cand = c;
    std::vector<Eigen::MatrixXd> conditioned;
    for (const auto& [m2, v2] : conditioned_on_draws(gp, data, cand, E, pool)) conditioned.push_back(m2.leftCols(2));
    for (const double w : {0.0, 0.7}) {
      for (const std::size_t P : {std::size_t{n}, std::size_t{1}}) {
        SCOPED_TRACE(testing::Message() << "candidate " << c.transpose() << ", w " << w << ", P " << P);
        acq::InnerMaximization inner;
        inner.n = n;
        inner.m = 2;
        inner.max_points = P;
        inner.ref = ref;
        inner.ci = ci.data();
        inner.w = w;
        double want = 0.0;
        for (const Eigen::MatrixXd& f : conditioned) {
          double best = 0.0;
          if (P == n) {
            best = hv2(f, ref) + w * hv2(Eigen::MatrixXd(ci), ref);
          } else {
            for (int i = 0; i < n; ++i) best = std::max(best, box(f(i, 0), f(i, 1)) + w * box(ci(i, 0), ci(i, 1)));
          }
          want += best / static_cast<double>(conditioned.size());
        }
        const double got = acq::expected_inner_value(gp, prepared, cand, E, inner);
        EXPECT_NEAR(got, want, 1e-9 * std::max(1.0, want));
        // Today's value is the same inner maximization of today's means.
        if (P == n) {
          const acq::RowMatrix now = mean.leftCols(2);
          const double today = hv2(mean.leftCols(2), ref) + w * hv2(Eigen::MatrixXd(ci), ref);
          EXPECT_NEAR(inner(now), today, 1e-12 * std::max(1.0, today));
        }
      }
    }
  }
  // A pool of the wrong shape is an internal error, not a silent misread.
  acq::InnerMaximization wrong;
  wrong.n = n + 1;
  wrong.m = 2;
  wrong.ref = ref;
  EXPECT_THROW(acq::expected_inner_value(gp, prepared, cand, E, wrong), Error);
}

}  // namespace

namespace {

// RESCUE with another floor on the probability of feasibility at the target.
class FloorProbe : public acq::Rescue {
 public:
  FloorProbe(const ProblemSpec& spec, double floor) : acq::Rescue(spec), floor_(floor) {}
  double outer_feasibility_floor() const override { return floor_; }

 private:
  double floor_;
};

// The outer maximization of C-HVKG skips candidates whose probability of
// feasibility at the target is below the strategy's floor (paper, Eq. for
// (x_t, s_t); RESCUE's is 0.05). Here minimizing f1 = a pulls towards the infeasible side of
// g = a + 0.3 (b - 10) / 10 >= 0.35, so the best information lies at the
// boundary, where the probability is near 0.5: unrestricted, some suggestions
// fall below 0.9; with the floor at 0.9, none does.
TEST(RescueStrategy, OuterSearchSkipsCandidatesBelowTheFeasibilityFloor) {
  ProblemSpec p;
  p.add_option("a", 0.0, 1.0, OptionKind::Continuous);
  p.add_option("b", 10.0, 20.0, OptionKind::Continuous);
  p.set_fidelity_range(0.0, 1.0, 1.0);
  p.add_objective("f1", Sense::Minimize);
  p.add_objective("f2", Sense::Maximize);
  p.add_constraint("g", 0.35, ConstraintSense::GreaterEqual);
  p.set_param("acq.starts", 32);
  Rng data_rng(8);
  std::vector<Observation> obs;
  for (int i = 0; i < 24; ++i)
    obs.push_back(observe(p, data_rng.uniform(), data_rng.uniform(10.0, 20.0), i < 8 ? 1.0 : data_rng.uniform(0.0, 0.5)));
  const std::vector<acq::PendingTicket> pending;
  const std::vector<std::vector<double>> no_logs;
  int below_unrestricted = 0;
  for (const double floor : {0.0, 0.9}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      SCOPED_TRACE(testing::Message() << "floor " << floor << ", seed " << seed);
      FloorProbe r(p, floor);
      const acq::EngineView view{p, obs, pending, no_logs, 6.0, HUGE_VAL};
      Rng rng(seed);
      const auto s = r.suggest(view, rng);
      ASSERT_TRUE(s.has_value());
      Eigen::MatrixXd z(1, 3), mean, var;
      std::vector<double> u(2);
      p.to_unit(s->x.data(), u.data());
      z << u[0], u[1], r.model()->target_unit();
      r.model()->predict(z, &mean, &var);
      const double pof = r.model()->probability_feasible(mean, var)[0];
      if (floor > 0.0) {
        EXPECT_GE(pof, floor) << "suggested a = " << s->x[0] << ", b = " << s->x[1] << ", s = " << s->s;
      } else if (pof < 0.9) {
        ++below_unrestricted;
      }
    }
  }
  EXPECT_GT(below_unrestricted, 0) << "the floor would not be tested: every unrestricted suggestion was likely feasible";
}

}  // namespace

namespace {

// Algorithm 1, line 6: the causal model is relearned once rescue.relearn_every
// (N_l) observations have arrived since it was learned, and kept until then,
// whatever the new observations say. Without logs it is learned from the
// evaluations alone, so each relearning moves its estimates.
TEST(RescueStrategy, CausalModelIsRelearnedEveryNlObservations) {
  for (const std::size_t logs : {std::size_t{0}, std::size_t{200}}) {
    SCOPED_TRACE(testing::Message() << logs << " log rows");
    LineProblem t = line_problem(9, 2.0);
    t.rows.resize(logs);
    t.p.set_param("rescue.relearn_every", 5);
    t.p.set_param("acq.starts", 16);
    t.p.set_param("kg.pool", 32);
    t.p.set_param("kg.fantasies", 2);
    RescueProbe r(t.p);
    const std::vector<acq::PendingTicket> pending;
    Eigen::MatrixXd z(3, 2);
    z << 0.1, 1.0, 0.5, 1.0, 0.9, 1.0;
    Rng rng(3), data_rng(4);
    std::vector<Observation> obs = t.obs;  // 12
    auto suggest_and_estimate = [&]() {
      const acq::EngineView view{t.p, obs, pending, t.rows, 6.0, HUGE_VAL};
      EXPECT_TRUE(r.suggest(view, rng).has_value());
      return Eigen::MatrixXd(r.causal(view)->mean(z));
    };
    Eigen::MatrixXd learned = suggest_and_estimate();
    // The new evaluations respond to a with slope 6: each relearning sees more of them.
    for (int added = 1; added <= 10; ++added) {
      Observation o;
      o.x = {data_rng.uniform()};
      o.s = 1.0;
      o.y = {6.0 * o.x[0] + 0.01 * data_rng.normal(), 1.0 - o.x[0] + 0.01 * data_rng.normal()};
      o.cost = 1.0;
      obs.push_back(o);
      const Eigen::MatrixXd now = suggest_and_estimate();
      const double moved = (now - learned).cwiseAbs().maxCoeff();
      if (added % 5 == 0) {
        EXPECT_GT(moved, 1e-6) << "not relearned after " << added << " new observations";
        learned = now;
      } else {
        EXPECT_EQ(moved, 0.0) << "relearned after " << added << " new observations";
      }
    }
  }
}

}  // namespace
