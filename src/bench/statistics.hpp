// Statistics of the benchmark summary (experiment protocol, "Statistics over
// seeds"): mean and sample standard deviation, the Student t distribution
// function, the paired t-test, Cohen's d of paired differences and the
// relative gain of one strategy over another.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

namespace rescue::bench {

/// Arithmetic mean; throws InvalidArgument for an empty sample.
double mean(const std::vector<double>& v);
/// Sample standard deviation (n - 1 denominator); 0 for a single value.
double sample_sd(const std::vector<double>& v);

/// Regularized incomplete beta function I_x(a, b), a, b > 0, x in [0, 1]
/// (continued fraction of Numerical Recipes 6.4, evaluated by the modified
/// Lentz method, with the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) for fast convergence).
double incomplete_beta(double a, double b, double x);

/// Distribution function of Student's t with `df` > 0 degrees of freedom:
/// P(T <= t) = 1 - I_{df/(df+t^2)}(df/2, 1/2) / 2 for t >= 0, symmetric otherwise.
double student_t_cdf(double t, double df);

/// Two-sided paired t-test of a against b (same length n >= 2, paired by index).
struct PairedTTest {
  int n = 0;
  double mean_difference = 0.0;  ///< mean of a_i - b_i
  double sd_difference = 0.0;    ///< sample sd of a_i - b_i
  double t = 0.0;                ///< mean / (sd / sqrt(n)); +-inf when sd = 0 and mean != 0, 0 when both 0
  double p_value = 1.0;          ///< two-sided, df = n - 1
  double cohens_d = 0.0;         ///< mean / sd of the differences (Cohen's d_z); +-inf / 0 as for t
};
PairedTTest paired_t_test(const std::vector<double>& a, const std::vector<double>& b);

/// Relative gain of a over b for a lower-is-better score: (b - a) / |b|.
/// Throws InvalidArgument when b = 0.
double relative_gain(double a, double b);

/// Pairs two strategies' values by seed: appends to `va` and `vb` the values of
/// `a` and `b` on the seeds both have, in ascending seed order.
void on_common_seeds(const std::map<std::uint64_t, double>& a, const std::map<std::uint64_t, double>& b,
                     std::vector<double>* va, std::vector<double>* vb);

}  // namespace rescue::bench
