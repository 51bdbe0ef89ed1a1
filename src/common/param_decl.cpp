// The one reader of parameter values (param_decl.h).
#include "common/param_decl.h"

#include <cmath>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "common/error.h"
#include "common/number_text.h"

namespace strobe {

namespace {

[[noreturn]] void refuse(const ParamDecl& p, std::string_view text, std::string_view where, const std::string& why) {
  throw InputError(fmt::format("{} {}={}: {} ({})", where, p.name, text, why, p.doc));
}

}  // namespace

double check_value(const ParamDecl& p, double v, std::string_view text, std::string_view where) {
  if (p.kind == ParamKind::Int && v != std::floor(v)) refuse(p, text, where, "takes an integer");
  if (!std::isfinite(v) || v < p.lo || v > p.hi)
    refuse(p, text, where,
           fmt::format("must be in [{}, {}]{}", format_value(p, p.lo), format_value(p, p.hi),
                       p.unit.empty() ? "" : " " + p.unit));
  return v;
}

double read_value(const ParamDecl& p, std::string_view text, std::string_view where) {
  switch (p.kind) {
    case ParamKind::Text:
      if (text.empty()) refuse(p, text, where, "is empty");
      return 0;
    case ParamKind::Enum:
      for (size_t i = 0; i < p.choices.size(); ++i)
        if (p.choices[i] == text) return double(i);
      refuse(p, text, where, fmt::format("expected one of {}", fmt::join(p.choices, ", ")));
    case ParamKind::Int: {
      // "1e6" is an integer; "1.5" and "2%" are not.
      const std::optional<int64_t> i = parse_integer(text);
      if (!i) refuse(p, text, where, parse_number(text) ? "takes an integer" : fmt::format("'{}' is not a number", text));
      return check_value(p, double(*i), text, where);
    }
    case ParamKind::Float: {
      const std::optional<double> v = parse_number(text, /*percent=*/true);
      if (!v) refuse(p, text, where, fmt::format("'{}' is not a number", text));
      return check_value(p, *v, text, where);
    }
  }
  refuse(p, text, where, "has no kind");
}

std::string format_value(const ParamDecl& p, double v) {
  switch (p.kind) {
    case ParamKind::Int: return fmt::format("{}", int64_t(v));
    case ParamKind::Enum: return size_t(v) < p.choices.size() ? p.choices[size_t(v)] : fmt::format("{}", v);
    case ParamKind::Text: return p.def_text;
    case ParamKind::Float: break;
  }
  return fmt::format("{:g}", v);
}

nlohmann::json to_json(const ParamDecl& p) {
  static const char* kinds[] = {"int", "float", "enum", "text"};
  nlohmann::json j{{"name", p.name}, {"kind", kinds[size_t(p.kind)]}};
  switch (p.kind) {
    case ParamKind::Int:
      j["default"] = int64_t(p.def), j["min"] = int64_t(p.lo), j["max"] = int64_t(p.hi), j["unit"] = p.unit;
      break;
    case ParamKind::Float: j["default"] = p.def, j["min"] = p.lo, j["max"] = p.hi, j["unit"] = p.unit; break;
    case ParamKind::Enum: j["default"] = format_value(p, p.def), j["choices"] = p.choices; break;
    case ParamKind::Text: j["default"] = p.def_text; break;
  }
  j["doc"] = p.doc;
  return j;
}

}  // namespace strobe
