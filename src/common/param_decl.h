// One declaration of a parameter, and one reader of its values, for all three kinds of setting
// strobe takes: the GPU configuration's keys (timing/config/params.def, `--set`), a sampling
// method's parameters (STROBE_METHOD_PARAMS, `--sampling-set`) and a benchmark's parameters
// (workloads/params.h, `--param`). Each subsystem declares its parameters where its values land,
// but every declaration is a ParamDecl, read by read_value and listed by to_json: a value is
// accepted, refused and reported alike wherever it is given.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace strobe {

/// What values a parameter takes.
enum class ParamKind : uint8_t { Int, Float, Enum, Text };

/// One declared parameter: its name, kind, default, bounds or choices, unit and meaning.
struct ParamDecl {
  std::string name;                  ///< what a user writes before '=' (dotted for the GPU's keys)
  ParamKind kind = ParamKind::Int;
  double def = 0;                    ///< a number's default; an enumeration's, its choice's index
  std::string def_text;              ///< a text parameter's default
  double lo = 0, hi = 0;             ///< a number's bounds, inclusive
  std::vector<std::string> choices;  ///< an enumeration's names, in value order
  std::string unit;                  ///< a number's unit, or empty
  std::string doc;                   ///< one line: what it sets
};

/// The value `text` gives number or enumeration parameter `p`: a number as parse_number reads it
/// (a real also as a percentage, "2%" = 0.02), integral for an integer, within [lo, hi]; an
/// enumeration's name gives its index. Anything else is an InputError
/// "`where` NAME=TEXT: reason (doc)". A text parameter takes any text but the empty one (its
/// value is then 0).
double read_value(const ParamDecl& p, std::string_view text, std::string_view where);

/// Checks a number that arrived typed (a TOML value) as read_value checks a written one; returns it.
double check_value(const ParamDecl& p, double v, std::string_view text, std::string_view where);

/// `v` written as a user writes it: an integer without a point, a real by %g, an enumeration by
/// its name.
std::string format_value(const ParamDecl& p, double v);

/// `p` for listings (`strobe list --json`): name, kind (int, float, enum, text), default (typed),
/// min, max and unit of a number, choices of an enumeration, doc.
nlohmann::json to_json(const ParamDecl& p);

}  // namespace strobe
