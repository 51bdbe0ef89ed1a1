// EF_AMDGPU_MACH table, measured with clang-19 (llvm-readelf -h of one object per -mcpu).
#include "loader/gfx_target.h"

#include <array>
#include <utility>

#include <fmt/format.h>

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

std::string processor_from_target(std::string_view target) {
  const size_t sep = target.find("--");
  std::string_view p = sep == std::string_view::npos ? target : target.substr(sep + 2);
  return std::string(p.substr(0, p.find(':')));
}

}  // namespace strobe::loader
