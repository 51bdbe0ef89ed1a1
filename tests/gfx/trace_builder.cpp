// Hand-built apitrace traces (see trace_builder.h).
#include "gfx/trace_builder.h"

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

#include <snappy.h>

namespace strobe::gfx::trace {

TraceBuilder::TraceBuilder(unsigned version, std::vector<std::pair<std::string, std::string>> properties) {
  uint(version);
  if (version >= 6) {
    uint(version);
    for (const auto& [name, value] : properties) str(name).str(value);
    str("");
  }
}

TraceBuilder& TraceBuilder::byte(uint8_t b) {
  data_ += static_cast<char>(b);
  return *this;
}

TraceBuilder& TraceBuilder::uint(uint64_t v) {
  do {
    byte(static_cast<uint8_t>((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
    v >>= 7;
  } while (v);
  return *this;
}

TraceBuilder& TraceBuilder::str(std::string_view s) { return uint(s.size()).raw(s); }

TraceBuilder& TraceBuilder::raw(std::string_view bytes) {
  data_ += bytes;
  return *this;
}

TraceBuilder& TraceBuilder::enter(uint64_t thread, uint64_t sig, std::string_view name,
                                  const std::vector<std::string>& args) {
  byte(0x00).uint(thread).uint(sig).str(name).uint(args.size());
  for (const auto& a : args) str(a);
  return *this;
}

TraceBuilder& TraceBuilder::enter(uint64_t thread, uint64_t sig) { return byte(0x00).uint(thread).uint(sig); }
TraceBuilder& TraceBuilder::leave(uint64_t number) { return byte(0x01).uint(number); }
TraceBuilder& TraceBuilder::arg(uint64_t index) { return byte(0x01).uint(index); }
TraceBuilder& TraceBuilder::ret() { return byte(0x02); }
TraceBuilder& TraceBuilder::end() { return byte(0x00); }

TraceBuilder& TraceBuilder::null() { return byte(0x00); }
TraceBuilder& TraceBuilder::boolean(bool b) { return byte(b ? 0x02 : 0x01); }
TraceBuilder& TraceBuilder::sint(int64_t v) {
  return v < 0 ? byte(0x03).uint(0 - static_cast<uint64_t>(v)) : byte(0x04).uint(static_cast<uint64_t>(v));
}
TraceBuilder& TraceBuilder::uint_value(uint64_t v) { return byte(0x04).uint(v); }

TraceBuilder& TraceBuilder::f32(float v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  return byte(0x05).raw({b, sizeof b});
}

TraceBuilder& TraceBuilder::f64(double v) {
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  return byte(0x06).raw({b, sizeof b});
}

TraceBuilder& TraceBuilder::string(std::string_view s) { return byte(0x07).str(s); }
TraceBuilder& TraceBuilder::blob(std::string_view bytes) { return byte(0x08).str(bytes); }
TraceBuilder& TraceBuilder::pointer(uint64_t address) { return byte(0x0d).uint(address); }

TraceBuilder& TraceBuilder::wstring(std::u32string_view s) {
  byte(0x0f).uint(s.size());
  for (char32_t c : s) uint(c);
  return *this;
}

TraceBuilder& TraceBuilder::array(uint64_t count) { return byte(0x0b).uint(count); }
TraceBuilder& TraceBuilder::repr() { return byte(0x0e); }

TraceBuilder& TraceBuilder::enum_def(uint64_t sig, const std::vector<std::pair<std::string, int64_t>>& values,
                                     int64_t value) {
  byte(0x09).uint(sig).uint(values.size());
  for (const auto& [name, v] : values) str(name).sint(v);
  return sint(value);
}

TraceBuilder& TraceBuilder::enum_ref(uint64_t sig, int64_t value) { return byte(0x09).uint(sig).sint(value); }

TraceBuilder& TraceBuilder::bitmask_def(uint64_t sig, const std::vector<std::pair<std::string, uint64_t>>& flags,
                                        uint64_t value) {
  byte(0x0a).uint(sig).uint(flags.size());
  for (const auto& [name, bits] : flags) str(name).uint(bits);
  return uint(value);
}

TraceBuilder& TraceBuilder::struct_def(uint64_t sig, std::string_view name, const std::vector<std::string>& members) {
  byte(0x0c).uint(sig).str(name).uint(members.size());
  for (const auto& m : members) str(m);
  return *this;
}

TraceBuilder& TraceBuilder::struct_ref(uint64_t sig) { return byte(0x0c).uint(sig); }

std::string TraceBuilder::file(size_t chunk) const { return snappy_container(data_, chunk); }

std::string snappy_container(std::string_view data, size_t chunk) {
  std::string out = "at";
  for (size_t at = 0; at < data.size(); at += chunk) {
    std::string compressed;
    snappy::Compress(data.data() + at, std::min(chunk, data.size() - at), &compressed);
    const auto n = static_cast<uint32_t>(compressed.size());
    for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xff);
    out += compressed;
  }
  return out;
}

TempFile::TempFile(std::string_view name, std::string_view bytes)
    : path_((std::filesystem::temp_directory_path() /
             ("strobe-gfx-" + std::to_string(::getpid()) + "-" + std::string(name)))
                .string()) {
  std::ofstream(path_, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

TempFile::~TempFile() {
  std::error_code ignored;
  std::filesystem::remove(path_, ignored);
}

}  // namespace strobe::gfx::trace
