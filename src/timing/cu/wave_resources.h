// The CU's allocatable resources: wave slots, VGPRs and SGPRs per SIMD, the LDS and the
// work-group count. One placement rule (a wave goes to the SIMD with the most free slots that
// has its registers) serves both the question "does a work-group fit?" and the allocation, so
// the dispatcher's view and the CU's can never disagree.
#pragma once

#include <array>
#include <cstdint>

#include "timing/cu/occupancy.h"

namespace strobe::timing {

/// Resources in use on one CU, with one fits/take/release implementation.
class WaveResources {
 public:
  static constexpr uint32_t kMaxSimds = 16;

  /// Limits of the configuration (simds <= kMaxSimds).
  explicit WaveResources(const CuResources& limits) : r_(limits) {}

  /// True if a whole work-group with needs `n` can be placed now.
  bool fits(const WorkgroupNeeds& n) const;
  /// The SIMD a wave with needs `n` would go to now: the one with the most free slots that has
  /// the registers, the lowest index on a tie (-1: none).
  int pick_simd(const WorkgroupNeeds& n) const;
  /// Reserves a work-group's LDS and group slot (the waves are taken one by one).
  void take_group(const WorkgroupNeeds& n) { ++groups_, barrier_groups_ += n.barrier_group, lds_ += n.lds_bytes; }
  /// Places one wave (pick_simd() must have found a SIMD); returns its SIMD.
  uint32_t take_wave(const WorkgroupNeeds& n);
  /// Frees one wave's slot and registers on `simd`.
  void release_wave(uint32_t simd, const WorkgroupNeeds& n) {
    --slots_[simd], vgprs_[simd] -= n.vgprs_per_wave, sgprs_[simd] -= n.sgprs_per_wave;
  }
  /// Frees a work-group's LDS and group slot.
  void release_group(const WorkgroupNeeds& n) { --groups_, barrier_groups_ -= n.barrier_group, lds_ -= n.lds_bytes; }
  /// Frees everything (a fault aborted the launch).
  void reset();

  uint32_t groups() const { return groups_; }
  uint32_t lds_used() const { return lds_; }
  uint32_t slots_used(uint32_t simd) const { return slots_[simd]; }
  uint32_t vgprs_used(uint32_t simd) const { return vgprs_[simd]; }
  uint32_t sgprs_used(uint32_t simd) const { return sgprs_[simd]; }

 private:
  CuResources r_;
  std::array<uint32_t, kMaxSimds> slots_{}, vgprs_{}, sgprs_{};
  uint32_t lds_ = 0, groups_ = 0, barrier_groups_ = 0;
};

}  // namespace strobe::timing
