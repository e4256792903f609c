#include "bench/replicates.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <sstream>

#include "bench/number_format.hpp"
#include "util/error.hpp"
#include "util/text.hpp"

namespace rescue::bench {

namespace {

[[noreturn]] void bad(const std::string& text, const std::string& why) {
  fail(Status::InvalidArgument, "replicate group '" + text + "': " + why);
}

}  // namespace

ReplicateGroup parse_replicate_group(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos) bad(text, "expected NAME=STRATEGY,STRATEGY,...");
  ReplicateGroup g;
  g.name = text.substr(0, eq);
  if (g.name.empty()) bad(text, "the name is empty");
  for (std::string& member : split(text.substr(eq + 1), ',')) {
    if (member.empty()) bad(text, "an empty strategy name");
    if (std::find(g.members.begin(), g.members.end(), member) != g.members.end())
      bad(text, "strategy '" + member + "' is listed twice");
    g.members.push_back(std::move(member));
  }
  return g;
}

PooledSummary pool_replicates(const ProblemSummary& summary, const std::vector<ReplicateGroup>& groups) {
  PooledSummary out;
  out.problem = summary.problem;
  std::vector<std::map<std::uint64_t, double>> pooled_by_seed;  // each pool's areas
  for (const auto& g : groups) {
    // Each member's area by seed.
    std::vector<std::map<std::uint64_t, double>> by_seed;
    for (const auto& m : g.members) {
      const auto it = std::find_if(summary.strategies.begin(), summary.strategies.end(),
                                   [&](const StrategyStats& s) { return s.strategy == m; });
      if (it == summary.strategies.end() || it->aur.empty()) break;
      std::map<std::uint64_t, double> areas;
      for (std::size_t i = 0; i < it->seeds.size(); ++i) areas[it->seeds[i]] = it->aur[i];
      by_seed.push_back(std::move(areas));
    }
    if (by_seed.size() != g.members.size()) {
      out.skipped.push_back(g.name);
      continue;
    }
    PooledStrategy p;
    p.name = g.name;
    p.members = g.members;
    for (const auto& entry : by_seed.front()) {
      const std::uint64_t seed = entry.first;
      if (std::all_of(by_seed.begin(), by_seed.end(), [&](const auto& a) { return a.count(seed) > 0; }))
        p.seeds.push_back(seed);
    }
    if (p.seeds.empty()) {
      out.skipped.push_back(g.name);
      continue;
    }
    std::map<std::uint64_t, double>& pooled = pooled_by_seed.emplace_back();
    for (const std::uint64_t seed : p.seeds) {
      double sum = 0.0;
      for (const auto& a : by_seed) sum += a.at(seed);
      p.aur.push_back(pooled[seed] = sum / static_cast<double>(by_seed.size()));
    }
    p.aur_mean = mean(p.aur);
    p.aur_sd = sample_sd(p.aur);
    for (const auto& a : by_seed) {
      std::vector<double> v;
      for (const std::uint64_t seed : p.seeds) v.push_back(a.at(seed));
      p.member_means.push_back(mean(v));
    }
    p.member_spread =
        p.member_means.size() > 1 ? sample_sd(p.member_means) : std::numeric_limits<double>::quiet_NaN();
    out.pools.push_back(std::move(p));
  }
  for (std::size_t i = 0; i < out.pools.size(); ++i)
    for (std::size_t j = 0; j < out.pools.size(); ++j) {
      if (i == j) continue;
      std::vector<double> va, vb;
      on_common_seeds(pooled_by_seed[i], pooled_by_seed[j], &va, &vb);
      if (va.size() < 2) continue;
      out.pairs.push_back({out.pools[i].name, out.pools[j].name, paired_t_test(va, vb)});
    }
  return out;
}

std::string pooled_markdown(const std::vector<PooledSummary>& summaries) {
  if (summaries.empty()) return {};
  std::ostringstream md;
  md << "\n# Replicates pooled\n\n"
        "Each pool averages, seed by seed, the AUR of several runs of one strategy (its replicates), over the "
        "seeds all of them ran; the paired tests below compare these averages. Member spread: the sd of the "
        "replicates' mean AUR, the run-to-run part of the noise a single run carries.\n";
  for (const auto& ps : summaries) {
    md << "\n## " << ps.problem << ", replicates pooled\n\n";
    if (!ps.pools.empty()) {
      md << "| pool | replicates | seeds | AUR mean | AUR sd | replicates' mean AUR | member spread |\n"
         << "|---|---|---|---|---|---|---|\n";
      for (const auto& p : ps.pools) {
        md << "| " << p.name << " | ";
        for (std::size_t i = 0; i < p.members.size(); ++i) md << (i ? ", " : "") << p.members[i];
        md << " | " << p.seeds.size() << " | " << fixed(p.aur_mean, 3) << " | " << fixed(p.aur_sd, 3) << " | ";
        for (std::size_t i = 0; i < p.member_means.size(); ++i) md << (i ? ", " : "") << fixed(p.member_means[i], 3);
        md << " | " << fixed(p.member_spread, 3) << " |\n";
      }
    }
    if (!ps.pairs.empty()) {
      md << "\n| A | B | n | mean AUR(A) - AUR(B) | t | p | Cohen's d |\n|---|---|---|---|---|---|---|\n";
      for (const auto& q : ps.pairs)
        md << "| " << q.a << " | " << q.b << " | " << q.test.n << " | " << fixed(q.test.mean_difference, 3) << " | "
           << fixed(q.test.t, 2) << " | " << p_value_text(q.test.p_value) << " | " << fixed(q.test.cohens_d, 2)
           << " |\n";
    }
    for (const auto& name : ps.skipped)
      md << "\nPool `" << name << "`: not every replicate has runs on this problem (or they share no seed).\n";
  }
  return md.str();
}

}  // namespace rescue::bench
