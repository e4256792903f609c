#include "bench/run_record.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <istream>
#include <map>
#include <ostream>

#include "bench/regret_curve.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::bench {

namespace {

[[noreturn]] void bad(int line, const std::string& why) {
  fail(Status::InvalidArgument, "run CSV, line " + std::to_string(line) + ": " + why);
}

double to_double(const std::string& s, int line) {
  const std::optional<double> v = parse_number(s);
  if (!v) bad(line, "'" + s + "' is not a number");
  return *v;
}

// A metadata count: a whole number, not negative (std::stoi would accept
// "3x" and throw a bare "stoi" on "x").
long long to_count(const std::string& key, const std::string& s) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || errno == ERANGE || v < 0)
    fail(Status::InvalidArgument, "run CSV: metadata '" + key + "' is '" + s + "', not a count");
  return v;
}

}  // namespace

void write_run_csv(std::ostream& out, const RunResult& run) {
  const RunSpec& s = run.spec;
  out << "# rescue-bench run\n"
      << "# problem=" << s.problem << "\n# strategy=" << s.strategy << "\n# seed=" << s.seed
      << (s.variant.empty() ? "" : "\n# variant=" + s.variant) << "\n# budget=" << fmt17(s.budget) << "\n# initial_budget=" << fmt17(s.initial_budget)
      << "\n# observational_rows=" << s.observational_rows << "\n# max_suggestions=" << s.max_suggestions
      << "\n# recommend_every=" << fmt17(s.recommend_every)
      << (s.recommend_points > 0 ? "\n# recommend_points=" + std::to_string(s.recommend_points) : "")
      << (s.shared_recommender ? "\n# shared_recommender=1" : "") << "\n# hv_max=" << fmt17(s.hv_max)
      << "\n# target_fidelity=" << fmt17(run.target_fidelity) << "\n# observational_cost=" << fmt17(run.observational_cost)
      << (run.blas_core.empty() ? "" : "\n# blas_core=" + run.blas_core)
      << (run.blas_threads > 0 ? "\n# blas_threads=" + std::to_string(run.blas_threads) : "")
      << (run.evaluation_seconds > 0 ? "\n# evaluation_seconds=" + fmt17(run.evaluation_seconds) : "") << "\n";
  out << "iteration,initial,cumulative_cost,fidelity";
  for (const auto& n : run.option_names) out << ",x." << n;
  out << ",inferred_hv,log10_regret,best_log10_regret,violated,violated_at_target,suggest_seconds,recommend_seconds,"
         "recommended,own_inferred_hv\n";
  double best = INFINITY;
  for (const auto& r : run.iterations) {
    best = std::min(best, r.log10_regret);
    out << r.iteration << ',' << (r.initial ? 1 : 0) << ',' << fmt17(r.cumulative_cost) << ',' << fmt17(r.fidelity);
    for (double v : r.x) out << ',' << fmt17(v);
    out << ',' << fmt17(r.inferred_hv) << ',' << fmt17(r.log10_regret) << ',' << fmt17(best) << ',' << (r.violated ? 1 : 0)
        << ',' << (r.violated_at_target ? 1 : 0) << ',' << fmt17(r.suggest_seconds) << ','
        << fmt17(r.recommend_seconds) << ',' << r.recommended << ',' << fmt17(r.own_inferred_hv) << '\n';
  }
  if (run.complete) out << "# complete stop=" << run.stop_reason << "\n";
}

RunResult read_run_csv(std::istream& in) {
  RunResult run;
  std::map<std::string, std::string> meta;
  std::string line;
  int lineno = 0;
  std::vector<std::string> header;
  std::size_t d = 0;
  bool has_own = false;  // the own-recommendation column (absent in older files)
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    if (line[0] == '#') {
      const std::string body = line.size() > 2 ? line.substr(2) : "";
      if (body.rfind("complete", 0) == 0) {
        run.complete = true;
        const auto eq = body.find("stop=");
        run.stop_reason = eq == std::string::npos ? "" : body.substr(eq + 5);
        continue;
      }
      const auto eq = body.find('=');
      if (eq != std::string::npos) meta[body.substr(0, eq)] = body.substr(eq + 1);
      continue;
    }
    if (header.empty()) {
      header = split(line, ',');
      if (header.size() < 12 || header[0] != "iteration") bad(lineno, "expected the column header");
      has_own = header.back() == "own_inferred_hv";
      d = header.size() - (has_own ? 13 : 12);
      for (std::size_t j = 0; j < d; ++j) {
        const std::string& h = header[4 + j];
        if (h.rfind("x.", 0) != 0) bad(lineno, "column '" + h + "' is not an option");
        run.option_names.push_back(h.substr(2));
      }
      continue;
    }
    if (run.complete) bad(lineno, "data after the completion line");
    const auto cells = split(line, ',');
    if (cells.size() != header.size())
      bad(lineno, std::to_string(cells.size()) + " cells, expected " + std::to_string(header.size()));
    IterationRecord r;
    std::size_t c = 0;
    r.iteration = static_cast<int>(to_double(cells[c++], lineno));
    r.initial = to_double(cells[c++], lineno) != 0.0;
    r.cumulative_cost = to_double(cells[c++], lineno);
    r.fidelity = to_double(cells[c++], lineno);
    for (std::size_t j = 0; j < d; ++j) r.x.push_back(to_double(cells[c++], lineno));
    r.inferred_hv = to_double(cells[c++], lineno);
    r.log10_regret = to_double(cells[c++], lineno);
    ++c;  // best so far: derived
    r.violated = to_double(cells[c++], lineno) != 0.0;
    r.violated_at_target = to_double(cells[c++], lineno) != 0.0;
    r.suggest_seconds = to_double(cells[c++], lineno);
    r.recommend_seconds = to_double(cells[c++], lineno);
    r.recommended = static_cast<int>(to_double(cells[c++], lineno));
    r.own_inferred_hv = has_own ? to_double(cells[c++], lineno) : r.inferred_hv;
    if (!run.iterations.empty() && r.cumulative_cost < run.iterations.back().cumulative_cost)
      bad(lineno, "cumulative cost decreases");
    run.iterations.push_back(std::move(r));
  }
  if (header.empty()) fail(Status::InvalidArgument, "run CSV: no column header");
  auto get = [&](const char* key) -> const std::string& {
    auto it = meta.find(key);
    if (it == meta.end()) fail(Status::InvalidArgument, std::string("run CSV: missing metadata '") + key + "'");
    return it->second;
  };
  RunSpec& s = run.spec;
  s.problem = get("problem");
  s.strategy = get("strategy");
  if (meta.count("variant")) s.variant = meta["variant"];
  s.seed = static_cast<std::uint64_t>(to_count("seed", get("seed")));
  s.budget = to_double(get("budget"), 0);
  s.initial_budget = to_double(get("initial_budget"), 0);
  s.observational_rows = static_cast<int>(to_count("observational_rows", get("observational_rows")));
  s.max_suggestions = static_cast<int>(to_count("max_suggestions", get("max_suggestions")));
  s.recommend_every = to_double(get("recommend_every"), 0);
  if (meta.count("recommend_points"))
    s.recommend_points = static_cast<int>(to_count("recommend_points", meta["recommend_points"]));
  s.shared_recommender = meta.count("shared_recommender") && meta["shared_recommender"] == "1";
  s.hv_max = to_double(get("hv_max"), 0);
  run.target_fidelity = to_double(get("target_fidelity"), 0);
  run.observational_cost = to_double(get("observational_cost"), 0);
  if (meta.count("blas_core")) run.blas_core = meta["blas_core"];
  if (meta.count("blas_threads")) run.blas_threads = static_cast<int>(to_count("blas_threads", meta["blas_threads"]));
  if (meta.count("evaluation_seconds")) run.evaluation_seconds = to_double(meta["evaluation_seconds"], 0);
  return run;
}

}  // namespace rescue::bench
