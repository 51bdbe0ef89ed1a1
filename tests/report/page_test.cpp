// The HTML report's page model: timelines rebinned without losing or inventing work, bounded
// however long the run, predicted launches left as gaps, the configuration's changes found, and
// inputs that are not strobe results refused by name.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "common/error.h"
#include "report/html.h"
#include "report/page.h"

namespace strobe::report {
namespace {

using nlohmann::json;

/// A detailed launch of `cycles` cycles with `samples` timeline samples of `per` instructions.
json detailed_launch(const std::string& name, double cycles, size_t samples, uint64_t per) {
  const double interval = std::ceil(cycles / double(samples));
  json wi = json::array(), d = json::array(), r = json::array(), cu = json::array();
  for (size_t i = 0; i < samples; ++i) wi.push_back(per), d.push_back(1), r.push_back(1), cu.push_back({per / 2, per - per / 2});
  json cpi = {{"issue", {{"cycles", 30}}}, {"dram", {{"cycles", 70}}}};
  // Integral, as every run writes its cycles (the page refuses a count that is not).
  return {{"name", name}, {"cycles", uint64_t(std::llround(cycles))}, {"wave_instructions", per * samples},
          {"timing", {{"cpi_stack", cpi},
                      {"caches", {{"l2", {{"reads", 10}, {"read_hits", 4}}}}},
                      {"timeline", {{"interval_cycles", interval}, {"wave_instructions", wi}, {"dispatched", d},
                                    {"retired", r}, {"cu_interval_cycles", interval}, {"cu_wave_instructions", cu}}}}}};
}

json run_of(std::vector<json> launches) {
  return {{"benchmark", "b"}, {"mode", "timing"}, {"arch", "r9nano"}, {"sampling", "none"}, {"kernels", launches}};
}

/// Instructions the rebinned IPC stands for over a run of `cycles` (the last bucket may be partial).
double covered_instructions(const json& tl, double cycles) {
  double sum = 0;
  const double w = tl["bucket_cycles"];
  for (size_t b = 0; b < tl["ipc"].size(); ++b)
    if (!tl["ipc"][b].is_null()) sum += tl["ipc"][b].get<double>() * std::min(w, cycles - tl["t"][b].get<double>());
  return sum;
}

TEST(SpreadOver, SplitsACountByOverlapAndKeepsItsTotal) {
  std::vector<double> b(4);
  spread_over(b, 10, 5, 25, 20);  // cycles 5..25: half a bucket, a bucket, half a bucket
  EXPECT_DOUBLE_EQ(b[0], 5);
  EXPECT_DOUBLE_EQ(b[1], 10);
  EXPECT_DOUBLE_EQ(b[2], 5);
  EXPECT_DOUBLE_EQ(b[3], 0);
}

TEST(ReportPage, TheTimelineKeepsEveryInstructionAndStaysBoundedForALongRun) {
  // 4000 launches of 512 samples each: far more points than a page draws.
  std::vector<json> ls;
  for (int i = 0; i < 4000; ++i) ls.push_back(detailed_launch("k", 51200, 512, 7));
  const json s = run_section("long", run_of(ls));
  const json& tl = s["timeline"];
  EXPECT_LE(tl["t"].size(), kTimelinePoints);
  EXPECT_NEAR(covered_instructions(tl, 4000.0 * 51200), 4000.0 * 512 * 7, 1e-6 * 4000 * 512 * 7);
  double dispatched = 0;
  for (const auto& v : tl["dispatched"]) dispatched += v.get<double>();
  EXPECT_NEAR(dispatched, 4000.0 * 512, 1e-6 * 4000 * 512);
  EXPECT_LE(s["cu_map"]["t"].size(), kCuColumns);
  EXPECT_EQ(s["cu_map"]["cus"], 2);
}

TEST(ReportPage, APredictedLaunchIsAGapInTheTimelineAndALevelOnItsStrip) {
  json predicted = {{"name", "p"}, {"cycles", 1000}, {"wave_instructions", 50},
                    {"sampling", {{"method", "pka"}, {"level", "cluster"}, {"detailed_instructions", 0},
                                  {"predicted_instructions", 50}, {"functional_instructions", 0}}}};
  json detailed = detailed_launch("d", 1000, 10, 20);
  detailed["sampling"] = {{"method", "pka"}, {"level", "detailed"}, {"detailed_instructions", 200}};
  json run = run_of({detailed, predicted});
  run["sampling"] = "pka";
  const json s = run_section("sampled", run);
  const json& tl = s["timeline"];
  const double w = tl["bucket_cycles"];
  size_t gaps = 0;
  for (size_t b = 0; b < tl["t"].size(); ++b)
    if (tl["ipc"][b].is_null()) {
      ++gaps;
      EXPECT_GE(tl["t"][b].get<double>() + w, 1000.0) << "a gap inside the detailed launch";
    }
  EXPECT_GT(gaps, 0u);
  EXPECT_NEAR(covered_instructions(tl, 2000), 200.0, 1e-9);
  ASSERT_EQ(s["launches"].size(), 2u);
  EXPECT_EQ(s["launches"][1]["level"], "cluster");
  EXPECT_EQ(s["launches"][1]["start"], 1000.0);
  EXPECT_EQ(s["launches"][1]["predicted_instructions"], 50.0);
}

TEST(ReportPage, KernelsSumTheirLaunchesCpiStacksAndCacheReads) {
  json run = run_of({detailed_launch("k", 100, 2, 1), detailed_launch("k", 100, 2, 1), detailed_launch("j", 100, 2, 1)});
  run["timing"] = {{"caches", {{"l2", {{"reads", 30}, {"read_hits", 12}, {"read_hit_rate", 0.4}}}}},
                   {"utilisation", {{"cus", 2}, {"simds", 2}, {"cycles", 300}, {"issued", {{1, 2}, {3, 4}}},
                                    {"valu_busy", {{30, 0}, {15, 15}}}}}};
  const json s = run_section("r", run);
  ASSERT_EQ(s["kernels"].size(), 2u);
  EXPECT_EQ(s["kernels"][0]["name"], "k");
  EXPECT_EQ(s["kernels"][0]["launches"], 2);
  EXPECT_EQ(s["kernels"][0]["cpi"]["dram"], 140.0);
  EXPECT_EQ(s["kernels"][0]["l2_reads"], 20.0);
  EXPECT_EQ(s["cpi_categories"], json({"dram", "issue"}));
  // VALU busy per SIMD over the simulated cycles: CU 0's SIMD 0 was busy 30 of 300 cycles.
  EXPECT_DOUBLE_EQ(s["simd_map"]["valu_busy"][0][0].get<double>(), 0.1);
  EXPECT_EQ(s["memory"]["caches"]["l2"]["reads"], 30);
  // Without the run's summary, the launches' counters are summed.
  json bare = run;
  bare.erase("timing");
  const json b = run_section("r", bare);
  EXPECT_EQ(b["memory"]["caches"]["l2"]["reads"], 30.0);
  EXPECT_DOUBLE_EQ(b["memory"]["caches"]["l2"]["read_hit_rate"].get<double>(), 0.4);
  EXPECT_TRUE(b["simd_map"].is_null());
  EXPECT_DOUBLE_EQ(s["memory"]["caches"]["l2"]["read_hit_rate"].get<double>(), 0.4);
}

TEST(ReportPage, AnAnalyticalRunsKernelsCarryGpumechsStackWeightedByInstructions) {
  auto launch = [](double insts, double base, double dram) {
    return json{{"name", "k"}, {"cycles", 10}, {"wave_instructions", insts},
                {"sampling", {{"level", "analytical"}, {"detail", {{"cpi", {{"stack", {{"BASE", base}, {"DRAM", dram}}}}}}}}}};
  };
  const json s = run_section("a", run_of({launch(10, 4, 0), launch(30, 4, 8)}));
  ASSERT_EQ(s["kernels"].size(), 1u);
  EXPECT_DOUBLE_EQ(s["kernels"][0]["model_cpi"]["BASE"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(s["kernels"][0]["model_cpi"]["DRAM"].get<double>(), 8.0 * 30 / 40);
  EXPECT_TRUE(s["memory"].is_null()) << "no cache saw an access";
}

TEST(ReportPage, TheConfigurationMarksExactlyTheParametersChangedFromThePreset) {
  json config = {{"l2", {{"size_kb", 4096}, {"ways", 16}}}};
  const json rows = config_rows(config, "r9nano");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["key"], "l2.size_kb");
  EXPECT_TRUE(rows[0]["changed"].get<bool>());
  EXPECT_FALSE(rows[0]["preset"].is_null());
  EXPECT_EQ(rows[1]["key"], "l2.ways");
  EXPECT_EQ(rows[1]["changed"].get<bool>(), rows[1]["preset"] != 16);
  // A preset that cannot be loaded: the values stay, nothing is claimed changed.
  for (const json& r : config_rows(config, "/nonexistent/gpu.toml")) {
    EXPECT_TRUE(r["preset"].is_null());
    EXPECT_FALSE(r["changed"].get<bool>());
  }
}

TEST(ReportPage, ACompareGivesItsFullRunAndMethodsWithInstructionWeightedCpiStacks) {
  json c = run_of({detailed_launch("k", 100, 2, 10), detailed_launch("k", 100, 2, 30)});
  c["cycles"] = 200;
  auto stack = [](double predicted, double detailed) {
    return json{{"stack", {{{"category", "memory"}, {"modelled", true}, {"predicted", predicted}, {"detailed", detailed}},
                           {{"category", "barrier"}, {"modelled", false}, {"predicted", nullptr}, {"detailed", 1.0}}}}};
  };
  c["methods"] = {{"gpumech", {{"error_pct", -3.0}, {"speedup", 4.0}, {"fallback", false}, {"estimated_cycles", 194},
                               {"kernels", {{{"launch", 0}, {"name", "k"}, {"level", "analytical"}, {"cpi", stack(2, 4)}},
                                            {{"launch", 1}, {"name", "k"}, {"level", "analytical"}, {"cpi", stack(6, 8)}}}}}}};
  const json page = report_page({{"c.json", c}});
  ASSERT_EQ(page["sections"].size(), 2u);
  EXPECT_EQ(page["sections"][0]["kind"], "run");
  EXPECT_EQ(page["sections"][0]["sampling"], "none") << "the reference ran in full detail";
  const json& cmp = page["sections"][1];
  EXPECT_EQ(cmp["kind"], "compare");
  ASSERT_EQ(cmp["points"].size(), 1u);
  EXPECT_EQ(cmp["points"][0]["speedup"], 4.0);
  ASSERT_EQ(cmp["cpi_pairs"].size(), 1u);
  const json& mem = cmp["cpi_pairs"][0]["categories"][0];
  // Weighted by the launches' 20 and 60 instructions.
  EXPECT_DOUBLE_EQ(mem["predicted"].get<double>(), (2.0 * 20 + 6.0 * 60) / 80);
  EXPECT_DOUBLE_EQ(mem["detailed"].get<double>(), (4.0 * 20 + 8.0 * 60) / 80);
  EXPECT_TRUE(cmp["cpi_pairs"][0]["categories"][1]["predicted"].is_null());
  EXPECT_EQ(cmp["method_launches"]["gpumech"][1]["level"], "analytical");
}

TEST(ReportPage, ASweepTableGivesOnePointPerTaskAndMethodWithItsGridValues) {
  json t = {{"spec", "s.toml"}, {"rows", {{{"task", "a"}, {"benchmark", "b"}, {"params", ""}, {"l2.size_kb", 512},
                                            {"cycles", 10}, {"tbpoint.error_pct", 1.5}, {"tbpoint.speedup", 3.0},
                                            {"tbpoint.fallback", false}, {"tbpoint.estimated_cycles", 9}}}}};
  const json s = report_page({{"r.json", t}})["sections"][0];
  EXPECT_EQ(s["kind"], "sweep");
  EXPECT_EQ(s["grid"], json({"l2.size_kb"}));
  ASSERT_EQ(s["points"].size(), 1u);
  EXPECT_EQ(s["points"][0]["label"], "b l2.size_kb=512");
  EXPECT_EQ(s["points"][0]["estimated_cycles"], 9);
  EXPECT_EQ(s["points"][0]["full_cycles"], 10);
  EXPECT_EQ(s["columns"][3], "l2.size_kb") << "the grid after the task, as in the CSV";
}

TEST(ReportPage, AGraphicsRunGivesEachFramesWorkAndMegsimsClustersPerFrame) {
  json frames = json::array();
  for (int i = 0; i < 4; ++i)
    frames.push_back({{"frame", 10 + i}, {"draws", 1}, {"fragments", 100 * i},
                      {"vertex_shaders", {{"p", {{"wave_instructions", 5}}}}},
                      {"pixel_shaders", {{"p", {{"wave_instructions", 7 * i}}}}}});
  json megsim = {{"method", "megsim"}, {"k", 2}, {"frame_reduction", 2.0}, {"bic", {1.0, 2.0}},
                 {"clusters", {{{"representative", 11}, {"size", 2}, {"frames", {10, 11}}},
                               {{"representative", 12}, {"size", 2}, {"frames", {12, 13}}}}},
                 {"similarity", {{"step", 1}, {"distances", json::array()}}}, {"estimate_note", "not implemented: x"}};
  const json run = {{"workload", "gfx:x"}, {"mode", "functional"}, {"frames", frames}, {"sampling", megsim}};
  const json s = report_page({{"g.json", run}})["sections"][0];
  EXPECT_EQ(s["kind"], "frames");
  EXPECT_EQ(s["frames"], 4);
  EXPECT_EQ(s["frame"], json({10, 11, 12, 13}));
  EXPECT_EQ(s["shader_instructions"], json({5.0, 12.0, 19.0, 26.0})) << "vertex and pixel programs summed";
  EXPECT_EQ(s["megsim"]["cluster_of_frame"], json({0, 0, 1, 1}));
  EXPECT_EQ(s["megsim"]["clusters"][1]["first"], 12);
  EXPECT_EQ(s["megsim"]["clusters"][1]["last"], 13);
  // Without a selection the section still draws the frames.
  json plain = run;
  plain.erase("sampling");
  EXPECT_FALSE(report_page({{"g.json", plain}})["sections"][0].contains("megsim"));
}

TEST(ReportPage, ATimedGraphicsRunGivesEachFramesPhasesCpiStackAndBusyStagesAlignedWithItsFrames) {
  json frames = json::array();
  for (int i = 0; i < 3; ++i) {
    json timing = {{"cycles", 100 * (i + 1)},
                   {"pipeline", {{"geometry_cycles", 10 * (i + 1)}, {"tile_cycles", 90 * (i + 1)},
                                 {"busy_fraction", {{"raster", 0.5}, {"blend", 0.25}}}}},
                   {"cpi_stack", {{"issue", {{"fraction", 0.6}}}}}};
    if (i == 1) timing["cpi_stack"]["l2"] = {{"fraction", 0.4}};  // a category only one frame has
    frames.push_back({{"frame", i}, {"timing", timing}});
  }
  const json s = report_page({{"t.json", {{"workload", "gfx:x"}, {"mode", "timing"}, {"frames", frames}}}})["sections"][0];
  EXPECT_EQ(s["cycles"], json({100, 200, 300}));
  EXPECT_EQ(s["geometry_cycles"], json({10, 20, 30}));
  EXPECT_EQ(s["tile_cycles"], json({90, 180, 270}));
  EXPECT_EQ(s["cpi"]["issue"], json({0.6, 0.6, 0.6}));
  EXPECT_EQ(s["cpi"]["l2"], json({nullptr, 0.4, nullptr})) << "one value per plotted frame, null where absent";
  EXPECT_EQ(s["busy"]["blend"], json({0.25, 0.25, 0.25}));
}

TEST(ReportPage, AGraphicsCompareGivesFullDetailPerFrameAndEachMethodsFramesAtTheirCyclesAndInterval) {
  json per = json::array();
  for (int i = 0; i < 4; ++i) per.push_back({{"frame", 20 + i}, {"cycles", 1000 * (i + 1)}});
  const json totals = {{"cycles", 10000}, {"dram_bytes", 0}, {"l2_accesses", 5}, {"tile_buffer_accesses", 7}};
  const json errors = {{"cycles", 0.01}, {"dram_bytes", 0}, {"l2_accesses", 0}, {"tile_buffer_accesses", 0}};
  json megsim = {{"method", "megsim"}, {"k", 2}, {"frame_reduction", 2.0}, {"bic", {1.0, 2.0}},
                 {"clusters", {{{"representative", 21}, {"size", 2}, {"frames", {20, 21}}},
                               {{"representative", 22}, {"size", 2}, {"frames", {22, 23}}}}},
                 {"similarity", {{"step", 1}, {"distances", json::array()}}},
                 {"representative_frames", {21, 22}}, {"frames_simulated", 2}, {"estimate", totals},
                 {"errors", errors}, {"speedup", 3.0}, {"interval", {{"kind", "prediction"}, {"text", "one per stratum"}}}};
  json stratified = {{"frames_simulated", 4}, {"representative_frames", {20, 21, 22, 23}}, {"estimate", totals},
                     {"errors", errors}, {"confidence", 0.9}, {"interval", {{"kind", "confidence"}}},
                     {"intervals", {{"cycles", {{"total", 10100.0}, {"half_width", 300.0}}}}}};
  const json cmp = {{"workload", "gfx:x"}, {"frames", 4},
                    {"reference", {{"seconds", 2.0}, {"totals", totals}, {"per_frame", per},
                                   {"source", {{"runs", json::array({json::object(), json::object()})}}}}},
                    {"methods", {{"megsim", megsim}, {"megsim-stratified", stratified}}}};
  const json s = report_page({{"c.json", cmp}})["sections"][0];
  EXPECT_EQ(s["kind"], "frame-compare");
  EXPECT_EQ(s["frame"], json({20, 21, 22, 23}));
  EXPECT_EQ(s["cycles"], json({1000, 2000, 3000, 4000}));
  EXPECT_EQ(s["source"], "2 earlier runs");
  ASSERT_EQ(s["methods"].size(), 2u);
  EXPECT_EQ(s["methods"][0]["method"], "megsim");
  EXPECT_EQ(s["methods"][0]["simulated"], json({{{"frame", 21}, {"cycles", 2000.0}}, {{"frame", 22}, {"cycles", 3000.0}}}));
  EXPECT_FALSE(s["methods"][0]["interval"].contains("low")) << "a prediction has no range";
  EXPECT_EQ(s["methods"][1]["interval"]["low"], 9800.0);
  EXPECT_EQ(s["methods"][1]["interval"]["high"], 10400.0);
  EXPECT_EQ(s["methods"][1]["interval"]["confidence"], 0.9);
  EXPECT_EQ(s["megsim"]["cluster_of_frame"], json({0, 0, 1, 1}));
}

TEST(ReportPage, AFileThatIsNotAStrobeResultIsRefusedByName) {
  try {
    (void)report_page({{"notes.json", json{{"hello", 1}}}});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("notes.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a strobe result"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)report_page({{"k.json", json{{"mode", "timing"}, {"kernels", 5}}}}), InputError);
  // A launch whose timeline lacks a series is malformed, and said to be, not read past its end.
  json broken = detailed_launch("k", 100, 4, 1);
  broken["timing"]["timeline"]["retired"] = json::array();
  try {
    (void)report_page({{"broken.json", run_of({broken})}});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("broken.json: malformed strobe result"), std::string::npos) << e.what();
  }
}

/// The error report_page gives `input`, or "" when it accepts it.
std::string refusal(const std::string& name, const json& input) {
  try {
    (void)report_page({{name, input}});
    return "";
  } catch (const InputError& e) {
    return e.what();
  }
}

TEST(ReportPage, B09_SetsSweepsAndGraphicsResultsWithValuesNoneWritesAreRefusedByFieldNotDrawn) {
  // A set's, a sweep's or a graphics result's counts were drawn as read: "many" as 0, -5 wrapped.
  const json method = {{"error_pct", 1.5}, {"estimated_cycles", 90}, {"speedup", 2.0}, {"fallback", false}};
  const json set = {{"set", "s"}, {"aggregates", json::object()},
                    {"runs", {{{"benchmark", "b"}, {"full_cycles", 100}, {"launches", 2}, {"methods", {{"pka", method}}}}}}};
  ASSERT_EQ(refusal("set.json", set), "");
  json bad = set;
  bad["runs"][0]["full_cycles"] = "many";
  EXPECT_EQ(refusal("set.json", bad), "set.json: runs[0]: 'full_cycles' is \"many\", not a non-negative integer");
  bad = set;
  bad["runs"][0]["methods"]["pka"]["estimated_cycles"] = -5;
  EXPECT_EQ(refusal("set.json", bad),
            "set.json: runs[0]: method pka: 'estimated_cycles' is -5, not a non-negative integer");
  bad = set;
  bad["runs"][0]["methods"]["pka"] = {{"failure", 3}};
  EXPECT_EQ(refusal("set.json", bad), "set.json: runs[0]: method pka: 'failure' is 3, not text");
  bad = set;
  bad["runs"][0]["methods"]["pka"] = {{"failure", "no representative ran"}};
  EXPECT_EQ(refusal("set.json", bad), "") << "a failed method is a row the set writes";

  const json sweep = {{"spec", "s.toml"}, {"rows", {{{"task", "a"}, {"benchmark", "b"}, {"cycles", 10},
                                                      {"tbpoint.error_pct", 1.5}, {"tbpoint.speedup", nullptr},
                                                      {"tbpoint.estimated_cycles", 9}}}}};
  ASSERT_EQ(refusal("t.json", sweep), "") << "a missing speedup is null in the table";
  json bad_sweep = sweep;
  bad_sweep["rows"][0]["tbpoint.estimated_cycles"] = 9.5;
  EXPECT_EQ(refusal("t.json", bad_sweep),
            "t.json: rows[0]: 'tbpoint.estimated_cycles' is 9.5, not a non-negative integer");
  bad_sweep = sweep;
  bad_sweep["rows"][0]["tbpoint.error_pct"] = "small";
  EXPECT_EQ(refusal("t.json", bad_sweep), "t.json: rows[0]: 'tbpoint.error_pct' is \"small\", not a number");

  const json frames = {{"workload", "gfx:x"}, {"mode", "timing"},
                       {"frames", {{{"frame", 0}, {"timing", {{"cycles", 100}}}}}}};
  ASSERT_EQ(refusal("g.json", frames), "");
  json bad_frames = frames;
  bad_frames["frames"][0]["timing"]["cycles"] = -1;
  EXPECT_EQ(refusal("g.json", bad_frames), "g.json: frames[0]: timing: 'cycles' is -1, not a non-negative whole number");

  const json totals = {{"cycles", 100}};
  // Graphics comparisons write a frame's cycles as a whole number in floating point.
  const json cmp = {{"workload", "gfx:x"},
                    {"reference", {{"totals", totals}, {"per_frame", {{{"frame", 0}, {"cycles", 100.0}}}}}},
                    {"methods", {{"megsim", {{"frames_simulated", 1}, {"representative_frames", {0}},
                                             {"estimate", totals}, {"errors", totals}}}}}};
  ASSERT_EQ(refusal("c.json", cmp), "");
  json bad_cmp = cmp;
  bad_cmp["reference"]["per_frame"][0]["cycles"] = "lots";
  EXPECT_EQ(refusal("c.json", bad_cmp),
            "c.json: reference.per_frame[0]: 'cycles' is \"lots\", not a non-negative whole number");
  bad_cmp = cmp;
  bad_cmp["methods"]["megsim"]["representative_frames"] = {-3};
  EXPECT_EQ(refusal("c.json", bad_cmp), "c.json: method megsim: a representative frame is -3, not a frame number");
}

TEST(ReportPage, RegressionAUtilisationCountThatDisagreesWithItsArraysIsRefusedNotAllocated) {
  // Found by the file fuzz harness: "simds": -1 sized the SIMD map by itself, and strobe report
  // stopped with "internal error: cannot create std::vector larger than max_size()".
  json run = run_of({detailed_launch("k", 100, 4, 10)});
  run["timing"]["utilisation"] = {{"cycles", 100}, {"cus", 1}, {"simds", 2},
                                  {"valu_busy", {{10, 20}}}, {"issued", {{5, 6}}}};
  EXPECT_EQ(refusal("u.json", run), "");
  run["timing"]["utilisation"]["simds"] = -1;
  EXPECT_EQ(refusal("u.json", run), "u.json: 'simds' is -1, not a non-negative integer");
  run["timing"]["utilisation"]["simds"] = 4000000000;
  EXPECT_EQ(refusal("u.json", run),
            "u.json: timing.utilisation: a CU of 'valu_busy' holds 2 SIMDs, not the 4000000000 'simds' says");
}

TEST(HtmlPage, TheDataCannotCloseItsScriptElement) {
  const std::string page = html_page({{"sections", json::array()}, {"x", "</script><b>"}}, "t <&>", {"/*c*/", "/*s*/", "p{}"});
  EXPECT_EQ(page.find("</script><b>"), std::string::npos);
  EXPECT_NE(page.find("<\\/script><b>"), std::string::npos);
  EXPECT_NE(page.find("<title>t &lt;&amp;&gt;</title>"), std::string::npos);
}

}  // namespace
}  // namespace strobe::report
