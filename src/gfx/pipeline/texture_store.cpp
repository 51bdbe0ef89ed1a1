#include "gfx/pipeline/texture_store.h"

#include <cstring>

#include <fmt/format.h>

#include "emu/memory.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kDepthComponent = 0x1902, kGlNearest = 0x2600, kGlLinear = 0x2601;

bool is_depth(const GlTexture& t) { return !t.levels.empty() && t.levels[0].format == kDepthComponent; }

}  // namespace

TextureImage depth_texture_image(const RenderTarget& depth, const GlTexture& state, const std::string& name) {
  (void)name;
  TextureImage r;
  r.image.data_format = emu::ImgDataFormat::F32;
  r.image.num_format = emu::ImgNumFormat::Float;
  r.image.dst_sel = {emu::SqSel::X, emu::SqSel::X, emu::SqSel::X, emu::SqSel::One};
  r.image.width = r.image.pitch = uint32_t(std::max(depth.width, 1));
  r.image.height = uint32_t(std::max(depth.height, 1));
  r.bytes.assign(emu::image_bytes(r.image), 0);
  if (!depth.depth.empty()) std::memcpy(r.bytes.data(), depth.depth.data(), depth.depth.size() * sizeof(float));
  // One level: a rendered depth buffer has no mipmaps, so a mipmapping filter samples level 0.
  GlTexture level0 = state;
  if (level0.min_filter != kGlNearest) level0.min_filter = kGlLinear;
  level0.generate_mipmap = false;
  r.sampler = gl_sampler_desc(level0);
  return r;
}

TextureStore::Entry& TextureStore::convert(const std::shared_ptr<const GlTexture>& t, const Surfaces& surfaces) {
  if (!t) {
    if (!none_) {
      none_ = std::make_unique<Entry>();
      none_->image = texture_image(GlTexture{}, "no texture");  // incomplete: samples (0, 0, 0, 1)
    }
    return *none_;
  }
  const std::string name = fmt::format("texture {}", t->name);
  const Surfaces::Surface* rendered =
      is_depth(*t) ? surfaces.rendered_depth(t->name, t->version) : surfaces.rendered_color(t->name, t->version);
  const uint64_t version = rendered ? rendered->version : 0;
  auto it = entries_.find(t.get());
  if (it != entries_.end() && it->second.rendered == version) return it->second;
  Entry e;
  e.owner = t;
  e.rendered = version;
  if (is_depth(*t)) {
    e.image = depth_texture_image(rendered ? rendered->rt : RenderTarget(int(t->levels[0].width), int(t->levels[0].height)),
                                  *t, name);
  } else if (rendered) {
    e.image = texture_image_from_rgba8(uint32_t(rendered->rt.width), uint32_t(rendered->rt.height),
                                       rendered->rt.color.data(), *t, name);
  } else {
    e.image = texture_image(*t, name);
  }
  return entries_.insert_or_assign(t.get(), std::move(e)).first->second;
}

TextureDescriptors TextureStore::bind(const std::shared_ptr<const GlTexture>& t, const Surfaces& surfaces,
                                      emu::GlobalMemory& mem) {
  Entry& e = convert(t, surfaces);
  if (!e.placed) {
    e.placed = mem.allocate(e.image.bytes.size(), 256, "texture");
    mem.write(e.placed, e.image.bytes.data(), e.image.bytes.size());
  }
  emu::ImageDesc image = e.image.image;
  image.base = e.placed;
  return TextureDescriptors{image.encode(), e.image.sampler.encode()};
}

void TextureStore::new_frame() {
  if (none_) none_->placed = 0;
  for (auto it = entries_.begin(); it != entries_.end();) {
    if (it->second.owner.use_count() == 1) {
      it = entries_.erase(it);
    } else {
      it->second.placed = 0;
      ++it;
    }
  }
}

}  // namespace strobe::gfx
