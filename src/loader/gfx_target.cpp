// EF_AMDGPU_MACH table, measured with clang-19 (llvm-readelf -h of one object per -mcpu), and
// the target ID grammar of LLVM's AMDGPUUsage ("Target Triples", "Target ID").
#include "loader/gfx_target.h"

#include <array>
#include <utility>

#include <fmt/format.h>

#include "loader/format_error.h"

namespace strobe::loader {

namespace {

constexpr std::array<std::pair<uint32_t, std::string_view>, 50> kMachNames{{
    {0x020, "gfx600"},  {0x021, "gfx601"},  {0x022, "gfx700"},  {0x023, "gfx701"},  {0x024, "gfx702"},
    {0x025, "gfx703"},  {0x026, "gfx704"},  {0x028, "gfx801"},  {0x029, "gfx802"},  {0x02A, "gfx803"},
    {0x02B, "gfx810"},  {0x02C, "gfx900"},  {0x02D, "gfx902"},  {0x02E, "gfx904"},  {0x02F, "gfx906"},
    {0x030, "gfx908"},  {0x031, "gfx909"},  {0x032, "gfx90c"},  {0x033, "gfx1010"}, {0x034, "gfx1011"},
    {0x035, "gfx1012"}, {0x036, "gfx1030"}, {0x037, "gfx1031"}, {0x038, "gfx1032"}, {0x039, "gfx1033"},
    {0x03A, "gfx602"},  {0x03B, "gfx705"},  {0x03C, "gfx805"},  {0x03D, "gfx1035"}, {0x03E, "gfx1034"},
    {0x03F, "gfx90a"},  {0x040, "gfx940"},  {0x041, "gfx1100"}, {0x042, "gfx1013"}, {0x043, "gfx1150"},
    {0x044, "gfx1103"}, {0x045, "gfx1036"}, {0x046, "gfx1101"}, {0x047, "gfx1102"}, {0x048, "gfx1200"},
    {0x04A, "gfx1151"}, {0x04B, "gfx941"},  {0x04C, "gfx942"},  {0x04E, "gfx1201"}, {0x055, "gfx1152"},
    // R600-family values: not amdgcn at all, named so the error says what the file is.
    {0x001, "r600"},    {0x002, "r630"},    {0x003, "rs880"},   {0x004, "rv670"},   {0x005, "rv710"},
}};

/// One hex digit for minor/stepping numbers above 9 (gfx90a, gfx90c).
std::string digit(uint32_t v) { return v < 10 ? std::to_string(v) : fmt::format("{:x}", v); }

}  // namespace

std::string processor_from_mach(uint32_t mach) {
  for (const auto& [value, name] : kMachNames)
    if (value == mach) return std::string(name);
  return fmt::format("an unknown processor (EF_AMDGPU_MACH {:#x})", mach);
}

std::string processor_from_isa_version(uint32_t major, uint32_t minor, uint32_t stepping) {
  return "gfx" + std::to_string(major) + digit(minor) + digit(stepping);
}

namespace {

/// "gfx" and hex digits: the form of every amdgcn processor name (gfx803, gfx90a, gfx1030).
bool is_processor_name(std::string_view p) {
  if (p.size() < 4 || !p.starts_with("gfx")) return false;
  for (char c : p.substr(3))
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t from = 0;
  for (size_t at; (at = s.find(sep, from)) != std::string_view::npos; from = at + 1) parts.push_back(s.substr(from, at - from));
  parts.push_back(s.substr(from));
  return parts;
}

bool is_feature_name(std::string_view n) {
  if (n.empty()) return false;
  for (char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_')) return false;
  return true;
}

}  // namespace

TargetId parse_target_id(std::string_view text) {
  using detail::fail;
  TargetId id;
  // Features: ":name+" / ":name-" after the processor (v4+), or "+name" (the v2/v3 spelling,
  // where a flag means on).
  const size_t colon = text.find(':');
  std::string_view head = text.substr(0, colon);
  if (colon != std::string_view::npos) {
    for (std::string_view f : split(text.substr(colon + 1), ':')) {
      const char sign = f.empty() ? '\0' : f.back();
      if ((sign != '+' && sign != '-') || !is_feature_name(f.substr(0, f.size() - 1)))
        fail("target ID '{}': feature '{}' is not a name followed by + or -", text, f);
      id.features.push_back({std::string(f.substr(0, f.size() - 1)), sign == '+'});
    }
  }
  if (const size_t plus = head.find('+'); plus != std::string_view::npos) {
    for (std::string_view f : split(head.substr(plus + 1), '+')) {
      if (!is_feature_name(f)) fail("target ID '{}': feature '+{}' is not a feature name", text, f);
      id.features.push_back({std::string(f), true});
    }
    head = head.substr(0, plus);
  }
  // The triple has four fields, the environment usually empty, then the processor: five in all.
  if (head.find('-') != std::string_view::npos) {
    const std::vector<std::string_view> parts = split(head, '-');
    if (parts.size() != 5)
      fail("target ID '{}' is not arch-vendor-os-environment-processor (it has {} '-'-separated fields, not 5)", text,
           parts.size());
    id.arch = parts[0];
    id.vendor = parts[1];
    id.os = parts[2];
    id.environment = parts[3];
    id.processor = parts[4];
    if (id.arch.empty() || id.vendor.empty() || id.os.empty())
      fail("target ID '{}' leaves the architecture, vendor or OS empty", text);
  } else {
    id.processor = head;
  }
  if (!is_processor_name(id.processor))
    fail("target ID '{}': '{}' is not an AMDGPU processor name (gfx followed by hex digits)", text, id.processor);
  return id;
}

void check_processor(std::string_view processor, Accept accept) {
  using detail::fail;
  if (processor == kSupportedProcessor) return;
  if (accept == Accept::Executable) fail("code object built for {}; strobe simulates {}", processor, kSupportedProcessor);
  if (processor != kDecodedProcessor)
    fail("code object built for {}; strobe decodes {} and {}", processor, kSupportedProcessor, kDecodedProcessor);
}

void check_target_id(const TargetId& id, std::string_view text, Accept accept) {
  using detail::fail;
  if (!id.arch.empty() && id.arch != "amdgcn")
    fail("code object built for {}: architecture '{}' is not amdgcn; strobe simulates {}", text, id.arch, kSupportedProcessor);
  check_processor(id.processor, accept);
  if (!id.vendor.empty() && id.vendor != "amd") fail("code object built for {}: vendor '{}' is not amd", text, id.vendor);
  if (!id.os.empty() && id.os != "amdhsa")
    fail("code object built for {}: OS '{}' is not amdhsa; strobe runs HSA code objects", text, id.os);
  // The environment (amdgizcl, amdgiz, opencl) chose LLVM's address-space numbering, not the
  // machine code, so any is accepted. gfx803 has neither xnack nor sramecc: off is what it does.
  // gfx942 has both, and code may be built for either setting.
  for (const TargetFeature& f : id.features) {
    if (id.processor == kDecodedProcessor) {
      if (f.name != "xnack" && f.name != "sramecc")
        fail("code object built for {}: {} has no target feature '{}' (only xnack and sramecc)", text, id.processor, f.name);
      continue;
    }
    if (f.enabled)
      fail("code object built for {}: feature {}+ is on, which {} does not have; strobe simulates {} without it", text,
           f.name, kSupportedProcessor, kSupportedProcessor);
  }
}

std::string processor_from_target(std::string_view target) { return parse_target_id(target).processor; }

}  // namespace strobe::loader
