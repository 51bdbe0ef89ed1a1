// The standing fuzz harness for every kind of file strobe reads (docs/robustness.md): the mutators
// and the loop that requires each mutant to be read or refused by name. Each kind starts from a
// real file strobe wrote (or ships), mutated deterministically (bit flips, boundary bytes,
// truncations, deletions, duplications, insertions, and for text huge or negative numbers), and
// every mutant must be read or refused with InputError (or, for input strobe does not support
// yet, NotImplementedError): any other exception fails the test, with the mutant saved for
// replay, and a crash fails it by itself. The loop runs under a 4 GiB address-space limit, so a
// size read from a damaged file cannot allocate without bound.
//
// Damage a reader refuses at its first check teaches little, so msgpack and JSON documents are
// also mutated field by field (TreeMutator) and encoded again; the tests of each family
// (capture_fuzz_test, method_file_fuzz_test, workload_file_fuzz_test, study_file_fuzz_test) reach
// further: sealing a capture's index again, replaying captures and running methods on what reads.
//
// The counts are the CI's short run. STROBE_FUZZ_SCALE=N multiplies them, and STROBE_FUZZ_LEAST=N
// raises every kind to at least N, for the long run (scripts/fuzz-files, which also runs them
// under AddressSanitizer). STROBE_FUZZ_VERBOSE=1 prints every refusal's message, to see which
// checks the mutants reach, and keeps the mutant being read in /tmp/strobe-fuzz-KIND-current, for
// a crash.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace strobe::fuzz {

namespace fs = std::filesystem;

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitized = true;  // GCC's -fsanitize=address
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;  // Clang's
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

/// Mutants of a kind in one run: the short run's count `base` times STROBE_FUZZ_SCALE, and at
/// least STROBE_FUZZ_LEAST.
size_t mutants(size_t base);

/// Whether STROBE_FUZZ_VERBOSE asks for every refusal's and fault's message: how deep mutants reach.
bool verbose();

/// A deterministic mutator: 1 to 4 edits of the kinds that break a reader's assumptions.
class Mutator {
 public:
  Mutator(uint64_t seed, bool text) : rng_(seed), text_(text) {}
  std::string operator()(const std::string& in) {
    std::string s = in;
    const int edits = 1 + int(rng_() % 4);
    for (int e = 0; e < edits && !s.empty(); ++e) edit(s);
    return s;
  }

 private:
  size_t at(const std::string& s) { return size_t(rng_() % s.size()); }
  void edit(std::string& s) {
    static const char boundary[] = {'\0', '\x7f', '\x80', '\xff', '\x01', '\xfe'};
    static const char* numbers[] = {"1e62", "-1", "99999999999999999999", "4294967296", "-0", "nan", "1.5"};
    switch (rng_() % (text_ ? 8 : 7)) {
      case 0: s[at(s)] ^= char(1 << (rng_() % 8)); break;                  // a bit flipped
      case 1: s[at(s)] = boundary[rng_() % std::size(boundary)]; break;    // a boundary byte
      case 2: s.resize(at(s)); break;                                      // truncated
      case 3: {                                                            // a span deleted
        const size_t p = at(s);
        s.erase(p, 1 + rng_() % std::min<size_t>(64, s.size() - p));
        break;
      }
      case 4: {                                                            // a span duplicated
        const size_t p = at(s), n = 1 + rng_() % std::min<size_t>(64, s.size() - p);
        s.insert(p, s.substr(p, n));
        break;
      }
      case 5: {                                                            // random bytes inserted
        std::string r(1 + rng_() % 8, '\0');
        for (char& c : r) c = char(rng_());
        s.insert(at(s), r);
        break;
      }
      case 6: {                                                            // a 4-byte word set to an extreme
        if (s.size() < 4) break;
        const size_t p = at(s) & ~size_t{3};
        const uint32_t v = rng_() % 2 ? 0xffffffffu : 0x7fffffffu;
        for (size_t i = 0; i < 4 && p + i < s.size(); ++i) s[p + i] = char(v >> (8 * i));
        break;
      }
      default: {                                                           // a number made extreme (text)
        size_t p = at(s);
        while (p < s.size() && !std::isdigit(static_cast<unsigned char>(s[p]))) ++p;
        if (p == s.size()) break;
        size_t q = p;
        while (q < s.size() && (std::isdigit(static_cast<unsigned char>(s[q])) || s[q] == '.')) ++q;
        s.replace(p, q - p, numbers[rng_() % std::size(numbers)]);
      }
    }
  }
  std::mt19937_64 rng_;
  bool text_;
};

/// A structure-aware mutator of msgpack documents: 1 to 3 edits of nodes of the decoded tree (a
/// number made extreme or nudged, a string or binary's bytes changed, an array element dropped,
/// duplicated or swapped, a map's key removed, a value of another type), packed again. Byte edits
/// mostly break the encoding, which the reader refuses before any field; these keep a document
/// that parses, with fields wrong, so every field's check is reached.
class TreeMutator {
 public:
  explicit TreeMutator(uint64_t seed) : rng_(seed) {}
  std::string operator()(const std::string& msgpack) {
    nlohmann::json j = nlohmann::json::from_msgpack(msgpack);
    const int edits = 1 + int(rng_() % 3);
    for (int e = 0; e < edits; ++e) edit(pick(j));
    const std::vector<uint8_t> out = nlohmann::json::to_msgpack(j);
    return std::string(out.begin(), out.end());
  }

 private:
  /// A node: down from the root, stopping at each level with probability 1/8, or at a leaf.
  nlohmann::json& pick(nlohmann::json& j) {
    nlohmann::json* n = &j;
    while ((n->is_array() || n->is_object()) && !n->empty() && rng_() % 8 != 0) {
      auto it = n->begin();
      std::advance(it, rng_() % n->size());
      n = &*it;
    }
    return *n;
  }
  void edit(nlohmann::json& n) {
    static const nlohmann::json other[] = {nullptr, "x", -7, 1.5, nlohmann::json::array(), nlohmann::json::object(), true};
    if (rng_() % 8 == 0) {  // a value of another type
      n = other[rng_() % std::size(other)];
      return;
    }
    if (n.is_number_integer()) {
      const uint64_t v = n.is_number_unsigned() ? n.get<uint64_t>() : uint64_t(n.get<int64_t>());
      switch (rng_() % 8) {
        case 0: n = 0; break;
        case 1: n = -1; break;
        case 2: n = v + 1; break;
        case 3: n = v - 1; break;
        case 4: n = v * 2; break;
        case 5: n = v ^ (uint64_t{1} << (rng_() % 64)); break;
        case 6: n = uint64_t{UINT32_MAX} + (rng_() % 3) - 1; break;
        default: n = UINT64_MAX - rng_() % 2; break;
      }
    } else if (n.is_number_float()) {
      static const double extreme[] = {0.0, -1.0, 1e300, std::numeric_limits<double>::quiet_NaN(),
                                       std::numeric_limits<double>::infinity()};
      n = extreme[rng_() % std::size(extreme)];
    } else if (n.is_string()) {
      std::string t = n.get<std::string>();
      if (!t.empty() && rng_() % 2) t.resize(rng_() % t.size());
      else t += char(rng_());
      n = t;
    } else if (n.is_binary()) {
      auto& b = n.get_binary();
      if (b.empty() || rng_() % 4 == 0) b.resize(b.empty() ? 1 : rng_() % b.size());
      else if (rng_() % 2) b[rng_() % b.size()] ^= uint8_t(1 << (rng_() % 8));
      else for (size_t k = rng_() % b.size() & ~size_t{3}, e = std::min(k + 4, b.size()); k < e; ++k) b[k] = 0xff;
    } else if (n.is_boolean()) {
      n = !n.get<bool>();
    } else if (n.is_array() && !n.empty()) {
      const size_t i = rng_() % n.size(), k = rng_() % n.size();
      switch (rng_() % 3) {
        case 0: n.erase(i); break;
        case 1: n.insert(n.begin() + std::ptrdiff_t(i), n[i]); break;
        default: std::swap(n[i], n[k]); break;
      }
    } else if (n.is_object() && !n.empty()) {
      auto it = n.begin();
      std::advance(it, rng_() % n.size());
      n.erase(it);
    } else {
      n = 0;
    }
  }
  std::mt19937_64 rng_;
};

/// Runs `read` on `count` mutants of `seed`: each must be read or refused with InputError (or
/// NotImplementedError), and none may leave a file descriptor open.
/// Returns how many were refused; fails naming the first other exception, its mutant saved.
size_t fuzz(const std::string& kind, const std::string& seed, const std::function<std::string(const std::string&)>& mutate,
            size_t count, const std::function<void(const std::string&)>& read);

/// fuzz() with the byte mutator, seeded by the kind's name.
size_t fuzz(const std::string& kind, const std::string& seed, bool text, size_t count,
            const std::function<void(const std::string&)>& read);

/// A mutator for msgpack documents: byte edits (Mutator) and tree edits (TreeMutator) in turn,
/// seeded by the kind's name.
std::function<std::string(const std::string&)> msgpack_mutator(const std::string& kind);

/// The same for JSON documents: text edits (Mutator) and tree edits in turn, the tree edited
/// through its msgpack form and written back as JSON text.
std::function<std::string(const std::string&)> json_mutator(const std::string& kind);

/// Writes `bytes` to `path` and returns the path.
std::string put(const fs::path& path, const std::string& bytes);

}  // namespace strobe::fuzz
