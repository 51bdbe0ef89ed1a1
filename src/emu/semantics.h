// The instruction-semantics plug-in point: one handler per isa::Op, grouped by family in
// files that register themselves into a dense table the executor indexes by Op.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

#include "isa/inst.h"
#include "isa/program.h"
#include "emu/wave.h"

namespace strobe::emu {

class GlobalMemory;
struct Dispatch;
struct GraphicsIo;
struct OverrunLog;

/// Per-lane record of the memory accesses an instruction made, for the timing model.
struct MemAccessInfo {
  uint64_t lane_addr[kWaveSize];  ///< byte address per active lane (global/flat/scratch) or LDS offset
  uint64_t lane_mask = 0;         ///< lanes that accessed memory
  uint32_t bytes_per_lane = 0;
  enum class Space : uint8_t { None, Global, Scalar, Lds, Scratch } space = Space::None;
  bool is_store = false, is_atomic = false;
};

/// Everything an instruction handler may touch besides its own wave.
struct ExecContext {
  GlobalMemory* memory = nullptr;           ///< device memory
  std::span<uint8_t> lds;                   ///< this work-group's LDS allocation
  const Dispatch* dispatch = nullptr;
  uint32_t workgroup_id[3] = {0, 0, 0};
  MemAccessInfo* mem_info = nullptr;        ///< filled by memory handlers when non-null
  /// Set by a handler that changes control flow: the next pc index (otherwise pc + 1).
  bool branch_taken = false;
  uint32_t branch_target = 0;
  const isa::Program* program = nullptr;    ///< code being run (branch targets, PCs); may be null in unit tests
  uint64_t private_base = 0;                ///< SH_HIDDEN_PRIVATE_BASE: FLAT scratch = this + FLAT_SCRATCH_HI<<8
  uint64_t private_size = 0;                ///< bytes of scratch backing at private_base
  uint64_t memtime = 0;                     ///< deterministic s_memtime counter
  GraphicsIo* gfx = nullptr;                ///< a graphics wave's exports and parameters; null for compute
  /// Where accesses past an allocation's end are logged while work-groups run on several
  /// threads (each run of work-groups keeps its own, merged in work-group order); null: the
  /// memory's own log.
  OverrunLog* overruns = nullptr;
};

/// Signature of an instruction handler. Handlers throw FaultError (via fault()) on illegal behaviour.
using Handler = void (*)(Wave& w, const isa::Inst& inst, ExecContext& ctx);

/// Dense Op -> handler table. Unset entries are nullptr and execute as a "not implemented" fault.
struct HandlerTable {
  std::array<Handler, size_t(isa::Op::COUNT)> fn{};
  void set(isa::Op op, Handler h) { fn[size_t(op)] = h; }
};

/// Each semantics family adds its handlers; the executor calls all of them once at startup.
void register_salu(HandlerTable& t);      ///< SOP1/SOP2/SOPK/SOPC scalar ALU
void register_sopp(HandlerTable& t);      ///< program control: branches, waitcnt, barrier, endpgm
void register_smem(HandlerTable& t);      ///< scalar memory
void register_valu(HandlerTable& t);      ///< VOP1/VOP2/VOP3 vector ALU (int, f16, f32, f64)
void register_vopc(HandlerTable& t);      ///< vector compares and v_cmp_class
void register_lane_ops(HandlerTable& t);  ///< v_readlane/v_writelane/v_readfirstlane/mbcnt/DPP moves
void register_ds(HandlerTable& t);        ///< LDS (and GDS faults)
void register_flat(HandlerTable& t);      ///< FLAT loads, stores and atomics
void register_mubuf(HandlerTable& t);     ///< MUBUF/MTBUF (scratch and buffers)
void register_graphics(HandlerTable& t);  ///< exp and v_interp (graphics.h)
void register_mimg(HandlerTable& t);      ///< MIMG image_sample family (image_desc.h)

/// The process-wide table with every family registered (built once, then read-only).
const HandlerTable& handlers();

/// True if `op` has semantics of its own (its table entry is not the "not implemented" fault).
bool has_semantics(isa::Op op);

/// Lower-case base mnemonic of `op` (emu's own copy of the opcode table's names).
const char* mnemonic(isa::Op op);

/// Device byte address of instruction index `pc` of `program` (0 when program is null).
uint64_t pc_address(const isa::Program* program, uint32_t pc);

/// Throws FaultError describing an illegal action by the current instruction.
[[noreturn]] void fault(const Wave& w, const isa::Inst& inst, const ExecContext& ctx, const std::string& why);
/// The text fault() would raise: kernel, work-group, wave, PC and instruction, then `why`.
std::string fault_message(const Wave& w, const isa::Inst& inst, const ExecContext& ctx, const std::string& why);

}  // namespace strobe::emu
