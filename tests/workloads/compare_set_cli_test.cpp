// `strobe compare --set` / `--set-file` driven as a subprocess: the per-run and aggregate fields
// of the JSON report and their arithmetic, and the usage errors. Runs at `ci` (small) sizes,
// so nothing here asserts accuracy.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>
#include <string>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

TEST(CompareSet, SmokeSetReportsEveryRunAndAggregatesThatFollowFromThem) {
  CliResult r = run_strobe("compare --set smoke --size ci --sampling photon --repeat 2 --json -");
  ASSERT_EQ(r.rc, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["set"], "smoke");
  EXPECT_EQ(j["size"], "ci");
  EXPECT_EQ(j["repeat"], 2);
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][0]["benchmark"], "relu");
  EXPECT_EQ(j["runs"][1]["benchmark"], "fir");
  EXPECT_EQ(j["runs"][0]["params"]["n"], 5000);  // relu's small size
  double full_s = 0, sampled_s = 0, log_speedup = 0, err_sum = 0, err_max = 0, sampled_err = 0;
  uint64_t full_c = 0, est_c = 0;
  int fallbacks = 0;
  for (const auto& run : j["runs"]) {
    SCOPED_TRACE(run["benchmark"].get<std::string>());
    EXPECT_EQ(run["repeats"], 2);
    const auto& m = run["methods"]["photon"];
    const double full = run["full_cycles"], est = m["estimated_cycles"];
    EXPECT_NEAR(m["error_pct"].get<double>(), 100.0 * std::abs(est - full) / full, 1e-9);
    ASSERT_EQ(m["speedups"].size(), 2u);
    const double s0 = m["speedups"][0], s1 = m["speedups"][1];
    EXPECT_NEAR(m["speedup"].get<double>(), (s0 + s1) / 2, 1e-12);  // the median of two
    EXPECT_DOUBLE_EQ(m["speedup_min"].get<double>(), std::min(s0, s1));
    EXPECT_DOUBLE_EQ(m["speedup_max"].get<double>(), std::max(s0, s1));
    int launches = 0, detailed = 0;
    for (const auto& [level, n] : m["levels"].items()) {
      launches += n.get<int>();
      if (level == "detailed") detailed += n.get<int>();
    }
    EXPECT_EQ(launches, run["launches"].get<int>());
    EXPECT_EQ(m["fallback"].get<bool>(), detailed == launches);
    full_s += m["full_seconds"].get<double>();
    sampled_s += m["sampled_seconds"].get<double>();
    log_speedup += std::log(m["speedup"].get<double>());
    err_sum += m["error_pct"].get<double>();
    err_max = std::max(err_max, m["error_pct"].get<double>());
    full_c += run["full_cycles"].get<uint64_t>();
    est_c += m["estimated_cycles"].get<uint64_t>();
    if (m["fallback"].get<bool>())
      ++fallbacks;
    else
      sampled_err += m["error_pct"].get<double>();
  }
  const auto& a = j["aggregates"]["photon"];
  EXPECT_EQ(a["runs"], 2);
  EXPECT_NEAR(a["total_speedup"].get<double>(), full_s / sampled_s, 1e-9);
  EXPECT_NEAR(a["geomean_speedup"].get<double>(), std::exp(log_speedup / 2), 1e-9);
  EXPECT_NEAR(a["mean_abs_error_pct"].get<double>(), err_sum / 2, 1e-9);
  EXPECT_NEAR(a["max_abs_error_pct"].get<double>(), err_max, 1e-9);
  EXPECT_NEAR(a["summed_cycles_error_pct"].get<double>(),
              100.0 * std::abs(double(est_c) - double(full_c)) / double(full_c), 1e-9);
  EXPECT_EQ(a["fallback_runs"], fallbacks);
  EXPECT_EQ(a["sampled_runs"], 2 - fallbacks);
  EXPECT_NEAR(a["mean_abs_error_pct_sampled"].get<double>(), fallbacks == 2 ? 0.0 : sampled_err / (2 - fallbacks),
              1e-9);
}

TEST(CompareSet, SetFileRunsItsLinesAndCsvCarriesTheSameRows) {
  TempDir t;
  const std::string set = (t.path / "mine.txt").string(), csv = (t.path / "out.csv").string();
  std::ofstream(set) << "# two runs\nvecadd --param n=4096\n\nrelu --param n=4096  # trailing comment\n";
  CliResult r = run_strobe("compare --set-file " + set + " --sampling photon --repeat 1 --csv " + csv);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("geomean speedup"), std::string::npos) << r.out;
  const std::string text = slurp(csv);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1 + 2 + 1) << text;  // header, 2 runs, 1 aggregate
  EXPECT_NE(text.find("run,"), std::string::npos);
  EXPECT_NE(text.find("aggregate,"), std::string::npos);
}

TEST(CompareSet, AMethodThatCannotRunOneWorkloadIsRecordedAsFailedAndTheSetGoesOn) {
  // SimProf refuses a launch sequence that depends on timing (sssp's functional pass makes 15
  // launches at 4096 vertices, the timed run 16). An evaluation of hours used to stop there;
  // now the failure is the method's result for that run, counted apart, and the rest is
  // measured. The journal keeps it, so a resumed set does not retry it.
  TempDir t;
  const std::string set = (t.path / "set.txt").string(), journal = (t.path / "j.jsonl").string();
  const std::string csv = (t.path / "out.csv").string(), json = (t.path / "out.json").string();
  std::ofstream(set) << "relu --param n=4096\nsssp --param vertices=4096\n";
  const std::string cmd = "compare --set-file " + set + " --sampling photon,simprof --repeat 1 --journal " + journal;
  CliResult r = run_strobe(cmd + " --json " + json + " --csv " + csv);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("simprof failed on sssp vertices=4096: not implemented"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(slurp(json));
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_FALSE(j["runs"][0]["methods"]["simprof"].contains("failure"));
  EXPECT_NE(j["runs"][1]["methods"]["simprof"]["failure"].get<std::string>().find("depends on timing"), std::string::npos);
  EXPECT_FALSE(j["runs"][1]["methods"]["photon"].contains("failure")) << "the other method still ran";
  EXPECT_EQ(j["aggregates"]["simprof"]["runs"], 1);
  EXPECT_EQ(j["aggregates"]["simprof"]["failed_runs"], 1);
  EXPECT_EQ(j["aggregates"]["photon"]["runs"], 2);
  EXPECT_EQ(j["aggregates"]["photon"]["failed_runs"], 0);
  EXPECT_NE(slurp(csv).find("depends on timing"), std::string::npos);
  // Resumed from the journal: nothing runs again, and the failure is still there.
  CliResult again = run_strobe(cmd + " --json -");
  ASSERT_EQ(again.rc, 0) << again.err;
  EXPECT_NE(again.err.find("(from the journal)"), std::string::npos) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["aggregates"]["simprof"]["failed_runs"], 1);
  // A single comparison still stops at the method's error.
  CliResult one = run_strobe("compare sssp --param vertices=4096 --sampling simprof");
  EXPECT_EQ(one.rc, 1);
  EXPECT_NE(one.err.find("not implemented"), std::string::npos) << one.err;
}

/// The benchmarks of a named set at `size`, as `--dry-run` lists them (one run per line).
std::vector<std::string> set_benchmarks(const std::string& set, const std::string& size) {
  CliResult r = run_strobe("compare --set " + set + " --size " + size + " --sampling photon --dry-run");
  EXPECT_EQ(r.rc, 0) << r.err;
  std::vector<std::string> out;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) out.push_back(line.substr(0, line.find(' ')));
  return out;
}

TEST(CompareSet, TuningEvaluationMlAndHeldOutSetsCoverEveryRegisteredBenchmarkTuningApart) {
  const nlohmann::json list = nlohmann::json::parse(run_strobe("list --json -").out);
  std::set<std::string> all;
  for (const auto& b : list["benchmarks"]) all.insert(b["name"].get<std::string>());
  // Every line of both sets parses at both sizes; ci runs each benchmark once.
  const auto tuning = set_benchmarks("tuning", "ci"), evaluation = set_benchmarks("evaluation", "ci");
  EXPECT_EQ(set_benchmarks("tuning", "eval").size(), 23u);
  EXPECT_EQ(set_benchmarks("evaluation", "eval").size(), evaluation.size());
  std::set<std::string> t(tuning.begin(), tuning.end()), e(evaluation.begin(), evaluation.end());
  EXPECT_EQ(t.size(), tuning.size());
  EXPECT_EQ(e.size(), evaluation.size());
  EXPECT_EQ(t, (std::set<std::string>{"fir", "relu", "sc", "mm", "aes", "spmv", "pagerank", "vgg16", "resnet18"}));
  std::set<std::string> both = t;
  for (const auto& b : e) EXPECT_TRUE(both.insert(b).second) << b << " is in both sets";
  // The ML set is held out too: none of it is tuned on, and it brings the workloads that are in
  // neither of the others.
  const auto ml = set_benchmarks("ml", "ci");
  EXPECT_EQ(set_benchmarks("ml", "eval").size(), ml.size());
  for (const auto& b : ml) {
    EXPECT_FALSE(t.contains(b)) << b << " is tuned on and in the ML set";
    both.insert(b);
  }
  // The held-out set is new benchmarks, in no other set, and GPT-2 at a shape of its own.
  const auto heldout = set_benchmarks("heldout", "ci");
  EXPECT_EQ(set_benchmarks("heldout", "eval").size(), heldout.size());
  EXPECT_GE(heldout.size(), 10u);
  for (const auto& b : heldout) {
    EXPECT_FALSE(t.contains(b) || e.contains(b)) << b << " is in the tuning or validation set and held out";
    if (b != "gpt2") EXPECT_TRUE(both.insert(b).second) << b << " is in the ML set and held out";
  }
  EXPECT_EQ(both, all);
}

TEST(CompareSet, UnknownSetExitsTwoNamingIt) {
  CliResult r = run_strobe("compare --set nosuchset --sampling photon");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("unknown set 'nosuchset'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("tuning"), std::string::npos) << r.err;  // the known sets are listed
}

TEST(CompareSet, BadSetFileLineExitsTwoNamingFileAndLine) {
  TempDir t;
  const std::string set = (t.path / "bad.txt").string();
  std::ofstream(set) << "relu --param n=4096\nnotabench --param n=1\n";
  CliResult r = run_strobe("compare --set-file " + set + " --sampling photon");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(set + ":2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("notabench"), std::string::npos) << r.err;
  std::ofstream(set) << "relu --param size=4096\n";
  CliResult param = run_strobe("compare --set-file " + set + " --sampling photon");
  EXPECT_EQ(param.rc, 2);
  EXPECT_NE(param.err.find(set + ":1"), std::string::npos) << param.err;
}

TEST(CompareSet, RegressionARuleBetweenParametersIsCheckedBeforeAnyRunStarts) {
  // vgg's input must be a multiple of 32. The check sat in the benchmark's constructor, so an
  // evaluation set reached its last run after hours before it failed on input=112.
  TempDir t;
  const std::string set = (t.path / "bad.txt").string();
  std::ofstream(set) << "relu --param n=4096\nvgg19 --param input=112\n";
  CliResult r = run_strobe("compare --set-file " + set + " --sampling photon --dry-run");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(set + ":2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("multiple of 32"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("relu"), std::string::npos) << "nothing is listed, let alone run: " << r.out;
}

/// The lines of a JSON Lines file.
std::vector<nlohmann::json> journal_lines(const std::string& path) {
  std::vector<nlohmann::json> out;
  std::istringstream in(slurp(path));
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(nlohmann::json::parse(line));
  return out;
}

TEST(CompareSet, JournalResumesASetWithoutSimulatingItsFinishedRunsAgain) {
  TempDir t;
  const std::string two = (t.path / "two.txt").string(), three = (t.path / "three.txt").string(),
                    journal = (t.path / "runs.jsonl").string();
  std::ofstream(two) << "vecadd --param n=4096\nrelu --param n=4096\n";
  std::ofstream(three) << "vecadd --param n=4096\nrelu --param n=4096\nfir --param n=4096\n";
  CliResult first = run_strobe("compare --set-file " + two + " --sampling photon,pka --repeat 1 --journal " + journal +
                               " --json -");
  ASSERT_EQ(first.rc, 0) << first.err;
  EXPECT_EQ(first.err.find("from the journal"), std::string::npos) << first.err;
  ASSERT_EQ(journal_lines(journal).size(), 2u);
  const nlohmann::json a = nlohmann::json::parse(first.out);

  // The longer set takes its first two runs from the journal: the rows, speedups included,
  // are the recorded ones (a second simulation would time differently); the third is new.
  CliResult second = run_strobe("compare --set-file " + three + " --sampling photon,pka --repeat 1 --journal " +
                                journal + " --json -");
  ASSERT_EQ(second.rc, 0) << second.err;
  EXPECT_NE(second.err.find("[1/3] vecadd n=4096 (from the journal)"), std::string::npos) << second.err;
  EXPECT_NE(second.err.find("[2/3] relu n=4096 (from the journal)"), std::string::npos) << second.err;
  EXPECT_EQ(second.err.find("[3/3] fir n=4096 (from the journal)"), std::string::npos) << second.err;
  const nlohmann::json b = nlohmann::json::parse(second.out);
  ASSERT_EQ(b["runs"].size(), 3u);
  EXPECT_EQ(b["runs"][0], a["runs"][0]);
  EXPECT_EQ(b["runs"][1], a["runs"][1]);
  EXPECT_EQ(b["runs"][2]["benchmark"], "fir");
  EXPECT_EQ(b["methods"], (nlohmann::json{"photon", "pka"}));
  EXPECT_FALSE(b["runs"][2]["provenance"]["build"].get<std::string>().empty());
  EXPECT_EQ(journal_lines(journal).size(), 3u);

  // Aggregates over journal rows follow from the rows as they do over simulated ones.
  double full_s = 0, sampled_s = 0;
  for (const auto& run : b["runs"]) {
    full_s += run["methods"]["pka"]["full_seconds"].get<double>();
    sampled_s += run["methods"]["pka"]["sampled_seconds"].get<double>();
  }
  EXPECT_NEAR(b["aggregates"]["pka"]["total_speedup"].get<double>(), full_s / sampled_s, 1e-9);

  // Another comparison (here: other repeats) does not take these runs, and adds its own.
  CliResult other = run_strobe("compare --set-file " + two + " --sampling photon,pka --repeat 2 --journal " + journal +
                               " --json -");
  ASSERT_EQ(other.rc, 0) << other.err;
  EXPECT_EQ(other.err.find("from the journal"), std::string::npos) << other.err;
  EXPECT_EQ(journal_lines(journal).size(), 5u);
}

TEST(CompareSet, CorruptJournalExitsTwoNamingFileAndLine) {
  TempDir t;
  const std::string set = (t.path / "one.txt").string(), journal = (t.path / "runs.jsonl").string();
  std::ofstream(set) << "vecadd --param n=4096\n";
  ASSERT_EQ(run_strobe("compare --set-file " + set + " --sampling photon --repeat 1 --journal " + journal).rc, 0);
  std::ofstream(journal, std::ios::app) << "{\"version\": 1, \"key\": {}}\n";
  CliResult r = run_strobe("compare --set-file " + set + " --sampling photon --repeat 1 --journal " + journal);
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find(journal + ", line 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no 'row'"), std::string::npos) << r.err;
}

TEST(CompareSet, B08_ANegativeNumberInAJournalIsRefusedNotWrapped) {
  // A negative cycle count once read back as 18446744073709551611.
  TempDir t;
  const std::string set = (t.path / "one.txt").string(), journal = (t.path / "runs.jsonl").string();
  std::ofstream(set) << "vecadd --param n=4096\n";
  ASSERT_EQ(run_strobe("compare --set-file " + set + " --sampling photon --repeat 1 --journal " + journal).rc, 0);
  for (const char* field : {"full_cycles", "estimated_cycles"}) {
    SCOPED_TRACE(field);
    std::vector<nlohmann::json> lines = journal_lines(journal);
    ASSERT_EQ(lines.size(), 1u);
    nlohmann::json edited = lines[0];
    edited["scores"][0][field] = -5;
    std::ofstream(journal) << edited.dump() << "\n";
    CliResult r = run_strobe("compare --set-file " + set + " --sampling photon --repeat 1 --journal " + journal);
    EXPECT_EQ(r.rc, 2);
    EXPECT_NE(r.err.find(journal + ", line 1"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(std::string("'") + field + "' is -5, not a non-negative integer"), std::string::npos) << r.err;
    std::ofstream(journal) << lines[0].dump() << "\n";
  }
}

TEST(CompareSet, B02_TwoComparisonsSharingAJournalAtOnceKeepEveryEntry) {
  // Each rewrote the file from what it had read at its start, so one lost the other's entries.
  TempDir t;
  const std::string a = (t.path / "a.txt").string(), b = (t.path / "b.txt").string(),
                    journal = (t.path / "runs.jsonl").string();
  std::ofstream fa(a), fb(b);
  for (int n = 1; n <= 4; ++n) {
    fa << "vecadd --param n=" << 1024 * n << "\n";
    fb << "relu --param n=" << 1024 * n << "\n";
  }
  fa.close();
  fb.close();
  const std::string common = " --sampling photon --repeat 1 --journal " + journal + " >/dev/null 2>&1";
  const std::string both = std::string(STROBE_BINARY) + " compare --set-file " + a + common + " & " + STROBE_BINARY +
                           " compare --set-file " + b + common + " & wait";
  ASSERT_EQ(std::system(both.c_str()), 0);
  EXPECT_EQ(journal_lines(journal).size(), 8u) << "entries were lost";
}

TEST(CompareSet, ConflictingArgumentsExitTwo) {
  EXPECT_EQ(run_strobe("compare relu --set smoke --sampling photon").rc, 2);
  EXPECT_EQ(run_strobe("compare --set smoke --size huge --sampling photon").rc, 2);
  EXPECT_EQ(run_strobe("compare relu --param n=64 --sampling photon --repeat 0").rc, 2);
  EXPECT_EQ(run_strobe("compare --sampling photon").rc, 2);
  CliResult journal = run_strobe("compare relu --sampling photon --journal /tmp/x.jsonl");
  EXPECT_EQ(journal.rc, 2);
  EXPECT_NE(journal.err.find("--journal: only for --set or --set-file"), std::string::npos) << journal.err;
}

}  // namespace
}  // namespace strobe::clitest
