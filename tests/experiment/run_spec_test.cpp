// The rules of a run and of a comparison: each one holds, each bad combination is an error that
// names the offending setting the way its front end spells it, and what validation resolves
// (mode, configuration, method) is what the run then uses.
#include "experiment/run_spec.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "common/error.h"

namespace strobe::experiment {
namespace {

/// The message of the error `f` throws (of type E), or "" when it throws nothing.
template <typename E>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

RunSpec bench(std::string mode = "functional") {
  RunSpec s;
  s.benchmark = "vecadd";
  s.mode = std::move(mode);
  return s;
}

RunSpec program() {
  RunSpec s;
  s.workload = Workload::Program;
  s.program = {"./prog"};
  return s;
}

TEST(RunSpecValidation, ADefaultBenchmarkRunIsFunctionalWithoutAMethod) {
  const ValidatedRun v = validate(bench());
  EXPECT_FALSE(v.timing());
  EXPECT_EQ(v.method, nullptr);
  EXPECT_EQ(v.memory_check, emu::MemoryCheck::Page);
}

TEST(RunSpecValidation, AnUnknownModeIsAnInputErrorNamingIt) {
  EXPECT_EQ(error_of<InputError>([] { validate(bench("cycle")); }),
            "--mode 'cycle': expected functional, timing or analytical");
  EXPECT_EQ(error_of<InputError>([] { validate(bench("cycle"), Spelling::Environment); }),
            "STROBE_MODE 'cycle': expected functional, timing or analytical");
  // `strobe launch` has no analytical mode: its rule is the narrower one.
  EXPECT_EQ(error_of<InputError>([] { check_mode("analytical"); }), "--mode 'analytical': expected functional or timing");
}

TEST(RunSpecValidation, AnalyticalModeRunsGpumechOnEveryLaunchWithTheTimingModel) {
  RunSpec s = bench("analytical");
  s.mode_given = true;
  s.sets = {"cu.scheduler=gto"};  // GPU overrides configure the model too
  const ValidatedRun v = validate(s);
  EXPECT_EQ(v.spec.mode, "analytical");
  EXPECT_EQ(v.spec.sampling, "gpumech");
  ASSERT_NE(v.method, nullptr);
  EXPECT_TRUE(v.timing());
}

TEST(RunSpecValidation, AnalyticalModeWithAnotherMethodIsAnInputErrorNamingBoth) {
  RunSpec s = bench("analytical");
  s.mode_given = true;
  s.sampling = "photon";
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }),
            "--mode analytical predicts every launch with gpumech; it does not combine with --sampling photon (use "
            "one or the other)");
  EXPECT_EQ(error_of<InputError>([&] { validate(s, Spelling::Environment); }),
            "STROBE_MODE=analytical predicts every launch with gpumech; it does not combine with "
            "STROBE_SAMPLING=photon");
}

TEST(RunSpecValidation, AnalyticalModeRefusesASchedulerGpumechHasNoModelOf) {
  RunSpec s = bench("analytical");  // the preset's scheduler is oldest-first
  const std::string e = error_of<InputError>([&] { validate(s); });
  EXPECT_NE(e.find("cu.scheduler=oldest"), std::string::npos) << e;
  s.sampling_sets = {"policy=rr"};  // naming the model's policy is a choice, not a silent mapping
  EXPECT_NE(validate(s).method, nullptr);
}

TEST(RunSpecValidation, SamplingImpliesTimingWhenNoModeWasAskedFor) {
  RunSpec s = bench();
  s.sampling = "photon";
  const ValidatedRun v = validate(s);
  EXPECT_TRUE(v.timing());
  ASSERT_NE(v.method, nullptr);
}

TEST(RunSpecValidation, SamplingWithAnExplicitFunctionalModeIsAnInputError) {
  RunSpec s = bench();
  s.sampling = "photon";
  s.mode_given = true;
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }),
            "--sampling photon estimates detailed timing; it needs --mode timing");
  EXPECT_EQ(error_of<InputError>([&] { validate(s, Spelling::Environment); }),
            "STROBE_SAMPLING=photon estimates detailed timing; it needs STROBE_MODE=timing");
}

TEST(RunSpecValidation, GpuOverridesNeedTheTimingModel) {
  RunSpec s = bench();
  s.sets = {"gpu.num_cus=4"};
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }), "--set configures the timing model; it needs --mode timing");
  EXPECT_EQ(error_of<InputError>([&] { validate(s, Spelling::Environment); }),
            "STROBE_SET configures the timing model; it needs STROBE_MODE=timing");
  s.mode = "timing";
  EXPECT_EQ(validate(s).gpu.num_cus, 4);
}

TEST(RunSpecValidation, AnUnknownConfigurationKeyIsAnInputErrorNamingTheKey) {
  RunSpec s = bench("timing");
  s.sets = {"no.such=1"};
  EXPECT_NE(error_of<InputError>([&] { validate(s); }).find("no.such"), std::string::npos);
}

TEST(RunSpecValidation, AnUnknownMemoryCheckIsAnInputErrorNamingIt) {
  RunSpec s = bench();
  s.memory_check = "loose";
  EXPECT_NE(error_of<InputError>([&] { validate(s); }).find("'loose'"), std::string::npos);
  s.memory_check = "strict";
  EXPECT_EQ(validate(s).memory_check, emu::MemoryCheck::Strict);
}

TEST(RunSpecValidation, MethodOptionsWithoutAMethodAreAnInputError) {
  RunSpec s = bench();
  s.skip_functional = true;
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }),
            "--sampling-set and --sampling-skip-functional need --sampling METHOD");
  s = bench();
  s.sampling_sets = {"delta=0.1"};
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }),
            "--sampling-set and --sampling-skip-functional need --sampling METHOD");
}

TEST(RunSpecValidation, WarmingIsParsedOnceAndAnUnknownValueIsAnInputErrorNamingIt) {
  RunSpec s = bench();
  s.sampling = "photon";
  EXPECT_EQ(validate(s).warming, sampling::Warming::None);
  s.warming = "caches";
  EXPECT_EQ(validate(s).warming, sampling::Warming::Caches);
  s.warming = "dram";
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }), "--sampling-warming 'dram': unknown warming (valid: none, caches)");
  CompareSpec c;
  c.run = bench();
  c.run.sampling = "photon,tbpoint";
  c.run.warming = "caches";
  EXPECT_EQ(validate(c).warming, sampling::Warming::Caches);
  c.run.warming = "dram";
  EXPECT_NE(error_of<InputError>([&] { validate(c); }).find("'dram'"), std::string::npos);
}

TEST(RunSpecValidation, WarmingWithoutAMethodOrWithSkippedFunctionalWorkIsAnInputError) {
  RunSpec s = bench("timing");
  s.warming = "caches";
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }),
            "--sampling-warming caches warms the caches for a sampling method; give --sampling METHOD");
  s.sampling = "pka";
  s.skip_functional = true;
  EXPECT_NE(error_of<InputError>([&] { validate(s); }).find("no accesses to warm"), std::string::npos);
}

TEST(RunSpecValidation, SkipFunctionalForbidsVerify) {
  RunSpec s = bench();
  s.sampling = "photon";
  s.skip_functional = true;
  s.verify = true;
  EXPECT_EQ(error_of<InputError>([&] { validate(s); }),
            "--verify: with --sampling-skip-functional predicted work is not emulated, so the results cannot be "
            "verified");
}

TEST(RunSpecValidation, AnUnknownMethodOrMethodParameterIsAnInputErrorNamingIt) {
  RunSpec s = bench();
  s.sampling = "nosuch";
  EXPECT_NE(error_of<InputError>([&] { validate(s); }).find("nosuch"), std::string::npos);
  s.sampling = "photon";
  s.sampling_sets = {"no_such_param=1"};
  EXPECT_NE(error_of<InputError>([&] { validate(s); }).find("no_such_param"), std::string::npos);
}

TEST(RunSpecValidation, AProgramMayUseAMultiPassMethodRunOncePerPass) {
  RunSpec s = program();
  s.sampling = "pka";
  s.command = "compare";
  EXPECT_EQ(validate(s).method->passes(), 2);
  s.sampling = "photon";
  EXPECT_TRUE(validate(s).timing());
}

TEST(RunSpecValidation, InsideAProgramAMultiPassMethodNeedsItsPassAndStateFile) {
  RunSpec s = program();
  s.mode = "timing";
  s.sampling = "pka";
  EXPECT_EQ(error_of<InputError>([&] { validate(s, Spelling::Environment); }),
            "STROBE_SAMPLING=pka makes 2 passes over the program, each a run of its own: set STROBE_PASS (0 to 1) and "
            "STROBE_PASS_STATE=FILE (strobe run --sampling pka -- PROGRAM sets both)");
  s.pass = 1;
  EXPECT_EQ(error_of<InputError>([&] { validate(s, Spelling::Environment); }),
            "STROBE_PASS 1: STROBE_SAMPLING=pka makes 2 passes, which need STROBE_PASS_STATE=FILE to carry its state "
            "between them");
  s.pass = 2;
  s.pass_state = "state.json";
  EXPECT_EQ(error_of<InputError>([&] { validate(s, Spelling::Environment); }),
            "STROBE_PASS 2: STROBE_SAMPLING=pka makes passes 0 to 1");
  s.pass = 1;
  EXPECT_EQ(validate(s, Spelling::Environment).method->passes(), 2);
  s.sampling = "none";
  EXPECT_EQ(error_of<InputError>([&] { validate(s, Spelling::Environment); }),
            "STROBE_PASS and STROBE_PASS_STATE are passes of a sampling method: set STROBE_SAMPLING");
}

TEST(RunSpecValidation, ABenchmarkMayUseAMultiPassMethod) {
  RunSpec s = bench();
  s.sampling = "pka";
  EXPECT_EQ(validate(s).method->passes(), 2);
}

TEST(CompareSpecValidation, MethodsAreSplitInTheOrderGiven) {
  CompareSpec c{bench("timing"), 1};
  c.run.sampling = "pka,photon";
  EXPECT_EQ(validate(c).methods, (std::vector<std::string>{"pka", "photon"}));
}

TEST(CompareSpecValidation, ABadMethodListIsAnInputErrorNamingTheProblem) {
  const auto err = [](const std::string& list) {
    CompareSpec c{bench("timing"), 1};
    c.run.sampling = list;
    return error_of<InputError>([&] { validate(c); });
  };
  EXPECT_EQ(err("photon,,pka"), "--sampling 'photon,,pka': empty method name");
  EXPECT_EQ(err("none"), "--sampling: compare needs sampling methods, not none");
  EXPECT_EQ(err("photon,photon"), "--sampling 'photon,photon': photon is named twice");
  EXPECT_EQ(err(""), "--sampling: name at least one method");
}

TEST(CompareSpecValidation, RepeatMustBeOneToItsCap) {
  CompareSpec c{bench("timing"), 0};
  c.run.sampling = "photon";
  EXPECT_EQ(error_of<InputError>([&] { validate(c); }), "--repeat 0: must be 1 to 1000");
  c.repeat = CompareSpec::kMaxRepeat + 1;
  EXPECT_EQ(error_of<InputError>([&] { validate(c); }), "--repeat 1001: must be 1 to 1000");
}

TEST(CompareSpecValidation, SkipFunctionalForbidsVerifyAsForARun) {
  CompareSpec c{bench("timing"), 1};
  c.run.sampling = "photon";
  c.run.skip_functional = true;
  c.run.verify = true;
  EXPECT_NE(error_of<InputError>([&] { validate(c); }).find("--verify: with --sampling-skip-functional"),
            std::string::npos);
}

TEST(CompareSpecValidation, AMethodParameterNoSelectedMethodDeclaresIsAnInputError) {
  CompareSpec c{bench("timing"), 1};
  c.run.sampling = "photon";
  c.run.sampling_sets = {"ipc_variance=0.1"};  // a pka parameter
  EXPECT_NE(error_of<InputError>([&] { validate(c); }).find("ipc_variance"), std::string::npos);
  c.run.sampling = "photon,pka";
  EXPECT_NO_THROW(validate(c));
}

TEST(CompareSpecValidation, AProgramIsComparedUnderMultiPassMethodsToo) {
  CompareSpec c{program(), 1};
  c.run.sampling = "photon,pka,tbpoint";
  EXPECT_EQ(validate(c).methods, (std::vector<std::string>{"photon", "pka", "tbpoint"}));
}

TEST(LaunchRules, ModeAndOverrideRulesAreTheSameForLaunch) {
  EXPECT_EQ(error_of<InputError>([] { check_mode("x"); }), "--mode 'x': expected functional or timing");
  EXPECT_EQ(error_of<InputError>([] { require_timing_for_sets({"a=1"}, "functional"); }),
            "--set configures the timing model; it needs --mode timing");
  EXPECT_NO_THROW(require_timing_for_sets({"a=1"}, "timing"));
}

}  // namespace
}  // namespace strobe::experiment

namespace strobe::experiment {
namespace {

TEST(RunSpecRules, MethodsThatObserveLaunchesRunOnTheQuantumEngine) {
  // They were refused before their observers' calls were delivered at windows' ends.
  CompareSpec c{bench("timing"), 1};
  c.run.sets = {"sim.engine=quantum"};
  c.run.sampling = "sieve,photon,pka,tbpoint,simprof";
  EXPECT_NO_THROW(validate(c));
  RunSpec r = bench("timing");
  r.sets = {"sim.engine=quantum"};
  r.sampling = "pka";
  EXPECT_NO_THROW(validate(r));
}

TEST(RunSpecRules, TheQuantumEnginesStructuralRulesFailWhenTheConfigurationResolves) {
  EXPECT_NE(error_of<InputError>([] {
              resolve_gpu_config("r9nano", {"sim.engine=quantum", "tlb.enabled=on", "tlb.l1_latency=0",
                                            "tlb.l2_latency=0"});
            }).find("tlb.l2_latency"),
            std::string::npos);
  EXPECT_NO_THROW(resolve_gpu_config("r9nano", {"sim.engine=quantum", "tlb.enabled=on"}));
  EXPECT_NE(error_of<InputError>(
                [] { resolve_gpu_config("r9nano", {"sim.engine=quantum", "noc.latency=10", "sim.quantum_cycles=20"}); })
                .find("sim.quantum_cycles"),
            std::string::npos);
  EXPECT_NO_THROW(resolve_gpu_config("r9nano", {"sim.engine=quantum"}));
}

}  // namespace
}  // namespace strobe::experiment
