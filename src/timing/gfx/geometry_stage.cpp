#include "timing/gfx/geometry_stage.h"

#include <algorithm>

#include <fmt/format.h>

#include "timing/engine/events.h"
#include "timing/gfx/tbr_addresses.h"

namespace strobe::timing {

using namespace tbr;

void GeometryStage::begin(const PassWork& pass, Spi& spi) {
  pass_ = &pass;
  vs_left_.assign(pass.draws.size(), 0);
  for (uint32_t d = 0; d < pass.draws.size(); ++d) {
    const ShaderWork& vs = pass.draws[d].vs;
    vs_left_[d] = vs.waves;
    for (uint32_t k = 0; k < vs.waves; ++k) spi.enqueue(vs, k, LaunchRef{false, d, 0, 0});
  }
  next_ = 0;
  busy_ = false;
  lines_ = 0;
}

void GeometryStage::try_setup(Cycle now) {
  if (busy_ || next_ >= pass_->draws.size() || vs_left_[next_]) return;
  const DrawWork& d = pass_->draws[next_];
  uint64_t bins = 0;
  for (const TileWork& tw : d.tiles) bins += tw.bin_entries;
  const uint64_t cycles = std::max(div_up(d.primitives, p_.prims_per_cycle), div_up(bins, p_.bins_per_cycle));
  c_.primitives += d.primitives;
  c_.bin_entries += bins;
  c_.setup_busy += cycles;
  busy_ = true;
  engine_.schedule(now + cycles, &owner_, kGfxSetupDone);
}

void GeometryStage::setup_done(Cycle now) {
  const DrawWork& d = pass_->draws[next_];
  ++progress_;
  // The tiler appends the draw's entries to each tile's list.
  for (const TileWork& tw : d.tiles) {
    const uint64_t bytes = uint64_t(tw.bin_entries) * p_.bin_entry_bytes;
    if (!bytes) continue;
    lines_ += bins_.append(tw.tile, bytes, kGeometryTag, now);
    c_.bin_bytes_written += bytes;
  }
  busy_ = false;
  ++next_;
  try_setup(now);
}

std::string GeometryStage::describe() const {
  return fmt::format("setup at draw {} ({}), {} tiler writes outstanding", next_, busy_ ? "busy" : "waiting", lines_);
}

}  // namespace strobe::timing
