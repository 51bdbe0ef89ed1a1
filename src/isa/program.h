// A kernel's code decoded once into a dense array, the form every executor runs from.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "isa/inst.h"

namespace strobe::isa {

/// A dense, pre-decoded instruction stream with a byte-offset -> index map for branches.
struct Program {
  uint64_t base_address = 0;          ///< device address of the first byte
  uint64_t load_bias = 0;             ///< base_address minus the code's ELF address (0 if unloaded)
  std::vector<Inst> insts;            ///< instructions in address order
  std::vector<uint32_t> offsets;      ///< byte offset of insts[i] from base_address
  std::vector<int32_t> index_by_dword;///< dword offset -> instruction index, -1 inside an instruction

  /// Index of the instruction starting at `byte_offset`, or -1 if none starts there.
  int32_t index_at(uint64_t byte_offset) const {
    if (byte_offset % 4 != 0 || byte_offset / 4 >= index_by_dword.size()) return -1;
    return index_by_dword[byte_offset / 4];
  }
};

/// Decodes `bytes` (placed at `base_address`) into a Program. Undecodable words become
/// Inst{enc = Encoding::Invalid, size = 4}; executing one is a fault, not a crash.
Program decode_program(std::span<const uint8_t> bytes, uint64_t base_address);

}  // namespace strobe::isa
