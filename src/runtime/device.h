// The device runtime: device memory, loaded code objects and kernel launches (functional).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "emu/memory.h"
#include "isa/program.h"
#include "loader/code_object.h"
#include "runtime/kernel_args.h"
#include "timing/config/gpu_config.h"
#include "timing/gpu/gpu.h"

namespace strobe::runtime {

/// Work-items or work-group size per dimension.
using Dim3 = std::array<uint32_t, 3>;

/// A code object loaded into device memory, with its kernels decoded on first use.
class Module {
 public:
  Module(loader::CodeObject co, uint64_t load_base) : co_(std::move(co)), base_(load_base) {}
  const loader::CodeObject& code_object() const { return co_; }
  /// Device address of ELF virtual address 0 of the loaded image.
  uint64_t load_base() const { return base_; }
  /// The decoded program of `kernel` at its device address (decoded once, then cached).
  const isa::Program& program(const loader::KernelInfo& kernel);

 private:
  loader::CodeObject co_;
  uint64_t base_ = 0;
  std::map<std::string, std::unique_ptr<isa::Program>> programs_;
};

/// Geometry and arguments of one launch.
struct LaunchConfig {
  Dim3 grid{1, 1, 1};      ///< total work-items per dimension
  Dim3 local{1, 1, 1};     ///< work-group size per dimension
  uint32_t dims = 1;       ///< number of dimensions the host specified (1..3)
  std::array<uint64_t, 3> global_offset{0, 0, 0};
  std::vector<ArgValue> args;
};

/// What one launch did.
struct LaunchResult {
  std::string kernel;
  emu::DispatchStats stats;
  double wall_seconds = 0;
  /// Cycle-level timing of the launch when the device runs in timing mode.
  std::shared_ptr<const timing::LaunchTiming> timing;
};

/// A simulated GPU as a host program sees it.
class Device {
 public:
  Device();
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  /// Allocates device memory; the address is 256-byte aligned.
  uint64_t malloc(uint64_t bytes);
  /// Frees an allocation; throws InputError for an address malloc did not return.
  void free(uint64_t addr);
  void copy_to_device(uint64_t dst, const void* src, uint64_t bytes);
  void copy_to_host(void* dst, uint64_t src, uint64_t bytes) const;
  void memset(uint64_t dst, uint8_t value, uint64_t bytes);

  /// Loads a code object file; the Module lives as long as the Device.
  Module& load(const std::string& path);
  /// Adopts an already parsed code object.
  Module& load(loader::CodeObject co);

  /// Runs `kernel_name` from `module` to completion: functional emulation, or detailed timing
  /// once enable_timing() was called. Throws InputError for a bad configuration and FaultError
  /// if the kernel faults.
  LaunchResult launch(Module& module, const std::string& kernel_name, const LaunchConfig& cfg);

  /// Switches the device to detailed timing on a GPU built from `cfg` (validated; InputError
  /// names a bad key). Cache and DRAM state then persist across launches, as on hardware.
  void enable_timing(const timing::GpuConfig& cfg);
  /// The timing model, or nullptr in functional mode.
  timing::Gpu* gpu() { return gpu_.get(); }

  emu::GlobalMemory& memory() { return *memory_; }

 private:
  std::unique_ptr<emu::GlobalMemory> memory_;
  std::unique_ptr<timing::Gpu> gpu_;
  std::vector<std::unique_ptr<Module>> modules_;
  uint64_t queue_address_ = 0;
  uint64_t dispatch_count_ = 0;
};

/// Copies a code object's loadable segments into one new allocation of `mem` and applies its
/// dynamic relocations; returns the device address of ELF address 0. Throws InputError for a
/// relocation strobe cannot resolve.
uint64_t load_image(emu::GlobalMemory& mem, const loader::CodeObject& co);

/// Validates a launch geometry against the kernel, throwing InputError that names the problem.
void validate_geometry(const loader::KernelInfo& kernel, const LaunchConfig& cfg);

}  // namespace strobe::runtime
