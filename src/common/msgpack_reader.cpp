// Checked msgpack reading (see msgpack_reader.h).
#include "common/msgpack_reader.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe {

void MsgpackReader::fail(const std::string& why) const { throw InputError(fmt::format("{}: {}", prefix_, why)); }

msgpack::object_handle MsgpackReader::parse(std::string_view bytes, std::size_t& used) const {
  if (bytes.empty()) fail(subject_ + "empty");
  used = 0;
  return parse_at(bytes, used);
}

msgpack::object_handle MsgpackReader::parse_at(std::string_view bytes, std::size_t& off) const {
  if (off >= bytes.size()) fail(subject_ + "truncated");
  msgpack::object_handle h;
  // Strings and binaries stay in `bytes` rather than being copied into the handle's zone: a
  // capture's index holds every launch's page list, tens of megabytes read once and converted.
  bool referenced = false;
  const msgpack::unpack_reference_func borrow = [](msgpack::type::object_type, std::size_t, void*) { return true; };
  try {
    h = msgpack::unpack(bytes.data(), bytes.size(), off, referenced, borrow);
  } catch (const msgpack::insufficient_bytes&) {
    fail(subject_ + "truncated");
  } catch (const std::exception& e) {
    fail(fmt::format("{}corrupt ({})", subject_, e.what()));
  }
  return h;
}

namespace {

/// A visitor that builds nothing: msgpack::parse() with it steps over one object.
struct Skipper : msgpack::null_visitor {
  bool truncated = false;
  void insufficient_bytes(std::size_t, std::size_t) { truncated = true; }
};

/// The count of the array (or, with `map`, map) header at `off`, moving past it; -1 when another
/// type is there, -2 when the header is cut off.
int64_t container_header(std::string_view b, std::size_t& off, bool map) {
  if (off >= b.size()) return -2;
  const uint8_t h = uint8_t(b[off]);
  if ((h & 0xf0) == (map ? 0x80 : 0x90)) {
    ++off;
    return h & 0x0f;
  }
  const std::size_t n = h == (map ? 0xde : 0xdc) ? 2 : h == (map ? 0xdf : 0xdd) ? 4 : 0;
  if (n == 0) return -1;
  if (b.size() - off < 1 + n) return -2;
  uint32_t v = 0;
  for (std::size_t i = 1; i <= n; ++i) v = v << 8 | uint8_t(b[off + i]);
  off += 1 + n;
  return v;
}

}  // namespace

uint32_t MsgpackReader::array_at(std::string_view bytes, std::size_t& off, std::string_view what) const {
  const int64_t n = container_header(bytes, off, false);
  if (n == -2) fail(subject_ + "truncated");
  if (n < 0) fail(fmt::format("{} is not an array {}", what, corrupt()));
  // Every element takes a byte at least: a count past the bytes left is a cut (or forged)
  // document, refused before a caller reserves room for it.
  if (uint64_t(n) > bytes.size() - off) fail(subject_ + "truncated");
  return uint32_t(n);
}

uint32_t MsgpackReader::map_at(std::string_view bytes, std::size_t& off, std::string_view what) const {
  const int64_t n = container_header(bytes, off, true);
  if (n == -2) fail(subject_ + "truncated");
  if (n < 0) fail(fmt::format("{} is not a map {}", what, corrupt()));
  return uint32_t(n);
}

std::vector<std::pair<std::string_view, std::size_t>> MsgpackReader::map_entries(std::string_view bytes,
                                                                                 std::string_view what) const {
  if (bytes.empty()) fail(subject_ + "empty");
  std::size_t off = 0;
  const uint32_t n = map_at(bytes, off, what);
  std::vector<std::pair<std::string_view, std::size_t>> entries;
  for (uint32_t i = 0; i < n; ++i) {
    const msgpack::object_handle k = parse_at(bytes, off);
    if (k.get().type != msgpack::type::STR) fail(fmt::format("{} has a key that is not a string {}", what, corrupt()));
    entries.emplace_back(std::string_view(k.get().via.str.ptr, k.get().via.str.size), off);
    Skipper skip;
    bool ok = false;
    try {
      ok = msgpack::parse(bytes.data(), bytes.size(), off, skip);
    } catch (const std::exception& e) {
      fail(fmt::format("{}corrupt ({})", subject_, e.what()));
    }
    if (!ok) fail(subject_ + (skip.truncated ? "truncated" : "corrupt"));
  }
  check_end(bytes, off);
  return entries;
}

void MsgpackReader::check_end(std::string_view bytes, std::size_t used) const {
  if (used != bytes.size()) fail(fmt::format("{}corrupt ({} bytes after the document)", subject_, bytes.size() - used));
}

msgpack::object_handle MsgpackReader::parse(std::string_view bytes) const {
  std::size_t used = 0;
  msgpack::object_handle h = parse(bytes, used);
  check_end(bytes, used);
  return h;
}

const msgpack::object& MsgpackReader::field(const msgpack::object& m, std::string_view key,
                                            std::string_view where) const {
  if (m.type != msgpack::type::MAP) fail(fmt::format("{} is not a map {}", where, corrupt()));
  if (const msgpack::object* v = optional_field(m, key)) return *v;
  fail(fmt::format("{} has no '{}' {}", where, key, corrupt()));
}

const msgpack::object* MsgpackReader::optional_field(const msgpack::object& m, std::string_view key) const {
  if (m.type != msgpack::type::MAP) return nullptr;
  for (uint32_t i = 0; i < m.via.map.size; ++i) {
    const msgpack::object& k = m.via.map.ptr[i].key;
    if (k.type == msgpack::type::STR && std::string_view(k.via.str.ptr, k.via.str.size) == key)
      return &m.via.map.ptr[i].val;
  }
  return nullptr;
}

std::string MsgpackReader::str(const msgpack::object& o, std::string_view what) const {
  if (o.type != msgpack::type::STR) fail(fmt::format("{} is not a string {}", what, corrupt()));
  return std::string(o.via.str.ptr, o.via.str.size);
}

uint64_t MsgpackReader::u64(const msgpack::object& o, std::string_view what) const {
  if (o.type != msgpack::type::POSITIVE_INTEGER) fail(fmt::format("{} is not a non-negative integer {}", what, corrupt()));
  return o.via.u64;
}

uint32_t MsgpackReader::u32(const msgpack::object& o, std::string_view what) const {
  const uint64_t v = u64(o, what);
  if (v > UINT32_MAX) fail(fmt::format("{} is out of range {}", what, corrupt()));
  return uint32_t(v);
}

double MsgpackReader::f64(const msgpack::object& o, std::string_view what) const {
  if (o.type == msgpack::type::FLOAT64 || o.type == msgpack::type::FLOAT32) return o.via.f64;
  if (o.type == msgpack::type::POSITIVE_INTEGER) return double(o.via.u64);
  if (o.type == msgpack::type::NEGATIVE_INTEGER) return double(o.via.i64);
  fail(fmt::format("{} is not a number {}", what, corrupt()));
}

const msgpack::object_array& MsgpackReader::array(const msgpack::object& o, std::string_view what) const {
  if (o.type != msgpack::type::ARRAY) fail(fmt::format("{} is not an array {}", what, corrupt()));
  return o.via.array;
}

std::string_view MsgpackReader::bin(const msgpack::object& o, std::string_view what) const {
  if (o.type != msgpack::type::BIN) fail(fmt::format("{} is not binary {}", what, corrupt()));
  return {o.via.bin.ptr, o.via.bin.size};
}

}  // namespace strobe
