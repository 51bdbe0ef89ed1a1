// The run context: buffer allocation with a size limit, kernel loading, recorded launches.
#include "workloads/context.h"

#include <cstdlib>
#include <filesystem>

#include <fmt/core.h>

#include "common/error.h"

namespace strobe::workloads {

std::string workload_kernel_dir(isa::Target isa) {
  if (isa == isa::Target::Gfx942) {
    if (const char* env = std::getenv("STROBE_GFX942_KERNEL_DIR"); env && *env) return std::string(env) + "/workloads";
    return std::string(STROBE_GFX942_KERNEL_DIR) + "/workloads";
  }
  if (const char* env = std::getenv("STROBE_KERNEL_DIR"); env && *env) return std::string(env) + "/workloads";
  return std::string(STROBE_KERNEL_DIR) + "/workloads";
}

Context::Context(std::unique_ptr<LaunchBackend> backend) : backend_(std::move(backend)) {}

Kernel Context::kernel(const std::string& file, const std::string& kernel) {
  auto it = modules_.find(file);
  if (it == modules_.end()) {
    std::string path = workload_kernel_dir(dev_.isa()) + "/" + file + ".hsaco";
    if (!std::filesystem::exists(path))
      throw Error(ExitCode::Failure, fmt::format("workload kernel {} is missing (is the build complete?)", path));
    it = modules_.emplace(file, &dev_.load(path)).first;
  }
  it->second->code_object().kernel(kernel);  // a wrong kernel name fails here, not at launch
  return {it->second, kernel};
}

const LaunchStat& Context::launch(const Kernel& k, Dim3 grid, Dim3 local, std::vector<ArgValue> args) {
  runtime::LaunchConfig cfg;
  cfg.grid = grid;
  cfg.local = local;
  cfg.dims = (grid[2] > 1 || local[2] > 1) ? 3 : (grid[1] > 1 || local[1] > 1) ? 2 : 1;
  cfg.args = std::move(args);
  runtime::LaunchResult r = backend_->launch(dev_, *k.module, k.name, cfg);
  LaunchStat s;
  s.index = uint32_t(launches_.size());
  s.grid = grid;
  s.local = local;
  s.result = std::move(r);
  launches_.push_back(std::move(s));
  if (on_launch) on_launch(launches_.back(), expected_launches_);
  return launches_.back();
}

uint64_t Context::malloc_bytes(uint64_t bytes) {
  if (bytes > kMaxDeviceBytes || allocated_bytes_ + bytes > kMaxDeviceBytes)
    throw InputError(fmt::format("the run needs more than {} GiB of device memory; choose smaller sizes",
                                 kMaxDeviceBytes >> 30));
  allocated_bytes_ += bytes;
  return dev_.malloc(std::max<uint64_t>(bytes, 1));
}

void Context::maybe_corrupt(void* data, size_t bytes) {
  if (!corrupt_first_verify_download || phase_ != Phase::Verify || bytes == 0) return;
  corrupt_first_verify_download = false;
  // Bit 30 of the first 32-bit word: the top exponent bit of a float, a large change of an int.
  auto* b = static_cast<uint8_t*>(data);
  b[bytes >= 4 ? 3 : 0] ^= 0x40;
}

}  // namespace strobe::workloads
