// The fuzz loop and the mutators' combinations (fuzz_harness.h).
#include "fuzz_harness.h"

#include <sys/resource.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <typeinfo>

#include <gtest/gtest.h>

#include "common/error.h"

namespace strobe::fuzz {
namespace {

// A damaged entry address or descriptor can send a replayed wave into a loop, which the emulator
// ends after its wave budget (emu::max_wave_instructions). The process reads the budget once:
// set it before main, far above any wave of the seeds and far below the default 2^30.
[[maybe_unused]] const bool kWaveBudget = ::setenv("STROBE_MAX_WAVE_INSTRUCTIONS", "1000000", 0) == 0;

/// A count from the environment variable `name`, or `otherwise` when it is unset or not positive.
size_t env_count(const char* name, size_t otherwise) {
  const char* s = std::getenv(name);
  const long long v = s ? std::strtoll(s, nullptr, 10) : 0;
  return v > 0 ? size_t(v) : otherwise;
}

/// File descriptors this process holds.
size_t open_fds() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

}  // namespace

size_t mutants(size_t base) {
  return std::max(base * env_count("STROBE_FUZZ_SCALE", 1), env_count("STROBE_FUZZ_LEAST", 0));
}

bool verbose() { return std::getenv("STROBE_FUZZ_VERBOSE") != nullptr; }

size_t fuzz(const std::string& kind, const std::string& seed, const std::function<std::string(const std::string&)>& mutate,
            size_t count, const std::function<void(const std::string&)>& read) {
  // A size from a damaged file must be refused, not allocated: 4 GiB of address space at most.
  // AddressSanitizer reserves terabytes of shadow, so under it the bound is its own on one
  // allocation (scripts/fuzz-files --asan sets max_allocation_size_mb), which aborts the run.
  rlimit old{};
  getrlimit(RLIMIT_AS, &old);
  rlimit cap = old;
  cap.rlim_cur = std::min<rlim_t>(old.rlim_cur, rlim_t{4} << 30);
  if (!kSanitized) setrlimit(RLIMIT_AS, &cap);
  read(seed);  // the seed itself reads
  const size_t fds = open_fds();
  size_t refused = 0;
  for (size_t i = 0; i < count; ++i) {
    const std::string mutant = mutate(seed);
    // A crash saves nothing: verbose runs keep the mutant being read where the crash leaves it.
    if (verbose()) std::ofstream(fs::temp_directory_path() / ("strobe-fuzz-" + kind + "-current"), std::ios::binary) << mutant;
    try {
      read(mutant);
    } catch (const InputError& e) {
      if (verbose()) {
        std::string message = e.what();  // on one line, so that a log can leave refusals out
        std::replace(message.begin(), message.end(), '\n', ' ');
        std::fprintf(stderr, "REFUSED %s: %s\n", kind.c_str(), message.c_str());
      }
      ++refused;
    } catch (const NotImplementedError&) {
      ++refused;  // a well-formed input strobe does not support yet (a GL program without shaders), named as such
    } catch (const std::exception& e) {
      const std::string keep = (fs::temp_directory_path() / ("strobe-fuzz-" + kind + "-" + std::to_string(i))).string();
      std::ofstream(keep, std::ios::binary) << mutant;
      if (!kSanitized) setrlimit(RLIMIT_AS, &old);
      ADD_FAILURE() << kind << " mutant " << i << " (saved as " << keep << "): not InputError but "
                    << typeid(e).name() << ": " << e.what();
      return refused;
    }
  }
  if (!kSanitized) setrlimit(RLIMIT_AS, &old);
  EXPECT_LE(open_fds(), fds) << kind << ": reading " << count << " mutants left file descriptors open";
  ::testing::Test::RecordProperty(kind + "_mutants", int(count));
  ::testing::Test::RecordProperty(kind + "_refused", int(refused));
  std::fprintf(stderr, "FUZZ %s mutants=%zu refused=%zu read=%zu\n", kind.c_str(), count, refused, count - refused);
  return refused;
}

size_t fuzz(const std::string& kind, const std::string& seed, bool text, size_t count,
            const std::function<void(const std::string&)>& read) {
  Mutator m(std::hash<std::string>{}(kind), text);
  return fuzz(kind, seed, std::ref(m), count, read);
}

std::function<std::string(const std::string&)> msgpack_mutator(const std::string& kind) {
  auto bytewise = std::make_shared<Mutator>(std::hash<std::string>{}(kind), false);
  auto treewise = std::make_shared<TreeMutator>(std::hash<std::string>{}(kind));
  auto n = std::make_shared<size_t>(0);
  return [=](const std::string& doc) { return (*n)++ % 2 ? (*bytewise)(doc) : (*treewise)(doc); };
}

std::function<std::string(const std::string&)> json_mutator(const std::string& kind) {
  auto textwise = std::make_shared<Mutator>(std::hash<std::string>{}(kind), true);
  auto treewise = std::make_shared<TreeMutator>(std::hash<std::string>{}(kind));
  auto n = std::make_shared<size_t>(0);
  return [=](const std::string& doc) {
    if ((*n)++ % 2) return (*textwise)(doc);
    const std::vector<uint8_t> packed = nlohmann::json::to_msgpack(nlohmann::json::parse(doc));
    const std::string edited = (*treewise)(std::string(packed.begin(), packed.end()));
    return nlohmann::json::from_msgpack(edited).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
}

std::string put(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path.string();
}

}  // namespace strobe::fuzz
