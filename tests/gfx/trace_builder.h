// Hand-built apitrace traces for the reader's tests: the trace data written byte by byte as the
// format describes it (docs/FORMAT.markdown of apitrace), then put in the snappy container.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strobe::gfx::trace {

/// Appends the format's pieces to a trace data buffer; every method returns *this to chain.
class TraceBuilder {
 public:
  /// Starts the data with the header: version, then (version 6) the semantic version and
  /// `properties`' name/value pairs ended by an empty name.
  explicit TraceBuilder(unsigned version = 6, std::vector<std::pair<std::string, std::string>> properties = {});

  /// One raw byte.
  TraceBuilder& byte(uint8_t b);
  /// The format's variable-length unsigned integer.
  TraceBuilder& uint(uint64_t v);
  /// A length-prefixed string.
  TraceBuilder& str(std::string_view s);
  /// Raw bytes.
  TraceBuilder& raw(std::string_view bytes);

  /// Enter event of a function signature's first occurrence: its name and parameter names.
  TraceBuilder& enter(uint64_t thread, uint64_t sig, std::string_view name, const std::vector<std::string>& args);
  /// Enter event of a signature already defined (the bare id).
  TraceBuilder& enter(uint64_t thread, uint64_t sig);
  /// Leave event of call `number`.
  TraceBuilder& leave(uint64_t number);
  /// Call detail: argument `index`; a value must follow.
  TraceBuilder& arg(uint64_t index);
  /// Call detail: the return value; a value must follow.
  TraceBuilder& ret();
  /// Call detail: the end of an event's details.
  TraceBuilder& end();

  /// Values, each with its type byte.
  TraceBuilder& null();
  TraceBuilder& boolean(bool b);
  TraceBuilder& sint(int64_t v);  // as the tracer writes a signed integer: SInt only when negative
  TraceBuilder& uint_value(uint64_t v);
  TraceBuilder& f32(float v);
  TraceBuilder& f64(double v);
  TraceBuilder& string(std::string_view s);
  TraceBuilder& blob(std::string_view bytes);
  TraceBuilder& pointer(uint64_t address);
  TraceBuilder& wstring(std::u32string_view s);
  /// Array header; `count` values must follow.
  TraceBuilder& array(uint64_t count);
  /// Repr header; the human and the machine value must follow.
  TraceBuilder& repr();
  /// Enum with its signature's first occurrence (every name/value pair), then its value.
  TraceBuilder& enum_def(uint64_t sig, const std::vector<std::pair<std::string, int64_t>>& values, int64_t value);
  /// Enum of a signature already defined.
  TraceBuilder& enum_ref(uint64_t sig, int64_t value);
  /// Bitmask with its signature's first occurrence, then its value.
  TraceBuilder& bitmask_def(uint64_t sig, const std::vector<std::pair<std::string, uint64_t>>& flags, uint64_t value);
  /// Struct header with its signature's first occurrence; a value per member must follow.
  TraceBuilder& struct_def(uint64_t sig, std::string_view name, const std::vector<std::string>& members);
  /// Struct header of a signature already defined.
  TraceBuilder& struct_ref(uint64_t sig);

  /// The trace data so far.
  const std::string& data() const { return data_; }
  /// The file: "at", then the data in snappy chunks of at most `chunk` bytes.
  std::string file(size_t chunk = size_t{1} << 20) const;

 private:
  std::string data_;
};

/// The snappy container around `data`, cut into chunks of at most `chunk` bytes.
std::string snappy_container(std::string_view data, size_t chunk = size_t{1} << 20);

/// A file in the temporary directory holding given bytes, removed when this goes out of scope.
class TempFile {
 public:
  /// Writes `bytes` to a file whose name ends in `name` (unique to this process).
  TempFile(std::string_view name, std::string_view bytes);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  /// The file's path.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace strobe::gfx::trace
