// Test helpers: llvm-mc assembly, hand-built descriptors and a minimal kernarg builder.
#include "emu_test_util.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "emu/dispatch_abi.h"

namespace strobe::emu::test {

std::vector<uint8_t> assemble_bytes(const std::string& source, isa::Target target) {
  static int counter = 0;
  std::string stem = "/tmp/strobe_emu_asm_" + std::to_string(::getpid()) + "_" + std::to_string(counter++);
  {
    std::ofstream(stem + ".s") << source << "\n";
  }
  const bool gfx942 = target == isa::Target::Gfx942;
  std::string cmd = std::string(gfx942 ? "llvm-mc-19 -arch=amdgcn -mcpu=gfx942" : "llvm-mc -arch=amdgcn -mcpu=gfx803") +
                    " -filetype=obj " + stem + ".s -o " + stem + ".o 2>" + stem + ".err && " +
                    (gfx942 ? "llvm-objcopy-19" : "llvm-objcopy") + " -O binary --only-section=.text " + stem + ".o " +
                    stem + ".bin";
  if (std::system(cmd.c_str()) != 0) {
    std::ifstream err(stem + ".err");
    throw std::runtime_error("llvm-mc failed: " + std::string(std::istreambuf_iterator<char>(err), {}));
  }
  std::ifstream bin(stem + ".bin", std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(bin)), {});
  for (const char* ext : {".s", ".o", ".err", ".bin"}) std::remove((stem + ext).c_str());
  return bytes;
}

isa::Program assemble(const std::string& source, isa::Target target) {
  const std::vector<uint8_t> bytes = assemble_bytes(source, target);
  if (target == isa::Target::Gfx803) return isa::decode_program(bytes, 0);
  const isa::ByteRange all{0, bytes.size()};
  return isa::decode_program(bytes, 0, std::span<const isa::ByteRange>(&all, 1), target);
}

loader::KernelDescriptor make_kd(const KdSpec& s) {
  loader::KernelDescriptor kd;
  kd.group_segment_fixed_size = s.lds;
  kd.private_segment_fixed_size = s.private_bytes;
  const uint32_t granule = s.target == isa::Target::Gfx803 ? 4 : 8;
  kd.compute_pgm_rsrc1 = ((s.vgprs + granule - 1) / granule - 1) | (12u << 6) | (s.float_mode << 12);
  kd.compute_pgm_rsrc2 = uint32_t(s.scratch_offset) | (s.user_sgprs << 1) | uint32_t(s.wg_id_x) << 7 |
                         uint32_t(s.wg_id_y) << 8 | uint32_t(s.wg_id_z) << 9 | uint32_t(s.wg_info) << 10 |
                         (s.workitem_vgprs << 11);
  kd.kernel_code_properties = s.properties;
  return kd;
}

AsmLaunch::AsmLaunch(const std::string& source, const KdSpec& kd, std::array<uint32_t, 3> grid,
                     std::array<uint32_t, 3> local, const std::vector<uint32_t>& kernarg)
    : program(assemble(source, kd.target)) {
  d.kernel_name = "test_kernel";
  d.program = &program;
  d.kd = make_kd(kd);
  d.grid = grid;
  d.local = local;
  d.lds_bytes = kd.lds;
  d.private_bytes_per_lane = kd.private_bytes;
  d.kernarg_address = mem.allocate(std::max<size_t>(kernarg.size() * 4, 16), 256, "kernarg");
  if (!kernarg.empty()) mem.write(d.kernarg_address, kernarg.data(), kernarg.size() * 4);
}

uint64_t AsmLaunch::buffer(const std::vector<uint32_t>& init, size_t n) {
  n = std::max(n, init.size());
  uint64_t a = mem.allocate(n * 4, 256, "buffer");
  mem.fill(a, 0, n * 4);
  if (!init.empty()) mem.write(a, init.data(), init.size() * 4);
  return a;
}

std::vector<uint32_t> AsmLaunch::read(uint64_t addr, size_t n) {
  std::vector<uint32_t> v(n);
  mem.read(addr, v.data(), n * 4);
  return v;
}

std::vector<Wave> AsmLaunch::run_group(uint64_t group, DispatchStats* stats) {
  Executor ex(d, mem);
  WorkGroup wg;
  ex.init_workgroup(wg, group);
  DispatchStats st;
  ex.run_workgroup(wg, st);
  if (stats) *stats = st;
  return wg.waves;
}

CompiledKernel::CompiledKernel(const std::string& path, const std::string& kernel)
    : co(loader::CodeObject::load(path)) {
  info = &co.kernel(kernel);
  program = isa::decode_program(co.code(*info), info->entry_address);
}

std::string kernel_path(const std::string& stem, bool v5) {
  return std::string(STROBE_BUILD_DIR) + (v5 ? "/kernels-clang19/" : "/kernels/") + stem + ".hsaco";
}

Dispatch prepare_launch(GlobalMemory& mem, const CompiledKernel& k, std::array<uint32_t, 3> grid,
                        std::array<uint32_t, 3> local, const std::vector<Arg>& args) {
  using loader::ArgKind;
  const loader::KernelInfo& ki = *k.info;
  std::vector<uint8_t> ka(std::max<uint32_t>(ki.kernarg_segment_size, 16), 0);
  auto put = [&](uint32_t off, uint32_t size, uint64_t v) { std::memcpy(ka.data() + off, &v, std::min(size, 8u)); };
  uint32_t dynamic_lds = 0, lds_top = ki.group_segment_fixed_size;
  uint64_t queue = mem.allocate(amd_queue::kSize, 64, "queue");
  write_queue_descriptor(mem, queue);
  size_t next = 0;
  uint32_t dims = grid[2] > 1 ? 3 : grid[1] > 1 ? 2 : 1;
  for (const loader::KernelArg& a : ki.args) {
    switch (a.kind) {
      case ArgKind::ByValue: case ArgKind::GlobalBuffer: {
        if (next >= args.size()) throw std::runtime_error("too few test arguments");
        put(a.offset, a.size, args[next++].value);
        break;
      }
      case ArgKind::DynamicSharedPointer: {
        if (next >= args.size()) throw std::runtime_error("too few test arguments");
        lds_top = (lds_top + 15) & ~15u;
        put(a.offset, a.size, lds_top);  // LDS offset of this buffer
        lds_top += uint32_t(args[next++].value);
        dynamic_lds = lds_top - ki.group_segment_fixed_size;
        break;
      }
      case ArgKind::HiddenBlockCountX: case ArgKind::HiddenBlockCountY: case ArgKind::HiddenBlockCountZ: {
        int d = int(a.kind) - int(ArgKind::HiddenBlockCountX);
        // Full work-groups only, as the runtime (ROCclr) passes them: ockl computes the grid size
        // as block count * group size + remainder.
        put(a.offset, a.size, grid[d] / local[d]);
        break;
      }
      case ArgKind::HiddenGroupSizeX: case ArgKind::HiddenGroupSizeY: case ArgKind::HiddenGroupSizeZ: {
        int d = int(a.kind) - int(ArgKind::HiddenGroupSizeX);
        put(a.offset, a.size, local[d]);
        break;
      }
      case ArgKind::HiddenRemainderX: case ArgKind::HiddenRemainderY: case ArgKind::HiddenRemainderZ: {
        int d = int(a.kind) - int(ArgKind::HiddenRemainderX);
        put(a.offset, a.size, grid[d] % local[d]);
        break;
      }
      case ArgKind::HiddenGridDims: put(a.offset, a.size, dims); break;
      case ArgKind::HiddenQueuePtr: put(a.offset, a.size, queue); break;
      case ArgKind::HiddenPrivateBase: put(a.offset, a.size, kPrivateApertureHi); break;
      case ArgKind::HiddenSharedBase: put(a.offset, a.size, kSharedApertureHi); break;
      case ArgKind::HiddenDynamicLdsSize: put(a.offset, a.size, dynamic_lds); break;
      default: break;  // global offsets and the rest stay zero
    }
  }
  Dispatch d;
  d.kernel_name = ki.name;
  d.program = &k.program;
  d.entry_address = ki.entry_address;
  d.kd = ki.kd;
  d.grid = grid;
  d.local = local;
  d.kernarg_address = mem.allocate(ka.size(), 256, "kernarg");
  mem.write(d.kernarg_address, ka.data(), ka.size());
  d.queue_address = queue;
  d.lds_bytes = lds_top;
  d.private_bytes_per_lane = ki.kd.private_segment_fixed_size;
  return d;
}

DispatchStats launch(GlobalMemory& mem, const CompiledKernel& k, std::array<uint32_t, 3> grid,
                     std::array<uint32_t, 3> local, const std::vector<Arg>& args) {
  const Dispatch d = prepare_launch(mem, k, grid, local, args);
  DispatchStats s = run_dispatch(d, mem);
  mem.free(d.kernarg_address);
  mem.free(d.queue_address);
  return s;
}

std::string strided_store_asm(uint32_t stride_shift) {
  return "s_load_dwordx2 s[4:5], s[0:1], 0x0\n"
         "v_lshlrev_b32 v1, " + std::to_string(stride_shift) + ", v0\n"
         "s_waitcnt lgkmcnt(0)\n"
         "v_mov_b32 v5, s5\n"
         "v_add_u32 v6, vcc, s4, v1\n"
         "v_addc_u32 v7, vcc, v5, 0, vcc\n"
         "flat_store_dword v[6:7], v0\n"
         "s_waitcnt vmcnt(0)\n"
         "s_endpgm\n";
}

}  // namespace strobe::emu::test
