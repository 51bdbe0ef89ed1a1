// The one way strobe reads a number a person wrote: GPU configuration keys (--set), benchmark
// parameters (--param) and method parameters (--sampling-set) all take the same spellings, so a
// value accepted in one place is never refused in another.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace strobe {

/// The number `text` spells: decimal, an optional '-', a fraction and an exponent ("3", "-2",
/// "0.5", "1e6"); nothing before or after it, no hex, no infinity or NaN. With `percent`, "2%"
/// is 0.02. Nullopt when `text` is not such a number.
std::optional<double> parse_number(std::string_view text, bool percent = false);

/// The integer `text` spells, by parse_number's rules ("1e6" is 1000000); nullopt when it is
/// not a number, not integral, or outside int64's range.
std::optional<int64_t> parse_integer(std::string_view text);

}  // namespace strobe
