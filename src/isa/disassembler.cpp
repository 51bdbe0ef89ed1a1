// llvm-objdump-compatible lines: "\t" + text left-justified to 60 columns, "// ADDRESS:" and
// the words, then the optional branch-target label and LLVM's diagnostic comment.
#include "isa/disassembler.h"

#include <cstdio>
#include <vector>

#include "isa/decode_internal.h"
#include "isa/decoder.h"
#include "isa/print_internal.h"

namespace strobe::isa {

namespace {

std::string operands(const Inst& inst, const detail::OpInfo& info, uint64_t address) {
  switch (inst.enc) {
    case Encoding::SOP2: case Encoding::SOPK: case Encoding::SOP1: case Encoding::SOPC:
    case Encoding::SOPP: case Encoding::SMEM:
      return detail::print_scalar(inst, info, address);
    case Encoding::VOP2: case Encoding::VOP1: case Encoding::VOPC: case Encoding::VOP3:
    case Encoding::VINTRP: case Encoding::VOP3P:
      return detail::print_vector(inst, info);
    default:
      return detail::print_memory(inst, info);
  }
}

std::string mnemonic(const Inst& inst, const detail::OpInfo& info) {
  std::string m = info.mnemonic;
  if (inst.ext == VopExt::None || info.n == 0) return m;  // v_nop keeps its name in every form
  if (m.ends_with("_e32")) m.resize(m.size() - 4);
  // LLVM 14's gfx8 VOPC SDWA asm strings carry no _sdwa suffix.
  if (inst.ext == VopExt::SDWA && inst.enc == Encoding::VOPC && inst.target == Target::Gfx803) return m;
  return m + (inst.ext == VopExt::SDWA ? "_sdwa" : "_dpp");
}

std::vector<uint32_t> to_words(std::span<const uint8_t> bytes) {
  std::vector<uint32_t> dw(bytes.size() / 4);
  for (size_t i = 0; i < dw.size(); ++i)
    dw[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
            uint32_t(bytes[4 * i + 3]) << 24;
  return dw;
}

}  // namespace

std::optional<uint64_t> branch_target(const Inst& inst, uint64_t address) {
  if (inst.enc != Encoding::SOPP) return std::nullopt;
  const detail::OpInfo* info = detail::lookup(inst);
  std::string_view m(info->mnemonic);
  if (m != "s_branch" && !m.starts_with("s_cbranch")) return std::nullopt;
  if (m == "s_cbranch_join" || m == "s_cbranch_g_fork") return std::nullopt;
  return address + 4 + static_cast<int64_t>(static_cast<int16_t>(inst.simm16)) * 4;
}

std::string format_inst(const Inst& inst, std::span<const uint32_t> words, uint64_t address) {
  if (inst.enc == Encoding::Invalid) {
    char buf[32];
    std::snprintf(buf, sizeof buf, ".long 0x%08x", words.empty() ? 0u : words[0]);
    return buf;
  }
  const detail::OpInfo* info = detail::lookup(inst);
  std::string text = mnemonic(inst, *info);
  std::string ops = operands(inst, *info, address);
  if (!ops.empty()) text += (ops[0] == ' ' ? "" : " ") + ops;
  return text;
}

std::string format_line(const Inst& inst, std::span<const uint32_t> words, uint64_t address,
                        const TargetLabeler& labeler, const OperandSymbolizer& symbolizer) {
  std::string text = format_inst(inst, words, address);
  const std::optional<uint64_t> target = branch_target(inst, address);
  std::optional<std::string> symbol;
  if (target && symbolizer) symbol = symbolizer(*target);
  // Branches have one operand, the offset: the symbol replaces it.
  if (symbol) text = text.substr(0, text.find(' ')) + " " + *symbol;
  std::string line = "\t" + text;
  if (inst.enc == Encoding::Invalid) line += " ";
  if (line.size() < 60) line.append(60 - line.size(), ' ');
  char buf[40];
  std::snprintf(buf, sizeof buf, "// %012llX:", static_cast<unsigned long long>(address));
  line += buf;
  size_t n = inst.enc == Encoding::Invalid ? 1 : inst.size / 4;
  for (size_t i = 0; i < n && i < words.size(); ++i) {
    std::snprintf(buf, sizeof buf, " %08X", words[i]);
    line += buf;
  }
  if (labeler && target && !symbol) {
    std::string label = labeler(*target);
    if (!label.empty()) line += " <" + label + ">";
  }
  // LLVM 14 prints its decoder's comments after a word it rejects too; LLVM 19 prints none there.
  std::string notes;
  if (inst.enc != Encoding::Invalid || inst.target == Target::Gfx803) detail::decode_with_notes(words, &notes, inst.target);
  if (!notes.empty()) line += " ; " + notes;
  return line;
}

std::string format_line(const Inst& inst, std::span<const uint32_t> words, uint64_t address,
                        const TargetLabeler& labeler) {
  return format_line(inst, words, address, labeler, OperandSymbolizer{});
}

std::string format_line(const Inst& inst, std::span<const uint32_t> words, uint64_t address) {
  return format_line(inst, words, address, TargetLabeler{});
}

std::string disassemble(std::span<const uint8_t> bytes, uint64_t address, const TargetLabeler& labeler) {
  return disassemble(bytes, address, labeler, Target::Gfx803);
}

std::string disassemble(std::span<const uint8_t> bytes, uint64_t address, const TargetLabeler& labeler,
                        Target target) {
  std::vector<uint32_t> dw = to_words(bytes);
  std::string out;
  size_t i = 0;
  while (i < dw.size()) {
    auto rest = std::span<const uint32_t>(dw).subspan(i);
    Inst inst = decode(rest, target);
    out += format_line(inst, rest, address + i * 4, labeler);
    out += '\n';
    i += inst.size / 4;
  }
  return out;
}

std::string disassemble(std::span<const uint8_t> bytes, uint64_t address) {
  return disassemble(bytes, address, TargetLabeler{});
}

}  // namespace strobe::isa
