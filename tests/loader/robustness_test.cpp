// Truncated and corrupted versions of every real code object must parse or throw InputError:
// no other exception, no crash (scripts/asan-test runs this under ASan/UBSan).
//
// Mutations are deterministic (seeded per file). STROBE_LOADER_FUZZ_SCALE=N multiplies the
// per-file counts for longer runs.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>

#include "common/error.h"
#include "loader/code_object.h"
#include "loader/elf_reader.h"
#include "loader/loader_test_support.h"

namespace strobe::loader {
namespace {

using namespace testing;
using Image = std::vector<uint8_t>;

struct Range {
  uint64_t begin, end;
};

/// The bytes a parser actually interprets (headers, tables, notes, strings, descriptors):
/// mutating machine code would only test that code is copied.
std::vector<Range> structural_ranges(const Image& img) {
  const ElfHeader h = read_elf_header(img);
  const ElfFile elf(img, h);
  std::vector<Range> out{{0, 64}, {h.phoff, h.phoff + uint64_t{h.phnum} * 56}, {h.shoff, h.shoff + uint64_t{h.shnum} * 64}};
  for (const ElfSection& s : elf.sections())
    if (s.type != elf::SHT_NOBITS && s.size > 0 && !(s.flags & elf::SHF_EXECINSTR)) out.push_back({s.offset, s.offset + s.size});
  // v2 descriptors (amd_kernel_code_t) live at the start of each kernel in .text.
  const CodeObject co = CodeObject::parse(img, "original");
  const ElfSection* text = elf.find_section(".text");
  if (co.version() == 2 && text)
    for (const KernelInfo& k : co.kernels()) {
      const uint64_t off = text->offset + (k.descriptor_address - co.text_address());
      out.push_back({off, off + 256});
    }
  return out;
}

int scale() {
  const char* s = std::getenv("STROBE_LOADER_FUZZ_SCALE");
  return s ? std::max(1, std::atoi(s)) : 1;
}

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 1469598103934665603ull;
  for (char c : s) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  return h;
}

/// Parses one mutant; returns false (after recording a failure) if anything but InputError escapes.
bool parse_survives(const Image& mutant, const std::string& what) {
  try {
    const CodeObject co = CodeObject::parse(mutant, "mutant");
    // A successful parse must give accessors that stay in bounds.
    for (const KernelInfo& k : co.kernels()) {
      const auto code = co.code(k);
      EXPECT_EQ(code.size(), k.code_size) << what;
      volatile uint8_t sink = 0;
      for (uint8_t b : code) sink = sink ^ b;
      (void)co.bytes_at(k.descriptor_address, co.version() == 2 ? 256 : 64);
      for (const KernelArg& a : k.args) EXPECT_LE(uint64_t{a.offset} + a.size, k.kernarg_segment_size) << what;
    }
    (void)co.text();
  } catch (const InputError&) {
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": escaped a " << typeid(e).name() << ": " << e.what();
    return false;
  } catch (...) {
    ADD_FAILURE() << what << ": escaped a non-standard exception";
    return false;
  }
  return true;
}

TEST(LoaderRobustness, TruncatedAndCorruptedCodeObjectsOnlyThrowInputError) {
  const auto files = all_code_objects();
  ASSERT_FALSE(files.empty());
  const int k = scale();
  const int truncations = 24 * k, bit_flips = 160 * k, word_smashes = 64 * k, text_edits = 48 * k;
  // Values that sit on the edges of offsets, sizes and counts.
  const uint64_t edges[] = {0, 1, 0x7F, 0x80, 0xFF, 0xFFFF, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF,
                            0xFFFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0xFFFFFFFFFFFFFFF0ull};
  // Characters that change the meaning of YAML text and msgpack headers.
  const uint8_t specials[] = {':', ' ', '-', '\n', '\t', '[', ']', '{', '\'', '"', '#', '&', '|', 0,
                              0xC1, 0xDC, 0xDD, 0xDE, 0xDF, 0x9F, 0x8F, 0xBF, 0xDB, 0xC6};
  size_t parsed = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& path : files) {
    const Image original = read_bytes(path);
    const std::string name = path.filename().string();
    std::mt19937_64 rng(fnv1a(name) ^ original.size());
    const std::vector<Range> ranges = structural_ranges(original);
    auto pick = [&](uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng); };
    // Half of the positions land in structural bytes, half anywhere.
    auto position = [&]() -> uint64_t {
      if (pick(2) == 0) return pick(original.size());
      const Range& r = ranges[pick(ranges.size())];
      const uint64_t end = std::min<uint64_t>(r.end, original.size());
      return r.begin < end ? r.begin + pick(end - r.begin) : pick(original.size());
    };
    bool ok = true;
    for (int i = 0; ok && i < truncations; ++i) {
      const uint64_t len = i < 8 ? original.size() - 1 - i : pick(original.size());
      ok = parse_survives(Image(original.begin(), original.begin() + len), name + " truncated to " + std::to_string(len));
      ++parsed;
    }
    for (int i = 0; ok && i < bit_flips; ++i) {
      Image m = original;
      const int flips = 1 + static_cast<int>(pick(8));
      for (int f = 0; f < flips; ++f) m[position()] ^= static_cast<uint8_t>(1u << pick(8));
      ok = parse_survives(m, name + " bit flip #" + std::to_string(i));
      ++parsed;
    }
    for (int i = 0; ok && i < word_smashes; ++i) {
      Image m = original;
      const uint64_t at = position();
      const uint64_t v = edges[pick(std::size(edges))] + (pick(4) == 0 ? pick(512) : 0);
      const size_t width = size_t{1} << pick(4);  // 1, 2, 4 or 8 bytes
      for (size_t b = 0; b < width && at + b < m.size(); ++b) m[at + b] = static_cast<uint8_t>(v >> (8 * b));
      ok = parse_survives(m, name + " word smash #" + std::to_string(i));
      ++parsed;
    }
    for (int i = 0; ok && i < text_edits; ++i) {
      Image m = original;
      const int edits = 1 + static_cast<int>(pick(4));
      for (int e = 0; e < edits; ++e) m[position()] = specials[pick(std::size(specials))];
      ok = parse_survives(m, name + " text edit #" + std::to_string(i));
      ++parsed;
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("[ loader robustness ] %zu mutants of %zu code objects in %.2f s\n", parsed, files.size(), seconds);
  RecordProperty("mutants", static_cast<int>(parsed));
}

}  // namespace
}  // namespace strobe::loader
