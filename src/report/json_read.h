// Strict reads of the numbers in a result file strobe wrote: a count or cycle total must be a
// non-negative integer, a time or ratio a number. nlohmann's get<uint64_t>() wraps a negative
// integer and truncates a fraction, so an edited or damaged file would read as a wrong value.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "common/error.h"

namespace strobe::report {

/// Whether `v` is a non-negative integer (a count, a cycle total, a frame number).
inline bool is_count(const nlohmann::json& v) {
  return v.is_number_unsigned() || (v.is_number_integer() && v.get<int64_t>() >= 0);
}

/// The non-negative integer at `key` of object `j`; InputError naming the key otherwise.
inline uint64_t read_u64(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw InputError(fmt::format("'{}' is missing", key));
  const nlohmann::json& v = j.at(key);
  if (!is_count(v))
    throw InputError(fmt::format("'{}' is {}, not a non-negative integer", key, v.dump()));
  return v.get<uint64_t>();
}

/// The non-negative whole number at `key` of object `j`, written as an integer or as a number
/// with no fraction (graphics results write cycles as 17291.0); InputError naming the key otherwise.
inline double read_whole(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw InputError(fmt::format("'{}' is missing", key));
  const nlohmann::json& v = j.at(key);
  if (!v.is_number() || v.get<double>() < 0 || v.get<double>() != std::floor(v.get<double>()))
    throw InputError(fmt::format("'{}' is {}, not a non-negative whole number", key, v.dump()));
  return v.get<double>();
}

/// The number at `key` of object `j`; InputError naming the key otherwise.
inline double read_number(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) throw InputError(fmt::format("'{}' is missing", key));
  const nlohmann::json& v = j.at(key);
  if (!v.is_number()) throw InputError(fmt::format("'{}' is {}, not a number", key, v.dump()));
  return v.get<double>();
}

}  // namespace strobe::report
