// Finding and decoding kernels in memory (see kernel_code.h).
//
// ROCr's loader copies each loadable segment of a code object into device memory, the first one
// (ELF header included) at the image's base, so a v3+ kernel descriptor has its code object's
// ELF and program headers a few pages below it: the executable segment bounds the code to decode
// (all functions a kernel may call are in it), the dynamic symbol table names the kernel, and
// e_flags names the processor. ROCr's own blit kernels have no ELF around them: an
// amd_kernel_code_t followed by its code, which is then decoded to the end of its allocation.
#include "hip/kernel_code.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "common/error.h"
#include "hip/simulator.h"
#include "hip/thunk.h"
#include "loader/gfx_target.h"
#include "loader/kernel_descriptor.h"

namespace strobe::hip {

namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kMaxElfSearch = 64ull << 20;  // how far below a descriptor its ELF header may be
constexpr uint64_t kMaxCodeBytes = 16ull << 20;  // a sanity bound on one code segment
constexpr uint64_t kMaxLooseCode = 1ull << 20;   // code with no ELF around it: decoded this far at most
constexpr uint16_t kEmAmdgpu = 224;
constexpr uint32_t kPtLoad = 1, kPtDynamic = 2, kPfX = 1;

std::map<uint64_t, KernelCode> g_kernels;  // kernel_object -> kernel

template <typename T>
T load(uint64_t address) {
  T v;
  std::memcpy(&v, reinterpret_cast<const void*>(address), sizeof v);
  return v;
}

/// An ELF image in memory: its base, the executable segment and the dynamic symbols.
struct ImageView {
  uint64_t base = 0, code_lo = 0, code_hi = 0;
  uint32_t mach = 0;
  uint64_t symtab = 0, strtab = 0, strsz = 0, nsyms = 0;
};

/// Looks for the ELF header of the image holding `address`, inside allocation `a`.
bool find_image(uint64_t address, const Allocation& a, ImageView* out) {
  const uint64_t lowest = std::max(a.address, address > kMaxElfSearch ? address - kMaxElfSearch : 0);
  for (uint64_t base = address & ~(kPage - 1); base >= lowest; base -= kPage) {
    if (std::memcmp(reinterpret_cast<const void*>(base), "\x7f" "ELF\x02\x01", 6) != 0 ||
        load<uint16_t>(base + 18) != kEmAmdgpu)
      continue;
    const uint64_t limit = a.address + a.size;
    const uint64_t phoff = load<uint64_t>(base + 32);
    const uint16_t phentsize = load<uint16_t>(base + 54), phnum = load<uint16_t>(base + 56);
    if (phentsize != 56 || phoff > a.size || base + phoff + uint64_t(phnum) * 56 > limit) continue;
    ImageView v;
    v.base = base;
    v.mach = load<uint32_t>(base + 48) & 0xff;
    uint64_t dynamic = 0, dynamic_size = 0;
    bool covers = false;  // an image of another code object may lie below this one's
    for (uint16_t i = 0; i < phnum; ++i) {
      const uint64_t ph = base + phoff + uint64_t(i) * 56;
      const uint32_t type = load<uint32_t>(ph), flags = load<uint32_t>(ph + 4);
      const uint64_t vaddr = load<uint64_t>(ph + 16), memsz = load<uint64_t>(ph + 40);
      if (type == kPtLoad && base + vaddr <= address && address - (base + vaddr) < memsz) covers = true;
      if (type == kPtLoad && (flags & kPfX)) {
        v.code_lo = base + vaddr;
        v.code_hi = base + vaddr + memsz;
      }
      if (type == kPtDynamic) dynamic = base + vaddr, dynamic_size = memsz;
    }
    if (!covers) continue;
    if (v.code_hi > limit || v.code_hi - v.code_lo > kMaxCodeBytes) return false;
    uint64_t hash = 0;
    for (uint64_t d = dynamic; d && d + 16 <= dynamic + dynamic_size && d + 16 <= limit; d += 16) {
      const int64_t tag = load<int64_t>(d);
      const uint64_t val = load<uint64_t>(d + 8);
      if (tag == 0) break;
      if (tag == 4) hash = base + val;       // DT_HASH: nchain is the symbol count
      if (tag == 5) v.strtab = base + val;   // DT_STRTAB
      if (tag == 6) v.symtab = base + val;   // DT_SYMTAB
      if (tag == 10) v.strsz = val;          // DT_STRSZ
    }
    if (hash && hash + 8 <= limit) v.nsyms = load<uint32_t>(hash + 4);
    if (v.symtab + v.nsyms * 24 > limit || v.strtab + v.strsz > limit) v.nsyms = 0;
    *out = v;
    return true;
  }
  return false;
}

/// The name of the `.kd` symbol at `kernel_object` in the image's dynamic symbols ("" if none).
std::string symbol_name(const ImageView& v, uint64_t kernel_object) {
  for (uint64_t i = 0; i < v.nsyms; ++i) {
    const uint64_t sym = v.symtab + i * 24;
    if (load<uint64_t>(sym + 8) + v.base != kernel_object) continue;
    const uint32_t name = load<uint32_t>(sym);
    if (name >= v.strsz) continue;
    const char* s = reinterpret_cast<const char*>(v.strtab + name);
    std::string n(s, strnlen(s, v.strsz - name));
    if (n.ends_with(".kd")) return n.substr(0, n.size() - 3);
  }
  return {};
}

/// FNV-1a over the descriptor and up to 256 bytes of code from the entry.
uint32_t content_hash(uint64_t ko, uint64_t entry, uint64_t code_end) {
  uint32_t h = 2166136261u;
  auto mix = [&h](uint64_t from, uint64_t n) {
    for (uint64_t i = 0; i < n; ++i) h = (h ^ load<uint8_t>(from + i)) * 16777619u;
  };
  mix(ko, 16);  // the descriptor's sizes (its entry offset depends on where it was placed)
  mix(ko + 24, loader::kKernelDescriptorSize - 24);
  mix(entry, std::min<uint64_t>(256, code_end - entry));
  return h;
}

KernelCode decode(uint64_t ko) {
  Allocation a;
  if (!find_allocation(ko, &a) || ko + loader::kKernelDescriptorSize > a.address + a.size)
    throw InputError(fmt::format("kernel_object 0x{:x} is not in memory the runtime allocated", ko));
  KernelCode k;
  // amd_kernel_code_t starts with version 1 and machine kind 1 (AMDGPU) followed by the
  // machine version; a v3+ descriptor has a reserved zero word at byte 12 instead.
  const bool v2 = load<uint32_t>(ko) == 1 && load<uint16_t>(ko + 8) == 1 && load<uint32_t>(ko + 12) != 0;
  if (v2) {
    if (ko + loader::kAmdKernelCodeSize > a.address + a.size)
      throw InputError(fmt::format("amd_kernel_code_t at 0x{:x} runs past its allocation", ko));
    std::vector<uint8_t> bytes(loader::kAmdKernelCodeSize);
    std::memcpy(bytes.data(), reinterpret_cast<const void*>(ko), bytes.size());
    k.kd = loader::decode_amd_kernel_code(bytes);
    const uint16_t major = load<uint16_t>(ko + 10), minor = load<uint16_t>(ko + 12), step = load<uint16_t>(ko + 14);
    if (major != 8 || minor != 0 || step != 3)
      throw InputError(fmt::format("kernel at 0x{:x} is built for {}; strobe simulates {}", ko,
                                   loader::processor_from_isa_version(major, minor, step),
                                   loader::kSupportedProcessor));
  } else {
    std::vector<uint8_t> bytes(loader::kKernelDescriptorSize);
    std::memcpy(bytes.data(), reinterpret_cast<const void*>(ko), bytes.size());
    k.kd = loader::decode_kernel_descriptor(bytes);
  }
  k.entry_address = ko + uint64_t(k.kd.kernel_code_entry_byte_offset);
  Allocation code_alloc;
  if (!find_allocation(k.entry_address, &code_alloc))
    throw InputError(fmt::format("kernel at 0x{:x}: its code entry 0x{:x} is not in allocated memory", ko,
                                 k.entry_address));
  uint64_t lo = k.entry_address, hi = std::min(code_alloc.address + code_alloc.size, lo + kMaxLooseCode);
  uint64_t bias = 0;
  ImageView image;
  if (find_image(ko, a, &image)) {
    if (image.mach != loader::kMachGfx803)
      throw InputError(fmt::format("kernel at 0x{:x} is built for {}; strobe simulates {}", ko,
                                   loader::processor_from_mach(image.mach), loader::kSupportedProcessor));
    if (image.code_lo <= k.entry_address && k.entry_address < image.code_hi) lo = image.code_lo, hi = image.code_hi;
    k.name = symbol_name(image, ko);
    bias = image.base;
  }
  std::vector<uint8_t> code(hi - lo);
  std::memcpy(code.data(), reinterpret_cast<const void*>(lo), code.size());
  // A kernel outside any ELF image (the runtimes' own copy and fill kernels) is named after its
  // code, so the same kernel has the same name in every run and in every report.
  if (k.name.empty()) k.name = fmt::format("runtime kernel {:08x}", content_hash(ko, k.entry_address, hi));
  const isa::ByteRange all{0, code.size()};
  auto program = std::make_shared<isa::Program>(isa::decode_program(code, lo, std::span(&all, 1)));
  program->load_bias = bias;
  const int32_t entry = program->index_at(k.entry_address - lo);
  if (entry < 0) throw InputError(fmt::format("kernel {}: no instruction starts at its entry 0x{:x}", k.name, k.entry_address));
  // Calls may go anywhere in the segment; a call anywhere from the entry on is counted, which
  // can only over-provision the call stack.
  k.makes_calls = std::any_of(program->insts.begin() + entry, program->insts.end(),
                              [](const isa::Inst& in) { return in.op == isa::Op::S_SWAPPC_B64; });
  k.program = std::move(program);
  return k;
}

}  // namespace

const KernelCode& find_kernel(uint64_t kernel_object) {
  auto it = g_kernels.find(kernel_object);
  if (it != g_kernels.end()) return it->second;
  return g_kernels.emplace(kernel_object, decode(kernel_object)).first->second;
}

void forget_kernels(uint64_t address, uint64_t size) {
  for (auto it = g_kernels.begin(); it != g_kernels.end();) {
    const isa::Program& p = *it->second.program;
    const uint64_t code_hi = p.base_address + (p.offsets.empty() ? 0 : p.offsets.back() + 4);
    const bool hit = (it->first >= address && it->first - address < size) ||
                     (p.base_address < address + size && address < code_hi);
    it = hit ? g_kernels.erase(it) : std::next(it);
  }
}

}  // namespace strobe::hip
