// AMDHSA code objects (ELF64, EM_AMDGPU, OS/ABI HSA, code object v2..v5) for gfx803.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "loader/gfx_target.h"

namespace strobe::loader {

/// How a kernel argument is passed (AMDGPU metadata `.value_kind`).
enum class ArgKind : uint8_t {
  ByValue, GlobalBuffer, DynamicSharedPointer, Image, Sampler, Pipe, Queue,
  HiddenGlobalOffsetX, HiddenGlobalOffsetY, HiddenGlobalOffsetZ, HiddenNone,
  HiddenPrintfBuffer, HiddenHostcallBuffer, HiddenDefaultQueue, HiddenCompletionAction,
  HiddenMultigridSyncArg, HiddenHeapV1,
  HiddenBlockCountX, HiddenBlockCountY, HiddenBlockCountZ,
  HiddenGroupSizeX, HiddenGroupSizeY, HiddenGroupSizeZ,
  HiddenRemainderX, HiddenRemainderY, HiddenRemainderZ,
  HiddenGridDims, HiddenPrivateBase, HiddenSharedBase, HiddenQueuePtr,
  HiddenDynamicLdsSize, HiddenUnknown,
};

/// One kernel argument from the metadata note.
struct KernelArg {
  std::string name;          ///< source name, empty if the metadata omits it
  std::string type_name;     ///< source type, empty if omitted
  uint32_t offset = 0;       ///< byte offset in the kernarg segment
  uint32_t size = 0;         ///< bytes
  ArgKind kind = ArgKind::ByValue;
  std::string value_kind;    ///< the raw metadata string
  std::string address_space; ///< "global", "local", "constant", ... or empty
  bool is_const = false;     ///< `const` pointee (metadata `.is_const`)
  bool is_volatile = false;  ///< `volatile` pointee (`.is_volatile`)
  bool is_restrict = false;  ///< `restrict` pointer (`.is_restrict`)
  bool is_hidden() const { return kind >= ArgKind::HiddenGlobalOffsetX; }
};

/// The 64-byte kernel descriptor (v3+), or the equivalent fields of amd_kernel_code_t (v2).
struct KernelDescriptor {
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t kernarg_size = 0;
  int64_t kernel_code_entry_byte_offset = 0;  ///< relative to the descriptor (v3+)
  uint32_t compute_pgm_rsrc3 = 0;
  uint32_t compute_pgm_rsrc1 = 0;
  uint32_t compute_pgm_rsrc2 = 0;
  uint16_t kernel_code_properties = 0;

  // Decoded fields of the above, for convenience.
  /// GRANULATED_WORKITEM_VGPR_COUNT: registers in units of 4 on gfx803, of 8 (VGPRs and
  /// AccVGPRs together) on gfx90a and later.
  uint32_t vgpr_granules() const { return compute_pgm_rsrc1 & 0x3F; }
  uint32_t sgpr_granules() const { return (compute_pgm_rsrc1 >> 6) & 0xF; }
  uint32_t float_mode() const { return (compute_pgm_rsrc1 >> 12) & 0xFF; }
  bool private_segment_wave_offset_enabled() const { return compute_pgm_rsrc2 & 1; }
  uint32_t user_sgpr_count() const { return (compute_pgm_rsrc2 >> 1) & 0x1F; }
  bool workgroup_id_x_enabled() const { return (compute_pgm_rsrc2 >> 7) & 1; }
  bool workgroup_id_y_enabled() const { return (compute_pgm_rsrc2 >> 8) & 1; }
  bool workgroup_id_z_enabled() const { return (compute_pgm_rsrc2 >> 9) & 1; }
  bool workgroup_info_enabled() const { return (compute_pgm_rsrc2 >> 10) & 1; }
  uint32_t workitem_id_vgprs() const { return (compute_pgm_rsrc2 >> 11) & 3; }  ///< 0: x, 1: x,y, 2: x,y,z
  bool has_private_segment_buffer() const { return kernel_code_properties & 0x1; }
  bool has_dispatch_ptr() const { return kernel_code_properties & 0x2; }
  bool has_queue_ptr() const { return kernel_code_properties & 0x4; }
  bool has_kernarg_segment_ptr() const { return kernel_code_properties & 0x8; }
  bool has_dispatch_id() const { return kernel_code_properties & 0x10; }
  bool has_flat_scratch_init() const { return kernel_code_properties & 0x20; }
  bool has_private_segment_size() const { return kernel_code_properties & 0x40; }
  /// The kernel's stack depth is unknown at compile time (indirect calls, recursion, dynamic
  /// allocas): KERNEL_CODE_PROPERTY_USES_DYNAMIC_STACK, which clang-19 sets (v5). v2's
  /// is_dynamic_callstack is not carried over: a kernel with a dynamic stack makes calls, which
  /// emu::private_bytes_per_lane covers anyway.
  bool uses_dynamic_stack() const { return kernel_code_properties & 0x800; }
  /// gfx90a and later (COMPUTE_PGM_RSRC3): the first AccVGPR's index in the unified register
  /// file, a multiple of 4 (ACCUM_OFFSET holds it / 4 - 1).
  uint32_t accum_offset() const { return ((compute_pgm_rsrc3 & 0x3F) + 1) * 4; }
  /// gfx90a and later: the work-group's waves may be split across CUs (TG_SPLIT).
  bool tg_split() const { return (compute_pgm_rsrc3 >> 16) & 1; }
};

/// A kernel found in a code object.
struct KernelInfo {
  std::string name;
  std::string symbol;                ///< ELF symbol of the entry (v3+: name; descriptor is name.kd)
  KernelDescriptor kd;
  uint64_t descriptor_address = 0;   ///< ELF vaddr of the descriptor (v2: of amd_kernel_code_t)
  uint64_t entry_address = 0;        ///< ELF vaddr of the first instruction
  uint64_t code_size = 0;            ///< bytes of machine code (symbol size, or to next kernel/end of .text)
  std::vector<KernelArg> args;       ///< in kernarg order, hidden args included
  uint32_t kernarg_segment_size = 0;
  uint32_t kernarg_segment_align = 0;
  uint32_t group_segment_fixed_size = 0;
  uint32_t private_segment_fixed_size = 0;
  uint32_t sgpr_count = 0;
  uint32_t vgpr_count = 0;
  uint32_t wavefront_size = 64;
  uint32_t max_flat_workgroup_size = 0;
  uint32_t sgpr_spill_count = 0, vgpr_spill_count = 0;
  std::array<uint32_t, 3> reqd_workgroup_size{0, 0, 0};  ///< reqd_work_group_size, zeros when absent
  std::array<uint32_t, 3> workgroup_size_hint{0, 0, 0};  ///< work_group_size_hint, zeros when absent
  std::string vec_type_hint;                              ///< vec_type_hint, empty when absent
};

/// Machine code of one function or kernel in .text: ELF vaddr range [address, address+size).
struct CodeRange {
  uint64_t address = 0;
  uint64_t size = 0;
  std::string name;  ///< the kernel's or function's symbol
};

/// A PT_LOAD segment: `bytes` (the file part) at `vaddr`, zero-filled up to `memsz`.
struct LoadSegment {
  uint64_t vaddr = 0;
  uint64_t memsz = 0;
  std::span<const uint8_t> bytes;
};

/// A dynamic relocation (.rela.dyn) the loader must apply when placing the image in memory.
struct Relocation {
  uint64_t offset = 0;      ///< ELF vaddr of the patched location
  uint32_t type = 0;        ///< R_AMDGPU_* type
  int64_t addend = 0;
  uint64_t symbol_value = 0;  ///< vaddr of the referenced symbol (0 for none)
  bool symbol_defined = false;
  std::string symbol;       ///< name of the referenced symbol, for error messages
};

/// A loaded, validated code object. Construction throws strobe::InputError on bad input.
class CodeObject {
 public:
  /// Reads and parses `path`. Errors name the file and the problem. By default only code strobe
  /// executes (gfx803) is accepted; Accept::Decodable also admits gfx942, which it only decodes.
  static CodeObject load(const std::string& path, Accept accept = Accept::Executable);
  /// Parses an in-memory image; `name` is used in error messages.
  static CodeObject parse(std::vector<uint8_t> image, const std::string& name, Accept accept = Accept::Executable);

  const std::string& name() const { return name_; }
  /// The ELF image as it was read (a capture stores it to parse again on replay).
  const std::vector<uint8_t>& image() const { return image_; }
  int version() const { return version_; }               ///< code object version 2..5
  const std::string& target() const { return target_; }  ///< e.g. "amdgcn-amd-amdhsa--gfx803"
  const std::string& processor() const { return processor_; }  ///< e.g. "gfx803", "gfx942"
  const std::vector<KernelInfo>& kernels() const { return kernels_; }
  /// The kernel called `name`; throws InputError listing the kernels that exist.
  const KernelInfo& kernel(const std::string& name) const;
  /// Machine code bytes of `k` (its entry to its end).
  std::span<const uint8_t> code(const KernelInfo& k) const;
  /// Bytes of the loaded image at ELF virtual address range [addr, addr+size), or empty if outside.
  std::span<const uint8_t> bytes_at(uint64_t addr, uint64_t size) const;
  /// The PT_LOAD segments (vaddr order): what a loader copies into device memory.
  std::vector<LoadSegment> load_segments() const;
  /// Bytes of device memory the loaded image spans: max(vaddr + memsz) over the segments.
  uint64_t image_span() const;
  /// Dynamic relocations to apply at load time (empty for most kernels).
  const std::vector<Relocation>& relocations() const { return relocations_; }
  /// The executable .text section: its address and bytes.
  uint64_t text_address() const { return text_addr_; }
  std::span<const uint8_t> text() const;
  /// Where .text holds machine code, in address order: every function symbol (STT_FUNC) in
  /// .text and every kernel's code. Other bytes (a v2 amd_kernel_code_t, alignment padding)
  /// are data and must not be decoded as instructions.
  const std::vector<CodeRange>& code_ranges() const { return code_ranges_; }

 private:
  std::string name_;
  int version_ = 0;
  std::string target_;
  std::string processor_;
  std::vector<uint8_t> image_;
  uint64_t text_addr_ = 0, text_offset_ = 0, text_size_ = 0;
  std::vector<KernelInfo> kernels_;
  std::vector<CodeRange> code_ranges_;
  /// File bytes [offset, offset+size) appear at ELF vaddr [vaddr, vaddr+size) (PT_LOAD file parts).
  struct Mapping {
    uint64_t vaddr = 0, offset = 0, size = 0, memsz = 0;
  };
  std::vector<Mapping> mappings_;
  std::vector<Relocation> relocations_;
  friend class CodeObjectParser;
};

}  // namespace strobe::loader
