// The named strategy parameters (rescue_problem_set_param): one table, so that
// a misspelt name is an error instead of a silently ignored setting, and so
// that users can list what there is. Each strategy reads the ones it uses,
// with its default, where it uses them.
#pragma once
#include <string>
#include <vector>

namespace rescue {

struct ParameterInfo {
  const char* name;
  const char* default_text;  ///< as documented; the strategy's code holds the value
  const char* meaning;
};

/// Every parameter any strategy or the recommender reads, sorted by name.
const std::vector<ParameterInfo>& known_parameters();

/// Throws Error(UnknownName) naming the closest known parameter when `name` is
/// not one of them.
void check_parameter_name(const std::string& name);

}  // namespace rescue
