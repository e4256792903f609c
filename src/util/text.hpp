// Text helpers shared by the layers: numbers in messages and files, lists of
// names in messages, and splitting at a separator.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace rescue {

/// `v` as printf's "%.17g" writes it: enough digits to read the same double back.
std::string fmt17(double v);

/// The number `s` spells, as strtod reads it, when all of `s` is that number
/// (not empty, nothing after it); otherwise nullopt. Infinities and NaN are
/// numbers here: callers that refuse them check.
std::optional<double> parse_number(const std::string& s);

/// The names separated by ", " (the "known: ..." lists of error messages).
std::string comma_list(const std::vector<std::string>& names);

/// The pieces of `s` between the separators `sep`; always at least one ("" gives {""}).
std::vector<std::string> split(const std::string& s, char sep);

}  // namespace rescue
