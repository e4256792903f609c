#include "causal/causal_model.hpp"

#include <algorithm>
#include <cmath>

#include "util/error.hpp"

namespace rescue::causal {

namespace {
constexpr Eigen::Index kChunk = 64;  // query points per Monte Carlo block (bounds memory)
}

CausalModel CausalModel::fit(const DataTable& table, const Graph& dag, const ScmOptions& options) {
  const int p = table.cols();
  const Eigen::Index n = table.rows();
  if (dag.num_nodes() != p)
    fail(Status::SizeMismatch, "causal model: DAG has " + std::to_string(dag.num_nodes()) + " nodes, table has " +
                                   std::to_string(p) + " columns");
  for (int j = 0; j < p; ++j)
    if (dag.variables()[static_cast<std::size_t>(j)].name != table.variable(j).name ||
        dag.variables()[static_cast<std::size_t>(j)].role != table.variable(j).role)
      fail(Status::InvalidArgument, "causal model: DAG node " + std::to_string(j) + " ('" +
                                        dag.variables()[static_cast<std::size_t>(j)].name +
                                        "') does not match table column '" + table.variable(j).name + "'");
  if (!dag.is_dag()) fail(Status::InvalidArgument, "causal model: the graph is not a DAG (undirected edges or a cycle)");
  if (n < 2) fail(Status::InvalidArgument, "causal model: needs at least 2 rows, got " + std::to_string(n));
  if (options.mc_samples < 2)
    fail(Status::InvalidArgument, "causal model: mc_samples must be at least 2, got " + std::to_string(options.mc_samples));

  CausalModel m;
  m.dag_ = dag;
  m.order_ = dag.topological_order();
  m.options_ = table.columns_with_role(Role::Option);
  m.fidelity_ = table.fidelity_column();
  m.outputs_ = table.columns_with_role(Role::Objective);
  for (int c : table.columns_with_role(Role::Constraint)) m.outputs_.push_back(c);
  m.mc_samples_ = options.mc_samples;
  const std::size_t P = static_cast<std::size_t>(p);
  m.intervened_.assign(P, 0);
  for (int j : m.options_) m.intervened_[static_cast<std::size_t>(j)] = 1;
  if (m.fidelity_ >= 0) m.intervened_[static_cast<std::size_t>(m.fidelity_)] = 1;
  for (int j = 0; j < p; ++j)
    if (m.intervened_[static_cast<std::size_t>(j)] && !dag.parents(j).empty())
      fail(Status::InvalidArgument, "causal model: the " + std::string(role_name(table.variable(j).role)) + " '" +
                                        table.variable(j).name + "' has a parent in the DAG");

  Rng rng(options.seed);
  Rng fit_rng = rng.split();
  Rng noise_rng = rng.split();
  m.parents_.assign(P, {});
  m.equations_.assign(P, StructuralEquation());
  m.noise_.assign(P, Eigen::VectorXd());
  const Eigen::MatrixXd& X = table.data();
  const int K = options.mc_samples;
  for (int v = 0; v < p; ++v) {
    Rng node_rng = fit_rng.split();
    if (m.intervened_[static_cast<std::size_t>(v)]) continue;
    m.parents_[static_cast<std::size_t>(v)] = dag.parents(v);
    const auto& pa = m.parents_[static_cast<std::size_t>(v)];
    Eigen::MatrixXd P_(n, static_cast<Eigen::Index>(pa.size()));
    for (std::size_t c = 0; c < pa.size(); ++c) P_.col(static_cast<Eigen::Index>(c)) = X.col(pa[c]);
    m.equations_[static_cast<std::size_t>(v)] = StructuralEquation::fit(P_, X.col(v), options.equations, node_rng);
    // Common random numbers: K residuals resampled once, then centered and
    // rescaled to the residual variance so that small K stays unbiased in the
    // first two moments.
    const Eigen::VectorXd& r = m.equations_[static_cast<std::size_t>(v)].residuals();
    Eigen::VectorXd e(K);
    for (int k = 0; k < K; ++k) e(k) = r(static_cast<Eigen::Index>(noise_rng.below(static_cast<std::uint64_t>(n))));
    e.array() -= e.mean();
    const double var = e.squaredNorm() / K, target = m.equations_[static_cast<std::size_t>(v)].noise_variance();
    if (var > 1e-300 && target > 0.0) e *= std::sqrt(target / var);
    m.noise_[static_cast<std::size_t>(v)] = e;
  }

  // Closed form for outputs whose whole non-intervened ancestry is linear.
  const Eigen::Index d = static_cast<Eigen::Index>(m.options_.size());
  m.closed_.assign(P, 0);
  m.offset_.assign(P, 0.0);
  m.gain_ = Eigen::MatrixXd::Zero(p, d + 1);
  m.loading_ = Eigen::MatrixXd::Zero(p, p);
  m.noise_var_ = Eigen::VectorXd::Zero(p);
  for (int v : m.order_) {
    const std::size_t V = static_cast<std::size_t>(v);
    if (m.intervened_[V]) {
      m.closed_[V] = 1;
      if (v == m.fidelity_) {
        m.gain_(v, d) = 1.0;
      } else {
        const auto it = std::find(m.options_.begin(), m.options_.end(), v);
        m.gain_(v, it - m.options_.begin()) = 1.0;
      }
      continue;
    }
    const auto& eq = m.equations_[V];
    m.noise_var_(v) = eq.noise_variance();
    if (!eq.is_linear()) continue;
    bool ok = true;
    for (int q : m.parents_[V]) ok = ok && m.closed_[static_cast<std::size_t>(q)];
    if (!ok) continue;
    m.closed_[V] = 1;
    m.offset_[V] = eq.intercept();
    m.loading_(v, v) = 1.0;
    for (std::size_t c = 0; c < m.parents_[V].size(); ++c) {
      const int q = m.parents_[V][c];
      const double b = eq.slopes()(static_cast<Eigen::Index>(c));
      m.offset_[V] += b * m.offset_[static_cast<std::size_t>(q)];
      m.gain_.row(v) += b * m.gain_.row(q);
      m.loading_.row(v) += b * m.loading_.row(q);
    }
  }
  return m;
}

void CausalModel::check_query(const Eigen::MatrixXd& xs, const Eigen::VectorXd& s) const {
  if (dag_.num_nodes() == 0) fail(Status::InvalidState, "causal model: not fitted");
  if (xs.cols() != static_cast<Eigen::Index>(options_.size()))
    fail(Status::SizeMismatch, "causal model: xs has " + std::to_string(xs.cols()) + " columns, the model has " +
                                   std::to_string(options_.size()) + " options");
  if (s.size() != xs.rows() && !(fidelity_ < 0 && s.size() == 0))
    fail(Status::SizeMismatch, "causal model: " + std::to_string(s.size()) + " fidelities for " +
                                   std::to_string(xs.rows()) + " configurations");
  if (!xs.allFinite() || !s.allFinite()) fail(Status::NonFinite, "causal model: non-finite query");
}

void CausalModel::estimate(const Eigen::MatrixXd& xs, const Eigen::VectorXd& s, Eigen::MatrixXd* mean,
                           Eigen::MatrixXd* sd) const {
  check_query(xs, s);
  if (!mean || !sd) fail(Status::NullPointer, "causal model: null output matrix");
  const Eigen::Index n = xs.rows();
  mean->resize(n, static_cast<Eigen::Index>(outputs_.size()));
  sd->resize(n, static_cast<Eigen::Index>(outputs_.size()));
  for (Eigen::Index b = 0; b < n; b += kChunk) estimate_chunk(xs, s, b, std::min(n, b + kChunk), mean, sd);
}

void CausalModel::estimate_chunk(const Eigen::MatrixXd& xs, const Eigen::VectorXd& s, Eigen::Index begin,
                                 Eigen::Index end, Eigen::MatrixXd* mean, Eigen::MatrixXd* sd) const {
  const Eigen::Index B = end - begin, K = mc_samples_;
  const Eigen::Index d = static_cast<Eigen::Index>(options_.size());
  const int p = dag_.num_nodes();
  // Inputs [x, s] of this block.
  Eigen::MatrixXd in(B, d + 1);
  in.leftCols(d) = xs.middleRows(begin, B);
  in.col(d) = (s.size() == xs.rows()) ? Eigen::VectorXd(s.segment(begin, B)) : Eigen::VectorXd::Zero(B);

  // Variables the Monte Carlo part needs: ancestors of outputs without closed form.
  std::vector<char> need(static_cast<std::size_t>(p), 0);
  for (int c : outputs_)
    if (!closed_[static_cast<std::size_t>(c)]) need[static_cast<std::size_t>(c)] = 1;
  for (auto it = order_.rbegin(); it != order_.rend(); ++it)
    if (need[static_cast<std::size_t>(*it)])
      for (int q : parents_[static_cast<std::size_t>(*it)]) need[static_cast<std::size_t>(q)] = 1;

  std::vector<Eigen::MatrixXd> val(static_cast<std::size_t>(p));  // B x 1 if fixed by the intervention, else B x K
  for (int v : order_) {
    const std::size_t V = static_cast<std::size_t>(v);
    if (!need[V]) continue;
    if (intervened_[V]) {
      if (v == fidelity_) {
        val[V] = in.col(d);
      } else {
        const auto pos = std::find(options_.begin(), options_.end(), v) - options_.begin();
        val[V] = in.col(pos);
      }
      continue;
    }
    const auto& pa = parents_[V];
    const auto& eq = equations_[V];
    const Eigen::RowVectorXd e = noise_[V].transpose();
    bool fixed_parents = true;
    for (int q : pa) fixed_parents = fixed_parents && intervened_[static_cast<std::size_t>(q)];
    Eigen::MatrixXd out(B, K);
    if (fixed_parents) {
      Eigen::MatrixXd P_(B, static_cast<Eigen::Index>(pa.size()));
      for (std::size_t c = 0; c < pa.size(); ++c) P_.col(static_cast<Eigen::Index>(c)) = val[static_cast<std::size_t>(pa[c])].col(0);
      const Eigen::VectorXd f = eq.predict(P_);
      out = f.replicate(1, K);
    } else if (eq.is_linear()) {
      out.setConstant(eq.intercept());
      for (std::size_t c = 0; c < pa.size(); ++c) {
        const Eigen::MatrixXd& pv = val[static_cast<std::size_t>(pa[c])];
        const double b = eq.slopes()(static_cast<Eigen::Index>(c));
        if (pv.cols() == 1)
          out.colwise() += b * pv.col(0);
        else
          out += b * pv;
      }
    } else {
      Eigen::MatrixXd P_(B * K, static_cast<Eigen::Index>(pa.size()));
      for (std::size_t c = 0; c < pa.size(); ++c) {
        const Eigen::MatrixXd& pv = val[static_cast<std::size_t>(pa[c])];
        for (Eigen::Index k = 0; k < K; ++k)
          P_.col(static_cast<Eigen::Index>(c)).segment(k * B, B) = pv.col(pv.cols() == 1 ? 0 : k);
      }
      const Eigen::VectorXd f = eq.predict(P_);
      out = Eigen::Map<const Eigen::MatrixXd>(f.data(), B, K);
    }
    out.rowwise() += e;
    val[V] = std::move(out);
  }

  for (std::size_t k = 0; k < outputs_.size(); ++k) {
    const int c = outputs_[k];
    const Eigen::Index col = static_cast<Eigen::Index>(k);
    if (closed_[static_cast<std::size_t>(c)]) {
      mean->col(col).segment(begin, B) = (in * gain_.row(c).transpose()).array() + offset_[static_cast<std::size_t>(c)];
      const double var = loading_.row(c).array().square().matrix().dot(noise_var_);
      sd->col(col).segment(begin, B).setConstant(std::sqrt(std::max(var, 0.0)));
    } else {
      const Eigen::MatrixXd& v = val[static_cast<std::size_t>(c)];
      const Eigen::VectorXd mu = v.rowwise().mean();
      mean->col(col).segment(begin, B) = mu;
      sd->col(col).segment(begin, B) =
          ((v.colwise() - mu).rowwise().squaredNorm() / static_cast<double>(K)).cwiseSqrt();
    }
  }
}

}  // namespace rescue::causal
