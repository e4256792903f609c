// Tuning XGBoost with RESCUE from C++: two objectives (validation error and the model's size),
// the fraction of the training rows as the fidelity, and the rows used and the trees' leaves as
// indicators for the causal model. The library is used through its C ABI (rescue.h), XGBoost
// through its C API, on kernlab's spam data as the build writes it (build/data/spam.csv).
//
//   tune_xgboost SPAM.csv [BUDGET]     (BUDGET in target evaluations, default 10)
#include <rescue.h>
#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void check(rescue_status st, const char* what) {
  if (st != RESCUE_OK) throw std::runtime_error(std::string(what) + ": " + rescue_last_error());
}
void xgb(int rc) {
  if (rc != 0) throw std::runtime_error(std::string("xgboost: ") + XGBGetLastError());
}

// Rows of features and a 0/1 label in the last column, under a header line.
struct Data {
  std::vector<float> x, y;
  int cols = 0;
  int rows() const { return static_cast<int>(y.size()); }
};

Data read_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  Data d;
  std::string line, cell;
  std::getline(in, line);
  d.cols = static_cast<int>(std::count(line.begin(), line.end(), ','));
  for (int r = 2; std::getline(in, line); ++r) {
    std::istringstream row(line);
    int j = 0;
    for (; std::getline(row, cell, ','); ++j) (j < d.cols ? d.x : d.y).push_back(std::stof(cell));
    if (j != d.cols + 1) throw std::runtime_error(path + ":" + std::to_string(r) + ": not " + std::to_string(d.cols + 1) + " values");
  }
  if (d.rows() < 150) throw std::runtime_error(path + ": fewer than 150 rows");
  return d;
}

Data take(const Data& d, const std::vector<int>& rows) {
  Data out;
  out.cols = d.cols;
  for (int r : rows) {
    out.x.insert(out.x.end(), d.x.begin() + static_cast<long>(r) * d.cols, d.x.begin() + static_cast<long>(r + 1) * d.cols);
    out.y.push_back(d.y[static_cast<size_t>(r)]);
  }
  return out;
}

// Owners of XGBoost's handles: each frees its handle once, also when a later call throws.
struct Matrix {
  std::unique_ptr<void, int (*)(DMatrixHandle)> h{nullptr, XGDMatrixFree};
  explicit Matrix(const Data& d) {
    DMatrixHandle m = nullptr;
    xgb(XGDMatrixCreateFromMat(d.x.data(), static_cast<bst_ulong>(d.rows()), static_cast<bst_ulong>(d.cols), NAN, &m));
    h.reset(m);
    xgb(XGDMatrixSetFloatInfo(m, "label", d.y.data(), static_cast<bst_ulong>(d.rows())));
  }
};

struct Booster {
  std::unique_ptr<void, int (*)(BoosterHandle)> h{nullptr, XGBoosterFree};
  explicit Booster(const Matrix& train) {
    DMatrixHandle m = train.h.get();
    BoosterHandle b = nullptr;
    xgb(XGBoosterCreate(&m, 1, &b));
    h.reset(b);
  }
  void set(const char* key, const std::string& value) { xgb(XGBoosterSetParam(h.get(), key, value.c_str())); }
  void set(const char* key, double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.17g", value);  // the value the optimizer suggested, to the last digit
    set(key, std::string(text));
  }
};

// The options, in the order of the problem below.
enum { Eta, MaxDepth, MinChildWeight, Nrounds, Subsample, Lambda, NumOptions };

struct Result {
  double error, size_kb;
  double rows, leaves;  // indicators: training rows used, leaves of all trees
};

// One training: configuration x on the first fraction s of the training rows, scored on the
// validation rows.
Result train(const Data& train_rows, const Data& valid, const double* x, double s) {
  Data used = train_rows;
  const int n = std::min(train_rows.rows(), std::max(50, static_cast<int>(std::lround(s * train_rows.rows()))));
  used.x.resize(static_cast<size_t>(n) * static_cast<size_t>(used.cols));
  used.y.resize(static_cast<size_t>(n));
  Matrix dtrain(used), dvalid(valid);
  Booster b(dtrain);
  b.set("objective", "binary:logistic");
  b.set("tree_method", "hist");
  b.set("nthread", "1");
  b.set("seed", "1");
  b.set("eta", x[Eta]);
  b.set("max_depth", std::to_string(std::lround(x[MaxDepth])));
  b.set("min_child_weight", x[MinChildWeight]);
  b.set("subsample", x[Subsample]);
  b.set("lambda", x[Lambda]);
  const int rounds = static_cast<int>(std::lround(x[Nrounds]));
  for (int i = 0; i < rounds; ++i) xgb(XGBoosterUpdateOneIter(b.h.get(), i, dtrain.h.get()));

  Result r{};
  r.rows = n;
  const bst_ulong* shape = nullptr;
  bst_ulong dim = 0, len = 0;
  const float* p = nullptr;
  xgb(XGBoosterPredictFromDMatrix(b.h.get(), dvalid.h.get(),
                                  R"({"type": 0, "training": false, "iteration_begin": 0, "iteration_end": 0, "strict_shape": false})",
                                  &shape, &dim, &p));
  int wrong = 0;
  for (int i = 0; i < valid.rows(); ++i) wrong += (p[i] > 0.5f) != (valid.y[static_cast<size_t>(i)] > 0.5f);
  r.error = static_cast<double>(wrong) / valid.rows();
  const char* buf = nullptr;
  xgb(XGBoosterSaveModelToBuffer(b.h.get(), R"({"format": "ubj"})", &len, &buf));
  r.size_kb = static_cast<double>(len) / 1000.0;
  const char** trees = nullptr;
  xgb(XGBoosterDumpModelEx(b.h.get(), "", 0, "text", &len, &trees));
  for (bst_ulong t = 0; t < len; ++t)
    for (const char* q = trees[t]; (q = std::strstr(q, "leaf=")) != nullptr; ++q) r.leaves += 1;
  return r;
}

}  // namespace

int main(int argc, char** argv) try {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s SPAM.csv [BUDGET]\n", argv[0]);
    return 2;
  }
  char* end = nullptr;
  const double budget = argc > 2 ? std::strtod(argv[2], &end) : 10.0;
  if (argc > 2 && (*end != '\0' || !(budget > 0) || !std::isfinite(budget))) {
    std::fprintf(stderr, "%s: the budget must be a positive number of target evaluations, not '%s'\n", argv[0], argv[2]);
    return 2;
  }
  const Data all = read_csv(argv[1]);
  std::vector<int> order(static_cast<size_t>(all.rows()));
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937(1));
  const auto cut = order.begin() + all.rows() * 2 / 3;
  const Data train_rows = take(all, {order.begin(), cut}), valid = take(all, {cut, order.end()});

  rescue_problem* p = nullptr;
  check(rescue_problem_new(&p), "rescue_problem_new");
  const std::unique_ptr<rescue_problem, void (*)(rescue_problem*)> problem(p, rescue_problem_free);
  check(rescue_problem_add_option(p, "eta", 1e-3, 1.0, RESCUE_LOG_SCALE), "eta");
  check(rescue_problem_add_option(p, "max_depth", 1, 12, RESCUE_INTEGER), "max_depth");
  check(rescue_problem_add_option(p, "min_child_weight", 1, 100, RESCUE_LOG_SCALE), "min_child_weight");
  check(rescue_problem_add_option(p, "nrounds", 3, 300, RESCUE_LOG_SCALE), "nrounds");
  check(rescue_problem_add_option(p, "subsample", 0.1, 1.0, RESCUE_CONTINUOUS), "subsample");
  check(rescue_problem_add_option(p, "lambda", 1e-3, 10.0, RESCUE_LOG_SCALE), "lambda");
  check(rescue_problem_set_fidelity_range(p, 0.03, 1.0, 1.0), "fidelity");  // trainsize; target 1
  check(rescue_problem_add_objective(p, "error", RESCUE_MINIMIZE), "error");
  check(rescue_problem_add_objective(p, "size_kb", RESCUE_MINIMIZE), "size_kb");
  check(rescue_problem_add_indicator(p, "rows"), "rows");
  check(rescue_problem_add_indicator(p, "leaves"), "leaves");
  const double ref[2] = {0.4, 500.0};
  check(rescue_problem_set_reference_point(p, ref, 2), "reference point");
  check(rescue_problem_set_seed(p, 1), "seed");
  check(rescue_problem_set_param(p, "recommend.points", 20), "recommend.points");
  const double target_cost = std::exp(4.8);  // the default cost model: exp(4.8 u(s)), u(1) = 1
  check(rescue_problem_set_budget(p, budget * target_cost), "budget");
  rescue_optimizer* opt = nullptr;
  check(rescue_create(p, &opt), "rescue_create");  // the optimizer keeps its own copy of the problem
  const std::unique_ptr<rescue_optimizer, void (*)(rescue_optimizer*)> optimizer(opt, rescue_destroy);

  int evaluations = 0;
  while (!rescue_done(opt)) {
    double x[NumOptions], s = 0;
    int ticket = 0;
    check(rescue_suggest(opt, x, NumOptions, &s, &ticket), "rescue_suggest");
    const Result r = train(train_rows, valid, x, s);
    const double y[2] = {r.error, r.size_kb}, ind[2] = {r.rows, r.leaves};
    check(rescue_observe(opt, ticket, y, 2, nullptr, 0, ind, 2), "rescue_observe");
    double spent = 0, pending = 0, total = 0;
    check(rescue_budget(opt, &spent, &pending, &total), "rescue_budget");
    std::printf("\r%3d evaluations, %5.2f of %g target units spent", ++evaluations, spent / target_cost, budget);
    std::fflush(stdout);
  }

  int count = 0;
  check(rescue_pareto(opt, nullptr, nullptr, 0, &count), "rescue_pareto");
  std::vector<double> xs(static_cast<size_t>(count) * NumOptions + 1), ys(static_cast<size_t>(count) * 2 + 1);
  check(rescue_pareto(opt, xs.data(), ys.data(), count, &count), "rescue_pareto");
  // The recommended set holds the model's predictions: train each at the target to see its true
  // values, and keep those that no other one beats on both.
  std::vector<double> truth;
  for (int i = 0; i < count; ++i) {
    const Result r = train(train_rows, valid, &xs[static_cast<size_t>(i) * NumOptions], 1.0);
    truth.insert(truth.end(), {r.error, r.size_kb});
  }
  std::vector<int> keep(static_cast<size_t>(count) + 1);
  int kept = 0;
  check(rescue_pareto_filter(truth.data(), count, 2, nullptr, keep.data(), &kept), "rescue_pareto_filter");
  std::printf("\n%d recommended configurations, %d non-dominated when trained on all rows:\n", count, kept);
  std::printf("%8s %9s %16s %7s %9s %8s | %6s %8s\n", "eta", "max_depth", "min_child_weight", "nrounds", "subsample",
              "lambda", "error", "size_kb");
  for (int k = 0; k < kept; ++k) {
    const size_t i = static_cast<size_t>(keep[static_cast<size_t>(k)]);
    const double* x = &xs[i * NumOptions];
    std::printf("%8.4f %9.0f %16.2f %7.0f %9.3f %8.4f | %6.4f %8.1f\n", x[Eta], x[MaxDepth], x[MinChildWeight],
                x[Nrounds], x[Subsample], x[Lambda], truth[2 * i], truth[2 * i + 1]);
  }
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "\ntune_xgboost: %s\n", e.what());
  return 1;
}
