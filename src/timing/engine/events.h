// The event kinds components send each other: the protocol of the timing model in one place.
// Engine events carry a 32-bit kind and a 32-bit argument; the kind names what happened and
// the argument's meaning is fixed per kind (documented below), so a component's handle() is a
// switch over these names rather than over private integers another component must copy.
#pragma once

#include <cstdint>

namespace strobe::timing {

/// Every event kind in the model. Kinds are plain integers on the hot path (the engine stores
/// them as uint32_t); values are unique so a misrouted event is never mistaken for another.
enum Event : uint32_t {
  // Compute unit (arg: see each).
  kCuTick = 1,             ///< the CU's own wake-up; arg unused
  kCuOpDone = 2,           ///< a memory instruction with no outstanding lines completed; arg: op record
  kCuExportDone = 3,       ///< a store's data left the wave (expcnt); arg: wave slot
  kCuPredictedDone = 4,    ///< a work-group whose duration an observer predicted retires; arg: group slot
  kCuLaunch = 5,           ///< a work-group launched ahead of the CU's clock starts its waves; arg: group slot
  // Work sources (the compute dispatcher and the graphics SPI).
  kWorkgroupRetired = 10,  ///< a CU finished a work-group of this source; arg: the launch's tag
  kDispatchTry = 11,       ///< the dispatcher's own wake-up to hand out the next work-group; arg unused
  kLaunchComplete = 16,    ///< the end-of-kernel work after the last work-group is done; arg unused
  // The graphics pipeline (timing/gfx).
  kGfxSpiTry = 12,         ///< the SPI's wake-up to launch the next queued wave; arg unused
  kGfxSetupDone = 13,      ///< primitive setup and binning of the current draw finished; arg unused
  kGfxRasterStep = 14,     ///< a tile unit's rasteriser may produce its next pixel wave; arg: unit
  kGfxTileDrained = 15,    ///< a tile unit blended its tile's last wave; arg: unit
  // GPU-level samplers.
  kSample = 20,            ///< periodic sample (IPC trace, observer poll); arg: launch number
  // DRAM.
  kDramDecide = 30,        ///< a channel's scheduler picks its next command; arg: channel
  // Memory hierarchy (see mem_req.h: a response's kind also carries its line count).
  kMemRequest = 100,       ///< a request arrives; arg: its RequestPool index
  kMemResponse = 101,      ///< a response arrives (low 16 bits of the kind); arg: the requester's tag
};

/// The kind of a response answering `lines` lines.
constexpr uint32_t response_kind(uint32_t lines) { return kMemResponse | (lines << 16); }
/// True for a kMemResponse kind, whatever line count it carries.
constexpr bool is_response(uint32_t kind) { return (kind & 0xFFFF) == kMemResponse; }
/// Lines a response of this kind answers.
constexpr uint32_t response_lines(uint32_t kind) { return kind >> 16; }

}  // namespace strobe::timing
