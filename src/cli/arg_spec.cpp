// Strict parsing of launch argument specs: every malformed value is an error, never a guess.
#include "cli/arg_spec.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include <fmt/core.h>

#include "common/error.h"
#include "runtime/kernel_args.h"

namespace strobe::cli {

uint64_t parse_uint(const std::string& text, const std::string& what, uint64_t max) {
  if (text.empty() || text[0] == '-' || text[0] == '+' || std::isspace(static_cast<unsigned char>(text[0])))
    throw InputError(fmt::format("{}: '{}' is not a non-negative integer", what, text));
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (end == text.c_str() || *end != '\0')
    throw InputError(fmt::format("{}: '{}' is not a non-negative integer", what, text));
  if (errno == ERANGE || v > max) throw InputError(fmt::format("{}: {} is too large (at most {})", what, text, max));
  return v;
}

namespace {

int64_t parse_int(const std::string& text, const std::string& what, int64_t lo, int64_t hi) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    throw InputError(fmt::format("{}: '{}' is not an integer", what, text));
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text.c_str(), &end, 0);
  if (end == text.c_str() || *end != '\0') throw InputError(fmt::format("{}: '{}' is not an integer", what, text));
  if (errno == ERANGE || v < lo || v > hi)
    throw InputError(fmt::format("{}: {} is out of range [{}, {}]", what, text, lo, hi));
  return v;
}

double parse_float(const std::string& text, const std::string& what) {
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0])))
    throw InputError(fmt::format("{}: '{}' is not a number", what, text));
  char* end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') throw InputError(fmt::format("{}: '{}' is not a number", what, text));
  return v;
}

template <typename T>
std::vector<uint8_t> bytes_of(T v) {
  std::vector<uint8_t> b(sizeof(T));
  std::memcpy(b.data(), &v, sizeof(T));
  return b;
}

}  // namespace

ArgSpec parse_arg_spec(const std::string& spec) {
  ArgSpec a;
  a.text = spec;
  auto colon = spec.find(':');
  if (colon == std::string::npos)
    throw InputError(fmt::format("--arg '{}': expected KIND:VALUE (buf:PATH, zeros:BYTES, local:BYTES, "
                                 "i32:V, u32:V, i64:V, u64:V, f32:V, f64:V)", spec));
  std::string kind = spec.substr(0, colon), val = spec.substr(colon + 1);
  std::string what = fmt::format("--arg '{}'", spec);
  if (kind == "buf") {
    if (val.empty()) throw InputError(what + ": missing file path");
    a.kind = ArgSpec::Kind::File;
    a.path = val;
  } else if (kind == "zeros") {
    a.kind = ArgSpec::Kind::Zeros;
    a.bytes = parse_uint(val, what, uint64_t{1} << 40);
  } else if (kind == "local") {
    a.kind = ArgSpec::Kind::Local;
    a.bytes = parse_uint(val, what, 64 * 1024);
  } else if (kind == "i32") {
    a.value = bytes_of(int32_t(parse_int(val, what, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max())));
  } else if (kind == "u32") {
    a.value = bytes_of(uint32_t(parse_uint(val, what, std::numeric_limits<uint32_t>::max())));
  } else if (kind == "i64") {
    a.value = bytes_of(int64_t(parse_int(val, what, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max())));
  } else if (kind == "u64") {
    a.value = bytes_of(uint64_t(parse_uint(val, what, std::numeric_limits<uint64_t>::max())));
  } else if (kind == "f32") {
    a.value = bytes_of(float(parse_float(val, what)));
  } else if (kind == "f64") {
    a.value = bytes_of(parse_float(val, what));
  } else {
    throw InputError(fmt::format("--arg '{}': unknown kind '{}' (expected buf, zeros, local, i32, u32, i64, u64, f32 or f64)",
                                 spec, kind));
  }
  if (a.kind == ArgSpec::Kind::Scalar) a.scalar = kind;
  return a;
}

void check_scalar_type(const ArgSpec& a, const loader::KernelArg& arg, size_t index) {
  // Another size is the runtime's to report ("takes N bytes"); this check is for same-size types.
  if (a.kind != ArgSpec::Kind::Scalar || a.value.size() != arg.size) return;
  const std::string declared = runtime::scalar_kind(arg);
  if (declared.empty() || declared == a.scalar) return;
  throw InputError(fmt::format("--arg '{}': the kernel's argument {} ({}{}{}) takes {}:V", a.text, index,
                               arg.type_name, arg.name.empty() ? "" : " ", arg.name, declared));
}

std::array<uint32_t, 3> parse_dims(const std::string& text, const std::string& what, uint32_t* dims) {
  std::array<uint32_t, 3> out{1, 1, 1};
  size_t start = 0;
  uint32_t n = 0;
  while (true) {
    if (n == 3) throw InputError(fmt::format("{} '{}': at most three dimensions", what, text));
    size_t comma = text.find(',', start);
    std::string part = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    uint64_t v = parse_uint(part, fmt::format("{} '{}'", what, text), std::numeric_limits<uint32_t>::max());
    if (v == 0) throw InputError(fmt::format("{} '{}': sizes must be at least 1", what, text));
    out[n++] = uint32_t(v);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (dims) *dims = n;
  return out;
}

}  // namespace strobe::cli
