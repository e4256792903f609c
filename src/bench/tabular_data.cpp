#include "bench/tabular_data.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <optional>

#include "util/error.hpp"
#include "util/rng.hpp"
#include "util/text.hpp"

namespace rescue::bench {

TabularData read_labelled_csv(const std::string& path, const std::string& label_column) {
  std::ifstream in(path);
  if (!in) fail(Status::Io, "cannot read '" + path + "'");
  std::string line;
  if (!std::getline(in, line)) fail(Status::InvalidArgument, "'" + path + "' is empty");
  const std::vector<std::string> header = split(line, ',');
  const auto at = std::find(header.begin(), header.end(), label_column);
  if (at == header.end()) fail(Status::InvalidArgument, "'" + path + "' has no column '" + label_column + "'");
  const std::size_t label_at = static_cast<std::size_t>(at - header.begin());
  TabularData data;
  for (std::size_t j = 0; j < header.size(); ++j)
    if (j != label_at) data.features.push_back(header[j]);
  std::size_t row = 1;
  while (std::getline(in, line)) {
    ++row;
    if (line.empty()) continue;
    const std::vector<std::string> cells = split(line, ',');
    if (cells.size() != header.size())
      fail(Status::InvalidArgument, "'" + path + "' row " + std::to_string(row) + ": " + std::to_string(cells.size()) +
                                        " cells, the header has " + std::to_string(header.size()));
    for (std::size_t j = 0; j < cells.size(); ++j) {
      const std::optional<double> parsed = parse_number(cells[j]);
      const double v = parsed ? *parsed : NAN;
      if (!std::isfinite(v))
        fail(Status::InvalidArgument, "'" + path + "' row " + std::to_string(row) + ": '" + cells[j] + "' is not a number");
      if (j == label_at) {
        if (v != 0.0 && v != 1.0)
          fail(Status::InvalidArgument, "'" + path + "' row " + std::to_string(row) + ": the label is not 0 or 1");
        data.label.push_back(static_cast<float>(v));
      } else {
        data.x.push_back(static_cast<float>(v));
      }
    }
  }
  if (data.rows() < 2) fail(Status::InvalidArgument, "'" + path + "' has fewer than 2 rows");
  return data;
}

TrainValidation split_rows(const TabularData& data, double train_share, std::uint64_t seed) {
  const std::size_t n = data.rows(), d = data.cols();
  const auto n_train = static_cast<std::size_t>(std::lround(train_share * static_cast<double>(n)));
  if (!(train_share > 0.0 && train_share < 1.0) || n_train == 0 || n_train == n)
    fail(Status::InvalidArgument, "split_rows: the training share leaves a part empty");
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  Rng rng(seed);
  for (std::size_t i = n - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);  // Fisher-Yates
  TrainValidation out;
  out.train.features = out.validation.features = data.features;
  for (std::size_t k = 0; k < n; ++k) {
    TabularData& part = k < n_train ? out.train : out.validation;
    const std::size_t i = order[k];
    part.x.insert(part.x.end(), data.x.begin() + static_cast<std::ptrdiff_t>(i * d),
                  data.x.begin() + static_cast<std::ptrdiff_t>((i + 1) * d));
    part.label.push_back(data.label[i]);
  }
  return out;
}

}  // namespace rescue::bench
