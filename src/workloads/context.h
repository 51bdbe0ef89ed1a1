// The context a benchmark runs in: device buffers, kernel loading, and every launch routed
// through one LaunchBackend that also records per-launch statistics.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "emu/dispatch.h"
#include "runtime/device.h"

namespace strobe::workloads {

using runtime::ArgValue;
using runtime::Dim3;

/// A global-buffer kernel argument.
inline ArgValue buf(uint64_t addr) { return ArgValue::buffer(addr); }
/// A by-value kernel argument.
template <typename T>
ArgValue val(const T& v) { return ArgValue::scalar(v); }
/// A dynamic __local kernel argument of `bytes`.
inline ArgValue lds(uint32_t bytes) { return ArgValue::local(bytes); }

/// One launch as the run recorded it: geometry plus everything the backend reported (kernel
/// name, dispatch counters, wall time, and whatever a timing backend adds to LaunchResult).
struct LaunchStat {
  uint32_t index = 0;  ///< 0-based launch number within the run
  Dim3 grid{1, 1, 1};
  Dim3 local{1, 1, 1};
  runtime::LaunchResult result;
};

/// Where a benchmark's launches go, so a harness can interpose on them without any benchmark
/// noticing. How a launch is simulated is not chosen here but by the device (see DeviceBackend).
class LaunchBackend {
 public:
  virtual ~LaunchBackend() = default;
  /// Runs one launch to completion and returns what it did.
  virtual runtime::LaunchResult launch(runtime::Device& dev, runtime::Module& module, const std::string& kernel,
                                       const runtime::LaunchConfig& cfg) = 0;
};

/// Hands every launch to runtime::Device::launch, which simulates it as the device was set up:
/// functional emulation by default, detailed timing after Device::enable_timing, or whatever a
/// sampling method's DispatchRunner decides per launch. The default backend of every run.
class DeviceBackend : public LaunchBackend {
 public:
  runtime::LaunchResult launch(runtime::Device& dev, runtime::Module& module, const std::string& kernel,
                               const runtime::LaunchConfig& cfg) override {
    return dev.launch(module, kernel, cfg);
  }
};

/// A kernel of a workload code object (kernels/workloads/<file>.cl).
struct Kernel {
  runtime::Module* module = nullptr;
  std::string name;
};

/// The phase a run is in; verification downloads may be corrupted by the test hook.
enum class Phase { Setup, Run, Verify };

/// The per-run context owned by the runner and handed to each benchmark phase.
class Context {
 public:
  explicit Context(std::unique_ptr<LaunchBackend> backend = std::make_unique<DeviceBackend>());

  /// Kernel `kernel` of <workload_kernel_dir>/<file>.hsaco for the device's instruction set
  /// (loaded once per file).
  Kernel kernel(const std::string& file, const std::string& kernel);

  /// Launches `k` over `grid` work-items in groups of `local`; dimensions are 1 + the last
  /// axis with a size above 1 in either. Records a LaunchStat.
  const LaunchStat& launch(const Kernel& k, Dim3 grid, Dim3 local, std::vector<ArgValue> args);

  /// A zero-filled device buffer of `n` elements of T.
  template <typename T>
  uint64_t alloc(size_t n) {
    uint64_t a = malloc_bytes(n * sizeof(T));
    dev_.memset(a, 0, std::max<size_t>(n * sizeof(T), 1));
    return a;
  }
  /// A device buffer holding a copy of `v`.
  template <typename T>
  uint64_t upload(const std::vector<T>& v) {
    uint64_t a = malloc_bytes(v.size() * sizeof(T));
    write(a, v);
    return a;
  }
  /// Overwrites device memory at `addr` with `v`.
  template <typename T>
  void write(uint64_t addr, const std::vector<T>& v) {
    dev_.copy_to_device(addr, v.data(), v.size() * sizeof(T));
  }
  /// Copies `n` elements of T from `addr` back to the host.
  template <typename T>
  std::vector<T> download(uint64_t addr, size_t n) {
    std::vector<T> v(n);
    dev_.copy_to_host(v.data(), addr, n * sizeof(T));
    maybe_corrupt(v.data(), n * sizeof(T));
    return v;
  }
  /// Reads one element (host-side control flow between launches, e.g. "is the frontier empty?").
  template <typename T>
  T read_scalar(uint64_t addr) {
    T v{};
    dev_.copy_to_host(&v, addr, sizeof(T));
    return v;
  }
  /// Reads `n` elements for host work inside run() (never touched by the verification test hook).
  template <typename T>
  std::vector<T> read(uint64_t addr, size_t n) {
    std::vector<T> v(n);
    dev_.copy_to_host(v.data(), addr, n * sizeof(T));
    return v;
  }

  /// Tells progress reporting how many launches the run will make (0: unknown).
  void expect_launches(size_t n) { expected_launches_ = n; }
  /// What expect_launches() declared (0: unknown).
  size_t expected_launches() const { return expected_launches_; }

  /// Called after every launch (progress reporting).
  std::function<void(const LaunchStat&, size_t expected)> on_launch;
  /// Test hook: flip a high bit in the first buffer downloaded during verification, so tests can
  /// prove that a wrong result fails the run.
  bool corrupt_first_verify_download = false;

  /// Set by the runner before each phase.
  void set_phase(Phase p) { phase_ = p; }
  /// Every launch so far, in order.
  const std::vector<LaunchStat>& launches() const { return launches_; }
  /// The simulated device (for what the helpers above do not cover).
  runtime::Device& device() { return dev_; }

 private:
  uint64_t malloc_bytes(uint64_t bytes);
  void maybe_corrupt(void* data, size_t bytes);

  runtime::Device dev_;
  std::unique_ptr<LaunchBackend> backend_;
  std::map<std::string, runtime::Module*> modules_;
  std::vector<LaunchStat> launches_;
  size_t expected_launches_ = 0;
  uint64_t allocated_bytes_ = 0;
  Phase phase_ = Phase::Setup;
};

/// Directory of the compiled workload kernels for `isa`: gfx803's is $STROBE_KERNEL_DIR if
/// set, else the build tree's; gfx942's is $STROBE_GFX942_KERNEL_DIR if set, else the build
/// tree's gfx942-kernels (built where clang-19 is installed).
std::string workload_kernel_dir(isa::Target isa = isa::Target::Gfx803);

/// The most device memory one run may allocate; larger sizes are rejected as bad input.
inline constexpr uint64_t kMaxDeviceBytes = 8ull << 30;

}  // namespace strobe::workloads
