// Blending of a fragment's colour into an RGBA8 unorm pixel, as the GL specifies it for
// fixed-point colour buffers. The GL enums are decoded once per draw into a BlendState, so the
// per-fragment blend_pixel is a few switches on small enums.
#pragma once

#include <array>
#include <cstdint>

#include "gfx/stream/gl_state.h"

namespace strobe::gfx {

/// A blend factor, decoded from its GL enum (GL_ZERO, GL_ONE, GL_SRC_COLOR ... GL_SRC_ALPHA_SATURATE).
enum class BlendFactor : uint8_t {
  Zero,
  One,
  SrcColor,
  OneMinusSrcColor,
  SrcAlpha,
  OneMinusSrcAlpha,
  DstAlpha,
  OneMinusDstAlpha,
  DstColor,
  OneMinusDstColor,
  SrcAlphaSaturate,
};

/// A blend equation, decoded from its GL enum (GL_FUNC_ADD ... GL_MAX).
enum class BlendEquation : uint8_t { Add, Subtract, ReverseSubtract, Min, Max };

/// What blending does to one draw's fragments.
struct BlendState {
  bool enabled = false;  ///< off: the (clamped) source colour is written as it is
  BlendFactor src_rgb = BlendFactor::One, dst_rgb = BlendFactor::Zero;
  BlendFactor src_alpha = BlendFactor::One, dst_alpha = BlendFactor::Zero;
  /// Separate for glBlendEquationSeparate; GlFixed tracks one equation, so both are equal today.
  BlendEquation equation_rgb = BlendEquation::Add, equation_alpha = BlendEquation::Add;
  std::array<bool, 4> color_mask{true, true, true, true};  ///< R, G, B, A written
};

/// The factor a GL blend-factor enum names. The constant-colour factors (GL_CONSTANT_COLOR ...
/// GL_ONE_MINUS_CONSTANT_ALPHA) and the dual-source ones (GL_SRC1_*) are NotImplementedError,
/// any other value an InputError; both name the enum in hex.
BlendFactor blend_factor(uint32_t gl_enum);

/// The equation a GL blend-equation enum names; an unknown one is an InputError naming it in hex.
BlendEquation blend_equation(uint32_t gl_enum);

/// The blend state of a draw made with fixed-function state `f`. Factors and equation are
/// decoded (and so refused, see blend_factor) only when blending is enabled: with it off the
/// GL never reads them.
BlendState blend_state(const GlFixed& f);

/// Writes fragment colour `src` (RGBA, any float) into `dst` (RGBA8 unorm): the source is
/// clamped to [0,1]; with blending on, source and destination are weighted by their factors and
/// combined by the equation; the result is clamped, rounded to the nearest unorm8, and written
/// only to the channels the colour mask enables. No allocation, no lookups: called per fragment.
void blend_pixel(const BlendState& s, const float src[4], uint8_t dst[4]);

/// The same into a floating-point target (GL_RGBA16F, ...): nothing is clamped or quantised, as
/// the GL specifies for floating-point buffers (strobe keeps 32-bit floats, so an RGBA16F target
/// holds more precision than the GL's).
void blend_pixel_float(const BlendState& s, const float src[4], float dst[4]);

}  // namespace strobe::gfx
