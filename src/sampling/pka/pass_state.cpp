// PKA's pass state file (see pass_state.h).
#include "sampling/pka/pass_state.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::sampling::pka {

namespace {

using nlohmann::json;

/// The emulator counters a PKA profile keeps, by name: the one list both directions use.
template <class F>
void for_each_stat(emu::DispatchStats& s, F&& f) {
  f("wave_instructions", s.wave_instructions);
  f("thread_instructions", s.thread_instructions);
  f("vector_memory_instructions", s.vector_memory_instructions);
  f("scalar_memory_instructions", s.scalar_memory_instructions);
  f("lds_instructions", s.lds_instructions);
  f("workgroups", s.workgroups);
  f("wavefronts", s.wavefronts);
}

json launch_json(const ProfiledLaunch& l) {
  json stats = json::object();
  emu::DispatchStats s = l.profile.stats;
  for_each_stat(s, [&](const char* name, uint64_t& v) { stats[name] = v; });
  return {{"kernel", l.id.kernel},       {"code_hash", l.id.code_hash}, {"grid", l.id.grid},
          {"local", l.id.local},         {"kernarg_hash", l.id.kernarg_hash},
          {"features", l.profile.features}, {"stats", stats}, {"lines", l.profile.lines}};
}

/// Reads the parsed document, naming the file and the field in every error.
struct Reader {
  const std::string& file;

  [[noreturn]] void fail(const std::string& why) const {
    throw InputError(fmt::format("pass state {}: {}", file, why));
  }
  const json& field(const json& j, const char* key, const std::string& where) const {
    if (!j.is_object()) fail(fmt::format("{} is not an object (corrupt file)", where));
    auto it = j.find(key);
    if (it == j.end()) fail(fmt::format("{} has no '{}' (corrupt file)", where, key));
    return *it;
  }
  template <class T>
  T get(const json& j, const char* key, const std::string& where) const {
    const json& v = field(j, key, where);
    try {
      return v.get<T>();
    } catch (const json::exception&) {
      fail(fmt::format("{} '{}' has the wrong type (corrupt file)", where, key));
    }
  }
};

}  // namespace

std::string encode(const PassState& s) {
  json launches = json::array();
  for (const auto& l : s.launches) launches.push_back(launch_json(l));
  const json j = {{"format", kPassStateFormat},
                  {"version", kPassStateVersion},
                  {"workload", {{"kind", s.workload.kind}, {"name", s.workload.name}, {"params", s.workload.params}}},
                  {"line_bytes", s.line_bytes},
                  {"launches", launches}};
  return j.dump() + "\n";
}

namespace {

/// decode() without its guard against fields of the wrong type.
PassState decode_fields(std::string_view text, const std::string& file) {
  const Reader r{file};
  const json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) r.fail("not valid JSON (corrupt or truncated file)");
  if (!j.is_object() || j.value("format", "") != kPassStateFormat) r.fail("not a PKA pass state");
  const auto version = r.get<uint32_t>(j, "version", "the pass state");
  if (version != kPassStateVersion)
    r.fail(fmt::format("format version {}, this strobe reads version {}", version, kPassStateVersion));
  PassState s;
  const json& w = r.field(j, "workload", "the pass state");
  s.workload.kind = r.get<std::string>(w, "kind", "the workload");
  s.workload.name = r.get<std::string>(w, "name", "the workload");
  s.workload.params = r.get<std::vector<std::string>>(w, "params", "the workload");
  s.line_bytes = r.get<uint32_t>(j, "line_bytes", "the pass state");
  const json& ls = r.field(j, "launches", "the pass state");
  if (!ls.is_array()) r.fail("its launches are not an array (corrupt file)");
  for (size_t i = 0; i < ls.size(); ++i) {
    const std::string where = fmt::format("launch {}", i);
    ProfiledLaunch l;
    l.id.kernel = r.get<std::string>(ls[i], "kernel", where);
    l.id.code_hash = r.get<uint64_t>(ls[i], "code_hash", where);
    l.id.grid = r.get<std::array<uint32_t, 3>>(ls[i], "grid", where);
    l.id.local = r.get<std::array<uint32_t, 3>>(ls[i], "local", where);
    l.id.kernarg_hash = r.get<uint64_t>(ls[i], "kernarg_hash", where);
    l.profile.kernel = l.id.kernel;
    l.profile.features = r.get<std::array<double, kPkaFeatures>>(ls[i], "features", where);
    const json& stats = r.field(ls[i], "stats", where);
    for_each_stat(l.profile.stats,
                  [&](const char* name, uint64_t& v) { v = r.get<uint64_t>(stats, name, where + " stats"); });
    l.profile.lines = r.get<uint64_t>(ls[i], "lines", where);
    s.launches.push_back(std::move(l));
  }
  return s;
}

}  // namespace

PassState decode(std::string_view text, const std::string& file) {
  try {
    return decode_fields(text, file);
  } catch (const json::exception& e) {  // a field of the wrong type where the reader reads it whole ("format": 7)
    Reader{file}.fail(fmt::format("malformed ({})", e.what()));
  }
}

void save(const std::string& path, const PassState& s) { write_file_atomic(path, encode(s)); }

PassState load(const std::string& path) { return decode(read_file(path), path); }

}  // namespace strobe::sampling::pka
