// A numeric table for the harness's model-training problems: read from a
// CSV file (header, then one row per example, the label a 0/1 column), and
// split once into training and validation rows by a seeded shuffle.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace rescue::bench {

struct TabularData {
  std::vector<std::string> features;  ///< feature names, in column order
  std::vector<float> x;               ///< rows x features, row-major
  std::vector<float> label;           ///< 0 or 1 per row
  std::size_t rows() const { return label.size(); }
  std::size_t cols() const { return features.size(); }
};

/// Reads a CSV file whose column `label_column` holds 0 or 1 and whose other
/// columns are numbers. Throws Error(Io) if the file cannot be read and
/// Error(InvalidArgument) on a malformed row.
TabularData read_labelled_csv(const std::string& path, const std::string& label_column);

struct TrainValidation {
  TabularData train, validation;
};

/// A shuffle of the rows by `seed`, the first round(train_share * n) rows for
/// training and the rest for validation, each in shuffled order (so that a
/// prefix of the training rows is a random subset of them).
TrainValidation split_rows(const TabularData& data, double train_share, std::uint64_t seed);

}  // namespace rescue::bench
