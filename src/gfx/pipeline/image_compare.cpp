// PNM headers are parsed by hand, not with scanf: a stream holds many images back to back, and
// corrupt input must fail with the image and the reason, never read past the end. apitrace's
// writer (image/image_pnm.cpp) emits "P6\n#<call>\n<w> <h>\n255\n" and drops alpha, so P6 is
// the format that matters; P5 and P7 come along because they cost a few lines.
#include "gfx/pipeline/image_compare.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "common/atomic_file.h"
#include "common/error.h"

namespace strobe::gfx {
namespace {

// Larger sides than this are taken as corrupt headers rather than allocated.
constexpr uint64_t kMaxSide = uint64_t{1} << 20;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Reads the images of one stream, keeping the position for error messages.
class PnmParser {
 public:
  PnmParser(std::string_view bytes, const std::string& name) : b_(bytes), name_(name) {}

  std::vector<Image> images() {
    std::vector<Image> out;
    for (;;) {
      while (pos_ < b_.size() && is_space(b_[pos_])) ++pos_;
      if (pos_ == b_.size()) return out;
      out.push_back(image());
      ++index_;
    }
  }

 private:
  [[noreturn]] void corrupt(const std::string& why) const {
    throw InputError(fmt::format("{}: image {} (byte {}): {}", name_, index_, pos_, why));
  }
  [[noreturn]] void unsupported(const std::string& why) const {
    throw NotImplementedError(fmt::format("{}: image {}: {}", name_, index_, why));
  }

  Image image() {
    const size_t start = pos_;
    if (b_.size() - pos_ < 2 || b_[pos_] != 'P') corrupt(fmt::format("not a PNM image (starts {})", preview(start)));
    const char kind = b_[pos_ + 1];
    pos_ += 2;
    Image img;
    uint64_t maxval = 0;
    switch (kind) {
      case '5': case '6': {
        img.channels = kind == '5' ? 1 : 3;
        if (pos_ < b_.size() && !is_space(b_[pos_]) && b_[pos_] != '#')
          corrupt("no whitespace after the magic number");
        img.width = int(side(header_number("width")));
        img.height = int(side(header_number("height")));
        maxval = header_number("maxval");
        // Exactly one whitespace character separates the header from the pixels.
        if (pos_ == b_.size() || !is_space(b_[pos_])) corrupt("no whitespace after maxval");
        ++pos_;
        break;
      }
      case '7': pam_header(img, maxval); break;
      case '1': case '2': case '3': case '4':
        unsupported(fmt::format("P{} (ASCII or bitmap PNM); only binary P5, P6 and P7 are read", kind));
      case 'f': case 'F': case 'X':
        unsupported(fmt::format("P{} (float image, as glretrace --mrt writes for depth); only 8-bit images are read",
                                kind));
      default: pos_ = start; corrupt(fmt::format("not a PNM image (starts {})", preview(start)));
    }
    if (maxval == 0 || maxval > 65535) corrupt(fmt::format("maxval {} is outside 1..65535", maxval));
    if (maxval != 255) unsupported(fmt::format("maxval {}; only 255 is read", maxval));
    const size_t size = size_t(img.width) * size_t(img.height) * size_t(img.channels);
    if (b_.size() - pos_ < size)
      corrupt(fmt::format("truncated: {}x{}x{} needs {} bytes of pixels, {} left", img.width, img.height,
                          img.channels, size, b_.size() - pos_));
    img.pixels.assign(b_.begin() + std::ptrdiff_t(pos_), b_.begin() + std::ptrdiff_t(pos_ + size));
    pos_ += size;
    return img;
  }

  // The next header number of a P5/P6 image, after whitespace and '#' comments.
  uint64_t header_number(const char* what) {
    for (;;) {
      while (pos_ < b_.size() && is_space(b_[pos_])) ++pos_;
      if (pos_ < b_.size() && b_[pos_] == '#') {
        while (pos_ < b_.size() && b_[pos_] != '\n') ++pos_;
        continue;
      }
      break;
    }
    if (pos_ == b_.size()) corrupt(fmt::format("header ends before the {}", what));
    if (!is_digit(b_[pos_])) corrupt(fmt::format("{} is not a number (starts {})", what, preview(pos_)));
    return digits(what);
  }

  uint64_t digits(const char* what) {
    uint64_t v = 0;
    for (; pos_ < b_.size() && is_digit(b_[pos_]); ++pos_) {
      v = v * 10 + uint64_t(b_[pos_] - '0');
      if (v > std::numeric_limits<uint32_t>::max()) corrupt(fmt::format("{} is too large", what));
    }
    return v;
  }

  // Zero is allowed: write_ppm of an empty target writes it.
  uint64_t side(uint64_t v) {
    if (v > kMaxSide) corrupt(fmt::format("image side {} is outside 0..{}", v, kMaxSide));
    return v;
  }

  // A PAM header: "KEY value" lines (and '#' comments) up to ENDHDR.
  void pam_header(Image& img, uint64_t& maxval) {
    constexpr uint64_t kMissing = ~uint64_t{0};
    uint64_t width = kMissing, height = kMissing, depth = kMissing;
    maxval = kMissing;
    for (;;) {
      const size_t nl = b_.find('\n', pos_);
      if (nl == std::string_view::npos) corrupt("PAM header has no ENDHDR line");
      std::string_view line = b_.substr(pos_, nl - pos_);
      while (!line.empty() && is_space(line.front())) line.remove_prefix(1);
      while (!line.empty() && is_space(line.back())) line.remove_suffix(1);
      const size_t key_end = std::min(line.size(), line.find_first_of(" \t"));
      const std::string_view key = line.substr(0, key_end), value = line.substr(key_end);
      if (key == "ENDHDR") {
        pos_ = nl + 1;
        break;
      }
      if (!line.empty() && line[0] != '#') {
        uint64_t* field = key == "WIDTH" ? &width : key == "HEIGHT" ? &height : key == "DEPTH" ? &depth
                        : key == "MAXVAL" ? &maxval : nullptr;
        if (field) *field = pam_number(key, value);
        else if (key != "TUPLTYPE") corrupt(fmt::format("unknown PAM header line '{}'", line));
      }
      pos_ = nl + 1;
    }
    if (width == kMissing || height == kMissing || depth == kMissing || maxval == kMissing)
      corrupt("PAM header lacks WIDTH, HEIGHT, DEPTH or MAXVAL");
    if (depth == 0) corrupt("PAM depth 0");
    if (depth == 2 || depth > 4) unsupported(fmt::format("PAM depth {}; only 1, 3 and 4 are read", depth));
    img.width = int(side(width));
    img.height = int(side(height));
    img.channels = int(depth);
  }

  uint64_t pam_number(std::string_view key, std::string_view value) {
    while (!value.empty() && is_space(value.front())) value.remove_prefix(1);
    if (value.empty() || value.size() > 9 || !std::all_of(value.begin(), value.end(), is_digit))
      corrupt(fmt::format("PAM {} '{}' is not a number", key, value));
    return std::strtoull(std::string(value).c_str(), nullptr, 10);
  }

  // Up to 8 bytes from `at`, printable or escaped, for messages.
  std::string preview(size_t at) const {
    if (at >= b_.size()) return "<end of data>";
    std::string s = "'";
    for (size_t k = at; k < std::min(b_.size(), at + 8); ++k) {
      const auto c = static_cast<unsigned char>(b_[k]);
      s += (c >= 0x20 && c < 0x7f) ? std::string(1, char(c)) : fmt::format("\\x{:02x}", c);
    }
    return s + "'";
  }

  std::string_view b_;
  const std::string& name_;
  size_t pos_ = 0;
  int index_ = 0;
};

void check_pixels(const Image& img, const char* which) {
  if (img.width < 0 || img.height < 0 ||
      img.pixels.size() != size_t(img.width) * size_t(img.height) * size_t(std::max(img.channels, 0)))
    throw InputError(fmt::format("{} image {}x{}x{}: holds {} bytes of pixels", which, img.width, img.height,
                                 img.channels, img.pixels.size()));
}

}  // namespace

Image image_of(const RenderTarget& rt) {
  Image img;
  img.width = rt.width;
  img.height = rt.height;
  img.channels = 3;
  img.pixels.resize(size_t(rt.width) * size_t(rt.height) * 3);
  uint8_t* out = img.pixels.data();
  for (int y = rt.height - 1; y >= 0; --y)
    for (int x = 0; x < rt.width; ++x, out += 3) {
      if (rt.is_float) {
        for (int c = 0; c < 3; ++c) out[c] = to_unorm8(rt.pixel_f(x, y)[c]);
      } else {
        std::copy_n(rt.pixel(x, y), 3, out);
      }
    }
  return img;
}

std::string pnm_bytes(const Image& image) {
  check_pixels(image, "PNM");
  std::string header;
  switch (image.channels) {
    case 1: header = fmt::format("P5\n{} {}\n255\n", image.width, image.height); break;
    case 3: header = fmt::format("P6\n{} {}\n255\n", image.width, image.height); break;
    case 4:
      header = fmt::format("P7\nWIDTH {}\nHEIGHT {}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n", image.width,
                           image.height);
      break;
    default: throw InputError(fmt::format("PNM image with {} channels: only 1, 3 and 4 are written", image.channels));
  }
  header.append(image.pixels.begin(), image.pixels.end());
  return header;
}

void write_ppm(const std::string& path, const RenderTarget& rt) { write_file_atomic(path, pnm_bytes(image_of(rt))); }

std::vector<Image> parse_pnm_stream(std::string_view bytes, const std::string& name) {
  return PnmParser(bytes, name).images();
}

std::vector<Image> read_pnm_stream(const std::string& path) { return parse_pnm_stream(read_file(path), path); }

ImageDiff compare_images(const Image& a, const Image& b, int threshold) {
  check_pixels(a, "first");
  check_pixels(b, "second");
  if (a.width != b.width || a.height != b.height)
    throw InputError(fmt::format("images differ in size: {}x{} against {}x{}", a.width, a.height, b.width, b.height));
  int compared = a.channels;
  if (a.channels != b.channels) {
    // An RGBA reference against RGB output (or back): alpha is not visible, so compare colour.
    if (std::min(a.channels, b.channels) == 3 && std::max(a.channels, b.channels) == 4) compared = 3;
    else throw InputError(fmt::format("images differ in channels: {} against {}", a.channels, b.channels));
  }
  const size_t pixels = size_t(a.width) * size_t(a.height);
  uint64_t sum_abs = 0, sum_sq = 0, bad = 0;
  int max_diff = 0;
  for (size_t p = 0; p < pixels; ++p) {
    const uint8_t* pa = a.pixels.data() + p * size_t(a.channels);
    const uint8_t* pb = b.pixels.data() + p * size_t(b.channels);
    int worst = 0;
    for (int c = 0; c < compared; ++c) {
      const int d = std::abs(int(pa[c]) - int(pb[c]));
      sum_abs += uint64_t(d);
      sum_sq += uint64_t(d * d);
      worst = std::max(worst, d);
    }
    if (worst > threshold) ++bad;
    max_diff = std::max(max_diff, worst);
  }
  ImageDiff r;
  r.threshold = threshold;
  r.max_channel_diff = max_diff;
  const double samples = double(pixels) * double(compared);
  if (samples > 0) {
    r.mean_abs_error = double(sum_abs) / samples;
    r.bad_pixel_fraction = double(bad) / double(pixels);
  }
  const double mse = samples > 0 ? double(sum_sq) / samples : 0;
  r.psnr_db = mse > 0 ? 10 * std::log10(255.0 * 255.0 / mse) : std::numeric_limits<double>::infinity();
  return r;
}

std::string describe(const ImageDiff& d) {
  return fmt::format("MAE {:.4f}, PSNR {:.2f} dB, max diff {}, {:.3f}% of pixels off by more than {}", d.mean_abs_error,
                     d.psnr_db, d.max_channel_diff, 100 * d.bad_pixel_fraction, d.threshold);
}

}  // namespace strobe::gfx
