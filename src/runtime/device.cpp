// Device runtime: memory management, code-object loading and the launch path that builds the
// AQL packet and kernarg segment in device memory before handing the dispatch to the emulator.
#include "runtime/device.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include <fmt/core.h>
#include <fmt/format.h>

#include "common/error.h"
#include "emu/code_object_program.h"
#include "emu/executor.h"

namespace strobe::runtime {

const isa::Program& Module::program() {
  if (!program_) program_ = std::make_unique<isa::Program>(emu::decode_code_object(co_, base_));
  return *program_;
}

uint32_t Module::private_bytes_per_lane(const loader::KernelInfo& kernel) {
  auto [it, fresh] = private_bytes_.try_emplace(kernel.name, 0);
  if (fresh) it->second = emu::private_bytes_per_lane(kernel, emu::kernel_makes_calls(program(), kernel));
  return it->second;
}

Device::Device(bool host_addresses) : memory_(std::make_unique<emu::GlobalMemory>()) {
  if (host_addresses) memory_->use_host_addresses();
  queue_address_ = memory_->allocate(emu::amd_queue::kSize, 64, "amd_queue_t");
  emu::write_queue_descriptor(*memory_, queue_address_);
}

Device::~Device() = default;

void Device::reset_memory(bool host_addresses) {
  auto fresh = std::make_unique<emu::GlobalMemory>();
  if (host_addresses) fresh->use_host_addresses();
  fresh->set_check(memory_->check());
  memory_ = std::move(fresh);
  queue_address_ = 0;
}

uint64_t Device::malloc(uint64_t bytes) { return memory_->allocate(bytes, 256, "buffer"); }
void Device::free(uint64_t addr) { memory_->free(addr); }
void Device::copy_to_device(uint64_t dst, const void* src, uint64_t bytes) { memory_->write(dst, src, bytes); }
void Device::copy_to_host(void* dst, uint64_t src, uint64_t bytes) const { memory_->read(src, dst, bytes); }
void Device::memset(uint64_t dst, uint8_t value, uint64_t bytes) { memory_->fill(dst, value, bytes); }

void Device::set_threads(uint32_t n) {
  threads_ = std::max(n, 1u);
  if (gpu_) gpu_->set_host_threads(threads_);
}

void Device::enable_timing(const timing::GpuConfig& cfg) {
  if (functional_runner_) throw InputError("a device that records its functional launches cannot switch to timing");
  timing::validate(cfg);
  gpu_ = std::make_unique<timing::Gpu>(cfg);
  gpu_->set_host_threads(threads_);
  isa_ = timing::isa_of(cfg);
  lds_limit_bytes_ = uint32_t(cfg.lds_bytes_per_cu);
}

Module& Device::load(const std::string& path) {
  // A gfx803 device keeps the loader's own refusal of everything else; a gfx942 device reads
  // what strobe decodes and refuses any other processor below.
  return load(loader::CodeObject::load(
      path, isa_ == isa::Target::Gfx803 ? loader::Accept::Executable : loader::Accept::Decodable));
}

Module& Device::load(loader::CodeObject co) {
  if (emu::isa_target(co) != isa_)
    throw InputError(fmt::format("{}: code object built for {}; the device simulates {}", co.name(), co.processor(),
                                 isa::target_name(isa_)));
  uint64_t base = load_image(*memory_, co);
  modules_.push_back(std::make_unique<Module>(std::move(co), base));
  return *modules_.back();
}

Module& Device::adopt(loader::CodeObject co, uint64_t load_base) {
  modules_.push_back(std::make_unique<Module>(std::move(co), load_base));
  return *modules_.back();
}

uint64_t load_image(emu::GlobalMemory& mem, const loader::CodeObject& co) {
  // The whole image is placed as one allocation so PC-relative references between code and
  // data (s_getpc + offset to a program-scope __constant table) land where the linker put them.
  const uint64_t span = std::max<uint64_t>(co.image_span(), 4);
  const uint64_t base = mem.allocate(span, 0x1000, "code object " + co.name());
  mem.fill(base, 0, span);
  for (const auto& seg : co.load_segments())
    if (!seg.bytes.empty()) mem.write(base + seg.vaddr, seg.bytes.data(), seg.bytes.size());
  constexpr uint32_t kAbs32Lo = 1, kAbs32Hi = 2, kAbs64 = 3, kAbs32 = 6, kRelative64 = 13;
  for (const auto& r : co.relocations()) {
    const uint64_t width = (r.type == kAbs64 || r.type == kRelative64) ? 8 : 4;
    if (r.offset > span || span - r.offset < width)
      throw InputError(fmt::format("{}: relocation at {:#x} lies outside the loaded image", co.name(), r.offset));
    uint64_t value;
    if (r.type == kRelative64) {
      value = base + uint64_t(r.addend);
    } else if (r.type == kAbs64 || r.type == kAbs32Lo || r.type == kAbs32Hi || r.type == kAbs32) {
      if (!r.symbol_defined)
        throw InputError(fmt::format("{}: relocation against undefined symbol '{}' (strobe links no libraries)",
                                     co.name(), r.symbol));
      value = base + r.symbol_value + uint64_t(r.addend);
    } else {
      throw NotImplementedError(fmt::format("{}: relocation type {} at {:#x}", co.name(), r.type, r.offset));
    }
    if (r.type == kAbs64 || r.type == kRelative64) {
      mem.write(base + r.offset, &value, 8);
    } else {
      uint32_t v32 = r.type == kAbs32Hi ? uint32_t(value >> 32) : uint32_t(value);
      mem.write(base + r.offset, &v32, 4);
    }
  }
  return base;
}

void validate_geometry(const loader::KernelInfo& kernel, const LaunchConfig& cfg) {
  static const char* axis = "xyz";
  uint64_t wg = 1;
  for (int d = 0; d < 3; ++d) {
    if (cfg.grid[d] == 0)
      throw InputError(fmt::format("kernel '{}': grid size in {} is 0; every dimension needs at least one work-item",
                                   kernel.name, axis[d]));
    if (cfg.local[d] == 0)
      throw InputError(fmt::format("kernel '{}': work-group size in {} is 0", kernel.name, axis[d]));
    if (cfg.local[d] > 0xFFFF)
      throw InputError(fmt::format("kernel '{}': work-group size {} in {} does not fit the dispatch packet",
                                   kernel.name, cfg.local[d], axis[d]));
    wg *= cfg.local[d];
  }
  uint32_t limit = kernel.max_flat_workgroup_size ? kernel.max_flat_workgroup_size : 1024;
  if (wg > limit)
    throw InputError(fmt::format("kernel '{}': work-group of {} work-items exceeds the kernel's maximum of {}",
                                 kernel.name, wg, limit));
  if (cfg.dims < 1 || cfg.dims > 3)
    throw InputError(fmt::format("kernel '{}': {} dimensions; a launch has 1 to 3", kernel.name, cfg.dims));
}

namespace {

/// Writes an hsa_kernel_dispatch_packet_t (64 bytes) describing the launch.
std::array<uint8_t, 64> make_packet(const LaunchConfig& cfg, uint32_t private_bytes, uint32_t lds_bytes,
                                    uint64_t kernel_object, uint64_t kernarg) {
  std::array<uint8_t, 64> p{};
  auto put16 = [&](size_t off, uint16_t v) { std::memcpy(&p[off], &v, 2); };
  auto put32 = [&](size_t off, uint32_t v) { std::memcpy(&p[off], &v, 4); };
  auto put64 = [&](size_t off, uint64_t v) { std::memcpy(&p[off], &v, 8); };
  put16(0, 2);  // HSA_PACKET_TYPE_KERNEL_DISPATCH
  put16(2, uint16_t(cfg.dims));
  for (int d = 0; d < 3; ++d) put16(4 + 2 * d, uint16_t(cfg.local[d]));
  for (int d = 0; d < 3; ++d) put32(12 + 4 * d, cfg.grid[d]);
  put32(24, private_bytes);
  put32(28, lds_bytes);
  put64(32, kernel_object);
  put64(40, kernarg);
  return p;
}

}  // namespace

LaunchResult Device::launch(Module& module, const std::string& kernel_name, const LaunchConfig& cfg) {
  const loader::KernelInfo& k = module.code_object().kernel(kernel_name);
  validate_geometry(k, cfg);

  HiddenArgValues hidden;
  hidden.grid = cfg.grid;
  hidden.local = cfg.local;
  hidden.dims = cfg.dims;
  hidden.global_offset = cfg.global_offset;
  hidden.queue_address = queue_address_;
  hidden.private_aperture_hi = uint32_t(emu::kPrivateApertureBase >> 32);
  hidden.shared_aperture_hi = uint32_t(emu::kSharedApertureBase >> 32);
  // Checked alone first so that adding it to the static size cannot wrap.
  if (cfg.dynamic_lds_bytes > lds_limit_bytes_)
    throw InputError(fmt::format("kernel '{}': {} bytes of dynamic LDS asked for; a CU has {}", k.name,
                                 cfg.dynamic_lds_bytes, lds_limit_bytes_));
  hidden.dynamic_lds_bytes = cfg.dynamic_lds_bytes;
  KernargLayout ka = build_kernargs(k, cfg.args, hidden);
  if (ka.lds_total_bytes > lds_limit_bytes_)
    throw InputError(fmt::format("kernel '{}' needs {} bytes of LDS (static {} + dynamic {}); a CU has {}", k.name,
                                 ka.lds_total_bytes, k.group_segment_fixed_size, ka.dynamic_lds_bytes,
                                 lds_limit_bytes_));

  // Kernarg segment and packet live in device memory for the duration of the dispatch, as on
  // hardware: kernels read them with scalar loads through the kernarg and dispatch pointers.
  const uint64_t kernarg_bytes = kernarg_buffer_bytes(ka.bytes.size());
  uint64_t kernarg = memory_->allocate(kernarg_bytes, 256, "kernarg");
  memory_->fill(kernarg, 0, kernarg_bytes);
  memory_->write(kernarg, ka.bytes.data(), ka.bytes.size());
  const uint32_t private_bytes = module.private_bytes_per_lane(k);
  auto pkt = make_packet(cfg, private_bytes, ka.lds_total_bytes,
                         module.load_base() + k.descriptor_address, kernarg);
  uint64_t packet = memory_->allocate(pkt.size(), 64, "dispatch packet");
  memory_->write(packet, pkt.data(), pkt.size());

  emu::Dispatch d;
  d.kernel_name = k.name;
  d.program = &module.program();
  d.entry_address = module.load_base() + k.entry_address;
  d.kd = k.kd;
  d.lds_limit_bytes = lds_limit_bytes_;
  d.grid = cfg.grid;
  d.local = cfg.local;
  d.packet_address = packet;
  d.kernarg_address = kernarg;
  d.queue_address = queue_address_;
  d.lds_bytes = ka.lds_total_bytes;
  d.private_bytes_per_lane = private_bytes;

  struct Release {  // frees the packet and kernarg however the dispatch ends
    emu::GlobalMemory& m;
    uint64_t a, b;
    ~Release() { m.free(a); m.free(b); }
  } release{*memory_, kernarg, packet};
  return run(std::move(d));
}

LaunchResult Device::run(emu::Dispatch d) {
  // Every path (suite, captures, OpenCL, HIP) comes through here: code for the other
  // instruction set is refused even where it was loaded before the device's set was chosen.
  if (d.program && d.program->target != isa_)
    throw InputError(fmt::format("kernel {}: code built for {}; the device simulates {}", d.kernel_name,
                                 isa::target_name(d.program->target), isa::target_name(isa_)));
  d.dispatch_id = dispatch_count_++;
  d.lds_limit_bytes = std::min(d.lds_limit_bytes, lds_limit_bytes_);  // the configured CU's LDS
  LaunchResult r;
  r.kernel = d.kernel_name;
  memory_->take_overruns();  // a log left by a launch that faulted is not this launch's
  auto t0 = std::chrono::steady_clock::now();
  if (runner_) {
    const std::string name = r.kernel;
    r = runner_->run(d, *memory_, *gpu_);
    r.kernel = name;
  } else if (gpu_) {
    auto t = std::make_shared<timing::LaunchTiming>(gpu_->run(d, *memory_));
    r.stats = t->functional;
    r.timing = std::move(t);
  } else if (functional_runner_) {
    r.stats = functional_runner_->run(d, *memory_, threads_);
  } else {
    r.stats = emu::run_dispatch(d, *memory_, threads_);
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.past_end = memory_->take_overruns();
  if (r.past_end.count) {
    const std::string text = past_end_warning(r.kernel, r.past_end);
    if (warn_) warn_(text);
    else fmt::print(stderr, "{}\n", text);
  }
  return r;
}

uint64_t kernarg_buffer_bytes(uint64_t bytes) {
  // ROCr's kernarg pool hands out 64-byte-aligned blocks; at least one block.
  constexpr uint64_t kBlock = 64;
  return std::max<uint64_t>(kBlock, (bytes + kBlock - 1) / kBlock * kBlock);
}

std::string past_end_warning(const std::string& kernel, const emu::OverrunLog& log) {
  std::string s = fmt::format(
      "strobe: warning: kernel {}: {} access{} outside every live allocation but inside a mapped page, allowed as "
      "on hardware (--memory-check strict makes {} a fault)",
      kernel, log.count, log.count == 1 ? "" : "es", log.count == 1 ? "it" : "each");
  if (!log.shown.empty())
    s += log.shown.size() < log.count ? fmt::format("; the first {}:", log.shown.size()) : std::string(":");
  for (const auto& d : log.shown) s += "\n  " + d;
  return s;
}

void Device::set_functional_runner(FunctionalRunner* r) {
  if (r && gpu_) throw InputError("a functional runner needs a device in functional mode");
  functional_runner_ = r;
}

void Device::set_dispatch_runner(DispatchRunner* r) {
  if (r && !gpu_) throw InputError("a sampling method needs the timing model (--mode timing)");
  runner_ = r;
}

}  // namespace strobe::runtime
