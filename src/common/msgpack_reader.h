// Reading a msgpack document strobe wrote (profiles, saved traces), where every malformed input
// is an InputError naming the document and the field rather than a crash or a silent default.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <msgpack.hpp>

namespace strobe {

/// Checked access to one decoded msgpack document. Every error reads "PREFIX: WHY", a field's
/// "WHERE has no 'KEY' (CORRUPT)" and so on, with CORRUPT the document's word for it.
class MsgpackReader {
 public:
  /// `prefix` names the document ("profile p.prof"); `subject` starts the parse errors ("the file
  /// is " gives "the file is truncated"; "" gives "truncated"); `corrupt` ends the field errors.
  MsgpackReader(std::string prefix, std::string subject = "", std::string corrupt = "corrupt")
      : prefix_(std::move(prefix)), subject_(std::move(subject)), corrupt_(std::move(corrupt)) {}

  /// Throws InputError "PREFIX: WHY".
  [[noreturn]] void fail(const std::string& why) const;
  /// Parses `bytes` as exactly one document: truncated, corrupt, and trailing bytes are errors.
  /// The document's strings and binaries point into `bytes`, which must outlive the handle.
  msgpack::object_handle parse(std::string_view bytes) const;
  /// Parses the document at the start of `bytes`, setting `used` to its length, so a caller can
  /// first tell a foreign file by its root before complaining of trailing bytes (check_end).
  msgpack::object_handle parse(std::string_view bytes, std::size_t& used) const;
  /// The trailing-bytes error when `used` is not all of `bytes`.
  void check_end(std::string_view bytes, std::size_t used) const;
  /// The root of `bytes`, which must be a map (else an error naming it `what`), as each key with
  /// the offset of its value, found by skipping values rather than decoding them. A document of
  /// millions of objects is then read a value, or an array's element, at a time (parse_at,
  /// array_at), never whole in memory. Truncated, corrupt and trailing bytes are errors.
  std::vector<std::pair<std::string_view, std::size_t>> map_entries(std::string_view bytes,
                                                                   std::string_view what) const;
  /// The one object at `off` in `bytes` (its strings and binaries point into `bytes`), with `off`
  /// moved past it.
  msgpack::object_handle parse_at(std::string_view bytes, std::size_t& off) const;
  /// The entry count of the map header at `off` in `bytes`, with `off` moved to its first key; an
  /// error naming `what` when no map is there.
  uint32_t map_at(std::string_view bytes, std::size_t& off, std::string_view what) const;
  /// The element count of the array at `off` in `bytes`, with `off` moved to its first element;
  /// an error naming `what` when no array is there, and "truncated" when it claims more elements
  /// than bytes remain (so a caller may reserve the count).
  uint32_t array_at(std::string_view bytes, std::size_t& off, std::string_view what) const;
  /// Field `key` of map `m`; an error naming `where` when `m` is not a map or has no such key.
  const msgpack::object& field(const msgpack::object& m, std::string_view key, std::string_view where) const;
  /// Field `key` of map `m`, or null when it has none (an optional field); `m` must be a map.
  const msgpack::object* optional_field(const msgpack::object& m, std::string_view key) const;
  /// A string value.
  std::string str(const msgpack::object& o, std::string_view what) const;
  /// A non-negative integer.
  uint64_t u64(const msgpack::object& o, std::string_view what) const;
  /// A non-negative integer that fits 32 bits.
  uint32_t u32(const msgpack::object& o, std::string_view what) const;
  /// A number (float or integer) as a double.
  double f64(const msgpack::object& o, std::string_view what) const;
  /// An array.
  const msgpack::object_array& array(const msgpack::object& o, std::string_view what) const;
  /// A binary value's bytes.
  std::string_view bin(const msgpack::object& o, std::string_view what) const;
  /// "(CORRUPT)": the suffix of the document's format errors.
  std::string corrupt() const { return "(" + corrupt_ + ")"; }

 private:
  std::string prefix_, subject_, corrupt_;
};

}  // namespace strobe
