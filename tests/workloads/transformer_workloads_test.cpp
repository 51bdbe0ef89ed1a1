// The transformer workloads (gpt2, bert) driven through `strobe run`: their launch structure (one
// launch per operator, as a framework issues them), gpt2's default layer and step counts giving
// more than 2,000 launches, attention's work growing with the KV cache, a corrupted output
// failing verification, and every rule between their parameters refused with exit status 2.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

namespace strobe::clitest {
namespace {

/// `strobe run ARGS --verify --json -`, parsed (null on failure, with the failure recorded).
nlohmann::json run_json(const std::string& args) {
  CliResult r = run_strobe("run " + args + " --verify --json -");
  EXPECT_EQ(r.rc, 0) << args << "\n" << r.err;
  return r.rc == 0 ? nlohmann::json::parse(r.out) : nlohmann::json();
}

/// The kernel names of a run's launches, in order.
std::vector<std::string> names(const nlohmann::json& j) {
  std::vector<std::string> v;
  for (const auto& k : j["kernels"]) v.push_back(k["name"]);
  return v;
}

TEST(Gpt2, DefaultLayersAndStepsGiveOverTwoThousandLaunchesOnePerOperator) {
  // The default 12 blocks, 32-token prompt and 15 decode steps at a narrow width: 16 steps of
  // embedding, 13 launches per block and final norm, logits and argmax.
  const nlohmann::json j = run_json("gpt2 --param width=32 --param heads=2 --param vocab=512");
  ASSERT_FALSE(j.is_null());
  const std::vector<std::string> n = names(j);
  EXPECT_EQ(n.size(), 16u * (1 + 13 * 12 + 3));
  EXPECT_GE(n.size(), 2000u);
  // The prefill's first block, then a decode step's (one row: the projections are GEMVs).
  const std::vector<std::string> prefill_block{"layernorm", "linear", "kv_store", "attn_scores", "softmax_rows",
                                               "attn_apply", "linear", "add", "layernorm", "linear", "gelu",
                                               "linear", "add"};
  EXPECT_EQ(n[0], "embed");
  EXPECT_EQ(std::vector<std::string>(n.begin() + 1, n.begin() + 14), prefill_block);
  const size_t step = 1 + 13 * 12 + 3;
  EXPECT_EQ(std::vector<std::string>(n.begin() + long(step) - 3, n.begin() + long(step)),
            (std::vector<std::string>{"layernorm", "logits", "argmax"}));
  EXPECT_EQ(n[step + 2], "gemv");
}

TEST(Gpt2, AttentionWorkGrowsWithTheCache) {
  const nlohmann::json j = run_json("gpt2 --param layers=1 --param width=64 --param heads=2 --param vocab=256 "
                                    "--param prompt=4 --param decode=12");
  ASSERT_FALSE(j.is_null());
  // Per decode step (the prefill, with 4 query rows, aside), each of which sees one more key:
  // the weighted sum loops over the keys, so its wave instructions grow; the scores take a
  // work-item per key, so their thread instructions do (their waves cover 64 keys each).
  std::map<std::string, std::vector<uint64_t>> wave, thread;
  for (const auto& k : j["kernels"]) {
    wave[k["name"]].push_back(k["wave_instructions"]);
    thread[k["name"]].push_back(k["thread_instructions"]);
  }
  ASSERT_EQ(wave["attn_apply"].size(), 13u);
  ASSERT_EQ(thread["attn_scores"].size(), 13u);
  for (size_t s = 2; s < 13; ++s) {
    EXPECT_GT(wave["attn_apply"][s], wave["attn_apply"][s - 1]) << "step " << s;
    EXPECT_GT(thread["attn_scores"][s], thread["attn_scores"][s - 1]) << "step " << s;
  }
}

TEST(Bert, OneEncoderPassIsTwelveLaunchesPerBlock) {
  const nlohmann::json j = run_json("bert --param layers=3 --param width=64 --param heads=4 --param vocab=512 "
                                    "--param seq=16 --param batch=3");
  ASSERT_FALSE(j.is_null());
  const std::vector<std::string> n = names(j);
  ASSERT_EQ(n.size(), 2u + 12 * 3);
  EXPECT_EQ(std::vector<std::string>(n.begin(), n.begin() + 14),
            (std::vector<std::string>{"embed", "layernorm", "linear", "attn_scores", "softmax_rows", "attn_apply",
                                      "linear", "add", "layernorm", "linear", "gelu", "linear", "add", "layernorm"}));
  // Batch is the z dimension of attention: three sequences of four heads.
  EXPECT_EQ(j["kernels"][3]["grid"][2], 12);
}

TEST(TransformerWorkloads, ACorruptedOutputFailsVerification) {
  CliResult g = run_strobe("run gpt2 --param layers=1 --param width=64 --param heads=2 --param vocab=256 "
                           "--param prompt=3 --param decode=2 --verify --test-corrupt-output");
  EXPECT_EQ(g.rc, 1) << g.err;
  EXPECT_NE(g.err.find("tokens[0]"), std::string::npos) << g.err;
  CliResult b = run_strobe("run bert --param layers=1 --param width=64 --param heads=2 --param vocab=256 "
                           "--param seq=8 --param batch=1 --verify --test-corrupt-output");
  EXPECT_EQ(b.rc, 1) << b.err;
  EXPECT_NE(b.err.find("encoder.output"), std::string::npos) << b.err;
}

TEST(TransformerWorkloads, ParameterRulesAreRefusedNamingTheParameter) {
  struct Case {
    const char* args;
    const char* says;
  };
  for (const Case& c : {Case{"gpt2 --param width=64 --param heads=5", "heads=5 must divide width=64"},
                        Case{"bert --param width=100 --param heads=12", "heads=12 must divide width=100"},
                        Case{"gpt2 --param prompt=0", "prompt"},
                        Case{"bert --param batch=0", "batch"},
                        Case{"bert --param seq=-3", "seq"},
                        Case{"gpt2 --param decode=x", "not a number"}}) {
    CliResult r = run_strobe(std::string("run ") + c.args);
    EXPECT_EQ(r.rc, 2) << c.args << "\n" << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << c.args << "\n" << r.err;
  }
}

}  // namespace
}  // namespace strobe::clitest
