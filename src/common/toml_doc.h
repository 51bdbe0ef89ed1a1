// TOML documents read with one error format: "FILE:LINE:COLUMN: what is wrong".
#pragma once

#include <string_view>

#include <toml++/toml.h>

namespace strobe {

/// Parses `text`; throws InputError naming `source`, the line and column of a syntax error.
toml::table parse_toml(std::string_view text, std::string_view source);

}  // namespace strobe
