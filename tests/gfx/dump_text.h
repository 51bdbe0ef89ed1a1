// A call rendered the way `apitrace dump --color=never --multiline=no` renders it, so tests can
// compare the reader with apitrace itself line by line.
#pragma once

#include <string>

#include "gfx/trace/apitrace_reader.h"

namespace strobe::gfx::trace {

/// `value` as apitrace dump writes it: enum names, "blob(N)", "&x" for one-element arrays, ...
std::string dump_text(const Value& value);
/// "NUMBER NAME(ARG = VALUE, ...) = RET", with apitrace's " // fake" and " // incomplete".
std::string dump_text(const Call& call);

}  // namespace strobe::gfx::trace
