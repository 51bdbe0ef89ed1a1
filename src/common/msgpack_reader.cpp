// Checked msgpack reading (see msgpack_reader.h).
#include "common/msgpack_reader.h"

#include <fmt/format.h>

#include "common/error.h"

namespace strobe {

void MsgpackReader::fail(const std::string& why) const { throw InputError(fmt::format("{}: {}", prefix_, why)); }

msgpack::object_handle MsgpackReader::parse(std::string_view bytes, std::size_t& used) const {
  if (bytes.empty()) fail(subject_ + "empty");
  msgpack::object_handle h;
  used = 0;
  try {
    h = msgpack::unpack(bytes.data(), bytes.size(), used);
  } catch (const msgpack::insufficient_bytes&) {
    fail(subject_ + "truncated");
  } catch (const std::exception& e) {
    fail(fmt::format("{}corrupt ({})", subject_, e.what()));
  }
  return h;
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
