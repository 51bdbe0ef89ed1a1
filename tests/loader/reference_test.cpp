// Every code object in the build, all four versions, loaded and compared field by field with
// what LLVM's own tools report: llvm-readelf -s (symbols), llvm-objdump -s (descriptor and code
// bytes), llvm-readelf --notes (metadata) and llvm-objdump -D (decoded v3+ descriptor fields).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "common/error.h"
#include "gfx942_kernels.h"
#include "loader/code_object.h"
#include "loader/loader_test_support.h"
#include "loader/yaml_subset.h"

namespace strobe::loader {
namespace {

namespace fs = std::filesystem;
using namespace testing;

/// The code object version the build rule (or the fixture name) promises for a path.
int expected_version(const fs::path& p) {
  const std::string s = p.string();
  if (s.find("/kernels-v2/") != std::string::npos || s.find("/kernels-amdgizcl/") != std::string::npos ||
      s.ends_with("-v2.hsaco"))
    return 2;
  if (s.find("/kernels-v3/") != std::string::npos || s.ends_with("-v3.hsaco")) return 3;
  if (s.find("/kernels-clang19/") != std::string::npos) return 5;
  return 4;
}

class EveryCodeObject : public ::testing::TestWithParam<fs::path> {
 protected:
  void SetUp() override {
    if (expected_version(GetParam()) == 5 && llvm_tool("llvm-readelf") == "llvm-readelf")
      GTEST_SKIP() << "no llvm-readelf-17+ to decode v5 metadata";
  }
};

TEST_P(EveryCodeObject, LoadsWithTheExpectedVersionAndTarget) {
  const CodeObject co = CodeObject::load(GetParam().string());
  EXPECT_EQ(co.version(), expected_version(GetParam()));
  EXPECT_NE(co.target().find("gfx803"), std::string::npos) << co.target();
  EXPECT_FALSE(co.kernels().empty());
  EXPECT_EQ(co.name(), GetParam().string());
}

TEST_P(EveryCodeObject, KernelsMatchReadelfSymbols) {
  const CodeObject co = CodeObject::load(GetParam().string());
  const auto symbols = readelf_symbols(GetParam());
  auto find = [&](const std::string& name) -> const ReadelfSymbol* {
    for (const auto& s : symbols)
      if (s.name == name) return &s;
    return nullptr;
  };
  std::set<std::string> descriptor_symbols;
  for (const auto& s : symbols)
    if (co.version() == 2 ? s.type == "AMDGPU_HSA_KERNEL" : s.name.ends_with(".kd")) descriptor_symbols.insert(s.name);
  EXPECT_EQ(descriptor_symbols.size(), co.kernels().size());

  for (const KernelInfo& k : co.kernels()) {
    SCOPED_TRACE(k.name);
    if (co.version() == 2) {
      const ReadelfSymbol* s = find(k.name);
      ASSERT_NE(s, nullptr);
      EXPECT_EQ(s->type, "AMDGPU_HSA_KERNEL");
      EXPECT_EQ(k.descriptor_address, s->value);
      EXPECT_EQ(k.entry_address, s->value + 256);  // clang places the code right after amd_kernel_code_t
      EXPECT_EQ(k.code_size, s->size - 256);
    } else {
      const ReadelfSymbol* kd = find(k.name + ".kd");
      const ReadelfSymbol* fn = find(k.name);
      ASSERT_NE(kd, nullptr);
      ASSERT_NE(fn, nullptr);
      EXPECT_EQ(kd->type, "OBJECT");
      EXPECT_EQ(kd->size, 64u);
      EXPECT_EQ(fn->type, "FUNC");
      EXPECT_EQ(k.descriptor_address, kd->value);
      EXPECT_EQ(k.entry_address, fn->value);
      EXPECT_EQ(k.code_size, fn->size);
      EXPECT_EQ(k.symbol, k.name);
    }
  }
}

TEST_P(EveryCodeObject, BytesMatchObjdump) {
  const CodeObject co = CodeObject::load(GetParam().string());
  const auto text = objdump_section(GetParam(), ".text");
  ASSERT_EQ(text.size(), 1u);
  EXPECT_EQ(co.text_address(), text.begin()->first);
  const std::vector<uint8_t>& ref_text = text.begin()->second;
  ASSERT_EQ(co.text().size(), ref_text.size());
  EXPECT_TRUE(std::equal(co.text().begin(), co.text().end(), ref_text.begin()));

  const auto rodata = co.version() == 2 ? text : objdump_section(GetParam(), ".rodata");
  ASSERT_EQ(rodata.size(), 1u);
  const uint64_t rodata_addr = rodata.begin()->first;
  const std::vector<uint8_t>& ref_rodata = rodata.begin()->second;
  const uint64_t kd_size = co.version() == 2 ? 256 : 64;
  for (const KernelInfo& k : co.kernels()) {
    SCOPED_TRACE(k.name);
    ASSERT_GE(k.descriptor_address, rodata_addr);
    ASSERT_LE(k.descriptor_address - rodata_addr + kd_size, ref_rodata.size());
    const auto kd = co.bytes_at(k.descriptor_address, kd_size);
    ASSERT_EQ(kd.size(), kd_size);
    EXPECT_TRUE(std::equal(kd.begin(), kd.end(), ref_rodata.begin() + (k.descriptor_address - rodata_addr)));
    const auto code = co.code(k);
    ASSERT_EQ(code.size(), k.code_size);
    EXPECT_TRUE(std::equal(code.begin(), code.end(), ref_text.begin() + (k.entry_address - co.text_address())));
  }
  EXPECT_TRUE(co.bytes_at(0xFFFF'FFFF'FFFF'0000ull, 16).empty());
}

/// An unsigned scalar of a metadata YAML mapping, or `fallback` when absent.
uint64_t yaml_u64(const YamlNode& map, const std::string& key, uint64_t fallback = 0) {
  const YamlNode* n = map.find(key);
  return n ? std::stoull(n->scalar) : fallback;
}
std::string yaml_str(const YamlNode& map, const std::string& key) {
  const YamlNode* n = map.find(key);
  return n ? n->scalar : std::string();
}

TEST_P(EveryCodeObject, MetadataMatchesReadelfNotes) {
  const CodeObject co = CodeObject::load(GetParam().string());
  const YamlNode root = parse_yaml_subset(readelf_metadata_yaml(GetParam()));
  const bool v2 = co.version() == 2;
  const YamlNode* kernels = root.find(v2 ? "Kernels" : "amdhsa.kernels");
  ASSERT_NE(kernels, nullptr);
  ASSERT_EQ(kernels->items.size(), co.kernels().size());
  if (const YamlNode* target = root.find("amdhsa.target"); target && !v2) {
    EXPECT_EQ(co.target(), target->scalar);
  }
  for (size_t i = 0; i < co.kernels().size(); ++i) {
    const YamlNode& ref = kernels->items[i];
    const KernelInfo& k = co.kernels()[i];
    SCOPED_TRACE(k.name);
    EXPECT_EQ(k.name, yaml_str(ref, v2 ? "Name" : ".name"));
    const YamlNode* props = v2 ? ref.find("CodeProps") : &ref;
    ASSERT_NE(props, nullptr);
    auto prop = [&](const char* v2_key, const char* v3_key) { return yaml_u64(*props, v2 ? v2_key : v3_key); };
    EXPECT_EQ(k.kernarg_segment_size, prop("KernargSegmentSize", ".kernarg_segment_size"));
    EXPECT_EQ(k.kernarg_segment_align, prop("KernargSegmentAlign", ".kernarg_segment_align"));
    EXPECT_EQ(k.group_segment_fixed_size, prop("GroupSegmentFixedSize", ".group_segment_fixed_size"));
    EXPECT_EQ(k.private_segment_fixed_size, prop("PrivateSegmentFixedSize", ".private_segment_fixed_size"));
    EXPECT_EQ(k.sgpr_count, prop("NumSGPRs", ".sgpr_count"));
    EXPECT_EQ(k.vgpr_count, prop("NumVGPRs", ".vgpr_count"));
    EXPECT_EQ(k.wavefront_size, prop("WavefrontSize", ".wavefront_size"));
    EXPECT_EQ(k.max_flat_workgroup_size, prop("MaxFlatWorkGroupSize", ".max_flat_workgroup_size"));
    EXPECT_EQ(k.sgpr_spill_count, prop("NumSpilledSGPRs", ".sgpr_spill_count"));
    EXPECT_EQ(k.vgpr_spill_count, prop("NumSpilledVGPRs", ".vgpr_spill_count"));
    // The descriptor agrees with the metadata about the segment sizes.
    EXPECT_EQ(k.kd.group_segment_fixed_size, k.group_segment_fixed_size);
    EXPECT_EQ(k.kd.private_segment_fixed_size, k.private_segment_fixed_size);
    EXPECT_EQ(k.kd.kernarg_size, k.kernarg_segment_size);

    const YamlNode* args = ref.find(v2 ? "Args" : ".args");
    const size_t nargs = args ? args->items.size() : 0;
    ASSERT_EQ(k.args.size(), nargs);
    for (size_t a = 0; a < nargs; ++a) {
      const YamlNode& ra = args->items[a];
      const KernelArg& arg = k.args[a];
      SCOPED_TRACE("arg " + std::to_string(a));
      EXPECT_EQ(arg.size, yaml_u64(ra, v2 ? "Size" : ".size"));
      EXPECT_EQ(arg.value_kind, yaml_str(ra, v2 ? "ValueKind" : ".value_kind"));
      EXPECT_EQ(arg.type_name, yaml_str(ra, v2 ? "TypeName" : ".type_name"));
      EXPECT_EQ(arg.name, yaml_str(ra, v2 ? "Name" : ".name"));
      std::string space = yaml_str(ra, v2 ? "AddrSpaceQual" : ".address_space");
      std::transform(space.begin(), space.end(), space.begin(), ::tolower);
      EXPECT_EQ(arg.address_space, space);
      EXPECT_NE(arg.kind, ArgKind::HiddenUnknown) << arg.value_kind;
      if (!v2) {
        EXPECT_EQ(arg.offset, yaml_u64(ra, ".offset"));
      }
      EXPECT_LE(uint64_t{arg.offset} + arg.size, k.kernarg_segment_size);
    }
    // Visible arguments come first and never overlap.
    for (size_t a = 1; a < k.args.size(); ++a) EXPECT_GE(k.args[a].offset, k.args[a - 1].offset + k.args[a - 1].size);
  }
}

/// `.amdhsa_NAME VALUE` lines of llvm-objdump -D for one .kd symbol.
std::map<std::string, uint64_t> objdump_kd_directives(const fs::path& p, const std::string& kernel) {
  std::istringstream text(run_command(llvm_tool("llvm-objdump") + " -D -j .rodata '" + p.string() + "'"));
  std::map<std::string, uint64_t> out;
  std::string line;
  bool in_kernel = false;
  while (std::getline(text, line)) {
    if (line == ".amdhsa_kernel " + kernel) { in_kernel = true; continue; }
    if (in_kernel && line == ".end_amdhsa_kernel") break;
    if (!in_kernel) continue;
    std::istringstream f(line);
    std::string key;
    uint64_t value = 0;
    if (f >> key >> value && key.starts_with(".amdhsa_")) out[key.substr(8)] = value;
  }
  return out;
}

/// The descriptor fields gfx803 and gfx942 encode alike, against llvm-objdump's directives.
void expect_shared_fields(const KernelDescriptor& kd, std::map<std::string, uint64_t>& d) {
  EXPECT_EQ(kd.group_segment_fixed_size, d["group_segment_fixed_size"]);
  EXPECT_EQ(kd.private_segment_fixed_size, d["private_segment_fixed_size"]);
  EXPECT_EQ(kd.kernarg_size, d["kernarg_size"]);
  EXPECT_EQ(kd.workgroup_id_x_enabled(), d["system_sgpr_workgroup_id_x"] != 0);
  EXPECT_EQ(kd.workgroup_id_y_enabled(), d["system_sgpr_workgroup_id_y"] != 0);
  EXPECT_EQ(kd.workgroup_id_z_enabled(), d["system_sgpr_workgroup_id_z"] != 0);
  EXPECT_EQ(kd.workgroup_info_enabled(), d["system_sgpr_workgroup_info"] != 0);
  EXPECT_EQ(kd.workitem_id_vgprs(), d["system_vgpr_workitem_id"]);
  EXPECT_EQ(kd.has_dispatch_ptr(), d["user_sgpr_dispatch_ptr"] != 0);
  EXPECT_EQ(kd.has_queue_ptr(), d["user_sgpr_queue_ptr"] != 0);
  EXPECT_EQ(kd.has_kernarg_segment_ptr(), d["user_sgpr_kernarg_segment_ptr"] != 0);
  EXPECT_EQ(kd.has_dispatch_id(), d["user_sgpr_dispatch_id"] != 0);
  EXPECT_EQ(kd.has_private_segment_size(), d["user_sgpr_private_segment_size"] != 0);
  EXPECT_EQ(kd.float_mode(), d["float_round_mode_32"] | d["float_round_mode_16_64"] << 2 |
                                 d["float_denorm_mode_32"] << 4 | d["float_denorm_mode_16_64"] << 6);
}

TEST_P(EveryCodeObject, DescriptorFieldsMatchObjdumpDirectives) {
  const CodeObject co = CodeObject::load(GetParam().string());
  if (co.version() == 2) GTEST_SKIP() << "llvm-objdump decodes only v3+ descriptors (v2 is checked against v3 below)";
  if (llvm_tool("llvm-objdump") == "llvm-objdump") GTEST_SKIP() << "needs llvm-objdump-17+ to decode descriptors";
  for (const KernelInfo& k : co.kernels()) {
    SCOPED_TRACE(k.name);
    auto d = objdump_kd_directives(GetParam(), k.name);
    ASSERT_FALSE(d.empty());
    const KernelDescriptor& kd = k.kd;
    expect_shared_fields(kd, d);
    EXPECT_EQ(kd.vgpr_granules(), (std::max<uint64_t>(d["next_free_vgpr"], 1) + 3) / 4 - 1);
    EXPECT_EQ(kd.private_segment_wave_offset_enabled(), d["system_sgpr_private_segment_wavefront_offset"] != 0);
    EXPECT_EQ(kd.has_private_segment_buffer(), d["user_sgpr_private_segment_buffer"] != 0);
    EXPECT_EQ(kd.has_flat_scratch_init(), d["user_sgpr_flat_scratch_init"] != 0);
    // The user SGPR count is the sum of the enabled user SGPRs (DESIGN.md §4 sizes).
    const uint32_t user = 4 * kd.has_private_segment_buffer() + 2 * kd.has_dispatch_ptr() + 2 * kd.has_queue_ptr() +
                          2 * kd.has_kernarg_segment_ptr() + 2 * kd.has_dispatch_id() +
                          2 * kd.has_flat_scratch_init() + kd.has_private_segment_size();
    EXPECT_EQ(kd.user_sgpr_count(), user);
  }
}

// gfx942 code objects (build/gfx942-kernels), read for decoding: their descriptors carry gfx90a's
// unified register file (VGPRs and AccVGPRs in granules of 8, the AccVGPRs from accum_offset),
// the work-group split bit and architected flat scratch (no private segment buffer).
class EveryGfx942CodeObject : public ::testing::TestWithParam<fs::path> {};

TEST_P(EveryGfx942CodeObject, DescriptorFieldsMatchObjdumpDirectives) {
  const CodeObject co = CodeObject::load(GetParam().string(), Accept::Decodable);
  EXPECT_EQ(co.processor(), "gfx942");
  for (const KernelInfo& k : co.kernels()) {
    SCOPED_TRACE(k.name);
    auto d = objdump_kd_directives(GetParam(), k.name);
    ASSERT_FALSE(d.empty());
    const KernelDescriptor& kd = k.kd;
    expect_shared_fields(kd, d);
    EXPECT_EQ(kd.accum_offset(), d["accum_offset"]);
    EXPECT_EQ(kd.tg_split(), d["tg_split"] != 0);
    EXPECT_EQ(kd.vgpr_granules(), (std::max<uint64_t>(d["next_free_vgpr"], 1) + 7) / 8 - 1);
    EXPECT_EQ(kd.private_segment_wave_offset_enabled(), d["enable_private_segment"] != 0);
    EXPECT_FALSE(kd.has_private_segment_buffer());
    EXPECT_FALSE(kd.has_flat_scratch_init());
  }
}

std::string param_name(const ::testing::TestParamInfo<fs::path>& info) {
  std::string s = fs::relative(info.param, STROBE_BUILD_DIR).string();
  if (s.starts_with("..")) s = "fixture_" + info.param.filename().string();
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Build, EveryCodeObject, ::testing::ValuesIn(all_code_objects()), param_name);
INSTANTIATE_TEST_SUITE_P(Build, EveryGfx942CodeObject, ::testing::ValuesIn(strobe::testing::gfx942_code_objects()), param_name);
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(EveryGfx942CodeObject);  // a build without clang-19

}  // namespace
}  // namespace strobe::loader
