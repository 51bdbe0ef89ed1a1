#include "emu/code_object_program.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

namespace strobe::emu {

isa::Target isa_target(const loader::CodeObject& co) {
  return co.processor() == loader::kDecodedProcessor ? isa::Target::Gfx942 : isa::Target::Gfx803;
}

isa::Program decode_code_object(const loader::CodeObject& co, uint64_t load_base) {
  std::vector<isa::ByteRange> ranges;
  ranges.reserve(co.code_ranges().size());
  for (const loader::CodeRange& r : co.code_ranges())
    ranges.push_back(isa::ByteRange{r.address - co.text_address(), r.size});
  isa::Program p = isa::decode_program(co.text(), load_base + co.text_address(), ranges, isa_target(co));
  p.load_bias = load_base;
  // Device printf and malloc reach the host through ockl's hostcall buffer, which a host
  // runtime thread services; strobe has no such service, so a call into it stops clearly
  // instead of spinning on a reply that never comes (or faulting on the null buffer).
  for (const loader::CodeRange& r : co.code_ranges())
    if (r.name.starts_with("__ockl_hostcall"))
      p.refused.push_back(isa::RefusedEntry{
          p.index_at(r.address - co.text_address()),
          fmt::format("not implemented: a call to {}: device printf and malloc need a host-side hostcall "
                      "service, which strobe does not provide", r.name)});
  return p;
}

bool kernel_makes_calls(const isa::Program& p, const loader::KernelInfo& k) {
  const uint64_t begin = p.load_bias + k.entry_address - p.base_address, end = begin + k.code_size;
  const int32_t entry = p.index_at(begin);
  if (entry < 0) return false;
  for (size_t pc = size_t(entry); pc < p.insts.size() && p.offsets[pc] < end; ++pc)
    if (p.insts[pc].op == isa::Op::S_SWAPPC_B64) return true;
  return false;
}

uint32_t private_bytes_per_lane(const loader::KernelInfo& k, bool makes_calls) {
  const uint32_t fixed = k.kd.private_segment_fixed_size;
  return makes_calls || k.kd.uses_dynamic_stack() ? std::max(fixed, kCallStackBytesPerLane) : fixed;
}

}  // namespace strobe::emu
