#include "common/number_text.h"

#include <charconv>
#include <cmath>

namespace strobe {

std::optional<double> parse_number(std::string_view text, bool percent) {
  const bool pct = percent && !text.empty() && text.back() == '%';
  if (pct) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::general);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) return std::nullopt;
  return pct ? v / 100 : v;
}

std::optional<int64_t> parse_integer(std::string_view text) {
  int64_t i = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
  if (!text.empty() && ec == std::errc() && end == text.data() + text.size()) return i;  // exact, whatever its size
  const std::optional<double> v = parse_number(text);
  // 2^63 is the first double past int64's range.
  if (!v || *v != std::floor(*v) || *v < -9223372036854775808.0 || *v >= 9223372036854775808.0) return std::nullopt;
  return int64_t(*v);
}

}  // namespace strobe
