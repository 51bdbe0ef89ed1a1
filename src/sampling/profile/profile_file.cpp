// The profile file (see profile_file.h). msgpack rather than JSON: the body is long columns of
// integers (one row per work-group and per wave, for every launch), and the self-describing maps
// keep named columns extensible as with JSON. Since version 3 a column is one binary value, its
// rows packed at the narrowest of 1, 2, 4 or 8 bytes that holds its largest (f64: 8), little
// endian: a profile of 14,336 launches held tens of millions of integers, which a msgpack array
// of each decoded into as many 16-byte objects (350 MB of a sampled run's 860, and about a third
// of its time), where a column now decodes with one copy. Version 2's columns, arrays of msgpack
// integers, are still read.
#include "sampling/profile/profile_file.h"

#include <bit>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include <msgpack.hpp>

#include "common/atomic_file.h"
#include "common/msgpack_reader.h"
#include "common/msgpack_writer.h"
#include "common/error.h"

namespace strobe::sampling::profile {

namespace {

using Packer = MsgpackPacker;


static_assert(std::endian::native == std::endian::little, "profile columns are stored little endian");

/// The narrowest of 1, 2, 4 and 8 bytes that holds every value of `col`.
uint32_t column_width(const std::vector<uint64_t>& col) {
  uint64_t most = 0;
  for (uint64_t v : col) most |= v;
  return most <= 0xff ? 1 : most <= 0xffff ? 2 : most <= 0xffffffffull ? 4 : 8;
}

void pack_table(Packer& pk, const FeatureTable& t) {
  if (t.sums) throw FaultError("a profile decoded as sums only cannot be encoded: its unit columns are gone");
  pk.pack_map(3);
  pack_str(pk, "rows");
  pk.pack(t.rows);
  pack_str(pk, "u64");
  pk.pack_map(uint32_t(t.u64.size()));
  std::string bytes;
  for (const auto& [name, col] : t.u64) {
    pack_str(pk, name);
    const uint32_t width = column_width(col);
    bytes.resize(col.size() * width);
    for (size_t r = 0; r < col.size(); ++r) std::memcpy(&bytes[r * width], &col[r], width);  // the low bytes
    pk.pack_bin(uint32_t(bytes.size()));
    pk.pack_bin_body(bytes.data(), uint32_t(bytes.size()));
  }
  pack_str(pk, "f64");
  pk.pack_map(uint32_t(t.f64.size()));
  for (const auto& [name, col] : t.f64) {
    pack_str(pk, name);
    pk.pack_bin(uint32_t(col.size() * sizeof(double)));
    pk.pack_bin_body(reinterpret_cast<const char*>(col.data()), uint32_t(col.size() * sizeof(double)));
  }
}

/// Reads the decoded document, naming the file and the field in every error.
struct Reader : MsgpackReader {
  explicit Reader(const std::string& file) : MsgpackReader("profile " + file, "the file is ", "corrupt file") {}

  std::array<uint32_t, 3> dim3(const msgpack::object& o, std::string_view what) const {
    const auto& a = array(o, what);
    if (a.size != 3) fail(fmt::format("{} does not have 3 dimensions (corrupt file)", what));
    return {u32(a.ptr[0], what), u32(a.ptr[1], what), u32(a.ptr[2], what)};
  }
  /// The width of each of `rows` values packed in `b`: 1, 2, 4 or 8 bytes (`f64`: 8 only), an
  /// error naming column `name` of `where` when `b` does not hold `rows` of one of them.
  uint64_t packed_width(std::string_view b, uint64_t rows, bool f64, const std::string& where,
                        const std::string& name) const {
    const uint64_t width = rows ? b.size() / rows : 0;
    const bool fits = rows ? b.size() % rows == 0 && (f64 ? width == 8 : std::has_single_bit(width) && width <= 8)
                           : b.empty();
    if (!fits) fail(fmt::format("{} column '{}' has {} bytes for {} rows (corrupt file)", where, name, b.size(), rows));
    return width;
  }
  /// A table at `detail`; `packed`: its columns are binary values (version 3), else arrays
  /// (version 2). Every column's length is checked at either detail.
  FeatureTable table(const msgpack::object& o, const std::string& where, bool packed, ProfileDetail detail) const {
    FeatureTable t;
    t.rows = u64(field(o, "rows", where), where + " rows");
    const bool summed = detail == ProfileDetail::sums;
    if (summed) t.sums.emplace();
    const msgpack::object& u = field(o, "u64", where);
    if (u.type != msgpack::type::MAP) fail(where + " u64 columns are not a map (corrupt file)");
    for (uint32_t i = 0; i < u.via.map.size; ++i) {
      const std::string name = str(u.via.map.ptr[i].key, where + " column name");
      const msgpack::object& v = u.via.map.ptr[i].val;
      if (summed) {
        (*t.sums)[name] = column_sum(v, t.rows, packed, where, name);
        continue;
      }
      std::vector<uint64_t>& col = t.u64[name];
      if (packed) {
        const std::string_view b = bin(v, where + " column " + name);
        const uint64_t width = packed_width(b, t.rows, false, where, name);
        col.assign(t.rows, 0);
        for (uint64_t r = 0; r < t.rows; ++r) std::memcpy(&col[r], b.data() + r * width, width);
        continue;
      }
      const auto& a = rows_of(v, t.rows, where, name);
      col.reserve(a.size);
      for (uint32_t r = 0; r < a.size; ++r) col.push_back(u64(a.ptr[r], where + " column " + name));
    }
    const msgpack::object& f = field(o, "f64", where);
    if (f.type != msgpack::type::MAP) fail(where + " f64 columns are not a map (corrupt file)");
    for (uint32_t i = 0; i < f.via.map.size; ++i) {
      const std::string name = str(f.via.map.ptr[i].key, where + " column name");
      const msgpack::object& v = f.via.map.ptr[i].val;
      if (packed) {
        const std::string_view b = bin(v, where + " column " + name);
        packed_width(b, t.rows, true, where, name);
        if (summed) continue;
        std::vector<double>& col = t.f64[name];
        col.resize(t.rows);
        std::memcpy(col.data(), b.data(), b.size());
        continue;
      }
      const auto& a = rows_of(v, t.rows, where, name);
      std::vector<double> col;
      col.reserve(a.size);
      for (uint32_t r = 0; r < a.size; ++r) col.push_back(f64(a.ptr[r], where + " column " + name));
      if (!summed) t.f64[name] = std::move(col);
    }
    return t;
  }

 private:
  /// Version 2's column `name` of `where`: an array of `rows` values.
  const msgpack::object_array& rows_of(const msgpack::object& v, uint64_t rows, const std::string& where,
                                       const std::string& name) const {
    const auto& a = array(v, where + " column " + name);
    if (a.size != rows)
      fail(fmt::format("{} column '{}' has {} rows, the table {} (corrupt file)", where, name, a.size, rows));
    return a;
  }
  /// Σ of u64 column `name` of `where`, read in place.
  uint64_t column_sum(const msgpack::object& v, uint64_t rows, bool packed, const std::string& where,
                      const std::string& name) const {
    uint64_t s = 0;
    if (!packed) {
      const auto& a = rows_of(v, rows, where, name);
      for (uint32_t r = 0; r < a.size; ++r) s += u64(a.ptr[r], where + " column " + name);
      return s;
    }
    const std::string_view b = bin(v, where + " column " + name);
    const uint64_t width = packed_width(b, rows, false, where, name);
    auto add = [&]<typename T>(T) {
      for (uint64_t r = 0; r < rows; ++r) {
        T x;
        std::memcpy(&x, b.data() + r * sizeof(T), sizeof(T));
        s += x;
      }
    };
    switch (width) {
      case 1: add(uint8_t{}); break;
      case 2: add(uint16_t{}); break;
      case 4: add(uint32_t{}); break;
      default: add(uint64_t{}); break;
    }
    return s;
  }
};

std::string dims(const std::array<uint32_t, 3>& d) { return fmt::format("{}x{}x{}", d[0], d[1], d[2]); }

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : " ") + x;
  return s.empty() ? "(none)" : s;
}

}  // namespace

const std::vector<uint64_t>* FeatureTable::find_u64(const std::string& name) const {
  if (sums)
    throw FaultError(fmt::format("profile column '{}' was decoded as its sum only: the method reading it per unit "
                                 "must ask for ProfileDetail::units",
                                 name));
  auto it = u64.find(name);
  return it == u64.end() ? nullptr : &it->second;
}

bool FeatureTable::has_u64(const std::string& name) const { return sums ? sums->contains(name) : u64.contains(name); }

uint64_t FeatureTable::sum(const std::string& name) const {
  if (sums) {
    const auto it = sums->find(name);
    return it == sums->end() ? 0 : it->second;
  }
  uint64_t s = 0;
  if (const auto* c = find_u64(name))
    for (uint64_t v : *c) s += v;
  return s;
}

uint64_t fnv1a(std::string_view bytes, uint64_t h) {
  for (unsigned char c : bytes) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string encode(const ProfileFile& p) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  // Magic and version first, so a reader can reject another format or version before the rest.
  pk.pack_map(7);
  pack_str(pk, "magic");
  pack_str(pk, kProfileMagic);
  pack_str(pk, "version");
  pk.pack(kProfileVersion);
  pack_str(pk, "mode");
  pack_str(pk, p.mode);
  pack_str(pk, "line_bytes");
  pk.pack(p.line_bytes);
  pack_str(pk, "seconds");
  pk.pack(p.seconds);
  pack_str(pk, "workload");
  pk.pack_map(3);
  pack_str(pk, "kind");
  pack_str(pk, p.workload.kind);
  pack_str(pk, "name");
  pack_str(pk, p.workload.name);
  pack_str(pk, "params");
  pk.pack_array(uint32_t(p.workload.params.size()));
  for (const auto& s : p.workload.params) pack_str(pk, s);
  pack_str(pk, "launches");
  pk.pack_array(uint32_t(p.launches.size()));
  for (const auto& l : p.launches) {
    const bool blocks = !l.blocks.u64.empty();
    pk.pack_map(7 + (l.blobs.empty() ? 0 : 1) + (blocks ? 1 : 0));
    pack_str(pk, "kernel");
    pack_str(pk, l.id.kernel);
    pack_str(pk, "code_hash");
    pk.pack(l.id.code_hash);
    pack_str(pk, "grid");
    pack_dim3(pk, l.id.grid);
    pack_str(pk, "local");
    pack_dim3(pk, l.id.local);
    pack_str(pk, "kernarg_hash");
    pk.pack(l.id.kernarg_hash);
    pack_str(pk, "workgroups");
    pack_table(pk, l.workgroups);
    pack_str(pk, "waves");
    pack_table(pk, l.waves);
    if (blocks) {
      pack_str(pk, "blocks");
      pack_table(pk, l.blocks);
    }
    if (!l.blobs.empty()) {
      pack_str(pk, "blobs");
      pk.pack_map(uint32_t(l.blobs.size()));
      for (const auto& [key, bytes] : l.blobs) {
        pack_str(pk, key);
        pk.pack_bin(uint32_t(bytes.size()));
        pk.pack_bin_body(bytes.data(), uint32_t(bytes.size()));
      }
    }
  }
  return std::string(buf.data(), buf.size());
}

ProfileFile decode(std::string_view bytes, const std::string& name, ProfileDetail detail) {
  const Reader r(name);
  std::size_t used = 0;
  const msgpack::object_handle h = r.parse(bytes, used);
  const msgpack::object& root = h.get();
  if (root.type != msgpack::type::MAP) r.fail("not a strobe profile (no header)");
  r.check_end(bytes, used);
  const msgpack::object& magic = r.field(root, "magic", "the header");
  if (magic.type != msgpack::type::STR || std::string_view(magic.via.str.ptr, magic.via.str.size) != kProfileMagic)
    r.fail("not a strobe profile (wrong magic)");
  const uint64_t version = r.u64(r.field(root, "version", "the header"), "the format version");
  if (version != kProfileVersion && version != kProfileVersion - 1)
    r.fail(fmt::format("format version {}, but this strobe reads versions {} and {} (profile again)", version,
                       kProfileVersion - 1, kProfileVersion));
  const bool packed = version == kProfileVersion;
  ProfileFile p;
  p.mode = r.str(r.field(root, "mode", "the header"), "the mode");
  if (p.mode != "functional") r.fail(fmt::format("unknown collection mode '{}'", p.mode));
  p.line_bytes = r.u32(r.field(root, "line_bytes", "the header"), "the line size");
  if (p.line_bytes == 0 || (p.line_bytes & (p.line_bytes - 1)) != 0)
    r.fail(fmt::format("line size {} is not a power of two (corrupt file)", p.line_bytes));
  p.seconds = r.f64(r.field(root, "seconds", "the header"), "the collection time");
  if (!(p.seconds >= 0) || !std::isfinite(p.seconds))
    r.fail(fmt::format("collection time {} s is not a finite non-negative number (corrupt file)", p.seconds));
  const msgpack::object& w = r.field(root, "workload", "the header");
  p.workload.kind = r.str(r.field(w, "kind", "the workload"), "the workload kind");
  p.workload.name = r.str(r.field(w, "name", "the workload"), "the workload name");
  const auto& params = r.array(r.field(w, "params", "the workload"), "the workload parameters");
  for (uint32_t i = 0; i < params.size; ++i) p.workload.params.push_back(r.str(params.ptr[i], "a workload parameter"));
  const auto& ls = r.array(r.field(root, "launches", "the profile"), "the launches");
  for (uint32_t i = 0; i < ls.size; ++i) {
    const msgpack::object& o = ls.ptr[i];
    const std::string where = fmt::format("launch {}", i);
    LaunchRecord l;
    l.id.kernel = r.str(r.field(o, "kernel", where), where + " kernel");
    l.id.code_hash = r.u64(r.field(o, "code_hash", where), where + " code hash");
    l.id.grid = r.dim3(r.field(o, "grid", where), where + " grid");
    l.id.local = r.dim3(r.field(o, "local", where), where + " local size");
    l.id.kernarg_hash = r.u64(r.field(o, "kernarg_hash", where), where + " kernarg hash");
    l.workgroups = r.table(r.field(o, "workgroups", where), where + " work-group table", packed, detail);
    l.waves = r.table(r.field(o, "waves", where), where + " wave table", packed, detail);
    if (const msgpack::object* b = r.optional_field(o, "blocks"))
      l.blocks = r.table(*b, where + " block table", packed, detail);
    if (const msgpack::object* b = r.optional_field(o, "blobs")) {
      if (b->type != msgpack::type::MAP) r.fail(where + " blobs are not a map (corrupt file)");
      for (uint32_t k = 0; k < b->via.map.size; ++k) {
        const std::string key = r.str(b->via.map.ptr[k].key, where + " blob name");
        l.blobs[key] = std::string(r.bin(b->via.map.ptr[k].val, fmt::format("{} blob '{}'", where, key)));
      }
    }
    auto require = [&](const FeatureTable& t, const char* table, const char* col) {
      if (!t.has_u64(col)) r.fail(fmt::format("{} {} table has no '{}' column (corrupt file)", where, table, col));
    };
    for (const char* c : column::kUnitColumns) require(l.workgroups, "work-group", c), require(l.waves, "wave", c);
    require(l.waves, "wave", column::kWorkGroup);
    require(l.waves, "wave", column::kWave);
    const uint64_t groups = group_count(l.id.grid, l.id.local);
    if (l.workgroups.rows != groups)
      r.fail(fmt::format("{} has {} work-group rows, its geometry {} (corrupt file)", where, l.workgroups.rows, groups));
    p.launches.push_back(std::move(l));
  }
  return p;
}

void save(const std::string& path, const ProfileFile& p) { write_file_atomic(path, encode(p)); }

ProfileFile load(const std::string& path, ProfileDetail detail) { return decode(read_file(path), path, detail); }

std::optional<std::string> workload_difference(const WorkloadIdentity& p, const WorkloadIdentity& w) {
  if (p.kind != w.kind) return fmt::format("it profiles a {}, this run is a {}", p.kind, w.kind);
  if (p.name != w.name) return fmt::format("it profiles {} '{}', this run {} '{}'", p.kind, p.name, w.kind, w.name);
  if (p.params != w.params) {
    const size_t n = std::min(p.params.size(), w.params.size());
    for (size_t i = 0; i < n; ++i)
      if (p.params[i] != w.params[i])
        return fmt::format("parameter {} is '{}' in the profile, '{}' in this run", i, p.params[i], w.params[i]);
    return fmt::format("parameters '{}' in the profile, '{}' in this run", join(p.params), join(w.params));
  }
  return std::nullopt;
}

std::optional<std::string> first_difference(const ProfileFile& p, const WorkloadIdentity& w, uint32_t line_bytes) {
  if (auto d = workload_difference(p.workload, w)) return d;
  if (p.line_bytes != line_bytes)
    return fmt::format("its requests are counted at {}-byte lines, this run needs {}", p.line_bytes, line_bytes);
  return std::nullopt;
}

bool kernargs_comparable(const WorkloadIdentity& w) { return w.kind != "program"; }

std::optional<std::string> launch_difference(size_t i, const LaunchIdentity& a, const LaunchIdentity& b,
                                             bool compare_kernargs) {
  if (a.kernel != b.kernel) return fmt::format("launch {} is kernel '{}' in the profile, '{}' in this run", i, a.kernel, b.kernel);
  if (a.code_hash != b.code_hash) return fmt::format("launch {} ({}) has different code", i, a.kernel);
  if (a.grid != b.grid)
    return fmt::format("launch {} ({}) has grid {} in the profile, {} in this run", i, a.kernel, dims(a.grid), dims(b.grid));
  if (a.local != b.local)
    return fmt::format("launch {} ({}) has work-group size {} in the profile, {} in this run", i, a.kernel,
                       dims(a.local), dims(b.local));
  if (compare_kernargs && a.kernarg_hash != b.kernarg_hash) return fmt::format("launch {} ({}) has different kernel arguments", i, a.kernel);
  return std::nullopt;
}

std::optional<std::string> first_difference(const ProfileFile& p, const std::vector<LaunchIdentity>& launches) {
  const size_t n = std::min(p.launches.size(), launches.size());
  for (size_t i = 0; i < n; ++i)
    if (auto d = launch_difference(i, p.launches[i].id, launches[i], kernargs_comparable(p.workload))) return d;
  if (p.launches.size() != launches.size())
    return fmt::format("the profile has {} launches, this run {}", p.launches.size(), launches.size());
  return std::nullopt;
}

void require_match(const std::string& file, const std::optional<std::string>& diff) {
  if (diff) throw InputError(fmt::format("profile {} does not match the workload: {}", file, *diff));
}

std::optional<std::string> departure_from_profile(size_t i, const LaunchIdentity& run,
                                                  std::span<const LaunchIdentity> profiled, bool compare_kernargs,
                                                  const std::string& source) {
  if (i >= profiled.size())
    return fmt::format("launch {} ({}) is past the profile's {} launches", i, run.kernel, profiled.size());
  // The same kernel with other code is another build of the program: the profile is stale.
  if (run.kernel == profiled[i].kernel && run.code_hash != profiled[i].code_hash)
    throw InputError(
        fmt::format("{} does not match the workload: launch {} ({}) has different code", source, i, run.kernel));
  return launch_difference(i, profiled[i], run, compare_kernargs);
}

}  // namespace strobe::sampling::profile
