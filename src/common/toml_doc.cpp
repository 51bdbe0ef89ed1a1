// TOML parsing with strobe's error (see toml_doc.h).
#include "common/toml_doc.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe {

toml::table parse_toml(std::string_view text, std::string_view source) {
  try {
    return toml::parse(text, source);
  } catch (const toml::parse_error& e) {
    throw InputError(fmt::format("{}:{}:{}: {}", source, e.source().begin.line, e.source().begin.column,
                                 e.description()));
  }
}

}  // namespace strobe
