// Per-program tables, built once per program.
#include "sampling/common/program_tables.h"

#include "timing/cu/cu_params.h"

namespace strobe::sampling {

ProgramTableCache::ProgramTableCache(const timing::GpuConfig& gpu) : timing_(timing::inst_timing_params(gpu)) {}

const ProgramTables& ProgramTableCache::get(const isa::Program& p) {
  auto& slot = tables_[&p];
  if (!slot) {
    slot = std::make_unique<ProgramTables>();
    slot->ends = timing::basic_block_ends(p);
    slot->info = timing::build_inst_info(p, timing_);
  }
  return *slot;
}

}  // namespace strobe::sampling
