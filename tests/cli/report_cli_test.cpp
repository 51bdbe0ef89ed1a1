// `strobe report`: a page from real results carries them and everything it draws with, fetches
// nothing, and every bad input gets one clear error naming the file and a non-zero exit. (The
// page drawn in a real browser: tests/report/browser_test.py.)
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>

#include <nlohmann/json.hpp>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// The JSON data island of a written page.
nlohmann::json page_data(const std::string& html) {
  const std::string open = "<script id=\"strobe-data\" type=\"application/json\">";
  const size_t from = html.find(open) + open.size();
  return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}

TEST(ReportCli, APageOfATimingRunHoldsItsSectionChartJsAndNoExternalResource) {
  TempDir t;
  const std::string run = (t.path / "run.json").string(), page = (t.path / "r.html").string();
  ASSERT_EQ(run_strobe("run relu --param n=65536 --mode timing --timeline-interval 50 --set gpu.num_cus=8 --json " + run).rc, 0);
  const CliResult r = run_strobe("report " + run + " -o " + page);
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string html = slurp(page);
  EXPECT_NE(html.find("Chart.js v3"), std::string::npos) << "Chart.js is inlined";
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  const nlohmann::json d = page_data(html);
  ASSERT_EQ(d["sections"].size(), 1u);
  const auto& s = d["sections"][0];
  EXPECT_EQ(s["kind"], "run");
  EXPECT_EQ(s["benchmark"], "relu");
  EXPECT_FALSE(s["timeline"].is_null());
  EXPECT_EQ(s["cu_map"]["cus"], 8);
  EXPECT_EQ(s["simd_map"]["cus"], 8);
  // The two parameters set on the command line are the changed ones.
  size_t changed = 0;
  for (const auto& c : s["config"]) changed += c["changed"].get<bool>();
  EXPECT_EQ(changed, 2u);
}

TEST(ReportCli, BadInputsAreRefusedByNameWithoutAPage) {
  TempDir t;
  const std::string page = (t.path / "r.html").string();
  const std::string junk = (t.path / "junk.json").string(), other = (t.path / "other.json").string();
  std::ofstream(junk) << "{ not json";
  std::ofstream(other) << R"({"name": "a file of something else"})";
  CliResult r = run_strobe("report " + junk + " -o " + page);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("junk.json: not JSON"), std::string::npos) << r.err;
  r = run_strobe("report " + other + " -o " + page);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("other.json: not a strobe result"), std::string::npos) << r.err;
  r = run_strobe("report " + (t.path / "missing.json").string() + " -o " + page);
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
  r = run_strobe("report " + other);
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("--output"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(page));
}

TEST(ReportCli, B09_MalformedCountsAndUnknownModesAreRefusedNotDrawn) {
  // "many" cycles were drawn as 0, negative cycles and unknown modes as if valid, exit 0.
  TempDir t;
  const std::string run = (t.path / "run.json").string(), page = (t.path / "r.html").string();
  ASSERT_EQ(run_strobe("run vecadd --param n=1024 --mode timing --json " + run).rc, 0);
  const nlohmann::json good = nlohmann::json::parse(slurp(run));
  struct Case {
    const char* name;
    std::function<void(nlohmann::json&)> edit;
    const char* error;
  };
  const Case cases[] = {
      {"many", [](nlohmann::json& j) { j["cycles"] = "many"; }, "'cycles' is \"many\", not a non-negative integer"},
      {"negative", [](nlohmann::json& j) { j["kernels"][0]["cycles"] = -5; },
       "kernels[0]: 'cycles' is -5, not a non-negative integer"},
      {"mode", [](nlohmann::json& j) { j["mode"] = "warp"; }, "mode 'warp' is not functional, timing or analytical"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    nlohmann::json bad = good;
    c.edit(bad);
    const std::string file = (t.path / (std::string(c.name) + ".json")).string();
    std::ofstream(file) << bad.dump();
    const CliResult r = run_strobe("report " + file + " -o " + page);
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find(c.error), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(page));
  }
  EXPECT_EQ(run_strobe("report " + run + " -o " + page).rc, 0);
}

TEST(ReportCli, AMissingChartJsIsNamedWithThePackageThatProvidesIt) {
  TempDir t;
  const std::string run = (t.path / "run.json").string();
  ASSERT_EQ(run_strobe("run relu --param n=4096 --mode timing --json " + run).rc, 0);
  ::setenv("STROBE_CHARTJS", "/nonexistent/chart.js", 1);
  const CliResult r = run_strobe("report " + run + " -o " + (t.path / "r.html").string());
  ::unsetenv("STROBE_CHARTJS");
  EXPECT_EQ(r.rc, 2);
  EXPECT_FALSE(std::filesystem::exists(t.path / "r.html"));
  EXPECT_NE(r.err.find("libjs-chart.js"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace strobe::clitest
