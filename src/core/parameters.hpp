// The named strategy parameters (rescue_problem_set_param): one table, so that
// a misspelt name is an error instead of a silently ignored setting, and so
// that users can list what there is. The table holds each default; the
// strategies parse the parameters they use once, into typed options
// (ProblemSpec::param reads a value or its default).
#pragma once
#include <string>
#include <vector>

namespace rescue {

/// The values a parameter accepts: whole numbers in [lo, hi] (switches are
/// 0..1, choices 0..k), or reals in the closed [lo, hi] or the open (lo, hi).
enum class ParameterKind { Integer, Closed, Open };

struct ParameterInfo {
  const char* name;
  const char* default_text;  ///< the default in force (and as documented)
  ParameterKind kind;
  double lo, hi;
  const char* meaning;
};

/// Every parameter any strategy or the recommender reads, sorted by name.
const std::vector<ParameterInfo>& known_parameters();

/// The entry of a known parameter, or nullptr.
const ParameterInfo* find_parameter(const std::string& name);

/// The documented default as a number.
double parameter_default(const ParameterInfo& p);
/// The default of a known parameter; Error(Internal) for a name not in the table.
double parameter_default(const std::string& name);

/// For checkpoints of earlier versions: true when `name` is a parameter this
/// version no longer has and `value` is the one it behaves as (the caller then
/// drops the setting); false when `name` was never retired. Throws
/// Error(UnsupportedVersion) for a retired parameter at another value.
bool retired_parameter_in_force(const std::string& name, double value);

/// Throws Error(UnknownName) naming the closest known parameter when `name` is
/// not one of them (or saying what a retired parameter's behaviour now is).
void check_parameter_name(const std::string& name);

/// The accepted values of a parameter in words, as docs/guide.md lists them
/// (for example "0, 1 or 2", "integer in [1, 1000000]", "[0, 1]").
std::string parameter_domain_text(const ParameterInfo& p);

/// Checks a known name, then that the (finite) value lies in its domain:
/// throws Error(UnknownName) or Error(OutOfRange) naming what it accepts.
void check_parameter(const std::string& name, double value);

}  // namespace rescue
