#include "gfx/pipeline/texture_store.h"

#include <cstring>

#include <fmt/format.h>

#include "emu/memory.h"

namespace strobe::gfx {
namespace {

constexpr uint32_t kDepthComponent = 0x1902, kGlNearest = 0x2600, kGlLinear = 0x2601;

bool is_depth(const GlTexture& t) { return !t.levels.empty() && t.levels[0].format == kDepthComponent; }

}  // namespace

TextureImage float_texture_image(const RenderTarget& rt, const GlTexture& state, const std::string& name) {
  const bool mipmapped = state.min_filter >= 0x2700 && state.min_filter <= 0x2703;  // the *_MIPMAP_* filters
  // Only level 0 was rendered: without glGenerateMipmap a mipmapping filter has no chain.
  if (mipmapped && !state.generate_mipmap) return texture_image(GlTexture{}, name);
  std::vector<std::vector<float>> levels{rt.color_f};
  std::vector<std::array<uint32_t, 2>> sizes{{uint32_t(rt.width), uint32_t(rt.height)}};
  while (mipmapped && (sizes.back()[0] > 1 || sizes.back()[1] > 1)) {
    const auto [w, h] = sizes.back();
    const uint32_t nw = std::max(1u, w / 2), nh = std::max(1u, h / 2);
    const std::vector<float>& src = levels.back();
    std::vector<float> next(size_t(nw) * nh * 4);
    for (uint32_t y = 0; y < nh; ++y)
      for (uint32_t x = 0; x < nw; ++x)
        for (int c = 0; c < 4; ++c) {
          // The 2x2 block's mean (a side of 1 repeats its one texel).
          float sum = 0;
          for (uint32_t k = 0; k < 4; ++k) {
            const uint32_t sx = std::min(w - 1, 2 * x + (k & 1)), sy = std::min(h - 1, 2 * y + (k >> 1));
            sum += src[(size_t(sy) * w + sx) * 4 + size_t(c)];
          }
          next[(size_t(y) * nw + x) * 4 + size_t(c)] = sum / 4;
        }
    levels.push_back(std::move(next));
    sizes.push_back({nw, nh});
  }
  TextureImage r;
  r.image.data_format = emu::ImgDataFormat::F32_32_32_32;
  r.image.num_format = emu::ImgNumFormat::Float;
  r.image.width = r.image.pitch = uint32_t(rt.width);
  r.image.height = uint32_t(rt.height);
  r.image.last_level = uint32_t(levels.size() - 1);
  if (!state.levels.empty() && state.levels[0].internal_format &&
      !gl_internal_format_has_alpha(state.levels[0].internal_format))
    r.image.dst_sel[3] = emu::SqSel::One;
  r.bytes.assign(emu::image_bytes(r.image), 0);
  for (uint32_t l = 0; l < levels.size(); ++l)
    std::memcpy(r.bytes.data() + emu::image_level_offset(r.image, l), levels[l].data(), levels[l].size() * sizeof(float));
  r.sampler = gl_sampler_desc(state);
  return r;
}

TextureImage depth_texture_image(const RenderTarget& depth, const GlTexture& state) {
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
                                  *t);
  } else if (rendered && rendered->rt.is_float) {
    e.image = float_texture_image(rendered->rt, *t, name);
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
