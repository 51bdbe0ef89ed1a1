// The pre-decoded instruction of GCN3 (gfx803) and CDNA3 (gfx942): what the decoder produces
// once per kernel and what the emulator and timing model execute from.
//
// Operands keep the hardware's own 9-bit source encoding (see OperandCode) so the emulator can
// index its scalar register file directly with codes 0..127, and so the disassembler can print
// exactly what the word said. The decoder fills `Inst` completely; nothing downstream re-reads
// the raw instruction words.
#pragma once

#include <cstdint>

namespace strobe::isa {

/// The instruction sets strobe decodes: GCN3 and CDNA3 (MI300). Both are the gfx9 family's
/// encodings; they differ in opcode tables, operand rules and in what LLVM prints.
enum class Target : uint8_t { Gfx803, Gfx942 };

/// The processor name of `t` ("gfx803", "gfx942").
constexpr const char* target_name(Target t) { return t == Target::Gfx942 ? "gfx942" : "gfx803"; }

/// Instruction encodings (GCN3 ISA manual, chapter 12; MI300 ISA guide, chapter 12). VOP3P and
/// the GLOBAL and SCRATCH segments of FLAT exist on gfx942 only; VINTRP, MIMG and EXP on gfx803 only.
enum class Encoding : uint8_t {
  SOP2, SOPK, SOP1, SOPC, SOPP, SMEM,
  VOP2, VOP1, VOPC, VOP3, VINTRP,
  DS, FLAT, MUBUF, MTBUF, MIMG, EXP,
  VOP3P, GLOBAL, SCRATCH,
  Invalid,
};

/// Every distinct operation of every target, independent of the encoding it was found in.
/// V_ADD_F32 is the same Op whether it came as VOP2, VOP3 (e64), SDWA or DPP, and an Op names
/// what the instruction does: gfx942's v_add_co_u32 is gfx803's V_ADD_U32 (ops.def).
enum class Op : uint16_t {
#define STROBE_OP(OP, NAME) OP,
#include "isa/ops.def"
#undef STROBE_OP
  INVALID,
  COUNT
};

/// Extension of a VOP1/VOP2/VOPC word selected by src0 = 0xF9 (SDWA) or 0xFA (DPP).
enum class VopExt : uint8_t { None, SDWA, DPP };

/// Well-known values of the 9-bit operand encoding shared by scalar and vector sources.
namespace opcode_field {
inline constexpr uint16_t kSgprLast = 101;     ///< s0..s101
inline constexpr uint16_t kFlatScrLo = 102;
inline constexpr uint16_t kFlatScrHi = 103;
inline constexpr uint16_t kXnackLo = 104;
inline constexpr uint16_t kXnackHi = 105;
inline constexpr uint16_t kVccLo = 106;
inline constexpr uint16_t kVccHi = 107;
inline constexpr uint16_t kTbaLo = 108;
inline constexpr uint16_t kTbaHi = 109;
inline constexpr uint16_t kTmaLo = 110;
inline constexpr uint16_t kTmaHi = 111;
inline constexpr uint16_t kTtmpFirst = 112;    ///< ttmp0..ttmp11 = 112..123
inline constexpr uint16_t kM0 = 124;
inline constexpr uint16_t kExecLo = 126;
inline constexpr uint16_t kExecHi = 127;
inline constexpr uint16_t kIntZero = 128;      ///< 128..192: integers 0..64
inline constexpr uint16_t kIntNegFirst = 193;  ///< 193..208: integers -1..-16
inline constexpr uint16_t kSrcSharedBase = 235;  ///< gfx9: src_shared_base, _limit, src_private_base, _limit
inline constexpr uint16_t kSrcSharedLimit = 236;
inline constexpr uint16_t kSrcPrivateBase = 237;
inline constexpr uint16_t kSrcPrivateLimit = 238;
inline constexpr uint16_t kFloatHalf = 240;    ///< 240..247: 0.5,-0.5,1,-1,2,-2,4,-4
inline constexpr uint16_t kInvTwoPi = 248;     ///< 1/(2*pi)
inline constexpr uint16_t kSdwa = 249;
inline constexpr uint16_t kDpp = 250;
inline constexpr uint16_t kVccz = 251;
inline constexpr uint16_t kExecz = 252;
inline constexpr uint16_t kScc = 253;
inline constexpr uint16_t kLdsDirect = 254;
inline constexpr uint16_t kLiteral = 255;
inline constexpr uint16_t kVgprFirst = 256;    ///< v0..v255 = 256..511
inline constexpr uint16_t kAgprFirst = 512;    ///< gfx942's AccVGPRs a0..a255 = 512..767 (LLVM's acc bit)
inline constexpr uint16_t kNone = 0xFFFF;      ///< operand slot not used
}  // namespace opcode_field

/// One pre-decoded instruction. Fields that an encoding lacks stay zero (or kNone for operands).
struct Inst {
  Op op = Op::INVALID;            ///< the operation
  Encoding enc = Encoding::Invalid;
  VopExt ext = VopExt::None;      ///< SDWA/DPP extension of VOP1/VOP2/VOPC
  uint8_t size = 4;               ///< bytes including any literal: 4, 8 or 12
  Target target = Target::Gfx803; ///< the instruction set the word was decoded as
  uint16_t opcode = 0;            ///< the raw opcode number within `enc`

  // ---- register operands, in the 9-bit operand encoding (VGPRs are 256 + n) ----
  uint16_t dst = opcode_field::kNone;   ///< vdst / sdst / SMEM sdata / DS,FLAT,MUBUF vdst(vdata)
  uint16_t sdst = opcode_field::kNone;  ///< VOP3b scalar dst (carry/compare mask); VOPC e64 sdst
  uint16_t src[3] = {opcode_field::kNone, opcode_field::kNone, opcode_field::kNone};
  uint8_t dst_dwords = 1;               ///< width of dst in dwords (1, 2, 3, 4, 8, 16)
  uint8_t src_dwords[3] = {1, 1, 1};    ///< width of each source in dwords
  uint32_t literal = 0;                 ///< 32-bit literal (src == kLiteral), or SOPK/madmk constant

  // ---- VOP3 / VOP modifiers ----
  uint8_t neg = 0;      ///< bit i: negate source i (VOP3 neg, SDWA/DPP neg)
  uint8_t abs = 0;      ///< bit i: absolute value of source i
  uint8_t clamp = 0;    ///< clamp result
  uint8_t omod = 0;     ///< output modifier: 0 none, 1 *2, 2 *4, 3 /2
  uint8_t op_sel = 0;   ///< gfx9 VOP3/VOP3P: bit i selects source i's high half (VOP3 bit 3: dst)
  uint8_t op_sel_hi = 0;  ///< VOP3P: bit i selects source i's half for the high lane
  uint8_t neg_hi = 0;     ///< VOP3P: bit i negates source i's high half

  // ---- VOP3P matrix (MFMA/SMFMAC) controls ----
  uint8_t cbsz = 0;  ///< broadcast block size of A (log2 of blocks)
  uint8_t abid = 0;  ///< A-matrix block broadcast from (SMFMAC: index set)
  uint8_t blgp = 0;  ///< B-matrix lane-group pattern (f64 MFMA: neg of A, B, C)

  // ---- SDWA ----
  uint8_t sdwa_dst_sel = 6;      ///< 0..3 BYTE_0..3, 4..5 WORD_0..1, 6 DWORD
  uint8_t sdwa_dst_unused = 0;   ///< 0 pad, 1 sext, 2 preserve
  uint8_t sdwa_src_sel[2] = {6, 6};
  uint8_t sdwa_sext = 0;         ///< bit i: sign-extend source i (also integer sources of DPP/VOP3)

  // ---- DPP ----
  uint16_t dpp_ctrl = 0;
  uint8_t dpp_row_mask = 0xF;
  uint8_t dpp_bank_mask = 0xF;
  uint8_t dpp_bound_ctrl = 0;

  // ---- scalar immediates ----
  uint16_t simm16 = 0;  ///< SOPP/SOPK 16-bit immediate (branch offsets are in dwords, signed)

  // ---- memory instructions (SMEM, DS, FLAT, MUBUF, MTBUF, MIMG) ----
  uint16_t addr = opcode_field::kNone;   ///< vaddr / DS addr (VGPR, 256+n) or SMEM sbase (SGPR)
  uint16_t data0 = opcode_field::kNone;  ///< DS data0 / FLAT data / MUBUF vdata for stores
  uint16_t data1 = opcode_field::kNone;  ///< DS data1
  uint16_t srsrc = opcode_field::kNone;  ///< MUBUF/MTBUF/MIMG resource descriptor (first SGPR)
  uint16_t ssamp = opcode_field::kNone;  ///< MIMG sampler descriptor (first SGPR)
  uint16_t soffset = opcode_field::kNone;///< MUBUF/MTBUF soffset operand
  uint32_t offset = 0;    ///< SMEM byte offset (imm) / DS offset0 (or 16-bit offset) / MUBUF offset
  uint8_t offset1 = 0;    ///< DS offset1 (two-address forms)
  uint8_t smem_imm = 0;   ///< SMEM: offset is an immediate (1) or an SGPR number in `offset` (0)
  uint8_t glc = 0, slc = 0, tfe = 0, gds = 0, lds = 0;  ///< gfx940 names glc sc0 and slc nt
  uint8_t sc1 = 0;                        ///< gfx940's second cache-policy bit
  uint16_t saddr = opcode_field::kNone;   ///< GLOBAL/SCRATCH SGPR base; kNone where "off"
  uint8_t offen = 0, idxen = 0;
  uint8_t dfmt = 0, nfmt = 0;   ///< MTBUF formats
  uint8_t dmask = 0, unorm = 0, da = 0, r128 = 0, lwe = 0, d16 = 0;  ///< MIMG

  // ---- EXP / VINTRP ----
  uint8_t exp_target = 0, exp_en = 0, exp_compr = 0, exp_done = 0, exp_vm = 0;
  uint8_t attr = 0, attr_chan = 0;
  uint16_t exp_src3 = opcode_field::kNone;  ///< EXP fourth source (src[0..2] hold the first three)
  uint8_t interp_high = 0;                  ///< VOP3 f16 interpolation: use the high half
};

}  // namespace strobe::isa
