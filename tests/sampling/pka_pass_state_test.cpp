// PKA's pass state: what its profiling pass learned survives the trip through the file exactly
// (the sampled pass re-clusters from it), and a file that is not one is refused naming it.
#include <gtest/gtest.h>

#include <string>

#include "common/error.h"
#include "sampling/pka/pass_state.h"

namespace strobe::sampling::pka {
namespace {

PassState sample_state() {
  PassState s;
  s.workload = {"program", "/opt/app", {"--size", "64"}};
  s.line_bytes = 128;
  ProfiledLaunch l;
  l.id = {"step", 0xfedcba9876543210ull, {4096, 1, 1}, {64, 1, 1}, 0x0123456789abcdefull};
  l.profile.kernel = "step";
  for (int f = 0; f < kPkaFeatures; ++f) l.profile.features[size_t(f)] = 1.0 / (f + 3) + 1e-17 * f;
  l.profile.stats.wave_instructions = 1664;
  l.profile.stats.thread_instructions = 106496;
  l.profile.stats.workgroups = 64;
  l.profile.stats.wavefronts = 64;
  l.profile.lines = 4097;
  s.launches = {l, l};
  return s;
}

std::string error_of(const std::string& text) {
  try {
    decode(text, "state.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(PkaPassState, RoundTripsIdentitiesFeaturesAndCountersExactly) {
  const PassState in = sample_state();
  const PassState out = decode(encode(in), "state.json");
  EXPECT_EQ(out.workload.name, in.workload.name);
  EXPECT_EQ(out.workload.params, in.workload.params);
  EXPECT_EQ(out.line_bytes, 128u);
  ASSERT_EQ(out.launches.size(), 2u);
  EXPECT_EQ(out.launches[1].id, in.launches[1].id);
  EXPECT_EQ(out.launches[1].profile.kernel, "step");
  // Bit-exact: the sampled pass must cluster exactly as the profiling pass would have.
  EXPECT_EQ(out.launches[1].profile.features, in.launches[1].profile.features);
  EXPECT_EQ(out.launches[1].profile.stats.thread_instructions, 106496u);
  EXPECT_EQ(out.launches[1].profile.stats.wavefronts, 64u);
  EXPECT_EQ(out.launches[1].profile.lines, 4097u);
}

TEST(PkaPassState, ACorruptTruncatedOrForeignFileIsRefusedNamingIt) {
  const std::string good = encode(sample_state());
  // A field of the wrong type where the reader takes it whole: a JSON type error escaped, naming
  // no file (found by FileFuzz).
  std::string numeric = good;
  numeric.replace(numeric.find("\"strobe-pka-pass-state\""), 23, "7");
  EXPECT_NE(error_of(numeric).find("pass state state.json: malformed"), std::string::npos) << error_of(numeric);
  EXPECT_EQ(error_of(good.substr(0, good.size() / 2)), "pass state state.json: not valid JSON (corrupt or truncated file)");
  EXPECT_EQ(error_of("{\"format\": \"strobe-profile\"}"), "pass state state.json: not a PKA pass state");
  std::string other = good;
  other.replace(other.find("\"version\":2"), 11, "\"version\":9");
  EXPECT_EQ(error_of(other), "pass state state.json: format version 9, this strobe reads version 2");
  std::string missing = good;
  missing.replace(missing.find("\"features\""), 10, "\"featurez\"");
  EXPECT_EQ(error_of(missing), "pass state state.json: launch 0 has no 'features' (corrupt file)");
}

}  // namespace
}  // namespace strobe::sampling::pka
