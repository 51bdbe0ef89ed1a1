// A draw's textures as the image instructions read them: each texture object converted once
// (texture_image.h) and kept while the trace still uses that version of it, or, after the
// pipeline rendered into it, converted from the rendered surface; placed in a frame's device
// memory once per frame, with its T# and S#.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>

#include "gfx/pipeline/surfaces.h"
#include "gfx/pipeline/texture_image.h"
#include "gfx/stream/gl_state.h"

namespace strobe::emu {
class GlobalMemory;
}

namespace strobe::gfx {

/// The descriptors a sampler binding takes.
struct TextureDescriptors {
  std::array<uint32_t, 8> image{};
  std::array<uint32_t, 4> sampler{};
};

/// Converted textures, and where the current frame placed them.
class TextureStore {
 public:
  /// Texture `t` (null: none bound, which samples (0, 0, 0, 1)) as it reads now, placed in `mem`.
  TextureDescriptors bind(const std::shared_ptr<const GlTexture>& t, const Surfaces& surfaces, emu::GlobalMemory& mem);
  /// Starts a frame in new device memory: drops every placement, and every conversion of a
  /// texture version the trace no longer holds.
  void new_frame();

 private:
  struct Entry {
    std::shared_ptr<const GlTexture> owner;  // keeps the key's address from being reused
    uint64_t rendered = 0;                   // the rendered surface's version it was made from (0: the upload)
    TextureImage image;
    uint64_t placed = 0;                     // device address this frame (0: not yet)
  };
  Entry& convert(const std::shared_ptr<const GlTexture>& t, const Surfaces& surfaces);
  std::map<const GlTexture*, Entry> entries_;
  std::unique_ptr<Entry> none_;  // the texture of an unbound unit
};

/// A floating-point colour texture's image from what was rendered into it: RGBA 32-bit float,
/// with mipmaps box-filtered when glGenerateMipmap asked for them.
TextureImage float_texture_image(const RenderTarget& rt, const GlTexture& state, const std::string& name);

/// A depth texture's image from a rendered depth buffer: one 32-bit float per texel, read as
/// (d, d, d, 1) as GL_DEPTH_COMPONENT textures sample.
TextureImage depth_texture_image(const RenderTarget& depth, const GlTexture& state);

}  // namespace strobe::gfx
