// The sampling-method registry: built-in methods are found by name with the papers' defaults,
// and bad names and parameter settings are usage errors naming the culprit.
#include "sampling/method.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "timing/config/gpu_config.h"

namespace strobe::sampling {
namespace {

const MethodParam* param(const std::string& method, const std::string& name) {
  for (const MethodParam& p : methods().at(method).params)
    if (p.name == name) return &p;
  return nullptr;
}

TEST(MethodRegistry, PhotonAndPkaAreRegisteredWithThePapersDefaults) {
  ASSERT_TRUE(methods().count("photon"));
  ASSERT_TRUE(methods().count("pka"));
  EXPECT_DOUBLE_EQ(param("photon", "sample_fraction")->value, 0.01);
  EXPECT_DOUBLE_EQ(param("photon", "bb_window")->value, 2048);
  EXPECT_DOUBLE_EQ(param("photon", "warp_window")->value, 1024);
  EXPECT_DOUBLE_EQ(param("photon", "delta")->value, 0.03);
  EXPECT_DOUBLE_EQ(param("photon", "bb_stable_share")->value, 0.95);
  EXPECT_DOUBLE_EQ(param("photon", "bbv_dims")->value, 16);
  EXPECT_DOUBLE_EQ(param("pka", "ipc_variance")->value, 0.25);
  EXPECT_DOUBLE_EQ(param("pka", "ipc_window")->value, 3000);
}

TEST(MethodRegistry, EveryParameterIsDocumentedAndItsDefaultInRange) {
  for (const auto& [name, info] : methods()) {
    EXPECT_FALSE(info.description.empty()) << name;
    for (const MethodParam& p : info.params) {
      EXPECT_FALSE(p.doc.empty()) << name << "." << p.name;
      EXPECT_LE(p.lo, p.value) << name << "." << p.name;
      EXPECT_LE(p.value, p.hi) << name << "." << p.name;
    }
  }
}

TEST(MethodRegistry, UnknownMethodNamesTheKnownOnes) {
  const timing::GpuConfig cfg = timing::load_config("r9nano");
  try {
    make_method("simpoint", cfg, {}, false);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("photon"), std::string::npos) << e.what();
  }
}

TEST(MethodRegistry, BadParameterSettingsAreInputErrors) {
  const timing::GpuConfig cfg = timing::load_config("r9nano");
  EXPECT_THROW(make_method("photon", cfg, {"delta=abc"}, false), InputError);
  EXPECT_THROW(make_method("photon", cfg, {"delta=2"}, false), InputError);
  EXPECT_THROW(make_method("photon", cfg, {"delta"}, false), InputError);
  EXPECT_THROW(check_sampling_sets({"photon"}, {"ipc_variance=0.1"}), InputError);  // pka's, not photon's
  EXPECT_NO_THROW(check_sampling_sets({"photon", "pka"}, {"ipc_variance=0.1", "delta=0.05"}));
  EXPECT_NE(make_method("photon", cfg, {"delta=0.05", "ipc_variance=0.1"}, false), nullptr);
}

}  // namespace
}  // namespace strobe::sampling
