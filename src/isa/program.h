// Machine code decoded once into a dense array, the form every executor runs from.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "isa/inst.h"

namespace strobe::isa {

/// Bytes [offset, offset+size) of a Program's byte range that hold machine code (one function).
struct ByteRange {
  uint64_t offset = 0;
  uint64_t size = 0;
};

/// A function the executor refuses to enter, and why (e.g. a service strobe does not provide).
struct RefusedEntry {
  int32_t index = -1;  ///< instruction index of the function's first instruction
  std::string why;     ///< the fault's reason, starting "not implemented: "
};

/// A dense, pre-decoded instruction stream with a byte-offset -> index map for branches.
/// A code object's Program covers all of .text, decoded function by function; each kernel
/// starts at its own index, and calls and returns are jumps within the one Program.
struct Program {
  uint64_t base_address = 0;          ///< device address of the first byte
  uint64_t load_bias = 0;             ///< base_address minus the code's ELF address (0 if unloaded)
  std::vector<Inst> insts;            ///< instructions in address order
  std::vector<uint32_t> offsets;      ///< byte offset of insts[i] from base_address
  std::vector<int32_t> index_by_dword;///< dword offset -> instruction index, -1 inside an instruction or outside code
  std::vector<RefusedEntry> refused;  ///< checked on calls and jumps (s_swappc/s_setpc), usually empty
  Target target = Target::Gfx803;     ///< the instruction set the code was decoded in

  /// Index of the instruction starting at `byte_offset`, or -1 if none starts there.
  int32_t index_at(uint64_t byte_offset) const {
    if (byte_offset % 4 != 0 || byte_offset / 4 >= index_by_dword.size()) return -1;
    return index_by_dword[byte_offset / 4];
  }
  /// True for the marker placed after a function's last instruction: execution that reaches
  /// it ran off the end of the function's code (no jump can reach it: index_at never names it).
  bool is_end_marker(uint32_t pc) const {
    return pc < insts.size() && insts[pc].enc == Encoding::Invalid && index_at(offsets[pc]) != int32_t(pc);
  }
};

/// Decodes `bytes` (placed at `base_address`) into a Program. Undecodable words become
/// Inst{enc = Encoding::Invalid, size = 4}; executing one is a fault, not a crash.
Program decode_program(std::span<const uint8_t> bytes, uint64_t base_address);

/// Decodes only the `code` ranges of `bytes` (in any order; overlapping ranges are merged and
/// parts outside `bytes` ignored), so data between functions never desynchronises decoding.
/// An end marker (Inst{}, see Program::is_end_marker) follows every range that another does not
/// continue directly. Bytes outside the ranges map to -1. `target` is the instruction set.
Program decode_program(std::span<const uint8_t> bytes, uint64_t base_address, std::span<const ByteRange> code,
                       Target target = Target::Gfx803);

}  // namespace strobe::isa
