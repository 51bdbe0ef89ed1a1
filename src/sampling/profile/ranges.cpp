// Work-group ranges cut while profiling (see ranges.h).
#include "sampling/profile/ranges.h"

#include <stdexcept>

#include "timing/cu/inst_info.h"

namespace strobe::sampling::profile {

void block_vector(std::span<const uint8_t> ends, std::span<const uint64_t> pc_insts, std::vector<uint64_t>& start_pc,
                  std::vector<uint64_t>& insts) {
  start_pc.clear(), insts.clear();
  uint64_t sum = 0;
  size_t start = 0;
  for (size_t pc = 0; pc < pc_insts.size(); ++pc) {
    sum += pc_insts[pc];
    if (ends[pc] || pc + 1 == pc_insts.size()) {
      if (sum) start_pc.push_back(start), insts.push_back(sum);
      sum = 0;
      start = pc + 1;
    }
  }
}

RangeCutter::RangeCutter(const isa::Program& program, uint64_t target, uint64_t min_groups)
    : ends_(timing::basic_block_ends(program)), target_(target), min_groups_(min_groups), at_cut_(program.insts.size(), 0) {
  if (target == 0) throw std::invalid_argument("RangeCutter: a target of 0 wave instructions");
}

void RangeCutter::workgroup_end(uint64_t linear_id, uint64_t wave_insts, std::span<const uint64_t> pc_insts) {
  end_ = linear_id + 1;
  insts_ += wave_insts;
  if (insts_ >= target_ && end_ - first_ >= min_groups_) close(end_, pc_insts);
}

void RangeCutter::close(uint64_t end_wg, std::span<const uint64_t> pc_insts) {
  WorkGroupRange r;
  r.first_wg = first_;
  r.end_wg = end_wg;
  r.wave_insts = insts_;
  delta_.resize(pc_insts.size());
  for (size_t pc = 0; pc < pc_insts.size(); ++pc) delta_[pc] = pc_insts[pc] - at_cut_[pc], at_cut_[pc] = pc_insts[pc];
  block_vector(ends_, delta_, r.start_pc, r.block_insts);
  ranges_.push_back(std::move(r));
  first_ = end_wg;
  insts_ = 0;
}

void RangeCutter::finish(std::span<const uint64_t> pc_insts) {
  if (end_ > first_) {
    const bool short_tail = !ranges_.empty() && (2 * insts_ < target_ || 2 * (end_ - first_) < min_groups_);
    close(end_, pc_insts);
    if (short_tail) {  // join it to the range before: block vectors add
      WorkGroupRange tail = std::move(ranges_.back());
      ranges_.pop_back();
      WorkGroupRange& r = ranges_.back();
      r.end_wg = tail.end_wg;
      r.wave_insts += tail.wave_insts;
      std::vector<uint64_t> pcs, insts;
      size_t a = 0, b = 0;
      while (a < r.start_pc.size() || b < tail.start_pc.size()) {
        if (b == tail.start_pc.size() || (a < r.start_pc.size() && r.start_pc[a] < tail.start_pc[b])) {
          pcs.push_back(r.start_pc[a]), insts.push_back(r.block_insts[a++]);
        } else if (a == r.start_pc.size() || tail.start_pc[b] < r.start_pc[a]) {
          pcs.push_back(tail.start_pc[b]), insts.push_back(tail.block_insts[b++]);
        } else {
          pcs.push_back(r.start_pc[a]), insts.push_back(r.block_insts[a++] + tail.block_insts[b++]);
        }
      }
      r.start_pc = std::move(pcs);
      r.block_insts = std::move(insts);
    }
  }
}

}  // namespace strobe::sampling::profile
