// One kernel dispatch as the hardware sees it: what the command processor hands the emulator.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "isa/program.h"
#include "loader/code_object.h"

namespace strobe::emu {

class GlobalMemory;

/// The most instructions one wave may execute before it is taken for a wave that never ends
/// (a `while (1)` kernel): a fault naming the wave, in functional and timing mode alike. No
/// wave of a real kernel comes near 2^30; `--max-wave-instructions` or the environment's
/// STROBE_MAX_WAVE_INSTRUCTIONS changes it for the process.
inline constexpr uint64_t kDefaultMaxWaveInstructions = uint64_t{1} << 30;
/// The process's budget per wave: STROBE_MAX_WAVE_INSTRUCTIONS when set (a positive whole
/// number, else InputError naming it), kDefaultMaxWaveInstructions otherwise.
uint64_t max_wave_instructions();

/// Everything needed to execute one dispatch functionally. The runtime builds it: it has
/// already written the AQL packet and the kernarg segment into device memory.
struct Dispatch {
  std::string kernel_name;
  const isa::Program* program = nullptr;      ///< decoded code of the kernel
  uint64_t entry_address = 0;                 ///< address of the first instruction
  loader::KernelDescriptor kd;                ///< register-init and resource fields
  std::array<uint32_t, 3> grid{1, 1, 1};      ///< work-items per dimension
  std::array<uint32_t, 3> local{1, 1, 1};     ///< work-group size per dimension
  uint64_t packet_address = 0;                ///< AQL dispatch packet in device memory
  uint64_t kernarg_address = 0;               ///< kernarg segment in device memory
  uint64_t queue_address = 0;                 ///< fake amd_queue_t (for queue_ptr), may be 0
  uint32_t lds_bytes = 0;                     ///< static + dynamic group segment size
  /// LDS a work-group may have: the configured CU's capacity (the runtime sets it from
  /// `cu.lds_bytes`; the emulator knows no configuration). The default leaves it unchecked.
  uint32_t lds_limit_bytes = UINT32_MAX;
  uint32_t private_bytes_per_lane = 0;        ///< private segment size per work-item
  uint64_t dispatch_id = 0;
};

/// Counters a functional run reports.
struct DispatchStats {
  uint64_t wave_instructions = 0;     ///< instructions issued, counted once per wavefront
  uint64_t thread_instructions = 0;   ///< sum over instructions of active lanes (EXEC popcount)
  uint64_t vector_memory_instructions = 0;
  uint64_t scalar_memory_instructions = 0;
  uint64_t lds_instructions = 0;
  uint64_t workgroups = 0;
  uint64_t wavefronts = 0;

  /// Adds another run's counters (work-groups that ran apart, merged).
  DispatchStats& operator+=(const DispatchStats& s) {
    wave_instructions += s.wave_instructions;
    thread_instructions += s.thread_instructions;
    vector_memory_instructions += s.vector_memory_instructions;
    scalar_memory_instructions += s.scalar_memory_instructions;
    lds_instructions += s.lds_instructions;
    workgroups += s.workgroups;
    wavefronts += s.wavefronts;
    return *this;
  }
};

}  // namespace strobe::emu
