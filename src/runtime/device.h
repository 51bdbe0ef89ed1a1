// The device runtime: device memory, loaded code objects and kernel launches, each run by the
// functional emulator, by the timing model (enable_timing) or by a sampling method's runner.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>
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
  /// The decoded code of the whole code object at its device address, shared by its kernels
  /// (decoded on first use, then cached). A kernel starts at the index of its entry.
  const isa::Program& program();
  /// True if `p` is this module's decoded code (a dispatch's program names its module).
  bool owns(const isa::Program* p) const { return p && program_.get() == p; }
  /// Private bytes per work-item a dispatch of `kernel` gets (emu::private_bytes_per_lane).
  uint32_t private_bytes_per_lane(const loader::KernelInfo& kernel);

 private:
  loader::CodeObject co_;
  uint64_t base_ = 0;
  std::unique_ptr<isa::Program> program_;
  std::map<std::string, uint32_t> private_bytes_;
};

/// Geometry and arguments of one launch.
struct LaunchConfig {
  Dim3 grid{1, 1, 1};      ///< total work-items per dimension
  Dim3 local{1, 1, 1};     ///< work-group size per dimension
  uint32_t dims = 1;       ///< number of dimensions the host specified (1..3)
  std::array<uint64_t, 3> global_offset{0, 0, 0};
  std::vector<ArgValue> args;
  /// Dynamic group memory beyond the kernel's static size and __local arguments (HIP's
  /// dynamic shared memory); it goes into the packet's group_segment_size.
  uint32_t dynamic_lds_bytes = 0;
};

/// How a sampling method obtained a launch's time.
struct SampledLaunch {
  std::string method;  ///< e.g. "photon", "pka"
  /// What produced the time: "detailed", "kernel" (matched to an earlier kernel), "warp",
  /// "basic-block", "ipc-projection", "cluster" (a cluster representative's IPC), ...
  std::string level;
  uint64_t estimated_cycles = 0;
  uint64_t detailed_instructions = 0;    ///< wave instructions timed by the detailed model
  uint64_t predicted_instructions = 0;   ///< wave instructions whose time was predicted
  uint64_t functional_instructions = 0;  ///< wave instructions emulated only for the method's analysis
  bool emulated = true;  ///< false when predicted work was not emulated (results unverifiable)
  nlohmann::json detail;  ///< method-specific facts (matched kernel, switch cycle, ...)
};

/// What one launch did.
struct LaunchResult {
  std::string kernel;
  emu::DispatchStats stats;
  double wall_seconds = 0;
  /// Cycle-level timing of the launch when the device runs in timing mode (with a sampling
  /// method: `cycles` is the method's estimate).
  std::shared_ptr<const timing::LaunchTiming> timing;
  /// How a sampling method ran the launch (null without one).
  std::shared_ptr<const SampledLaunch> sampling;
  /// Accesses past the end of an allocation that succeeded inside a mapped page
  /// (emu::MemoryCheck::Page): their count and the first few with their detail.
  emu::OverrunLog past_end;
};

/// Runs dispatches in place of the device's own choice between functional emulation and
/// detailed timing: the plug-in point of the sampling layer.
class DispatchRunner {
 public:
  virtual ~DispatchRunner() = default;
  /// Runs `d` against `mem`; `gpu` is the device's timing model. Fills everything of the
  /// result but `kernel` and `wall_seconds`.
  virtual LaunchResult run(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu) = 0;
};

/// Runs functional dispatches in place of the emulator's own loop, with the same results: the
/// plug-in point of a workload capture, which records what each launch touches as it runs.
class FunctionalRunner {
 public:
  virtual ~FunctionalRunner() = default;
  /// Runs `d` against `mem` on up to `threads` host threads; returns the emulator's counters.
  virtual emu::DispatchStats run(const emu::Dispatch& d, emu::GlobalMemory& mem, uint32_t threads) = 0;
};

/// A simulated GPU as a host program sees it.
class Device {
 public:
  /// A device with strobe-managed memory; with `host_addresses`, its memory uses the process's
  /// own addresses (emu::GlobalMemory::use_host_addresses), for a GPU runtime in the same process.
  explicit Device(bool host_addresses = false);
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
  /// Adopts a code object whose image is already in device memory at `load_base` (a replayed
  /// capture restores the image's pages itself).
  Module& adopt(loader::CodeObject co, uint64_t load_base);
  /// Every module loaded so far, in load order.
  const std::vector<std::unique_ptr<Module>>& modules() const { return modules_; }

  /// Runs `kernel_name` from `module` to completion: functional emulation, or detailed timing
  /// once enable_timing() was called. Throws InputError for a bad configuration and FaultError
  /// if the kernel faults.
  LaunchResult launch(Module& module, const std::string& kernel_name, const LaunchConfig& cfg);

  /// Runs a dispatch the caller built (kernarg segment, packet and code already in device
  /// memory) as launch() runs its own: functional, detailed timing, or through the sampling
  /// runner. `d.dispatch_id` is replaced by the device's count and `d.lds_limit_bytes` capped at
  /// the configured CU's LDS. Throws FaultError if it faults.
  LaunchResult run(emu::Dispatch d);

  /// Switches the device to detailed timing on a GPU built from `cfg` (validated; InputError
  /// names a bad key), executing `cfg`'s instruction set (`gpu.isa`). Cache and DRAM state
  /// then persist across launches, as on hardware.
  void enable_timing(const timing::GpuConfig& cfg);
  /// The timing model, or nullptr in functional mode.
  timing::Gpu* gpu() { return gpu_.get(); }
  /// Routes every launch through `r` (nullptr: back to the device's own mode). Needs timing
  /// enabled first; `r` must outlive its use.
  void set_dispatch_runner(DispatchRunner* r);
  /// Runs every functional launch through `r` (nullptr: the emulator's own loop). Functional
  /// mode only: enable_timing() refuses a device with one; `r` must outlive its use.
  void set_functional_runner(FunctionalRunner* r);

  emu::GlobalMemory& memory() { return *memory_; }
  /// Replaces device memory with an empty one, the queue descriptor included: a replayed capture
  /// rebuilds memory from a checkpoint alone, then only uses run(). With `host_addresses`, the
  /// new memory is in host addressing (a host program's capture: emu::GlobalMemory).
  void reset_memory(bool host_addresses = false);
  /// The dispatch id run() gives the next dispatch (a replayed launch keeps its captured id).
  void set_next_dispatch_id(uint64_t id) { dispatch_count_ = id; }

  /// Sets how kernel accesses past an allocation's end are treated (default: as the hardware).
  void set_memory_check(emu::MemoryCheck c) { memory_->set_check(c); }
  /// Host threads a functional launch's work-groups may run on (default 1), also the timing
  /// model's functional work (timing::Gpu::set_host_threads); results are those of one thread
  /// whatever the count (emu::Executor::run says when fewer are used).
  void set_threads(uint32_t n);
  /// The threads set_threads() allowed.
  uint32_t threads() const { return threads_; }
  /// Chooses the instruction set the device executes (default gfx803). Code objects loaded
  /// afterwards must be built for it; set it before loading any.
  void set_isa(isa::Target t) { isa_ = t; }
  /// The instruction set the device executes.
  isa::Target isa() const { return isa_; }
  /// Replaces where warnings go (default: standard error), e.g. to collect them in a test.
  void set_warning_sink(std::function<void(const std::string&)> sink) { warn_ = std::move(sink); }

 private:
  std::unique_ptr<emu::GlobalMemory> memory_;
  std::unique_ptr<timing::Gpu> gpu_;
  DispatchRunner* runner_ = nullptr;
  FunctionalRunner* functional_runner_ = nullptr;
  /// LDS per work-group: the timing configuration's CU, else the declared default CU's.
  uint32_t lds_limit_bytes_ = uint32_t(timing::GpuConfig{}.lds_bytes_per_cu);
  std::vector<std::unique_ptr<Module>> modules_;
  uint64_t queue_address_ = 0;
  uint64_t dispatch_count_ = 0;
  std::function<void(const std::string&)> warn_;
  uint32_t threads_ = 1;
  isa::Target isa_ = isa::Target::Gfx803;
};

/// Size of the kernarg buffer for a segment of `bytes`: the HSA runtime hands out kernarg
/// memory in aligned, padded chunks, and LLVM widens scalar loads of the last arguments up to
/// that alignment, so the tail past the last argument must be readable (and is zero).
uint64_t kernarg_buffer_bytes(uint64_t bytes);

/// The warning printed for a launch whose kernel accessed memory past an allocation's end.
std::string past_end_warning(const std::string& kernel, const emu::OverrunLog& log);

/// Copies a code object's loadable segments into one new allocation of `mem` and applies its
/// dynamic relocations; returns the device address of ELF address 0. Throws InputError for a
/// relocation strobe cannot resolve.
uint64_t load_image(emu::GlobalMemory& mem, const loader::CodeObject& co);

/// Validates a launch geometry against the kernel, throwing InputError that names the problem.
void validate_geometry(const loader::KernelInfo& kernel, const LaunchConfig& cfg);

}  // namespace strobe::runtime
