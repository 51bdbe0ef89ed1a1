// Shared machinery of the per-encoding decoders: the word window, LLVM's diagnostic comments
// and the 9-bit operand validity rules (AMDGPUDisassembler::decodeSrcOp for gfx8).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "isa/inst.h"
#include "isa/op_table.h"

namespace strobe::isa::detail {

/// Decoding state of one instruction: the bytes LLVM may read and the comments it would emit.
struct Ctx {
  std::span<const uint32_t> words;  ///< at most the 2 dwords LLVM reads for one instruction
  Target target = Target::Gfx803;   ///< the instruction set being decoded
  std::string* notes = nullptr;     ///< LLVM's comment stream ("Error: ...", "Warning: ..."), may be null
  size_t consumed = 1;              ///< dwords taken so far by the current attempt
  bool has_literal = false;
  uint32_t literal = 0;

  /// Appends one LLVM diagnostic; comments of failed attempts stay, as in LLVM 14.
  void note(const std::string& text) const {
    if (notes) *notes += text;  // LLVM's comment stream has no separators
  }
  uint32_t w(size_t i) const { return i < words.size() ? words[i] : 0; }
};

/// Class of an operand slot: decides which special registers and immediates are legal.
enum class Slot : uint8_t { Src, SDst, VDst };

/// Checks a 9-bit source/scalar code of `dwords` width as LLVM decodes it; reads a literal
/// when code is 255 (only where `literal_ok`). Aligns misaligned SGPR tuples in `code`
/// (LLVM prints the aligned tuple and a warning). Returns false on an LLVM decode error.
bool check_operand(Ctx& c, uint16_t& code, unsigned dwords, bool literal_ok);

/// Checks a VGPR tuple v[n : n+dwords-1] (n = 0..255) against LLVM's register classes.
bool check_vgpr(Ctx& c, unsigned n, unsigned dwords);

/// Checks a scalar destination (7-bit SGPR field) of `dwords` width; aligns like check_operand.
bool check_sdst(Ctx& c, uint16_t& code, unsigned dwords);

/// LLVM's register class name for an SGPR/TTMP/VGPR tuple of `dwords` ("SGPR_64", "VReg_128").
const char* class_name(char kind, unsigned dwords);

// Per-encoding decoders: each fills `inst` and returns false when LLVM rejects the word(s).
bool decode_sop2(Ctx& c, Inst& inst);
bool decode_sopk(Ctx& c, Inst& inst);
bool decode_sop1(Ctx& c, Inst& inst);
bool decode_sopc(Ctx& c, Inst& inst);
bool decode_sopp(Ctx& c, Inst& inst);
bool decode_smem(Ctx& c, Inst& inst);
bool decode_vop1(Ctx& c, Inst& inst);
bool decode_vop2(Ctx& c, Inst& inst);
bool decode_vopc(Ctx& c, Inst& inst);
bool decode_sdwa(Ctx& c, Inst& inst);
bool decode_dpp(Ctx& c, Inst& inst);
bool decode_vop3(Ctx& c, Inst& inst);
bool decode_vintrp(Ctx& c, Inst& inst);
bool decode_ds(Ctx& c, Inst& inst);
bool decode_flat(Ctx& c, Inst& inst);
bool decode_mubuf(Ctx& c, Inst& inst);
bool decode_mtbuf(Ctx& c, Inst& inst);
bool decode_mimg(Ctx& c, Inst& inst);
bool decode_exp(Ctx& c, Inst& inst);
bool decode_vop3p(Ctx& c, Inst& inst);

/// Decodes like decode() and also collects LLVM's diagnostic comments into `notes`.
Inst decode_with_notes(std::span<const uint32_t> words, std::string* notes, Target target = Target::Gfx803);

/// Starts `inst` from the table row of (enc, opcode): op, widths; false if LLVM has no such opcode
/// or a fixed-zero bit is set.
bool begin(Ctx& c, Inst& inst, Encoding enc, uint16_t opcode, const OpInfo*& info);

}  // namespace strobe::isa::detail
