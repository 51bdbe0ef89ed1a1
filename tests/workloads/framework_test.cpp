// The benchmark framework in process: parameter parsing, comparisons, the run context and runner.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/error.h"
#include "workloads/benchmark.h"
#include "workloads/context.h"
#include "workloads/runner.h"
#include "workloads/verify.h"

namespace strobe::workloads {
namespace {

std::vector<ParamSpec> specs() {
  return {int_param("n", 100, 1, 1000, "elements").with_small(10), float_param("alpha", 0.5, 0, 1, "weight")};
}

std::string input_error(const std::vector<std::string>& kv) {
  try {
    resolve_params("demo", specs(), kv);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Params, DefaultsApplyWhenNothingIsGiven) {
  Params p = resolve_params("demo", specs(), {});
  EXPECT_EQ(p.i("n"), 100);
  EXPECT_DOUBLE_EQ(p.f("alpha"), 0.5);
}

TEST(Params, AssignmentsOverrideTheDefaultsAndANameGivenTwiceIsRefused) {
  Params p = resolve_params("demo", specs(), {"alpha=0.25", "n=1e2"});
  EXPECT_EQ(p.i("n"), 100);
  EXPECT_DOUBLE_EQ(p.f("alpha"), 0.25);
  EXPECT_EQ(p.to_json()["n"], 100);
  // Taking the last of two silently would run what the first did not ask for.
  EXPECT_NE(input_error({"n=7", "alpha=0.25", "n=1e2"}).find("n is given twice"), std::string::npos);
}

TEST(Params, UnknownNameListsTheValidOnes) {
  EXPECT_NE(input_error({"size=3"}).find("valid: n, alpha"), std::string::npos) << input_error({"size=3"});
}

TEST(Params, NonNumericFractionalOutOfRangeAndMalformedAreRejected) {
  EXPECT_NE(input_error({"n=abc"}).find("not a number"), std::string::npos);
  EXPECT_NE(input_error({"n=12x"}).find("not a number"), std::string::npos);
  EXPECT_NE(input_error({"n="}).find("not a number"), std::string::npos);
  EXPECT_NE(input_error({"n=2.5"}).find("integer"), std::string::npos);
  EXPECT_NE(input_error({"n=1001"}).find("[1, 1000]"), std::string::npos);
  EXPECT_NE(input_error({"alpha=-0.1"}).find("[0, 1]"), std::string::npos);
  EXPECT_NE(input_error({"n"}).find("NAME=VALUE"), std::string::npos);
  EXPECT_NE(input_error({"n=nan"}).find("not a number"), std::string::npos);
}

TEST(Verify, ExactComparisonNamesOutputIndexExpectedAndGot) {
  try {
    expect_equal<int>("out", {1, 2, 9, 4, 0}, {1, 2, 3, 4, 5});
    FAIL() << "no mismatch reported";
  } catch (const VerificationError& e) {
    EXPECT_STREQ(e.what(), "verification failed: out[2]: expected 3, got 9 (2 of 5 elements differ)");
    EXPECT_EQ(e.code(), ExitCode::Failure);
  }
  EXPECT_NO_THROW(expect_equal<uint8_t>("b", {1, 2}, {1, 2}));
}

TEST(Verify, ToleranceIsRelativePlusAbsoluteAndNanNeverMatches) {
  EXPECT_NO_THROW(expect_close<float>("y", {1.0001f, 0.0f}, {1.0f, 1e-7f}, 1e-3, 1e-6));
  EXPECT_THROW(expect_close<float>("y", {1.01f}, {1.0f}, 1e-3, 1e-6), VerificationError);
  EXPECT_THROW(expect_close<float>("y", {NAN}, {NAN}, 1, 1), VerificationError);
  EXPECT_THROW(expect_close<float>("y", {1.0f}, {1.0f, 2.0f}, 1, 1), VerificationError);
}

/// A parameter struct of every field kind a benchmark may bind.
struct DemoParams {
  uint32_t n = 0;
  bool flag = false;
  float alpha = 0;
};

std::vector<ParamField<DemoParams>> demo_fields() {
  return {int_param(STROBE_FIELD(DemoParams, n), 100, 1, 1000, "elements").with_small(10),
          int_param(STROBE_FIELD(DemoParams, flag), 0, 0, 1, "a switch"),
          float_param(STROBE_FIELD(DemoParams, alpha), 0.5, 0, 1, "weight")};
}

TEST(ParamFields, DeclareTheFieldNameKindDefaultAndQuickValue) {
  const std::vector<ParamSpec> specs = param_specs(demo_fields());
  ASSERT_EQ(specs.size(), 3u);
  EXPECT_EQ(specs[0].name, "n");
  EXPECT_EQ(specs[0].kind, ParamKind::Int);
  EXPECT_EQ(specs[0].small, 10);
  EXPECT_EQ(specs[1].name, "flag");
  EXPECT_EQ(specs[2].name, "alpha");
  EXPECT_EQ(specs[2].kind, ParamKind::Float);
  EXPECT_EQ(specs[2].small, 0.5);  // no with_small: the default
}

TEST(ParamFields, BindResolvedValuesIntoTheStruct) {
  const auto fields = demo_fields();
  const DemoParams d = bind_params(fields, resolve_params("demo", param_specs(fields), {}));
  EXPECT_EQ(d.n, 100u);
  EXPECT_FALSE(d.flag);
  EXPECT_FLOAT_EQ(d.alpha, 0.5f);
  const DemoParams s = bind_params(fields, resolve_params("demo", param_specs(fields), {"n=7", "flag=1", "alpha=0.25"}));
  EXPECT_EQ(s.n, 7u);
  EXPECT_TRUE(s.flag);
  EXPECT_FLOAT_EQ(s.alpha, 0.25f);
}

/// TwiceAdd's parameters.
struct TwiceAddParams {
  uint32_t n = 0;
};

/// A benchmark defined by the test itself: vecadd's kernel launched twice, c = a + b then c += b.
class TwiceAdd : public Benchmark {
 public:
  explicit TwiceAdd(const TwiceAddParams& p) : n_(p.n) {}
  void setup(Context& ctx) override {
    std::vector<float> a(n_), b(n_);
    for (uint32_t i = 0; i < n_; ++i) a[i] = float(i), b[i] = 2.0f * float(i);
    da_ = ctx.upload(a), db_ = ctx.upload(b), dc_ = ctx.alloc<float>(n_);
    k_ = ctx.kernel("vecadd", "vecadd");
    ctx.expect_launches(2);
  }
  void run(Context& ctx) override {
    ctx.launch(k_, {n_, 1, 1}, {64, 1, 1}, {buf(da_), buf(db_), buf(dc_), val(n_)});
    ctx.launch(k_, {n_, 1, 1}, {64, 1, 1}, {buf(dc_), buf(db_), buf(dc_), val(n_)});
  }
  void verify(Context& ctx) override {
    std::vector<float> ref(n_);
    for (uint32_t i = 0; i < n_; ++i) ref[i] = float(i) + 4.0f * float(i);
    expect_equal("c", ctx.download<float>(dc_, n_), ref);
  }

 private:
  uint32_t n_;
  uint64_t da_ = 0, db_ = 0, dc_ = 0;
  Kernel k_;
};
STROBE_BENCHMARK(TwiceAdd, "test_twice_add", "test-only benchmark",
                 {int_param(STROBE_FIELD(TwiceAddParams, n), 200, 1, 100000, "elements")});

TEST(ParamFields, ARegisteredBenchmarkListsItsBoundDeclarations) {
  const BenchmarkInfo* b = Registry::instance().find("test_twice_add");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->params.size(), 1u);
  EXPECT_EQ(b->params[0].name, "n");
  EXPECT_EQ(b->params[0].def, 200);
}

TEST(Runner, RecordsEveryLaunchWithGeometryAndCounters) {
  RunRequest req;
  req.benchmark = "test_twice_add";
  req.verify = true;
  std::vector<std::pair<uint32_t, size_t>> seen;
  req.on_launch = [&](const LaunchStat& s, size_t expected) { seen.push_back({s.index, expected}); };
  RunOutcome out = run_benchmark(std::move(req));
  EXPECT_TRUE(out.verified);
  ASSERT_EQ(out.launches.size(), 2u);
  EXPECT_EQ(seen, (std::vector<std::pair<uint32_t, size_t>>{{0, 2}, {1, 2}}));
  for (uint32_t i = 0; i < 2; ++i) {
    const auto& l = out.launches[i];
    EXPECT_EQ(l.result.kernel, "vecadd");
    EXPECT_EQ(l.index, i);
    EXPECT_EQ(l.grid, (Dim3{200, 1, 1}));
    EXPECT_EQ(l.local, (Dim3{64, 1, 1}));
    EXPECT_EQ(l.result.stats.wavefronts, 4u);  // 200 work-items in groups of 64
    EXPECT_GT(l.result.stats.wave_instructions, 0u);
    EXPECT_GE(l.result.stats.vector_memory_instructions, 3u * 4u);  // two loads and a store per wave
  }
}

TEST(Runner, CorruptedOutputFailsVerification) {
  RunRequest req;
  req.benchmark = "test_twice_add";
  req.verify = true;
  req.corrupt_for_test = true;
  try {
    run_benchmark(std::move(req));
    FAIL() << "verification passed on a corrupted output";
  } catch (const VerificationError& e) {
    EXPECT_NE(std::string(e.what()).find("c[0]: expected 0, got 2"), std::string::npos) << e.what();
  }
}

TEST(Runner, WithoutVerifyNothingIsCheckedAndVerifiedIsFalse) {
  RunRequest req;
  req.benchmark = "test_twice_add";
  req.corrupt_for_test = true;
  EXPECT_FALSE(run_benchmark(std::move(req)).verified);
}

TEST(Runner, UnknownBenchmarkAndBadParamsAreInputErrors) {
  RunRequest a;
  a.benchmark = "no_such_benchmark";
  EXPECT_THROW(run_benchmark(std::move(a)), InputError);
  RunRequest b;
  b.benchmark = "test_twice_add";
  b.params = {"n=0"};
  EXPECT_THROW(run_benchmark(std::move(b)), InputError);
}

TEST(Context, RefusesAllocationsBeyondTheDeviceLimit) {
  Context ctx;
  EXPECT_THROW(ctx.alloc<float>(kMaxDeviceBytes), InputError);
}

}  // namespace
}  // namespace strobe::workloads
