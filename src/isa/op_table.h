// Per-(encoding, opcode) static facts: the mnemonic LLVM prints and the operand signature,
// derived once from the sample texts in opcodes.def so widths never live in if-chains.
#pragma once

#include <cstdint>
#include <string_view>

#include "isa/inst.h"

namespace strobe::isa::detail {

/// How an immediate in a source slot is printed (LLVM picks the printer by operand type);
/// probed per source into operand_probes.def. V2F16: packed halves (gfx9's v_pk_* f16);
/// F64: a double whose literal LLVM 19 reads as the high half (LLVM 14 prints it as B64).
enum class ImmType : uint8_t { B32, F16, I16, B64, V2F16, F64 };

/// Role of one printed operand of a VOP/SOP sample, in the order LLVM prints them.
enum class Role : uint8_t { Dst, Sdst, Src0, Src1, Src2, Vcc, LitK, Attr, Other };

/// One operand token of a sample text: its role and its register width in dwords.
struct SigOperand {
  Role role = Role::Other;
  char kind = '?';        ///< 'v' VGPR, 'a' AccVGPR, 's' SGPR, 'i' immediate, 'c' vcc, 'o' other
  uint8_t dwords = 1;
};

/// Static description of one (encoding, opcode) pair that LLVM decodes for a target.
struct OpInfo {
  const char* mnemonic = nullptr;  ///< as printed, with any _e32/_e64 suffix
  const char* sample = nullptr;    ///< LLVM's text for an all-zero-operand instance
  Op op = Op::INVALID;
  uint8_t n = 0;                   ///< number of operands in the sample
  SigOperand ops[6];
  uint8_t dst_dwords = 1, sdst_dwords = 0;
  uint8_t src_dwords[3] = {1, 1, 1};
  uint8_t nsrc = 0;                ///< number of Src0..Src2 operands
  bool has_dst = false;
  ImmType imm[3] = {ImmType::B32, ImmType::B32, ImmType::B32};
  uint32_t zero_mask[2] = {0, 0};  ///< operand bits LLVM requires to be zero (fixed_bits.def)
  uint32_t one_mask[2] = {0, 0};   ///< operand bits LLVM requires to be one (fixed_bits.def)
  bool has_sdwa = false, has_dpp = false;  ///< VOP1/VOP2/VOPC: LLVM decodes the SDWA/DPP form
  uint32_t sdwa_mask[2] = {0, 0};  ///< fixed-zero bits of the SDWA form
  uint32_t sdwa_ones = 0;          ///< SDWA second-dword bits that must be one (a fixed dst_sel)
  uint32_t dpp_mask[2] = {0, 0};   ///< fixed-zero bits of the DPP form
  uint8_t regonly = 0;             ///< bit k: source k is register-only (operand_probes.def)
  /// Per modifier bit of the VOP3, SDWA, DPP and VOP3P forms (ModForm), what LLVM does with it
  /// (operand_probes.def): '-' neg, '|' abs, 's' sext, 'c' clamp, 'm' omod, 'o' op_sel, '.' ignored, ...
  const char* mods[4] = {nullptr, nullptr, nullptr, nullptr};
  /// Per source: the register class LLVM 19 names when it decodes an SGPR there that the
  /// operand cannot hold (operand_probes.def); null where an SGPR is in class or on gfx803.
  const char* sgpr_class[3] = {nullptr, nullptr, nullptr};
  /// Per source: the class LLVM 19 names for a VGPR there (a carry-in's 'SReg_1_XEXEC').
  const char* vgpr_class[3] = {nullptr, nullptr, nullptr};
};

/// Whether `mnemonic` takes its K constant in the word after it (v_madmk/v_madak and gfx9's
/// v_fmamk/v_fmaak).
inline bool takes_k_constant(std::string_view mnemonic) {
  return mnemonic.starts_with("v_madmk") || mnemonic.starts_with("v_madak") || mnemonic.starts_with("v_fmamk") ||
         mnemonic.starts_with("v_fmaak");
}

/// Where a target's scalar operand codes put the trap temporaries: gfx803 has ttmp0..11 at
/// 112..123 after TBA and TMA (108..111); gfx942 has ttmp0..15 at 108..123 and no TBA or TMA.
struct ScalarSpace {
  uint16_t ttmp_first;
  uint16_t ttmp_count;
};

/// The scalar operand space of `target`.
constexpr ScalarSpace scalar_space(Target target) {
  return target == Target::Gfx942 ? ScalarSpace{108, 16} : ScalarSpace{112, 12};
}

/// The forms whose modifier bits operand_probes.def describes.
enum class ModForm : uint8_t { VOP3, SDWA, DPP, VOP3P };

/// Index of the first op_sel bit among the VOP3 form's modifier bits (gfx9: sources, then dst).
inline constexpr int kVop3OpSelBit = 9;

/// The effect LLVM gives modifier bit `i` of `form` for this opcode ('*' when not probed).
char mod_effect(const OpInfo& info, ModForm form, int i);

/// The row of (`enc`, `opcode`) in `target`'s table, or nullptr for opcodes LLVM rejects there.
const OpInfo* lookup(Target target, Encoding enc, uint16_t opcode);

/// The row of a decoded instruction, in the table of the target it was decoded as.
inline const OpInfo* lookup(const Inst& inst) { return lookup(inst.target, inst.enc, inst.opcode); }

/// Index of the first operand with `role` in `info`, or -1.
int find_role(const OpInfo& info, Role role);

}  // namespace strobe::isa::detail
