#include "sampling/gpumech/launch_trace.h"

namespace strobe::sampling::gpumech {

void LineStream::put(uint64_t v) {
  while (v >= 0x80) {
    bytes_.push_back(uint8_t(v | 0x80));
    v >>= 7;
  }
  bytes_.push_back(uint8_t(v));
}

void LineStream::append(std::span<const uint64_t> lines) {
  put(lines.size());
  for (uint64_t line : lines) {
    const int64_t d = int64_t(line - prev_);
    put((uint64_t(d) << 1) ^ uint64_t(d >> 63));  // zigzag: small steps either way stay short
    prev_ = line;
  }
}

uint64_t LineStream::Reader::varint() {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t b = s_->bytes_[at_++];
    v |= uint64_t(b & 0x7F) << shift;
    if (!(b & 0x80)) return v;
  }
}

bool LineStream::Reader::next(std::vector<uint64_t>& out) {
  if (at_ >= s_->bytes_.size()) return false;
  out.resize(varint());
  for (uint64_t& line : out) {
    const uint64_t z = varint();
    prev_ += uint64_t(int64_t(z >> 1) ^ -int64_t(z & 1));
    line = prev_;
  }
  return true;
}

int64_t LineStream::count_entries() const {
  size_t at = 0;
  // A bounds-checked varint: false when it runs past the end or past 64 bits.
  auto varint = [&](uint64_t& v) {
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (at >= bytes_.size()) return false;
      const uint8_t b = bytes_[at++];
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80)) return true;
    }
    return false;
  };
  int64_t n = 0;
  while (at < bytes_.size()) {
    uint64_t lines = 0, z = 0;
    if (!varint(lines) || lines > bytes_.size() - at) return -1;  // every line takes at least a byte
    for (uint64_t k = 0; k < lines; ++k)
      if (!varint(z)) return -1;
    ++n;
  }
  return n;
}

size_t CollectedWave::bytes() const {
  return pc.capacity() * sizeof(uint32_t) + nproducers.capacity() + producers.capacity() * sizeof(uint32_t) +
         lines.bytes() + sizeof(*this);
}

size_t LaunchTrace::bytes() const {
  size_t b = sizeof(*this);
  for (const CollectedWave& w : waves) b += w.bytes();
  return b;
}

}  // namespace strobe::sampling::gpumech
