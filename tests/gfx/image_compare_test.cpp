// Frames as images: PNM writing and reading (round trips, streams of several images, corrupt
// and unsupported input), the metrics comparing two images, and glretrace's real snapshots of
// the small capture read back.
#include "gfx/pipeline/image_compare.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/atomic_file.h"
#include "common/error.h"
#include "gfx/trace_builder.h"

namespace strobe::gfx {
namespace {

namespace fs = std::filesystem;
using trace::TempFile;
using namespace std::string_literals;

// A target whose pixel (x, y) is (x, y, 10 * x + y, 200).
RenderTarget gradient(int w, int h) {
  RenderTarget rt(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      uint8_t* p = rt.pixel(x, y);
      p[0] = uint8_t(x), p[1] = uint8_t(y), p[2] = uint8_t(10 * x + y), p[3] = 200;
    }
  return rt;
}

// An RGB image of w x h pixels all of `value`.
Image flat(int w, int h, uint8_t value) { return Image{w, h, 3, std::vector<uint8_t>(size_t(w * h * 3), value)}; }

// The message of the exception `f` throws as E, or a failure when it throws nothing.
template <typename E, typename F>
std::string error_of(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

TEST(ImageOf, FlipsToTopRowFirstAndDropsAlpha) {
  const Image img = image_of(gradient(3, 2));
  EXPECT_EQ(img.width, 3);
  EXPECT_EQ(img.height, 2);
  EXPECT_EQ(img.channels, 3);
  ASSERT_EQ(img.pixels.size(), 18u);
  // The first row of the image is the target's top row, y = 1.
  EXPECT_EQ(std::vector<uint8_t>(img.pixels.begin(), img.pixels.begin() + 9),
            (std::vector<uint8_t>{0, 1, 1, 1, 1, 11, 2, 1, 21}));
}

TEST(WritePpm, WritesBinaryP6TopRowFirst) {
  const fs::path path = fs::temp_directory_path() / ("strobe-gfx-ppm-" + std::to_string(::getpid()) + ".ppm");
  write_ppm(path.string(), gradient(3, 2));
  const std::string bytes = read_file(path.string());
  fs::remove(path);
  const std::string header = "P6\n3 2\n255\n";
  ASSERT_EQ(bytes.size(), header.size() + 18);
  EXPECT_EQ(bytes.substr(0, header.size()), header);
  EXPECT_EQ(uint8_t(bytes[header.size() + 1]), 1) << "top row first";
}

TEST(WritePpm, RoundTripsThroughReadPnmStream) {
  const fs::path path = fs::temp_directory_path() / ("strobe-gfx-rt-" + std::to_string(::getpid()) + ".ppm");
  const RenderTarget rt = gradient(17, 5);
  write_ppm(path.string(), rt);
  const auto images = read_pnm_stream(path.string());
  fs::remove(path);
  ASSERT_EQ(images.size(), 1u);
  const Image expected = image_of(rt);
  EXPECT_EQ(images[0].width, expected.width);
  EXPECT_EQ(images[0].height, expected.height);
  EXPECT_EQ(images[0].channels, 3);
  EXPECT_EQ(images[0].pixels, expected.pixels);
}

TEST(PnmBytes, EmptyImageRoundTrips) {
  const auto back = parse_pnm_stream(pnm_bytes(image_of(RenderTarget(0, 0))), "mem");
  ASSERT_EQ(back.size(), 1u);
  EXPECT_EQ(back[0].width, 0);
  EXPECT_TRUE(back[0].pixels.empty());
}

TEST(PnmBytes, GreyRgbAndRgbaRoundTrip) {
  for (int channels : {1, 3, 4}) {
    Image img{2, 3, channels, {}};
    for (int k = 0; k < 6 * channels; ++k) img.pixels.push_back(uint8_t(k * 7));
    const auto back = parse_pnm_stream(pnm_bytes(img), "mem");
    ASSERT_EQ(back.size(), 1u) << channels;
    EXPECT_EQ(back[0].channels, channels);
    EXPECT_EQ(back[0].pixels, img.pixels) << channels;
  }
}

TEST(ReadPnmStream, ReadsConcatenatedImagesAsGlretraceWritesThem) {
  // glretrace: "P6\n#<call>\n<w> <h>\n255\n" per frame, back to back; then a P5, whitespace and a PAM.
  std::string s = "P6\n#2499\n2 1\n255\n\x01\x02\x03\x04\x05\x06";
  s += "P6\n#2514\n1 1\n255\n\xff\x00\x7f"s;
  s += "P5\n1 2\n255\n\x09\x0a";
  s += "\n\n";
  s += "P7\n# a PAM\nWIDTH 1\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n\x01\x02\x03\x04";
  const TempFile f("stream.pnm", s);
  const auto images = read_pnm_stream(f.path());
  ASSERT_EQ(images.size(), 4u);
  EXPECT_EQ(images[0].width, 2);
  EXPECT_EQ(images[0].pixels, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(images[1].pixels, (std::vector<uint8_t>{255, 0, 127}));
  EXPECT_EQ(images[2].channels, 1);
  EXPECT_EQ(images[2].height, 2);
  EXPECT_EQ(images[2].pixels, (std::vector<uint8_t>{9, 10}));
  EXPECT_EQ(images[3].channels, 4);
  EXPECT_EQ(images[3].pixels, (std::vector<uint8_t>{1, 2, 3, 4}));
}

TEST(ReadPnmStream, AcceptsCommentsBetweenAnyHeaderFields) {
  // A pixel byte that looks like whitespace (0x0a) right after the header must stay a pixel.
  const auto images = parse_pnm_stream("P6 # magic\n1# w\n#h next\n1\t# m\n255\n\x0a\x0b\x0c", "mem");
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(images[0].pixels, (std::vector<uint8_t>{10, 11, 12}));
}

TEST(ReadPnmStream, EmptyFileHoldsNoImages) {
  const TempFile f("empty.pnm", "");
  EXPECT_TRUE(read_pnm_stream(f.path()).empty());
}

TEST(ReadPnmStream, MissingFileIsAnInputErrorNamingIt) {
  const std::string msg = error_of<InputError>([] { read_pnm_stream("/nonexistent/strobe.pnm"); });
  EXPECT_NE(msg.find("/nonexistent/strobe.pnm"), std::string::npos) << msg;
}

TEST(ReadPnmStream, TruncatedPixelsNameTheFileTheImageAndTheReason) {
  const std::string good = "P6\n1 1\n255\nabc";
  const TempFile f("truncated.pnm", good + "P6\n2 2\n255\nabcdef");
  const std::string msg = error_of<InputError>([&] { read_pnm_stream(f.path()); });
  EXPECT_NE(msg.find(f.path()), std::string::npos) << msg;
  EXPECT_NE(msg.find("image 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("truncated"), std::string::npos) << msg;
}

TEST(ReadPnmStream, CorruptHeadersAreInputErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"Q6\n1 1\n255\nabc", "not a PNM image"},
      {"P9\n1 1\n255\nabc", "not a PNM image"},
      {"P6\nx 1\n255\nabc", "width is not a number"},
      {"P61 1\n255\nabc", "no whitespace after the magic number"},
      {"P6\n1", "header ends before the height"},
      {"P6\n99999999 99999999\n255\n", "outside 0.."},
      {"P6\n1 1\n0\nabc", "maxval 0"},
      {"P6\n1 1\n255", "no whitespace after maxval"},
      {"P6\n1 1 255\nabc\x01", "not a PNM image"},  // trailing byte read as a second image
      {"P7\nWIDTH 1\nHEIGHT 1\nDEPTH 3\nMAXVAL 255\n", "no ENDHDR"},
      {"P7\nWIDTH 1\nHEIGHT 1\nMAXVAL 255\nENDHDR\n", "lacks"},
      {"P7\nWIDTH one\nENDHDR\n", "not a number"},
      {"P7\nCOLOUR 1\nENDHDR\n", "unknown PAM header line"},
  };
  for (const auto& [bytes, reason] : cases) {
    const std::string msg = error_of<InputError>([&] { parse_pnm_stream(bytes, "bad.pnm"); });
    EXPECT_NE(msg.find(reason), std::string::npos) << "for " << bytes << ": " << msg;
    EXPECT_NE(msg.find("bad.pnm: image "), std::string::npos) << msg;
  }
}

TEST(ReadPnmStream, ValidFormatsItDoesNotReadAreNotImplemented) {
  for (const char* bytes : {"P6\n1 1\n65535\nabcdef", "P3\n1 1\n255\n1 2 3\n", "Pf\n#2499\n1 1\n1\n\0\0\0\0",
                            "P7\nWIDTH 1\nHEIGHT 1\nDEPTH 2\nMAXVAL 255\nENDHDR\nab"}) {
    const std::string msg = error_of<NotImplementedError>([&] { parse_pnm_stream(bytes, "odd.pnm"); });
    EXPECT_NE(msg.find("odd.pnm: image 0"), std::string::npos) << msg;
  }
}

TEST(CompareImages, IdenticalImagesHaveNoErrorAndInfinitePsnr) {
  const ImageDiff d = compare_images(flat(4, 4, 77), flat(4, 4, 77), 8);
  EXPECT_EQ(d.mean_abs_error, 0);
  EXPECT_EQ(d.psnr_db, std::numeric_limits<double>::infinity());
  EXPECT_EQ(d.bad_pixel_fraction, 0);
  EXPECT_EQ(d.max_channel_diff, 0);
  EXPECT_EQ(d.threshold, 8);
  EXPECT_NE(describe(d).find("PSNR inf dB"), std::string::npos) << describe(d);
}

TEST(CompareImages, OnePixelOffBy20IsOneBadPixelInN) {
  Image a = flat(4, 4, 100), b = flat(4, 4, 100);
  b.pixels[3 * 5 + 1] = 120;  // pixel 5, green
  const ImageDiff d = compare_images(a, b, 8);
  EXPECT_DOUBLE_EQ(d.bad_pixel_fraction, 1.0 / 16);
  EXPECT_EQ(d.max_channel_diff, 20);
  EXPECT_DOUBLE_EQ(d.mean_abs_error, 20.0 / 48);
  EXPECT_NEAR(d.psnr_db, 10 * std::log10(255.0 * 255.0 / (400.0 / 48)), 1e-9);
  EXPECT_EQ(compare_images(a, b, 20).bad_pixel_fraction, 0) << "a difference equal to the threshold is not bad";
  EXPECT_EQ(describe(d), "MAE 0.4167, PSNR 38.92 dB, max diff 20, 6.250% of pixels off by more than 8");
}

TEST(CompareImages, RgbAgainstRgbaComparesColourOnly) {
  Image rgba{1, 1, 4, {10, 20, 30, 0}};
  Image rgb{1, 1, 3, {10, 20, 30}};
  EXPECT_EQ(compare_images(rgba, rgb, 0).max_channel_diff, 0);
  EXPECT_EQ(compare_images(rgb, rgba, 0).max_channel_diff, 0);
}

TEST(CompareImages, DifferentSizesOrChannelsAreInputErrors) {
  const std::string msg = error_of<InputError>([] { compare_images(flat(4, 4, 0), flat(4, 3, 0), 8); });
  EXPECT_NE(msg.find("4x4 against 4x3"), std::string::npos) << msg;
  EXPECT_THROW(compare_images(Image{1, 1, 1, {0}}, flat(1, 1, 0), 8), InputError);
  EXPECT_THROW(compare_images(Image{2, 2, 3, {0}}, flat(2, 2, 0), 8), InputError) << "pixels too short";
}

// glretrace replays the small capture on llvmpipe and writes each frame to stdout as PNM: these
// must read as one RGB image per frame (12 frames at 160x120).
TEST(GlretraceSnapshots, ReadAsOneRgbImagePerFrame) {
  const std::string trace = STROBE_BUILD_DIR "/gfx-traces/glmark2-small.trace";
  ASSERT_TRUE(fs::exists(trace)) << trace << " is missing: capture it with `scripts/capture-gfx glmark2-small "
                                 << STROBE_BUILD_DIR "/gfx-traces` (scripts/setup does)";
  const std::string out = (fs::temp_directory_path() / ("strobe-gfx-retrace-" + std::to_string(::getpid()))).string();
  // A fresh virtual display as scripts/capture-gfx uses; -a can lose a race for a display number
  // to another X server starting at the same moment, so one retry.
  const std::string command = "xvfb-run -a -s '-screen 0 1024x768x24' timeout 300 glretrace -s - "
                              "--snapshot-format=PNM '" + trace + "' > '" + out + ".pnm' 2> '" + out + ".log'";
  int status = std::system(command.c_str());
  if (status != 0) status = std::system(command.c_str());
  const std::string log = read_file(out + ".log");
  ASSERT_EQ(status, 0) << command << " failed (xvfb and apitrace come from scripts/setup):\n" << log;
  const auto images = read_pnm_stream(out + ".pnm");
  fs::remove(out + ".pnm");
  fs::remove(out + ".log");
  ASSERT_EQ(images.size(), 12u);
  for (const Image& img : images) {
    EXPECT_EQ(img.width, 160);
    EXPECT_EQ(img.height, 120);
    EXPECT_EQ(img.channels, 3);
  }
  // Frames differ (the scene moves), so these are renderings rather than one repeated buffer.
  EXPECT_GT(compare_images(images.front(), images.back(), 0).bad_pixel_fraction, 0.01);
}

}  // namespace
}  // namespace strobe::gfx
