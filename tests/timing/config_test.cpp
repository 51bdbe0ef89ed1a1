#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string_view>

#include <nlohmann/json.hpp>

#include "common/error.h"
#include "timing/config/gpu_config.h"
#include "timing/cu/issue_policy.h"
#include "timing/mem/dram_scheduler.h"
#include "timing/mem/replacement.h"

namespace strobe::timing {
namespace {

TEST(GpuConfig, R9NanoPresetLoadsWithItsGeometry) {
  GpuConfig c = load_config("r9nano");
  EXPECT_EQ(c.name, "r9nano");
  EXPECT_DOUBLE_EQ(c.clock_mhz, 1000.0);
  EXPECT_EQ(c.num_cus, 64);
  EXPECT_EQ(c.num_cus / c.cus_per_shader_array, 16);
  EXPECT_EQ(c.l1v_size_kb, 16);
  EXPECT_EQ(c.l1v_ways, 4);
  EXPECT_EQ(c.l1i_size_kb, 32);
  EXPECT_EQ(c.scache_size_kb, 16);
  EXPECT_EQ(c.l2_size_kb, 2048);
  EXPECT_EQ(c.l2_banks, 8);
  EXPECT_EQ(c.l2_ways, 16);
  EXPECT_EQ(c.line_bytes, 64);
  EXPECT_EQ(c.dram_size_gb, 4);
  EXPECT_DOUBLE_EQ(c.dram_bandwidth_gbs, 512.0);
}

TEST(GpuConfig, Mi100PresetLoadsWithItsGeometry) {
  GpuConfig c = load_config("mi100");
  EXPECT_EQ(c.name, "mi100");
  EXPECT_EQ(c.num_cus, 120);
  EXPECT_EQ(c.l2_size_kb, 8192);
  EXPECT_EQ(c.valu_f64_cycles, 8);
}

TEST(GpuConfig, Mi300xPresetRunsGfx942CodeOnCdna3Geometry) {
  GpuConfig c = load_config("mi300x");
  EXPECT_EQ(c.name, "mi300x");
  EXPECT_EQ(isa_of(c), isa::Target::Gfx942);
  EXPECT_EQ(c.num_cus, 304);
  EXPECT_EQ(c.vgprs_per_simd, 512);
  EXPECT_EQ(c.wave_slots_per_simd, 8);
  EXPECT_EQ(c.valu_f64_cycles, 4);
  EXPECT_EQ(c.line_bytes, 128);
}

TEST(GpuConfig, EveryPresetIsValid) {
  auto names = preset_names();
  EXPECT_GE(names.size(), 2u);
  for (const auto& n : names) EXPECT_NO_THROW(validate(load_config(n))) << n;
}

TEST(GpuConfig, OverridesAreTypeChecked) {
  GpuConfig c = load_config("r9nano");
  apply_override(c, "l2.size_kb=4096");
  apply_override(c, "gpu.clock_mhz=1200.5");
  apply_override(c, "cu.scheduler=gto");
  EXPECT_EQ(c.l2_size_kb, 4096);
  EXPECT_DOUBLE_EQ(c.clock_mhz, 1200.5);
  EXPECT_EQ(c.scheduler, "gto");
}

TEST(GpuConfig, UnknownKeyIsAnErrorNamingTheKey) {
  GpuConfig c;
  try {
    apply_override(c, "l2.sise_kb=4096");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("l2.sise_kb"), std::string::npos) << e.what();
  }
  try {
    apply_toml(c, "[l2]\nsize_kb = 1024\nfoo = 3\n", "test.toml");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("l2.foo"), std::string::npos) << e.what();
  }
}

TEST(GpuConfig, BadValuesAreErrorsNamingTheKey) {
  GpuConfig c;
  for (const char* bad : {"gpu.num_cus=lots", "gpu.num_cus=0", "gpu.num_cus=64.5", "cu.scheduler=fifo",
                          "gpu.clock_mhz=fast", "l1v.ways="}) {
    try {
      apply_override(c, bad);
      FAIL() << "no error for " << bad;
    } catch (const InputError& e) {
      const std::string key = std::string(bad).substr(0, std::string(bad).find('='));
      EXPECT_NE(std::string(e.what()).find(key), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(apply_toml(c, "[gpu]\nnum_cus = \"many\"\n", "t.toml"), InputError);
  EXPECT_THROW(apply_override(c, "no_equals_sign"), InputError);
}

TEST(GpuConfig, InconsistentGeometryIsRejected) {
  GpuConfig c = load_config("r9nano");
  apply_override(c, "gpu.cus_per_shader_array=5");
  EXPECT_THROW(validate(c), InputError);
  GpuConfig d = load_config("r9nano");
  apply_override(d, "l1v.size_kb=12");
  EXPECT_THROW(validate(d), InputError);
}

TEST(GpuConfig, TreePlruNeedsAPowerOfTwoWays) {
  GpuConfig c = load_config("r9nano");
  apply_override(c, "scache.size_kb=3");
  apply_override(c, "scache.ways=3");  // 16 sets of 3 ways
  EXPECT_NO_THROW(validate(c));
  apply_override(c, "scache.replacement=plru");
  try {
    validate(c);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("scache.replacement"), std::string::npos) << e.what();
  }
}

/// The choices a parameter declares, sorted.
std::vector<std::string> choices_of(std::string_view key) {
  for (const ParamDecl& p : param_table()) {
    if (p.name != key) continue;
    std::vector<std::string> v = p.choices;
    std::sort(v.begin(), v.end());
    return v;
  }
  return {};
}

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(GpuConfig, PolicyChoicesAreExactlyTheRegisteredPlugIns) {
  // The built-in policies register from static initialisers: a link that dropped one would
  // shrink both lists alike, so pin them too.
  EXPECT_EQ(sorted(issue_policy_names()), (std::vector<std::string>{"gto", "oldest", "rr"}));
  EXPECT_EQ(sorted(dram_scheduler_names()), (std::vector<std::string>{"fcfs", "frfcfs"}));
  EXPECT_EQ(sorted(replacement_policy_names()), (std::vector<std::string>{"lru", "plru", "random"}));
  EXPECT_EQ(choices_of("cu.scheduler"), sorted(issue_policy_names()));
  EXPECT_EQ(choices_of("dram.scheduler"), sorted(dram_scheduler_names()));
  for (const char* key : {"l1v.replacement", "scache.replacement", "l1i.replacement", "l2.replacement"})
    EXPECT_EQ(choices_of(key), sorted(replacement_policy_names())) << key;
}

TEST(GpuConfig, EveryRegisteredPolicyIsAcceptedAndBuilds) {
  GpuConfig c = load_config("r9nano");
  for (const std::string& name : issue_policy_names()) {
    EXPECT_NO_THROW(apply_override(c, "cu.scheduler=" + name)) << name;
    EXPECT_NE(make_issue_policy(name), nullptr) << name;
  }
  for (const std::string& name : dram_scheduler_names()) {
    EXPECT_NO_THROW(apply_override(c, "dram.scheduler=" + name)) << name;
    EXPECT_NE(make_dram_scheduler(name, DramSchedulerParams{}), nullptr) << name;
  }
  for (const std::string& name : replacement_policy_names()) {
    EXPECT_NO_THROW(apply_override(c, "l2.replacement=" + name)) << name;
    EXPECT_NE(make_replacement_policy(name, ReplacementGeometry{4, 4, 1}), nullptr) << name;
  }
  EXPECT_NO_THROW(validate(c));
  EXPECT_THROW(apply_override(c, "cu.scheduler=fifo"), InputError);
}

TEST(GpuConfig, PlruWayRuleIsTheSameInValidationAndConstruction) {
  GpuConfig c = load_config("r9nano");
  apply_override(c, "scache.size_kb=3");
  apply_override(c, "scache.ways=3");
  apply_override(c, "scache.replacement=plru");
  std::string from_validate, from_policy;
  try {
    validate(c);
  } catch (const InputError& e) {
    from_validate = e.what();
  }
  try {
    make_replacement_policy("plru", ReplacementGeometry{16, 3, 0});
  } catch (const InputError& e) {
    from_policy = e.what();
  }
  ASSERT_FALSE(from_policy.empty());
  EXPECT_NE(from_validate.find(from_policy), std::string::npos) << from_validate;
}

TEST(GpuConfig, UnknownPresetListsTheKnownOnes) {
  try {
    load_config("r9fury");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r9nano"), std::string::npos);
  }
}

TEST(GpuConfig, EffectiveConfigSerialisesEveryParameter) {
  GpuConfig c = load_config("r9nano");
  apply_override(c, "l2.latency=123");
  nlohmann::json j = to_json(c);
  EXPECT_EQ(j["l2"]["latency"], 123);
  EXPECT_EQ(j["gpu"]["name"], "r9nano");
  EXPECT_EQ(j["dram"]["row_policy"], "open");
  size_t leaves = 0;
  for (auto& [section, obj] : j.items()) leaves += obj.size();
  EXPECT_EQ(leaves, param_table().size());
  // The JSON round-trips through overrides.
  GpuConfig d;
  for (const ParamDecl& p : param_table()) {
    auto dot = p.name.find('.');
    auto v = j[p.name.substr(0, dot)][p.name.substr(dot + 1)];
    std::string text = v.is_string() ? v.get<std::string>() : v.dump();
    set_param(d, p.name, text);
  }
  EXPECT_EQ(to_json(d), j);
}

TEST(GpuConfig, EveryParameterHasUnitOrChoicesAndDoc) {
  for (const ParamDecl& p : param_table()) {
    EXPECT_FALSE(p.doc.empty()) << p.name;
    if (p.kind == ParamKind::Int || p.kind == ParamKind::Float) EXPECT_FALSE(p.unit.empty()) << p.name;
    if (p.kind == ParamKind::Enum) EXPECT_FALSE(p.choices.empty()) << p.name;
  }
}

}  // namespace
}  // namespace strobe::timing

namespace strobe::timing {
namespace {

TEST(GpuConfig, TheTypedEnumerationsListTheirKeysChoicesInDeclarationOrder) {
  // The model reads enumeration keys through SimEngine, Switch, RowPolicy and FrameCaches, whose
  // enumerators stand for the declared choices by position: a reordered choice list would
  // silently swap meanings, so the order is pinned here.
  const std::map<std::string, std::vector<std::string>> want = {
      {"sim.engine", {"exact", "quantum"}}, {"tlb.enabled", {"off", "on"}},
      {"gfx.hiz", {"off", "on"}},           {"gfx.store_depth", {"off", "on"}},
      {"dram.row_policy", {"open", "closed"}}, {"gfx.frame_caches", {"keep", "invalidate"}}};
  size_t seen = 0;
  for (const ParamDecl& p : param_table()) {
    if (p.kind != ParamKind::Enum || !want.count(p.name)) continue;
    EXPECT_EQ(p.choices, want.at(p.name)) << p.name;
    ++seen;
  }
  EXPECT_EQ(seen, want.size());
  GpuConfig c = load_config("r9nano");
  EXPECT_EQ(choice<Switch>(c, "gfx.hiz"), Switch::On) << "the default";
  apply_override(c, "sim.engine=quantum");
  apply_override(c, "gfx.frame_caches=invalidate");
  EXPECT_EQ(choice<SimEngine>(c, "sim.engine"), SimEngine::Quantum);
  EXPECT_EQ(choice<FrameCaches>(c, "gfx.frame_caches"), FrameCaches::Invalidate);
  EXPECT_THROW(choice_index(c, "gpu.num_cus"), std::logic_error) << "not an enumeration";
}

}  // namespace
}  // namespace strobe::timing
