// Checked reading of a traced call's arguments, shared by everything that follows GL state
// through a trace: a missing argument is an InputError naming the trace, the call and its
// function.
#pragma once

#include <cstdint>
#include <string>

#include <fmt/format.h>

#include "common/error.h"
#include "gfx/trace/apitrace_reader.h"

namespace strobe::gfx {

/// The trace's path and the checked accessors of its calls' arguments.
struct CallReader {
  std::string path;  ///< the trace, for error messages

  /// Throws InputError "PATH: call N (FUNCTION): WHY".
  [[noreturn]] void fail(const trace::Call& c, const std::string& why) const {
    throw InputError(fmt::format("{}: call {} ({}): {}", path, c.number(), c.name(), why));
  }
  /// The argument `name`; an error when the trace recorded none.
  const trace::Value& arg(const trace::Call& c, const char* name) const {
    const trace::Value* v = c.arg(name);
    if (!v) fail(c, fmt::format("no '{}' argument recorded", name));
    return *v;
  }
  /// An integer argument (any integer encoding the tracer chose).
  int64_t i(const trace::Call& c, const char* name) const { return arg(c, name).integer(); }
  /// A GLuint/GLenum argument.
  uint32_t u(const trace::Call& c, const char* name) const { return static_cast<uint32_t>(arg(c, name).integer()); }
  /// A GLfloat/GLdouble argument (an integer one converts).
  float f(const trace::Call& c, const char* name) const {
    const trace::Value& v = arg(c, name);
    if (v.kind() == trace::ValueKind::Double) return float(v.f64());
    return v.kind() == trace::ValueKind::Float ? v.f32() : float(v.integer());
  }
  /// The return value as an unsigned integer (an object name); an error when none was recorded.
  uint64_t ret(const trace::Call& c) const {
    if (!c.ret()) fail(c, "no return value recorded");
    return static_cast<uint64_t>(c.ret()->integer());
  }
};

}  // namespace strobe::gfx
