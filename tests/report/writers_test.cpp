// The report writers: the JSON contract of a run and of a comparison (the keys tests, scripts
// and the other views read), and the text and CSV views rendered from it.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "report/csv.h"
#include "report/json.h"
#include "report/text.h"

namespace strobe::report {
namespace {

size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

RunReport functional_run() {
  RunReport r;
  r.benchmark = "vecadd";
  LaunchRecord l;
  l.result.kernel = "vecadd";
  l.result.stats.wave_instructions = 40;
  l.result.stats.thread_instructions = 2560;
  l.result.stats.wavefronts = 4;
  l.grid = {256, 1, 1};
  l.local = {64, 1, 1};
  r.launches.push_back(l);
  r.launches.push_back(l);
  return r;
}

TEST(RunReportJson, TotalsAddUpOverLaunchesAndEachLaunchIsNumbered) {
  const nlohmann::json j = to_json(functional_run());
  EXPECT_EQ(j["benchmark"], "vecadd");
  EXPECT_EQ(j["mode"], "functional");
  EXPECT_EQ(j["sampling"], "none");
  EXPECT_EQ(j["wave_instructions"], 80u);
  EXPECT_EQ(j["thread_instructions"], 5120u);
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][1]["launch"], 1u);
  EXPECT_EQ(j["kernels"][0]["grid"], nlohmann::json({256, 1, 1}));
}

TEST(RunReportJson, OptionalSectionsAreOmittedWhenTheRunHasNone) {
  const nlohmann::json j = to_json(functional_run());
  for (const char* key : {"params", "phase_seconds", "cycles", "sim_seconds", "ipc", "timing", "sampling_summary", "config"})
    EXPECT_FALSE(j.contains(key)) << key;
}

TEST(RunReportJson, ASampledLaunchCarriesHowTheMethodRanIt) {
  RunReport r = functional_run();
  auto s = std::make_shared<runtime::SampledLaunch>();
  s->method = "photon";
  s->level = "kernel";
  s->predicted_instructions = 40;
  r.launches[1].result.sampling = s;
  r.sampling_summary = {{"method", "photon"}};
  const nlohmann::json j = to_json(r);
  EXPECT_FALSE(j["kernels"][0].contains("sampling"));
  EXPECT_EQ(j["kernels"][1]["sampling"]["level"], "kernel");
  EXPECT_EQ(j["kernels"][1]["sampling"]["predicted_instructions"], 40u);
  EXPECT_EQ(j["sampling_summary"]["method"], "photon");
}

TEST(RunReportText, OneLinePerLaunchThenTheTotals) {
  const std::string t = run_text(functional_run());
  EXPECT_EQ(count(t, "\n"), 3u);
  EXPECT_EQ(count(t, "grid 256x1x1 local 64x1x1  4 waves  40 wave instructions"), 2u);
  EXPECT_NE(t.find("vecadd: functional mode, 2 launches, 80 wave instructions"), std::string::npos) << t;
  EXPECT_EQ(t.find("simulated:"), std::string::npos);  // no timing, no simulated time
}

MethodComparison method(const std::string& name, uint64_t estimate) {
  MethodComparison m;
  m.name = name;
  m.estimated_cycles = estimate;
  m.full_cycles = 1000;
  m.error_pct = double(estimate > 1000 ? estimate - 1000 : 1000 - estimate) / 10.0;
  m.full_wall_seconds = 2;
  m.sampled_wall_seconds = 0.5;
  m.speedup = {4, 3, 5};
  m.speedups = {3, 4, 5};
  m.levels = {{"detailed", 1}, {"kernel", 1}};
  m.sampling = {{"shares", {{"detailed", 0.5}, {"predicted", 0.5}, {"functional", 0.25}}}};
  m.detailed_share = 0.5;
  LaunchComparison l;
  l.name = "k";
  l.full_cycles = 1000;
  l.estimated_cycles = estimate;
  l.level = "kernel";
  m.launches.push_back(l);
  return m;
}

RunComparison comparison() {
  RunComparison c;
  c.reference = {{"benchmark", "mm"}, {"sampling", "pka,photon"}, {"kernels", nlohmann::json::array({{}, {}})}};
  c.repeat = 3;
  c.methods = {method("pka", 1100), method("photon", 950)};
  return c;
}

TEST(ComparisonJson, TheReferenceReportGainsMethodsByNameAndTheRepeatCount) {
  const nlohmann::json j = to_json(comparison());
  EXPECT_EQ(j["benchmark"], "mm");
  EXPECT_EQ(j["repeat"], 3);
  const auto& pka = j["methods"]["pka"];
  EXPECT_EQ(pka["estimated_cycles"], 1100u);
  EXPECT_EQ(pka["full_cycles"], 1000u);
  EXPECT_DOUBLE_EQ(pka["error_pct"].get<double>(), 10.0);
  EXPECT_EQ(pka["speedup"], 4.0);
  EXPECT_EQ(pka["speedup_min"], 3.0);
  EXPECT_EQ(pka["speedup_max"], 5.0);
  EXPECT_EQ(pka["repeats"], 3u);
  EXPECT_EQ(pka["levels"]["kernel"], 1);
  EXPECT_EQ(pka["kernels"][0]["level"], "kernel");
}

TEST(ComparisonJson, PerLaunchSamplingFieldsAppearOnlyForLaunchesTheMethodRan) {
  RunComparison c = comparison();
  c.methods[1].launches[0].has_sampling = true;
  c.methods[1].launches[0].detailed_instructions = 7u;
  c.methods[1].launches[0].predicted_instructions = 9u;
  c.methods[1].launches[0].detail = {{"matched", "k"}};
  const nlohmann::json j = to_json(c);
  EXPECT_FALSE(j["methods"]["pka"]["kernels"][0].contains("detailed_instructions"));
  EXPECT_EQ(j["methods"]["photon"]["kernels"][0]["detailed_instructions"], 7u);
  EXPECT_EQ(j["methods"]["photon"]["kernels"][0]["detail"]["matched"], "k");
}

TEST(ComparisonText, MethodsAreListedInTheOrderAskedForNotByName) {
  const std::string t = comparison_text(to_json(comparison()));
  EXPECT_EQ(t.rfind("mm: full detailed simulation 1000 cycles in 2.000 s (2 launches, median of 3 runs)\n", 0), 0u)
      << t;
  const size_t pka = t.find("\npka "), photon = t.find("\nphoton ");
  ASSERT_NE(pka, std::string::npos);
  ASSERT_NE(photon, std::string::npos);
  EXPECT_LT(pka, photon);
  EXPECT_NE(t.find("10.00%"), std::string::npos) << t;
}

/// A comparison whose photon launch carries an analytical CPI stack beside the detailed one.
RunComparison with_cpi() {
  RunComparison c = comparison();
  CpiComparison cpi;
  cpi.predicted_cpi = 3;
  cpi.detailed_cpi = 4;
  cpi.error_pct = -25;
  cpi.simds = 256;
  cpi.categories = {{"BASE", "issue", true, 2, 2.5}, {"DEP", "dependency", true, 1, 1}, {"fetch", "fetch", false, 0, 0.5}};
  c.methods[1].launches[0].cpi = cpi;
  c.methods[1].mean_abs_cpi_error_pct = 25;
  return c;
}

TEST(ComparisonJson, AnAnalyticalLaunchCarriesBothCpisAndStacksWithUnmodelledCategoriesMarked) {
  const nlohmann::json j = to_json(with_cpi());
  EXPECT_FALSE(j["methods"]["pka"]["kernels"][0].contains("cpi"));
  EXPECT_FALSE(j["methods"]["pka"].contains("mean_abs_cpi_error_pct"));
  const auto& c = j["methods"]["photon"]["kernels"][0]["cpi"];
  EXPECT_EQ(c["predicted"], 3.0);
  EXPECT_EQ(c["detailed"], 4.0);
  EXPECT_EQ(c["error_pct"], -25.0);
  EXPECT_EQ(c["simds"], 256u);
  ASSERT_EQ(c["stack"].size(), 3u);
  EXPECT_EQ(c["stack"][0]["category"], "BASE");
  EXPECT_EQ(c["stack"][0]["detailed_category"], "issue");
  EXPECT_EQ(c["stack"][0]["predicted"], 2.0);
  EXPECT_FALSE(c["stack"][2]["modelled"].get<bool>());
  EXPECT_TRUE(c["stack"][2]["predicted"].is_null());
  EXPECT_EQ(j["methods"]["photon"]["mean_abs_cpi_error_pct"], 25.0);
}

TEST(ComparisonText, AnAnalyticalLaunchShowsBothStacksSideBySide) {
  const std::string t = comparison_text(to_json(with_cpi()));
  EXPECT_NE(t.find("CPI 3.000 predicted, 4.000 detailed: CPI error -25.00%"), std::string::npos) << t;
  EXPECT_NE(t.find("BASE / issue"), std::string::npos) << t;
  EXPECT_NE(t.find("(unmodelled)"), std::string::npos) << t;
  EXPECT_NE(t.find("photon: mean |CPI error| 25.00% over 1 launch"), std::string::npos) << t;
}

SetComparison set() {
  SetComparison s;
  s.set = "smoke";
  s.size = "ci";
  s.arch = "r9nano";
  s.methods = {"photon"};
  s.repeat = 1;
  SetRunRow r;
  r.benchmark = "fir";
  r.args = {"n=64", "taps=16"};
  r.full_cycles = 1000;
  r.methods = {method("photon", 950)};
  s.runs = {r, r};
  AggregateRow a;
  a.runs = 2;
  a.total_speedup = 4;
  s.aggregates = {{"photon", a}};
  return s;
}

TEST(SetComparisonJson, RowsCarryEachMethodsCellAndTheAggregatesFollow) {
  const nlohmann::json j = to_json(set());
  EXPECT_EQ(j["set"], "smoke");
  EXPECT_EQ(j["runs"].size(), 2u);
  const auto& cell = j["runs"][0]["methods"]["photon"];
  EXPECT_EQ(cell["full_seconds"], 2.0);
  EXPECT_EQ(cell["sampled_seconds"], 0.5);
  EXPECT_EQ(cell["detailed_share"], 0.5);
  EXPECT_FALSE(cell.contains("kernels"));  // a set row has no per-launch detail
  EXPECT_EQ(j["aggregates"]["photon"]["runs"], 2u);
}

TEST(SetComparisonText, ARowPerRunThenAnAggregateRowPerMethod) {
  const std::string t = set_comparison_text(to_json(set()));
  EXPECT_EQ(t.rfind("set smoke (size ci): 2 runs, 1 repeat of the reference and each method\n", 0), 0u) << t;
  EXPECT_EQ(count(t, "\nfir "), 2u);
  EXPECT_NE(t.find("n=64,taps=16"), std::string::npos);
  EXPECT_NE(t.find("\nphoton "), std::string::npos);
}

TEST(SetComparisonCsv, OneRunRowPerRunAndMethodThenOneAggregateRowAndCommasAreQuoted) {
  const std::string csv = set_comparison_csv(to_json(set()));
  EXPECT_EQ(csv.rfind("kind,set,size,benchmark,params,method,full_cycles,", 0), 0u);
  EXPECT_EQ(count(csv, "\nrun,smoke,ci,fir,\"n=64,taps=16\",photon,1000,"), 2u) << csv;
  EXPECT_EQ(count(csv, "\naggregate,smoke,ci,,,photon,"), 1u) << csv;
}

}  // namespace
}  // namespace strobe::report
