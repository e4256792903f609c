#include "problems/misleading_fidelity.hpp"

#include <cmath>

namespace rescue::problems {
namespace {

double tent(double v) { return 1.0 - std::fabs(2.0 * v - 1.0); }

// unit(s) is 1 at the top of the range, which is the target of every built-in problem.
bool below_target(const FidelitySpec& f, double s) { return f.unit(s) < 1.0; }

}  // namespace

const std::vector<std::string>& misleading_suffixes() {
  static const std::vector<std::string> suffixes = {"-adversarial", "-jump", "-growing", "-reflected", "-unrelated"};
  return suffixes;
}

Misleading misleading_kind(const std::string& name, std::string* base) {
  const auto& suffixes = misleading_suffixes();
  for (std::size_t k = 0; k < suffixes.size(); ++k) {
    const std::string& sfx = suffixes[k];
    if (name.size() > sfx.size() && name.compare(name.size() - sfx.size(), sfx.size(), sfx) == 0) {
      if (base) *base = name.substr(0, name.size() - sfx.size());
      return static_cast<Misleading>(k + 1);
    }
  }
  if (base) *base = name;
  return Misleading::None;
}

double MisleadingFidelity::pull(const ProblemSpec& spec, const double* x) const {
  const int d = spec.dim();
  std::vector<double> u(d);
  spec.to_unit(x, u.data());
  double dist = 0.0;
  for (int i = 0; i < d; ++i) dist += std::fabs(u[i] - wrong_unit[i]);
  const double closeness = 1.0 - dist / d;
  return closeness * closeness;
}

int MisleadingFidelity::source_option(int i, int d) const { return kind == Misleading::Unrelated ? (i + 1) % d : i; }

std::vector<double> MisleadingFidelity::model_input(const ProblemSpec& spec, const double* x, double s) const {
  const int d = spec.dim();
  std::vector<double> out(x, x + d);
  if (!maps_input() || !below_target(spec.fidelity(), s)) return out;
  std::vector<double> u(d), v(d);
  spec.to_unit(x, u.data());
  for (int i = 0; i < d; ++i) {
    const double ui = u[source_option(i, d)];
    v[i] = kind == Misleading::Reflected ? 1.0 - ui : tent(tent(ui));
  }
  spec.from_unit(v.data(), out.data());
  spec.snap(out.data());
  return out;
}

void MisleadingFidelity::apply(const ProblemSpec& spec, const double* x, double s, std::vector<double>& y) const {
  if (!biases() || !below_target(spec.fidelity(), s)) return;
  const double u = spec.fidelity().unit(s);
  const double profile = kind == Misleading::Adversarial ? 1.0 - u : kind == Misleading::Jump ? 1.0 : u;
  const double weight = strength * profile;
  if (weight == 0.0) return;
  const double h = pull(spec, x);
  for (std::size_t m = 0; m < y.size(); ++m) {
    const double step = weight * scale[m] * h;
    y[m] += spec.objectives()[m].sense == Sense::Maximize ? step : -step;
  }
}

}  // namespace rescue::problems
