// PKA's feature profile: an instruction-grain collector on the shared profiling loop.
#include "sampling/pka/features.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <fmt/format.h>

#include "common/error.h"
#include "sampling/profile/profiler.h"

namespace strobe::sampling {

void PkaCounter::join(PkaCounter&& part) {
  PkaCounts& c = counts;
  const PkaCounts& p = part.counts;
  c.valu += p.valu, c.salu += p.salu, c.loads += p.loads, c.stores += p.stores;
  c.lds += p.lds, c.smem += p.smem, c.branch += p.branch, c.lines += p.lines;
}

PkaProfile pka_profile(const std::string& kernel, const emu::DispatchStats& st, const PkaCounts& c) {
  PkaProfile p;
  p.kernel = kernel;
  p.stats = st;
  p.lines = c.lines;
  const double insts = double(std::max<uint64_t>(st.wave_instructions, 1));
  const uint64_t vm = c.loads + c.stores;
  p.features = {std::log1p(double(st.wave_instructions)),
                std::log1p(double(st.thread_instructions)),
                double(st.thread_instructions) / (insts * 64.0),
                double(c.valu) / insts,
                double(c.salu) / insts,
                double(c.loads) / insts,
                double(c.stores) / insts,
                double(c.lds) / insts,
                double(c.smem) / insts,
                double(c.branch) / insts,
                vm ? double(c.lines) / double(vm) : 0.0,
                std::log1p(double(st.workgroups)),
                st.workgroups ? double(st.wavefronts) / double(st.workgroups) : 0.0};
  return p;
}

std::string encode_counts(const PkaCounts& c) {
  const uint64_t v[] = {c.valu, c.salu, c.loads, c.stores, c.lds, c.smem, c.branch, c.lines};
  return std::string(reinterpret_cast<const char*>(v), sizeof v);
}

PkaCounts decode_counts(std::string_view bytes, const std::string& what) {
  uint64_t v[8];
  if (bytes.size() != sizeof v) throw InputError(fmt::format("{}: PKA counts of {} bytes, not {} (corrupt file)", what, bytes.size(), sizeof v));
  std::memcpy(v, bytes.data(), sizeof v);
  return PkaCounts{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
}

PkaProfile profile_pka_features(const emu::Dispatch& d, emu::GlobalMemory& mem, const std::vector<timing::InstInfo>& info,
                                uint32_t line_bytes, uint32_t threads) {
  profile::Profiler profiler(line_bytes);
  PkaCounter c;
  c.info = &info;
  const emu::DispatchStats st = profiler.run_launch(d, mem, c, threads);
  return pka_profile(d.kernel_name, st, c.counts);
}

}  // namespace strobe::sampling
