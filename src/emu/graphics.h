// Graphics waves on the emulator: what a vertex or pixel shader exports (positions, parameters,
// colours), the primitive parameters its v_interp instructions read, and the texels its
// image_sample instructions fetched (mimg.cpp). The graphics pipeline sets up a Wave's registers
// from the shader's argument layout, gives it a GraphicsIo, and runs it with run_graphics_wave;
// the same handlers serve compute and graphics, and exp or v_interp in a compute kernel is a
// fault.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "emu/dispatch.h"
#include "emu/wave.h"
#include "isa/program.h"

namespace strobe::emu {

class GlobalMemory;

/// EXP targets (GCN3): colour targets, depth, the null target, positions and parameters.
inline constexpr uint8_t kExpMrt0 = 0;
inline constexpr uint8_t kExpMrtZ = 8;
inline constexpr uint8_t kExpNull = 9;
inline constexpr uint8_t kExpPos0 = 12;
inline constexpr uint8_t kExpParam0 = 32;
inline constexpr int kExpTargets = 64;

/// How one lane of an image_sample filtered, for the timing model (MEGsim weights texture
/// accesses by it): one texel, a bilinear footprint, or two mip levels blended (trilinear).
enum class TexFilterKind : uint8_t { Point = 0, Bilinear = 1, Trilinear = 2 };
inline constexpr int kTexFilterKinds = 3;

/// A graphics wave's exports, interpolation inputs and texture-fetch counters.
struct GraphicsIo {
  /// Exported channel values as f32 bits, [target][channel][lane]; a compressed (fp16) export is
  /// unpacked to f32, so every consumer reads one format. Empty: exports only mark `written`
  /// (the timing model re-runs waves whose results the functional pipeline already used).
  std::vector<uint32_t> values = std::vector<uint32_t>(size_t(kExpTargets) * 4 * kWaveSize);
  /// Channels each target received (bit c: channel c), from any export of the wave.
  std::array<uint8_t, kExpTargets> written{};
  /// Lanes that took part in an export with `done` set (the wave's last export of its kind).
  uint64_t done_lanes = 0;
  /// Pixel shaders: each lane's primitive parameters, laid out [slot][channel][3] as f32
  /// {P0, P10, P20} (P10 = P1 - P0, P20 = P2 - P0), as the parameter cache holds them.
  std::array<const float*, kWaveSize> lane_params{};
  /// Parameter slots every lane_params entry provides; attrN with N >= this is a fault.
  uint32_t param_slots = 0;
  /// image_sample lanes executed, by TexFilterKind.
  std::array<uint64_t, kTexFilterKinds> sample_lanes{};
  /// Texels those lanes read, by TexFilterKind: per lane 1 (point), 4 (bilinear) or 8
  /// (trilinear) in a 2D image; half that in a 1D image, and 2 for two point-sampled levels.
  std::array<uint64_t, kTexFilterKinds> texel_fetches{};
  /// image_sample wave instructions executed with at least one lane active.
  uint64_t sample_instructions = 0;

  /// The 64 lanes of one target's channel.
  uint32_t* lanes(int target, int channel) { return &values[(size_t(target) * 4 + channel) * kWaveSize]; }
  const uint32_t* lanes(int target, int channel) const { return &values[(size_t(target) * 4 + channel) * kWaveSize]; }
  /// Forgets every export (the values stay but are no longer marked written; the counters stay).
  void clear_exports() {
    written.fill(0);
    done_lanes = 0;
  }
};

/// Runs a graphics wave from `w.pc` until it executes s_endpgm. `w` already holds the launch
/// state (SGPR and VGPR arguments, EXEC, VGPR file). Exports land in `io`. Counts as one wave.
/// Faults (FaultError) name `shader` as a compute fault names its kernel.
DispatchStats run_graphics_wave(const isa::Program& program, Wave& w, GraphicsIo& io, GlobalMemory& mem,
                                const char* shader);

}  // namespace strobe::emu
