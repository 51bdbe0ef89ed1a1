// Fuzzing the files a sampling method reads (fuzz_harness.h): profiles, SimProf trainings and PKA
// pass states. A profile or a training that reads is also used: given to every method that reads
// profiles, or applied by a sampled run, which must then finish or refuse it by name.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cli/cli_runner.h"
#include "experiment/run.h"
#include "experiment/run_spec.h"
#include "fuzz_harness.h"
#include "sampling/method.h"
#include "sampling/pka/pass_state.h"
#include "sampling/profile/profile_file.h"
#include "sampling/simprof/training.h"

namespace strobe::fuzz {
namespace {

using clitest::run_strobe;
using clitest::slurp;
using clitest::TempDir;

TEST(FileFuzz, ProfilesAreReadOrRefusedWithInputError) {
  TempDir t;
  ASSERT_EQ(run_strobe("profile hotspot --param rows=64 --param cols=64 --param iterations=2 --gpumech -o " +
                       (t.path / "p.prof").string()).rc, 0);
  const std::string seed = slurp(t.path / "p.prof");
  // The profile is one msgpack document: half the mutants edit its bytes, half its fields. One
  // that reads is given to every method that reads profiles, on the workload it profiled: the
  // reader checks each field alone, the methods then trust the profile as a whole.
  std::vector<std::string> readers;
  for (const auto& [name, info] : sampling::methods())
    if (info.reads_profile) readers.push_back(name);
  ASSERT_FALSE(readers.empty());
  const fs::path file = t.path / "m.prof";
  // A profile changes what a method selects and predicts, never what the kernels compute: a
  // fault or a verification failure here is the method's, so neither is accepted.
  size_t runs = 0;
  const size_t refused = fuzz("profile", seed, msgpack_mutator("profile"), mutants(2000), [&](const std::string& b) {
    (void)sampling::profile::decode(b, "p.prof");
    put(file, b);
    for (const std::string& m : readers) {
      experiment::RunSpec s;
      s.benchmark = "hotspot";
      s.params = {"rows=64", "cols=64", "iterations=2"};
      s.sampling = m;
      s.sets = {"cu.scheduler=gto"};  // a policy every method models (GPUMech: rr and gto only)
      s.profile = file.string();
      s.verify = true;
      s.threads = 1;
      experiment::ValidatedRun v = experiment::validate(s);
      (void)experiment::run(v);
      ++runs;
    }
  });
  std::fprintf(stderr, "FUZZ profile sampled_runs=%zu (%zu methods)\n", runs, readers.size());
  EXPECT_GT(refused, 0u) << "no mutant was refused: the mutator does not reach the reader";
  EXPECT_GT(runs, 0u) << "no mutant reached a method";
}

TEST(FileFuzz, SimprofTrainingsAreReadAndAppliedOrRefusedWithInputError) {
  TempDir t;
  // A SimProf training (training=), saved by a run and read by another on the same workload;
  // one that reads is applied by such a run, which must then finish or refuse it by name.
  const std::string bench = "hotspot --param rows=64 --param cols=64 --param iterations=4";
  const std::string training = (t.path / "t.json").string();
  ASSERT_EQ(run_strobe("run " + bench + " --sampling simprof --sampling-set proxy=gpumech --sampling-set save_training=" +
                       training + " --set cu.scheduler=gto")
                .rc,
            0);
  const fs::path trained = t.path / "m.json";
  size_t applied = 0;
  EXPECT_GT(fuzz("simprof_training", slurp(training), json_mutator("simprof_training"), mutants(300),
                 [&](const std::string& b) {
                   (void)sampling::simprof::decode_training(b, "t.json");
                   experiment::RunSpec s;
                   s.benchmark = "hotspot";
                   s.params = {"rows=64", "cols=64", "iterations=4"};
                   s.sampling = "simprof";
                   s.sampling_sets = {"proxy=gpumech", "training=" + put(trained, b)};
                   s.sets = {"cu.scheduler=gto"};
                   s.threads = 1;
                   experiment::ValidatedRun v = experiment::validate(s);
                   (void)experiment::run(v);
                   ++applied;
                 }),
            0u);
  EXPECT_GT(applied, 0u) << "no training reached a run";
}

TEST(FileFuzz, PkaPassStatesAreReadOrRefusedWithInputError) {
  // A PKA pass state (a host program's run carries it from one pass's process to the next).
  sampling::pka::PassState st;
  st.workload = {"program", "/opt/app", {"--size", "64"}};
  sampling::pka::ProfiledLaunch l;
  l.id = {"step", 0xfedcba9876543210ull, {4096, 1, 1}, {64, 1, 1}, 0x0123456789abcdefull};
  l.profile.kernel = "step";
  for (int f = 0; f < sampling::kPkaFeatures; ++f) l.profile.features[size_t(f)] = 1.0 / (f + 3);
  l.profile.stats.wave_instructions = 1664;
  st.launches = {l, l};
  EXPECT_GT(fuzz("pka_pass_state", sampling::pka::encode(st), json_mutator("pka_pass_state"), mutants(1000),
                 [](const std::string& b) { (void)sampling::pka::decode(b, "state.json"); }),
            0u);
}

}  // namespace
}  // namespace strobe::fuzz
