#include "bench/xgboost_hpo.hpp"

#include <xgboost/c_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::bench {
namespace {

// The paper's table "Configuration Spaces of All Problems", XGBoost HPO, in
// this order, without the dart booster's rate_drop and skip_drop (the
// booster is gbtree: docs/problems.md); ranges that span decades on a log
// scale. nrounds is an integer searched on a log scale: the problem rounds it.
struct OptionDef {
  const char* name;
  double lower, upper;
  OptionKind kind;
};
constexpr OptionDef kOptions[] = {
    {"alpha", 0.0005, 1.0, OptionKind::LogScale},        {"colsample_bylevel", 0.02, 1.0, OptionKind::Continuous},
    {"colsample_bytree", 0.01, 1.0, OptionKind::Continuous}, {"eta", 0.0005, 1.0, OptionKind::LogScale},
    {"gamma", 0.0005, 1.0, OptionKind::LogScale},        {"lambda", 0.0005, 1.0, OptionKind::LogScale},
    {"max_depth", 1.0, 15.0, OptionKind::Integer},       {"min_child_weight", 2.72, 149.0, OptionKind::LogScale},
    {"nrounds", 3.0, 2000.0, OptionKind::LogScale},      {"subsample", 0.1, 1.0, OptionKind::Continuous},
};
enum Opt { Alpha, ColsampleBylevel, ColsampleBytree, Eta, Gamma, Lambda, MaxDepth, MinChildWeight, Nrounds, Subsample };

void xgb_check(int rc, const char* what) {
  if (rc != 0) fail(Status::Internal, std::string("xgboost: ") + what + ": " + XGBGetLastError());
}

struct Matrix {
  DMatrixHandle h = nullptr;
  Matrix(const float* x, const float* label, std::size_t rows, std::size_t cols) {
    xgb_check(XGDMatrixCreateFromMat(x, rows, cols, NAN, &h), "XGDMatrixCreateFromMat");
    if (XGDMatrixSetFloatInfo(h, "label", label, rows) != 0) {
      const std::string why = XGBGetLastError();
      XGDMatrixFree(h);
      fail(Status::Internal, "xgboost: XGDMatrixSetFloatInfo: " + why);
    }
  }
  Matrix(const Matrix&) = delete;
  Matrix& operator=(const Matrix&) = delete;
  ~Matrix() { XGDMatrixFree(h); }
};

struct Booster {
  BoosterHandle h = nullptr;
  explicit Booster(DMatrixHandle train) { xgb_check(XGBoosterCreate(&train, 1, &h), "XGBoosterCreate"); }
  Booster(const Booster&) = delete;
  Booster& operator=(const Booster&) = delete;
  ~Booster() { XGBoosterFree(h); }
  void set(const char* key, const std::string& value) {
    xgb_check(XGBoosterSetParam(h, key, value.c_str()), "XGBoosterSetParam");
  }
  std::string save(const char* format) const {
    bst_ulong len = 0;
    const char* buf = nullptr;
    const std::string config = std::string("{\"format\": \"") + format + "\"}";
    xgb_check(XGBoosterSaveModelToBuffer(h, config.c_str(), &len, &buf), "XGBoosterSaveModelToBuffer");
    return std::string(buf, len);
  }
};

struct TreeStats {
  double split_trees = 0, mean_depth = 0, leaves = 0;
  double levels = 0;  ///< sum over all trees of depth + 1: the levels whose histograms were built
};

// Trees of a gbtree booster's JSON model: their depth (edges from the root to
// the deepest leaf) and leaves, from the child arrays (-1 marks a leaf).
TreeStats tree_stats(const std::string& json_model) {
  const nlohmann::json j = nlohmann::json::parse(json_model);
  const nlohmann::json& trees = j.at("learner").at("gradient_booster").at("model").at("trees");
  TreeStats t;
  double depth_sum = 0;
  for (const auto& tree : trees) {
    const std::vector<int> left = tree.at("left_children").get<std::vector<int>>();
    const std::vector<int> right = tree.at("right_children").get<std::vector<int>>();
    std::vector<int> depth(left.size(), 0);
    int deepest = 0;
    for (std::size_t i = 0; i < left.size(); ++i) {  // children come after their parent
      if (left[i] < 0) {
        t.leaves += 1;
        continue;
      }
      depth[static_cast<std::size_t>(left[i])] = depth[static_cast<std::size_t>(right[i])] = depth[i] + 1;
      deepest = std::max(deepest, depth[i] + 1);
    }
    t.levels += deepest + 1;
    if (left.size() > 1) {
      t.split_trees += 1;
      depth_sum += deepest;
    }
  }
  t.mean_depth = t.split_trees > 0 ? depth_sum / t.split_trees : 0.0;
  return t;
}

}  // namespace

XgboostHpo::XgboostHpo(const std::string& csv_path, XgboostTask task, std::uint64_t seed)
    : name_(task == XgboostTask::Plain ? "xgboost-hpo" : "xgboost-hpo-constrained"),
      task_(task),
      data_(split_rows(read_labelled_csv(csv_path, "spam"), 2.0 / 3.0, seed)),
      seed_(seed) {
  for (const OptionDef& o : kOptions) spec_.add_option(o.name, o.lower, o.upper, o.kind);
  spec_.set_fidelity_range(0.03, 1.0, 1.0);
  if (task == XgboostTask::Plain) {
    spec_.add_objective("mmce", Sense::Minimize);
    spec_.add_objective("model_kb", Sense::Minimize);
    // Classifiers that err on at most 10% of the rows (the majority class
    // errs on 39%) with models of at most 500 kB: a box in which 12
    // uniformly drawn configurations reach about half the hypervolume of 300.
    spec_.set_reference_point({0.1, 500.0});
  } else {
    spec_.add_objective("f1", Sense::Maximize);
    spec_.add_objective("train_mops", Sense::Minimize);
    spec_.add_constraint("train_memory_kb", kMemoryThresholdKb, ConstraintSense::LessEqual);
    spec_.set_reference_point({0.85, kWorkReferenceMops});
  }
  for (const char* k : {"rows", "split_trees", "mean_depth", "leaves"}) spec_.add_indicator(k);
}

std::size_t XgboostHpo::rows_used(double s) const {
  const auto n = static_cast<double>(data_.train.rows());
  return std::max<std::size_t>(2, static_cast<std::size_t>(std::lround(s * n)));
}

XgboostTraining XgboostHpo::train(const double* x, double s) const {
  spec_.check_config(x);
  if (!spec_.fidelity().valid(s)) fail(Status::OutOfRange, name_ + ": the fidelity must lie in [0.03, 1]");
  const auto start = std::chrono::steady_clock::now();
  const std::size_t rows = rows_used(s), d = data_.train.cols();
  const Matrix train(data_.train.x.data(), data_.train.label.data(), rows, d);
  Booster b(train.h);
  const std::pair<const char*, std::string> settings[] = {
      {"booster", "gbtree"}, {"objective", "binary:logistic"}, {"tree_method", "hist"}, {"nthread", "1"},
      {"seed", std::to_string(seed_)}, {"verbosity", "0"}, {"alpha", fmt17(x[Alpha])},
      {"colsample_bylevel", fmt17(x[ColsampleBylevel])}, {"colsample_bytree", fmt17(x[ColsampleBytree])},
      {"eta", fmt17(x[Eta])}, {"gamma", fmt17(x[Gamma])}, {"lambda", fmt17(x[Lambda])},
      {"max_depth", std::to_string(static_cast<int>(x[MaxDepth]))}, {"min_child_weight", fmt17(x[MinChildWeight])},
      {"subsample", fmt17(x[Subsample])}};
  for (const auto& [key, value] : settings) b.set(key, value);
  const int rounds = static_cast<int>(std::lround(x[Nrounds]));
  for (int it = 0; it < rounds; ++it) xgb_check(XGBoosterUpdateOneIter(b.h, it, train.h), "XGBoosterUpdateOneIter");
  XgboostTraining r;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const Matrix valid(data_.validation.x.data(), data_.validation.label.data(), data_.validation.rows(), d);
  const char* predict = R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})";
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0;
  const float* p = nullptr;
  xgb_check(XGBoosterPredictFromDMatrix(b.h, valid.h, predict, &shape, &dim, &p), "XGBoosterPredictFromDMatrix");
  double tp = 0, fp = 0, fn = 0;
  for (std::size_t i = 0; i < data_.validation.rows(); ++i) {
    const bool said = p[i] > 0.5f, is = data_.validation.label[i] > 0.5f;
    tp += said && is;
    fp += said && !is;
    fn += !said && is;
  }
  r.error = (fp + fn) / static_cast<double>(data_.validation.rows());
  r.f1 = tp > 0 ? 2 * tp / (2 * tp + fp + fn) : 0.0;
  r.model_kb = static_cast<double>(b.save("ubj").size()) / 1000.0;
  const TreeStats t = tree_stats(b.save("json"));
  r.rows = static_cast<double>(rows);
  r.split_trees = t.split_trees;
  r.mean_depth = t.mean_depth;
  r.leaves = t.leaves;
  // The hist method's work: at every level of every tree, one histogram bin
  // update per sampled row and feature the level may use, and one gradient
  // per row and round.
  const double cols_tree = std::max(1.0, std::floor(x[ColsampleBytree] * static_cast<double>(d)));
  const double cols_level = std::max(1.0, std::floor(x[ColsampleBylevel] * cols_tree));
  r.work_mops = (x[Subsample] * r.rows * cols_level * t.levels + r.rows * rounds) / 1e6;
  // What training holds: the quantized matrix (one byte per cell), a
  // gradient pair and a prediction per row, and the model.
  r.memory_kb = r.rows * (static_cast<double>(d) + 12.0) / 1000.0 + r.model_kb;
  return r;
}

problems::Evaluation XgboostHpo::evaluate(const double* x, double s) const {
  const XgboostTraining r = train(x, s);
  problems::Evaluation e;
  if (task_ == XgboostTask::Plain) {
    e.y = {r.error, r.model_kb};
  } else {
    e.y = {r.f1, r.work_mops};
    e.g = {r.memory_kb};
  }
  e.z = {r.rows, r.split_trees, r.mean_depth, r.leaves};
  return e;
}

problems::Evaluation XgboostHpo::evaluate_noisy(const double* x, double s, Rng&) const { return evaluate(x, s); }

std::vector<double> XgboostHpo::sample_observational(Rng& rng) const { return problems::sample_uniform_row(*this, rng); }

}  // namespace rescue::bench
