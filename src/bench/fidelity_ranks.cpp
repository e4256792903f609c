#include "bench/fidelity_ranks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "core/sampling.hpp"
#include "util/error.hpp"
#include "util/rank_correlation.hpp"
#include "util/rng.hpp"

namespace rescue::bench {

std::vector<double> compared_fidelities(const FidelitySpec& fidelity, int points) {
  if (points < 2) fail(Status::InvalidArgument, "fidelity ranks: at least 2 points of a range are needed");
  std::vector<double> s;
  if (fidelity.discrete) {
    s = fidelity.levels;
  } else {
    for (int i = 0; i < points; ++i) s.push_back(fidelity.lower + (fidelity.upper - fidelity.lower) * i / (points - 1));
  }
  if (std::find(s.begin(), s.end(), fidelity.target) == s.end()) s.push_back(fidelity.target);
  std::sort(s.begin(), s.end());
  return s;
}

FidelityRanks fidelity_ranks(const problems::BenchmarkProblem& problem, int n, std::uint64_t seed, int points) {
  if (n < 3) fail(Status::InvalidArgument, "fidelity ranks: at least 3 configurations are needed, got " + std::to_string(n));
  const ProblemSpec& spec = problem.spec();
  FidelityRanks out;
  out.problem = problem.name();
  out.configurations = n;
  for (const auto& o : spec.objectives()) out.outputs.push_back(o.name);
  for (const auto& c : spec.constraints()) out.outputs.push_back(c.name);
  out.fidelities = compared_fidelities(spec.fidelity(), points);
  out.target = spec.fidelity().target;
  Rng rng(seed);
  std::vector<std::vector<double>> configs;
  for (int i = 0; i < n; ++i) configs.push_back(sample_configuration(spec, rng));
  // values[f][o][i]: output o of configuration i at fidelity f.
  const std::size_t P = out.outputs.size();
  std::vector<std::vector<std::vector<double>>> values(out.fidelities.size(),
                                                       std::vector<std::vector<double>>(P, std::vector<double>(configs.size())));
  for (std::size_t f = 0; f < out.fidelities.size(); ++f)
    for (std::size_t i = 0; i < configs.size(); ++i) {
      const problems::Evaluation e = problem.evaluate(configs[i].data(), out.fidelities[f]);
      for (std::size_t o = 0; o < P; ++o) values[f][o][i] = o < e.y.size() ? e.y[o] : e.g[o - e.y.size()];
    }
  const std::size_t t = static_cast<std::size_t>(
      std::find(out.fidelities.begin(), out.fidelities.end(), out.target) - out.fidelities.begin());
  for (std::size_t f = 0; f < out.fidelities.size(); ++f) {
    out.rank.emplace_back(P);
    for (std::size_t o = 0; o < P; ++o) out.rank[f][o] = spearman(values[f][o], values[t][o]);
  }
  return out;
}

std::string fidelity_ranks_markdown(const std::vector<FidelityRanks>& all, const std::string& command) {
  std::ostringstream md;
  md << "# Fidelity ranks\n\nCommand: `" << command << "`\n\n"
     << "Configurations drawn uniformly, each evaluated noise-free at every fidelity below; per output, the Spearman "
        "rank correlation of its values at that fidelity with its values at the target (1: the fidelity orders the "
        "configurations as the target does; 0: unrelated; -1: reversed; NaN: no spread).\n";
  for (const FidelityRanks& r : all) {
    md << "\n## " << r.problem << " (" << r.configurations << " configurations)\n\n| fidelity |";
    for (const std::string& o : r.outputs) md << " " << o << " |";
    md << "\n|---|";
    for (std::size_t o = 0; o < r.outputs.size(); ++o) md << "---|";
    md << "\n";
    for (std::size_t f = 0; f < r.fidelities.size(); ++f) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4g", r.fidelities[f]);
      md << "| " << buf << (r.fidelities[f] == r.target ? " (target)" : "") << " |";
      for (double v : r.rank[f]) {
        std::snprintf(buf, sizeof buf, "%.3f", v);
        md << " " << buf << " |";
      }
      md << "\n";
    }
  }
  return md.str();
}

}  // namespace rescue::bench
