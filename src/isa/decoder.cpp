// Top-level decode: tries the encodings in the order LLVM 14's AMDGPUDisassembler does
// (64-bit DPP/SDWA first, then the 32-bit tables, then the 64-bit tables), so words that two
// tables could claim resolve the same way and diagnostics accumulate the same way.
#include "isa/decoder.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "isa/decode_internal.h"
#include "isa/program.h"

namespace strobe::isa {

namespace detail {

namespace {

using Fn = bool (*)(Ctx&, Inst&);

bool attempt(Fn fn, std::span<const uint32_t> window, std::string* notes, Target target, Inst& out) {
  Ctx c;
  c.words = window;
  c.target = target;
  c.notes = notes;
  Inst inst;
  if (!fn(c, inst)) return false;
  inst.size = static_cast<uint8_t>(c.consumed * 4);
  out = inst;
  return true;
}

}  // namespace

Inst decode_with_notes(std::span<const uint32_t> words, std::string* notes, Target target) {
  Inst out;
  out.target = target;  // an invalid word too: its diagnostics are the target's
  if (words.empty()) return out;
  auto window = words.first(std::min<size_t>(words.size(), 2));
  uint32_t w = window[0];
  bool vop = (w >> 31) == 0;
  if (window.size() >= 2 && vop) {
    if ((w & 0x1FF) == 0xFA && attempt(decode_dpp, window, notes, target, out)) return out;
    if ((w & 0x1FF) == 0xF9 && attempt(decode_sdwa, window, notes, target, out)) return out;
  }
  Fn fn32 = nullptr;
  if ((w >> 30) == 2) {
    uint32_t top9 = w >> 23;
    if (top9 == 0x17D) fn32 = decode_sop1;
    else if (top9 == 0x17E) fn32 = decode_sopc;
    else if (top9 == 0x17F) fn32 = decode_sopp;
    else if ((w >> 28) == 0xB) fn32 = decode_sopk;
    else fn32 = decode_sop2;
  } else if (vop) {
    fn32 = (w >> 25) == 0x3F ? decode_vop1 : (w >> 25) == 0x3E ? decode_vopc : decode_vop2;
  } else if ((w >> 26) == 0x35) {
    fn32 = decode_vintrp;
  }
  if (fn32 && attempt(fn32, window, notes, target, out)) return out;
  if (window.size() < 2) return out;
  Fn fn64 = nullptr;
  switch (w >> 26) {
    case 0x30: fn64 = decode_smem; break;
    case 0x31: fn64 = decode_exp; break;
    case 0x34: fn64 = target == Target::Gfx942 && (w >> 23) == 0x1A7 ? decode_vop3p : decode_vop3; break;
    case 0x36: fn64 = decode_ds; break;
    case 0x37: fn64 = decode_flat; break;
    case 0x38: fn64 = decode_mubuf; break;
    case 0x3A: fn64 = decode_mtbuf; break;
    case 0x3C: fn64 = decode_mimg; break;
    default: break;
  }
  if (fn64 && attempt(fn64, window, notes, target, out)) return out;
  return out;
}

}  // namespace detail

Inst decode(std::span<const uint32_t> words) { return detail::decode_with_notes(words, nullptr); }

Inst decode(std::span<const uint32_t> words, Target target) {
  return detail::decode_with_notes(words, nullptr, target);
}

const char* op_name(Op op) {
  static constexpr const char* kNames[] = {
#define STROBE_OP(OP, NAME) NAME,
#include "isa/ops.def"
#undef STROBE_OP
      "<invalid>",
  };
  auto i = static_cast<size_t>(op);
  return i < std::size(kNames) ? kNames[i] : "<invalid>";
}

namespace {

std::vector<uint32_t> to_dwords(std::span<const uint8_t> bytes) {
  std::vector<uint32_t> dw(bytes.size() / 4);
  for (size_t i = 0; i < dw.size(); ++i)
    dw[i] = uint32_t(bytes[4 * i]) | uint32_t(bytes[4 * i + 1]) << 8 | uint32_t(bytes[4 * i + 2]) << 16 |
            uint32_t(bytes[4 * i + 3]) << 24;
  return dw;
}

/// Appends the instructions of dwords [first, last) to `p`; none reads past `last`.
void decode_into(Program& p, std::span<const uint32_t> dw, size_t first, size_t last, Target target) {
  size_t i = first;
  while (i < last) {
    Inst inst = decode(dw.subspan(i, last - i), target);
    p.index_by_dword[i] = static_cast<int32_t>(p.insts.size());
    p.offsets.push_back(static_cast<uint32_t>(i * 4));
    p.insts.push_back(inst);
    i += inst.size / 4;
  }
}

}  // namespace

Program decode_program(std::span<const uint8_t> bytes, uint64_t base_address) {
  Program p;
  p.base_address = base_address;
  const std::vector<uint32_t> dw = to_dwords(bytes);
  p.index_by_dword.assign(dw.size(), -1);
  decode_into(p, dw, 0, dw.size(), Target::Gfx803);
  return p;
}

Program decode_program(std::span<const uint8_t> bytes, uint64_t base_address, std::span<const ByteRange> code,
                       Target target) {
  Program p;
  p.target = target;
  p.base_address = base_address;
  const std::vector<uint32_t> dw = to_dwords(bytes);
  p.index_by_dword.assign(dw.size(), -1);
  // Instructions are dword aligned: a range covers the whole dwords inside it.
  std::vector<std::pair<size_t, size_t>> ranges;  // dword [first, last)
  for (const ByteRange& r : code) {
    if (r.offset >= bytes.size()) continue;
    const size_t first = (r.offset + 3) / 4, last = (r.offset + std::min<uint64_t>(r.size, bytes.size() - r.offset)) / 4;
    if (first < last) ranges.emplace_back(first, last);
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t k = 0; k < ranges.size();) {
    // Merge ranges that overlap or touch: one function's code may continue into the next.
    auto [first, last] = ranges[k];
    for (++k; k < ranges.size() && ranges[k].first <= last; ++k) last = std::max(last, ranges[k].second);
    decode_into(p, dw, first, last, target);
    p.offsets.push_back(static_cast<uint32_t>(last * 4));
    p.insts.push_back(Inst{});  // end marker: falling off the function faults instead of running data
  }
  return p;
}

}  // namespace strobe::isa
