// Fisher-z conditional independence test for PC. The partial correlation of
// (i, j) given S is read off the 2x2 Schur complement of the correlation matrix,
// r = R_ij / sqrt(R_ii R_jj) with R = C_ab - C_aS C_SS^+ C_Sb, which equals the
// entry of the inverse correlation sub-matrix formula -P_ij / sqrt(P_ii P_jj) when
// C_SS is invertible and stays defined when it is not (a pseudo-inverse handles
// duplicated or deterministic columns). The statistic is
// sqrt(n - |S| - 3) atanh(r), standard normal under independence.
#pragma once
#include <Eigen/Dense>
#include <vector>

namespace rescue::causal {

/// Two-sided Fisher-z p-value for partial correlation r from n rows with k
/// conditioning variables; requires n - k - 3 > 0.
double fisher_z_p_value(double r, int n, int k);

class FisherZTest {
 public:
  struct Result {
    double partial_correlation = 0.0;
    double p_value = 1.0;
    /// False when the test says nothing: i or j is (numerically) a deterministic
    /// function of S, or there are too few rows (n - |S| - 3 <= 0). Callers must
    /// then treat i and j as dependent.
    bool informative = true;
  };

  /// data: rows x variables. Constant columns get zero correlation with every
  /// other column, so they test independent of everything.
  explicit FisherZTest(const Eigen::MatrixXd& data);

  int rows() const { return n_; }
  int variables() const { return static_cast<int>(corr_.rows()); }
  bool is_constant(int j) const { return constant_[static_cast<std::size_t>(j)] != 0; }

  Result test(int i, int j, const std::vector<int>& s) const;

 private:
  int n_ = 0;
  Eigen::MatrixXd corr_;
  std::vector<char> constant_;
};

}  // namespace rescue::causal
