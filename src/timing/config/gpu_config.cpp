#include "timing/config/gpu_config.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <toml++/toml.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "common/number_text.h"
#include "common/toml_doc.h"
#include "timing/cu/issue_policy.h"
#include "timing/mem/dram_scheduler.h"
#include "timing/mem/replacement.h"

namespace strobe::timing {

namespace {

using Member = std::variant<int64_t GpuConfig::*, double GpuConfig::*, std::string GpuConfig::*>;

struct Param {
  ParamDecl decl;
  Member member;
};

/// A declaration of a number.
ParamDecl number(const char* key, ParamKind kind, double def, double lo, double hi, const char* unit, const char* doc) {
  ParamDecl d;
  d.name = key, d.kind = kind, d.def = def, d.lo = lo, d.hi = hi, d.unit = unit, d.doc = doc;
  return d;
}

/// A declaration of an enumeration: its choices and default by name.
ParamDecl enumeration(const char* key, std::string_view def, std::vector<std::string> choices, const char* doc) {
  ParamDecl d;
  d.name = key, d.kind = ParamKind::Enum, d.choices = std::move(choices), d.doc = doc;
  const auto it = std::find(d.choices.begin(), d.choices.end(), def);
  if (it == d.choices.end()) throw std::logic_error(fmt::format("params.def: {}'s default {} is not a choice", key, def));
  d.def = double(it - d.choices.begin());
  return d;
}

/// "a|b|c" as its names.
std::vector<std::string> split_choices(std::string_view choices) {
  std::vector<std::string> out;
  for (size_t start = 0;;) {
    const size_t bar = choices.find('|', start);
    out.emplace_back(choices.substr(start, bar - start));
    if (bar == std::string_view::npos) return out;
    start = bar + 1;
  }
}

/// Every parameter, built on first use: after every static registration has run, so that a
/// plug-in key's choices are its registry's names.
const std::vector<Param>& params() {
  static const std::vector<Param> table = [] {
    std::vector<Param> t;
    using K = ParamKind;
#define STROBE_INT(field, key, def, lo, hi, unit, doc) \
  t.push_back({number(key, K::Int, double(def), double(lo), double(hi), unit, doc), &GpuConfig::field});
#define STROBE_FLOAT(field, key, def, lo, hi, unit, doc) \
  t.push_back({number(key, K::Float, double(def), double(lo), double(hi), unit, doc), &GpuConfig::field});
#define STROBE_ENUM(field, key, def, choices, doc) \
  t.push_back({enumeration(key, def, split_choices(choices), doc), &GpuConfig::field});
#define STROBE_PLUGIN(field, key, def, registry, doc) \
  t.push_back({enumeration(key, def, Registry<registry>::names(), doc), &GpuConfig::field});
#define STROBE_STR(field, key, def, doc) \
  t.push_back({ParamDecl{key, K::Text, 0, def, 0, 0, {}, "", doc}, &GpuConfig::field});
#include "timing/config/params.def"
#undef STROBE_INT
#undef STROBE_FLOAT
#undef STROBE_ENUM
#undef STROBE_PLUGIN
#undef STROBE_STR
    return t;
  }();
  return table;
}

const Param* find_param(std::string_view key) {
  for (const Param& p : params())
    if (p.decl.name == key) return &p;
  return nullptr;
}

/// Stores `v`, already read and checked against the declaration, in its field.
void store(GpuConfig& cfg, const Param& p, double v, std::string_view text) {
  std::visit(
      [&](auto m) {
        using T = std::remove_reference_t<decltype(cfg.*m)>;
        if constexpr (std::is_same_v<T, std::string>) cfg.*m = std::string(text);
        else cfg.*m = T(v);
      },
      p.member);
}

const char* kind_name(ParamKind k) {
  switch (k) {
    case ParamKind::Int: return "an integer";
    case ParamKind::Float: return "a number";
    default: return "a string";
  }
}

void apply_node(GpuConfig& cfg, const std::string& key, const toml::node& n, std::string_view source) {
  if (const toml::table* t = n.as_table()) {
    for (auto&& [k, v] : *t) apply_node(cfg, key.empty() ? std::string(k.str()) : key + "." + std::string(k.str()), v, source);
    return;
  }
  const Param* p = find_param(key);
  if (!p) throw InputError(fmt::format("{}: unknown config key '{}'", source, key));
  std::ostringstream text;
  n.visit([&](auto&& v) { text << v; });
  const std::string where = fmt::format("{}: config key", source);
  switch (p->decl.kind) {
    case ParamKind::Int:
      if (auto v = n.value_exact<int64_t>()) return store(cfg, *p, check_value(p->decl, double(*v), text.str(), where), {});
      break;
    case ParamKind::Float:
      if (n.is_integer() || n.is_floating_point())
        return store(cfg, *p, check_value(p->decl, *n.value<double>(), text.str(), where), {});
      break;
    case ParamKind::Enum:
    case ParamKind::Text:
      if (auto v = n.value_exact<std::string>()) return store(cfg, *p, read_value(p->decl, *v, where), *v);
      break;
  }
  throw InputError(fmt::format("{}: config key '{}': bad value {}: expected {}", source, key, text.str(),
                               kind_name(p->decl.kind)));
}

void check(bool ok, std::string_view key, const std::string& why) {
  if (!ok) throw InputError(fmt::format("config key '{}': {}", key, why));
}

void check_cache(int64_t size_kb, int64_t ways, int64_t line, int64_t parts, std::string_view size_key) {
  const int64_t bytes = size_kb * 1024 / parts;
  check(bytes % (ways * line) == 0, size_key,
        fmt::format("{} KiB is not a whole number of {}-way sets of {}-byte lines", size_kb, ways, line));
  const int64_t sets = bytes / (ways * line);
  check(sets >= 1 && std::has_single_bit(uint64_t(sets)), size_key,
        fmt::format("{} KiB with {} ways gives {} sets; the set count must be a power of two", size_kb, ways, sets));
}

}  // namespace

const std::vector<ParamDecl>& param_table() {
  static const std::vector<ParamDecl> decls = [] {
    std::vector<ParamDecl> v;
    for (const Param& p : params()) v.push_back(p.decl);
    return v;
  }();
  return decls;
}

std::string preset_dir() {
  if (const char* env = std::getenv("STROBE_CONFIG_DIR")) return env;
  return std::string(STROBE_SOURCE_DIR) + "/configs";
}

std::vector<std::string> preset_names() {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(preset_dir(), ec))
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

void set_param(GpuConfig& cfg, std::string_view key, std::string_view value) {
  const Param* p = find_param(key);
  if (!p) throw InputError(fmt::format("unknown config key '{}'", key));
  store(cfg, *p, read_value(p->decl, value, "config key"), value);
}

void apply_override(GpuConfig& cfg, std::string_view assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string_view::npos || eq == 0)
    throw InputError(fmt::format("config override '{}' is not KEY=VALUE", assignment));
  set_param(cfg, assignment.substr(0, eq), assignment.substr(eq + 1));
}

void apply_toml(GpuConfig& cfg, std::string_view toml_text, std::string_view source) {
  const toml::table doc = parse_toml(toml_text, source);
  apply_node(cfg, "", doc, source);
}

GpuConfig load_config(std::string_view preset_or_path) {
  std::filesystem::path path(preset_or_path);
  if (path.extension() != ".toml") {
    path = std::filesystem::path(preset_dir()) / (std::string(preset_or_path) + ".toml");
    if (!std::filesystem::exists(path))
      throw InputError(fmt::format("unknown GPU preset '{}' (presets: {})", preset_or_path,
                                   fmt::join(preset_names(), ", ")));
  }
  // read_file refuses a directory by name: opened as a stream it reads as empty, and the
  // defaults would have passed for the file's contents.
  const std::string text = read_file(path.string());
  GpuConfig cfg;
  apply_toml(cfg, text, path.string());
  try {
    validate(cfg);
  } catch (const InputError& e) {
    throw InputError(fmt::format("GPU configuration {}: {}", path.string(), e.what()));
  }
  return cfg;
}

void validate(const GpuConfig& c) {
  check(c.num_cus % c.cus_per_shader_array == 0, "gpu.cus_per_shader_array",
        fmt::format("{} CUs do not divide into shader arrays of {}", c.num_cus, c.cus_per_shader_array));
  check(std::has_single_bit(uint64_t(c.line_bytes)), "mem.line_bytes", "must be a power of two");
  check_cache(c.l1v_size_kb, c.l1v_ways, c.line_bytes, 1, "l1v.size_kb");
  check_cache(c.scache_size_kb, c.scache_ways, c.line_bytes, 1, "scache.size_kb");
  check_cache(c.l1i_size_kb, c.l1i_ways, c.line_bytes, 1, "l1i.size_kb");
  check(c.l2_size_kb * 1024 % c.l2_banks == 0, "l2.size_kb", "must divide evenly among the L2 banks");
  check_cache(c.l2_size_kb, c.l2_ways, c.line_bytes, c.l2_banks, "l2.size_kb");
  check(c.dram_interleave_bytes % c.line_bytes == 0, "dram.interleave_bytes", "must be a multiple of mem.line_bytes");
  check(std::has_single_bit(uint64_t(c.tlb_page_bytes)) && c.tlb_page_bytes >= c.line_bytes, "tlb.page_bytes",
        "must be a power of two of at least mem.line_bytes");
  check(c.tlb_l2_entries % c.tlb_l2_ways == 0, "tlb.l2_entries", "must be a multiple of tlb.l2_ways");
  check(c.dram_row_bytes % c.line_bytes == 0, "dram.row_bytes", "must be a multiple of mem.line_bytes");
  check(c.fetch_bytes <= c.ib_bytes, "cu.fetch_bytes", "must not exceed cu.ib_bytes");
  check(c.simds_per_cu * c.wave_slots_per_simd <= 64, "cu.wave_slots_per_simd", "a CU holds at most 64 waves");
  check(c.vgprs_per_simd % c.vgpr_granule == 0, "cu.vgprs_per_simd", "must be a multiple of cu.vgpr_granule");
  const std::tuple<const char*, const std::string&, int64_t> levels[] = {
      {"l1v.replacement", c.l1v_replacement, c.l1v_ways}, {"scache.replacement", c.scache_replacement, c.scache_ways},
      {"l1i.replacement", c.l1i_replacement, c.l1i_ways}, {"l2.replacement", c.l2_replacement, c.l2_ways}};
  for (const auto& [key, policy, ways] : levels) {
    const std::string why = replacement_geometry_error(policy, uint32_t(ways));
    check(why.empty(), key, why);
  }
  // The quantum engine's partitions: one per shader array, the memory hub and the dispatcher.
  if (choice<SimEngine>(c, "sim.engine") == SimEngine::Quantum) {
    // An L1 TLB's miss is looked up in the shared L2 TLB at its window's end: the window must
    // end before the translation is due (timing/mem/tlb.h).
    if (choice<Switch>(c, "tlb.enabled") == Switch::On)
      check(c.tlb_l1_latency + c.tlb_l2_latency >= 1, "tlb.l2_latency",
            "sim.engine=quantum with tlb.enabled=on needs tlb.l1_latency + tlb.l2_latency of at least 1 cycle: the "
            "window ends before a translation is due");
    check(c.num_cus / c.cus_per_shader_array <= 254, "sim.engine",
          fmt::format("quantum runs at most 254 shader arrays, not {} ({} CUs, {} per array); use sim.engine=exact",
                      c.num_cus / c.cus_per_shader_array, c.num_cus, c.cus_per_shader_array));
    check(c.noc_latency >= 1, "noc.latency",
          "sim.engine=quantum needs at least 1 cycle: the window is the latency between the shader arrays and the "
          "memory hub");
    check(c.quantum_cycles <= c.noc_latency, "sim.quantum_cycles",
          fmt::format("{} exceeds noc.latency = {}: a request would reach the memory hub inside the window it left in",
                      c.quantum_cycles, c.noc_latency));
  }
}

size_t choice_index(const GpuConfig& cfg, std::string_view key) {
  const Param* p = find_param(key);
  if (!p || p->decl.kind != ParamKind::Enum || !std::holds_alternative<std::string GpuConfig::*>(p->member))
    throw std::logic_error(fmt::format("choice_index: '{}' is not an enumeration key", key));
  const std::string& value = cfg.*std::get<std::string GpuConfig::*>(p->member);
  const auto it = std::find(p->decl.choices.begin(), p->decl.choices.end(), value);
  if (it == p->decl.choices.end())
    throw std::logic_error(fmt::format("config key '{}': '{}' is not among its choices", key, value));
  return size_t(it - p->decl.choices.begin());
}

nlohmann::json to_json(const GpuConfig& cfg) {
  nlohmann::json j = nlohmann::json::object();
  for (const Param& p : params()) {
    nlohmann::json* node = &j;
    std::string_view key = p.decl.name;
    size_t dot;
    while ((dot = key.find('.')) != std::string_view::npos) {
      node = &(*node)[std::string(key.substr(0, dot))];
      key.remove_prefix(dot + 1);
    }
    std::visit([&](auto m) { (*node)[std::string(key)] = cfg.*m; }, p.member);
  }
  return j;
}

}  // namespace strobe::timing
