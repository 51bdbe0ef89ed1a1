// The functional pipeline's images of a real capture against glretrace's (Mesa's llvmpipe) images
// of the same frames: glmark2's horse, a mipmapped textured cube and a phong-shaded asteroid
// (scripts/capture-gfx glmark2-small, which also renders the reference; scripts/setup runs it).
// Rasterisation rules and fp16 colour exports may move a pixel's value a little; missing
// geometry, textures or lighting move many pixels a lot, which the thresholds catch.
#include <filesystem>

#include <gtest/gtest.h>

#include "gfx/pipeline/image_compare.h"
#include "gfx/pipeline/renderer.h"

namespace strobe::gfx {
namespace {

namespace fs = std::filesystem;

const std::string kTrace = STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";
const std::string kReference = STROBE_BUILD_DIR "/gfx-traces/glmark2-small.ref.pnm";

// A pixel counts as wrong when a channel is off by more than this many 8-bit steps.
constexpr int kThreshold = 16;
// At most this fraction of a frame's pixels may be wrong.
constexpr double kMaxBadFraction = 0.01;

TEST(RenderReference, EveryFrameOfTheSmallGlmark2CaptureMatchesGlretrace) {
  ASSERT_TRUE(fs::exists(kTrace) && fs::exists(kReference))
      << kTrace << " or its reference images are missing: run `scripts/capture-gfx glmark2-small " STROBE_BUILD_DIR
         "/gfx-traces` (scripts/setup does)";
  const std::vector<Image> reference = read_pnm_stream(kReference);
  ASSERT_EQ(reference.size(), 12u);
  size_t frames = 0;
  uint64_t textured = 0;
  render_trace(kTrace, {FrameRange{0, 11}}, RendererOptions{}, [&](const FrameStats& s, const Renderer& r) {
    const ImageDiff d = compare_images(image_of(r.window()), reference[frames], kThreshold);
    EXPECT_LE(d.bad_pixel_fraction, kMaxBadFraction) << "frame " << s.frame << ": " << describe(d);
    EXPECT_GT(s.pixels_written, 1000u) << "frame " << s.frame << " drew almost nothing";
    textured += s.sample_lanes[2];
    ++frames;
  });
  EXPECT_EQ(frames, 12u);
  EXPECT_GT(textured, 0u) << "the texture scene's mipmapped cube samples trilinearly";
}

}  // namespace
}  // namespace strobe::gfx
