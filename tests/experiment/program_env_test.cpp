// A host program's side of `strobe run -- PROGRAM`: the STROBE_* settings as the OpenCL platform
// and the HIP thunk read them (defaults, STROBE_SET's separators, errors spelled as variables),
// and the exit report both build (its name from argv[0], argv as its parameter).
#include "experiment/program_env.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "common/error.h"

namespace strobe::experiment {
namespace {

/// STROBE_* variables by name.
using Vars = std::map<std::string, std::string>;

/// Sets STROBE_* variables for one test and restores what was there before.
class ScopedEnv {
 public:
  explicit ScopedEnv(const Vars& vars) {
    for (const char* name : kNames) {
      const char* old = std::getenv(name);
      saved_[name] = old ? std::optional<std::string>(old) : std::nullopt;
      ::unsetenv(name);
    }
    for (const auto& [name, value] : vars) ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& [name, value] : saved_) {
      if (value) ::setenv(name.c_str(), value->c_str(), 1);
      else ::unsetenv(name.c_str());
    }
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  // Every variable a test sets, so none leaks into the next test.
  static constexpr const char* kNames[] = {"STROBE_MODE",         "STROBE_ARCH",       "STROBE_SET",
                                           "STROBE_SAMPLING",     "STROBE_JSON",       "STROBE_MEMORY_CHECK",
                                           "STROBE_PASS",         "STROBE_PASS_STATE", "STROBE_PROFILE",
                                           "STROBE_SAMPLING_WARMING", "STROBE_THREADS",
                                           "STROBE_SAMPLING_SKIP_FUNCTIONAL"};
  std::map<std::string, std::optional<std::string>> saved_;
};

TEST(ProgramSettings, AnEmptyEnvironmentIsAFunctionalRunOnTheR9NanoWithoutAReport) {
  ScopedEnv env(Vars{});
  const ProgramSettings s = program_settings_from_env();
  EXPECT_EQ(s.mode, "functional");
  EXPECT_FALSE(s.timing());
  EXPECT_EQ(s.arch, "r9nano");
  EXPECT_TRUE(s.sets.empty());
  EXPECT_EQ(s.sampling, "none");
  EXPECT_EQ(s.json, "");
  EXPECT_EQ(s.memory_check, emu::MemoryCheck::Page);
  EXPECT_EQ(s.threads, std::max(std::thread::hardware_concurrency(), 1u));  // every core
}

TEST(ProgramSettings, ThreadsAreReadFromTheEnvironmentAndABadCountNamesTheVariable) {
  {
    ScopedEnv env(Vars{{"STROBE_THREADS", "3"}});
    EXPECT_EQ(program_settings_from_env().threads, 3u);
  }
  for (const char* bad : {"two", "-1", "5000", "3x"}) {
    ScopedEnv env(Vars{{"STROBE_THREADS", bad}});
    try {
      program_settings_from_env();
      ADD_FAILURE() << "STROBE_THREADS=" << bad << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("STROBE_THREADS"), std::string::npos) << e.what();
    }
  }
}

TEST(ProgramSettings, OverridesAreSplitAtNewlinesAndSemicolonsAndApplied) {
  ScopedEnv env(Vars{{"STROBE_MODE", "timing"},
                 {"STROBE_SET", " gpu.num_cus=4 ;\n\ngpu.num_cus=8\r\n"},
                 {"STROBE_SAMPLING", "photon"},
                 {"STROBE_JSON", "/tmp/report.json"},
                 {"STROBE_MEMORY_CHECK", "strict"}});
  const ProgramSettings s = program_settings_from_env();
  EXPECT_TRUE(s.timing());
  EXPECT_EQ(s.sets, (std::vector<std::string>{"gpu.num_cus=4", "gpu.num_cus=8"}));
  EXPECT_EQ(s.config.num_cus, 8);
  EXPECT_EQ(s.sampling, "photon");
  EXPECT_EQ(s.json, "/tmp/report.json");
  EXPECT_EQ(s.memory_check, emu::MemoryCheck::Strict);
}

TEST(ProgramSettings, ErrorsNameTheVariables) {
  {
    ScopedEnv env(Vars{{"STROBE_SAMPLING", "photon"}});
    // The environment states the mode outright, so a method does not imply timing.
    EXPECT_THROW(
        {
          try {
            program_settings_from_env();
          } catch (const InputError& e) {
            EXPECT_STREQ(e.what(), "STROBE_SAMPLING=photon estimates detailed timing; it needs STROBE_MODE=timing");
            throw;
          }
        },
        InputError);
  }
  {
    // A multi-pass method runs the program once per pass: which pass this run is must be said.
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "pka"}});
    EXPECT_THROW(program_settings_from_env(), InputError);
  }
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "pka"}, {"STROBE_PASS", "first"},
                       {"STROBE_PASS_STATE", "state.json"}});
    EXPECT_THROW(program_settings_from_env(), InputError);
  }
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "pka"}, {"STROBE_PASS", "1"},
                       {"STROBE_PASS_STATE", "state.json"}});
    const ProgramSettings s = program_settings_from_env();
    EXPECT_EQ(s.pass, 1);
    EXPECT_EQ(s.pass_state, "state.json");
  }
  {
    ScopedEnv env(Vars{{"STROBE_SET", "gpu.num_cus=4"}});
    EXPECT_THROW(program_settings_from_env(), InputError);
  }
}

TEST(ProgramSettings, WarmingIsReadFromTheEnvironmentAndCheckedWithItsSpelling) {
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "photon"}});
    EXPECT_EQ(program_settings_from_env().warming, sampling::Warming::None);
  }
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "photon"}, {"STROBE_SAMPLING_WARMING", "caches"}});
    EXPECT_EQ(program_settings_from_env().warming, sampling::Warming::Caches);
  }
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "photon"}, {"STROBE_SAMPLING_WARMING", "tlb"}});
    try {
      program_settings_from_env();
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_STREQ(e.what(), "STROBE_SAMPLING_WARMING 'tlb': unknown warming (valid: none, caches)");
    }
  }
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING_WARMING", "caches"}});
    try {
      program_settings_from_env();
      ADD_FAILURE() << "no error";
    } catch (const InputError& e) {
      EXPECT_STREQ(e.what(), "STROBE_SAMPLING_WARMING=caches warms the caches for a sampling method; give "
                             "STROBE_SAMPLING=METHOD");
    }
  }
}

TEST(ProgramSettings, SkippingPredictedWorkIsReadFromTheEnvironmentAndNeedsAMethodThatEmulatesNothing) {
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "photon"}});
    EXPECT_FALSE(program_settings_from_env().skip_functional);
  }
  {
    ScopedEnv env(Vars{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "photon"}, {"STROBE_SAMPLING_SKIP_FUNCTIONAL", "1"}});
    EXPECT_TRUE(program_settings_from_env().skip_functional);
  }
  const std::pair<Vars, std::string> bad[] = {
      {{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "photon"}, {"STROBE_SAMPLING_SKIP_FUNCTIONAL", "yes"}},
       "STROBE_SAMPLING_SKIP_FUNCTIONAL='yes': expected 1 (skip) or 0"},
      {{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING_SKIP_FUNCTIONAL", "1"}},
       "STROBE_SAMPLING_SKIP_FUNCTIONAL=1 needs a sampling method: give STROBE_SAMPLING=METHOD"},
      // Work that is not emulated has no accesses to warm the caches with.
      {{{"STROBE_MODE", "timing"}, {"STROBE_SAMPLING", "photon"}, {"STROBE_SAMPLING_SKIP_FUNCTIONAL", "1"},
        {"STROBE_SAMPLING_WARMING", "caches"}},
       "STROBE_SAMPLING_WARMING=caches: with STROBE_SAMPLING_SKIP_FUNCTIONAL=1 predicted work is not emulated, so "
       "it has no accesses to warm with"},
  };
  for (const auto& [vars, message] : bad) {
    ScopedEnv env(vars);
    try {
      program_settings_from_env();
      ADD_FAILURE() << "no error for " << message;
    } catch (const InputError& e) {
      EXPECT_EQ(e.what(), message);
    }
  }
}

TEST(ProgramReport, IsNamedAfterTheProgramsFileNameWithItsCommandLine) {
  ProgramSettings s;
  s.arch = "mi100";
  runtime::Device dev;
  const report::RunReport rep = program_report(s, {"/path/to/app", "256", "--fast"}, "opencl", 1.5, {}, dev);
  EXPECT_EQ(rep.benchmark, "app");
  EXPECT_EQ(rep.params, nlohmann::json({{"argv", {"/path/to/app", "256", "--fast"}}}));
  EXPECT_EQ(rep.mode, "functional");
  EXPECT_EQ(rep.arch, "mi100");
  EXPECT_EQ(rep.sampling, "none");
  EXPECT_EQ(rep.wall_seconds, 1.5);
  EXPECT_TRUE(rep.launches.empty());
  EXPECT_TRUE(rep.config.is_null());  // functional mode: no timing model to report
  EXPECT_EQ(program_report(s, {"app"}, "hip", 0, {}, dev).benchmark, "app");
}

TEST(ProgramReport, WithoutACommandLineIsNamedAfterTheFrontEnd) {
  ProgramSettings s;
  runtime::Device dev;
  const report::RunReport rep = program_report(s, {}, "hip", 0, {}, dev);
  EXPECT_EQ(rep.benchmark, "hip");
  EXPECT_EQ(rep.params, nlohmann::json({{"argv", nlohmann::json::array()}}));
}

TEST(ProgramReport, TheCommandLineIsThisProcesssOwn) {
  const std::vector<std::string> argv = program_command_line();
  ASSERT_FALSE(argv.empty());
  EXPECT_NE(argv[0].find("strobe_experiment_tests"), std::string::npos);
}

}  // namespace
}  // namespace strobe::experiment
