// Frames as images, to check strobe's rendering against a reference renderer's: binary PNM
// reading and writing (what `glretrace -s - --snapshot-format=PNM` writes to stdout: P6 images,
// one per frame, each headed by a comment with its call number), and difference metrics.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gfx/pipeline/render_target.h"

namespace strobe::gfx {

/// An 8-bit image: 1 (grey), 3 (RGB) or 4 (RGBA) channels interleaved, top row first.
struct Image {
  int width = 0, height = 0, channels = 3;
  std::vector<uint8_t> pixels;  ///< width * height * channels bytes, top row first
};

/// The colour buffer of `rt` as an RGB image (alpha dropped), flipped to top row first.
Image image_of(const RenderTarget& rt);

/// `image` as one binary PNM: P5 for grey, P6 for RGB, P7 (PAM, TUPLTYPE RGB_ALPHA) for RGBA.
std::string pnm_bytes(const Image& image);

/// Writes the colour buffer of `rt` to `path` as a binary P6 PPM, top row first (flipped from
/// the GL's order), atomically; an InputError names the path when it cannot be written.
void write_ppm(const std::string& path, const RenderTarget& rt);

/// The images of a stream of concatenated binary PNMs, in order: P5 (grey), P6 (RGB) and P7 (PAM
/// with DEPTH 1 to 4), MAXVAL 255, comments anywhere in P5/P6 headers, whitespace between
/// images. Empty input is no images. Corrupt data (a bad magic, header or size, truncated
/// pixels) is an InputError naming `name`, the 0-based image index and the reason; valid PNM this
/// reader does not take (another MAXVAL, glretrace's float Pf/PF/PX depth and MRT dumps, ASCII
/// P1-P3) is a NotImplementedError named the same way.
std::vector<Image> parse_pnm_stream(std::string_view bytes, const std::string& name);

/// parse_pnm_stream of the file at `path` (for example `glretrace -s - ... > path`).
std::vector<Image> read_pnm_stream(const std::string& path);

/// How far two images are apart, over the colour channels both have.
struct ImageDiff {
  double mean_abs_error = 0;      ///< mean |a - b| per channel sample, in 0..255 units
  double psnr_db = 0;             ///< 10 log10(255^2 / MSE); +infinity for identical images
  double bad_pixel_fraction = 0;  ///< pixels where any channel differs by more than the threshold
  int max_channel_diff = 0;       ///< the largest |a - b| of any channel sample
  int threshold = 0;              ///< the threshold bad_pixel_fraction was counted with
};

/// Compares `a` and `b` channel by channel. Sizes must match (else an InputError giving both);
/// an RGB image against an RGBA one compares RGB only, other channel mismatches are InputErrors.
/// Identical images (and empty ones) have psnr_db = +infinity, as ImageMagick and ffmpeg report.
ImageDiff compare_images(const Image& a, const Image& b, int threshold);

/// One line for logs and reports, e.g. "MAE 0.0031, PSNR 61.52 dB, max diff 20, 0.052% of
/// pixels off by more than 8".
std::string describe(const ImageDiff& d);

}  // namespace strobe::gfx
