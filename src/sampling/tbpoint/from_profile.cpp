#include "sampling/tbpoint/from_profile.h"

namespace strobe::sampling::tbpoint {

ProgramProfile from_profile(const profile::ProfileFile& p) {
  ProgramProfile out;
  out.line_bytes = p.line_bytes;
  out.launches.reserve(p.launches.size());
  for (const auto& l : p.launches) {
    LaunchProfile lp;
    lp.kernel = l.id.kernel;
    lp.grid = l.id.grid;
    lp.local = l.id.local;
    lp.groups.resize(l.workgroups.rows);
    const auto* ti = l.workgroups.find_u64(profile::column::kThreadInsts);
    const auto* wi = l.workgroups.find_u64(profile::column::kWaveInsts);
    const auto* mr = l.workgroups.find_u64(profile::column::kMemReqs);
    for (uint64_t g = 0; g < l.workgroups.rows; ++g) {
      if (ti) lp.groups[g].thread_insts = (*ti)[g];
      if (wi) lp.groups[g].wave_insts = (*wi)[g];
      if (mr) lp.groups[g].mem_reqs = (*mr)[g];
    }
    out.launches.push_back(std::move(lp));
  }
  return out;
}

}  // namespace strobe::sampling::tbpoint
