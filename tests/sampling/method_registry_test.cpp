// The sampling-method registry: built-in methods are found by name with the papers' defaults,
// and bad names and parameter settings are usage errors naming the culprit.
#include "sampling/method.h"

#include <gtest/gtest.h>

#include "common/error.h"
#include "sampling/photon/params.h"
#include "sampling/pka/params.h"
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
  EXPECT_DOUBLE_EQ(param("photon", "sample_fraction")->def, 0.01);
  EXPECT_DOUBLE_EQ(param("photon", "bb_window")->def, 2048);
  EXPECT_DOUBLE_EQ(param("photon", "warp_window")->def, 1024);
  EXPECT_DOUBLE_EQ(param("photon", "delta")->def, 0.03);
  EXPECT_DOUBLE_EQ(param("photon", "bb_stable_share")->def, 0.95);
  EXPECT_DOUBLE_EQ(param("photon", "bbv_dims")->def, 16);
  EXPECT_DOUBLE_EQ(param("pka", "ipc_variance")->def, 0.25);
  EXPECT_DOUBLE_EQ(param("pka", "ipc_window")->def, 3000);
}

TEST(MethodRegistry, TbpointsThreeLevelsShareThePapersThresholdsAndReadProfiles) {
  for (const char* m : {"tbpoint", "tbpoint-inter", "tbpoint-intra"}) {
    SCOPED_TRACE(m);
    ASSERT_TRUE(methods().count(m));
    EXPECT_TRUE(methods().at(m).reads_profile);
    EXPECT_DOUBLE_EQ(param(m, "sigma_inter")->def, 0.1);
    EXPECT_DOUBLE_EQ(param(m, "sigma_intra")->def, 0.2);
    EXPECT_DOUBLE_EQ(param(m, "variation_factor")->def, 0.3);
    EXPECT_DOUBLE_EQ(param(m, "ipc_stability")->def, 0.1);
    EXPECT_DOUBLE_EQ(param(m, "cross_kernel")->def, 0);
  }
  EXPECT_FALSE(methods().at("photon").reads_profile);
  EXPECT_TRUE(methods().at("pka").reads_profile);  // its counts, which a capture's profile carries
}

TEST(MethodRegistry, GpumechIsRegisteredWithMethodsDefaultsAndNamedChoices) {
  ASSERT_TRUE(methods().count("gpumech"));
  EXPECT_TRUE(methods().at("gpumech").reads_profile);  // saved traces: strobe profile --gpumech
  const MethodParam* level = param("gpumech", "level");
  ASSERT_NE(level, nullptr);
  EXPECT_EQ(level->choices, (std::vector<std::string>{"naive", "mt", "mt_mshr", "gpumech"}));
  EXPECT_EQ(level->choices[size_t(level->def)], "gpumech");
  const auto default_of = [](const char* name) {
    const MethodParam* p = param("gpumech", name);
    return p->choices[size_t(p->def)];
  };
  EXPECT_EQ(default_of("policy"), "config");
  EXPECT_EQ(default_of("mshr_demand"), "l1_missing_reads");
  EXPECT_EQ(default_of("dram_demand"), "dram_requests");
  EXPECT_EQ(default_of("rc_normalisation"), "per_w");
  EXPECT_EQ(param("gpumech", "dram_bound")->def, 1);
  EXPECT_EQ(param("gpumech", "tail_bound")->def, 1);
  EXPECT_TRUE(param("gpumech", "max_trace_instructions")->choices.empty());
}

TEST(MethodRegistry, AnEnumerationParameterIsSetByNameAndANumberOrUnknownNameIsRefused) {
  timing::GpuConfig cfg = timing::load_config("r9nano");
  cfg.scheduler = "gto";
  EXPECT_NE(make_method("gpumech", cfg, {"level=mt", "policy=rr", "rc_normalisation=per_w"}, false), nullptr);
  for (const char* bad : {"level=2", "level=fast"}) {
    try {
      make_method("gpumech", cfg, {bad}, false);
      ADD_FAILURE() << bad << ": no error";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("expected one of naive, mt, mt_mshr, gpumech"), std::string::npos) << e.what();
    }
  }
}

TEST(MethodRegistry, GpumechRefusesASchedulerItHasNoModelOfUnlessAPolicyIsNamed) {
  const timing::GpuConfig cfg = timing::load_config("r9nano");  // oldest-first
  try {
    make_method("gpumech", cfg, {}, false);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cu.scheduler=oldest"), std::string::npos) << e.what();
  }
  EXPECT_NE(make_method("gpumech", cfg, {"policy=gto"}, false), nullptr);
}

TEST(MethodRegistry, GpumechRefusesToSkipTheFunctionalRunItsTraceComesFrom) {
  timing::GpuConfig cfg = timing::load_config("r9nano");
  cfg.scheduler = "rr";
  EXPECT_THROW(make_method("gpumech", cfg, {}, true), InputError);
}

TEST(MethodRegistry, EveryParameterIsDocumentedAndItsDefaultInRange) {
  for (const auto& [name, info] : methods()) {
    EXPECT_FALSE(info.description.empty()) << name;
    for (const MethodParam& p : info.params) {
      EXPECT_FALSE(p.doc.empty()) << name << "." << p.name;
      EXPECT_LE(p.lo, p.def) << name << "." << p.name;
      EXPECT_LE(p.def, p.hi) << name << "." << p.name;
    }
  }
}

TEST(MethodRegistry, TheLaunchLevelMethodsReadSumsAndAProfileSharedWithAUnitReaderKeepsUnits) {
  using profile::ProfileDetail;
  for (const char* m : {"sieve", "stem", "pka"}) EXPECT_EQ(methods().at(m).profile_detail, ProfileDetail::sums) << m;
  for (const char* m : {"tbpoint", "simprof", "gpumech"}) EXPECT_EQ(methods().at(m).profile_detail, ProfileDetail::units) << m;
  EXPECT_EQ(profile_detail({"sieve", "stem", "pka", "photon", "none"}), ProfileDetail::sums);
  EXPECT_EQ(profile_detail({"sieve", "tbpoint"}), ProfileDetail::units);
  EXPECT_THROW(profile_detail({"sieve", "nonesuch"}), InputError);
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

TEST(MethodRegistry, SimprofAndItsBaselinesAreRegisteredWithTheBudgetDefaults) {
  for (const char* m : {"simprof", "simprof-srs", "simprof-code", "simprof-window"}) {
    SCOPED_TRACE(m);
    ASSERT_TRUE(methods().count(m));
    EXPECT_TRUE(methods().at(m).reads_profile);
    EXPECT_DOUBLE_EQ(param(m, "error")->def, 0.02);
    EXPECT_DOUBLE_EQ(param(m, "confidence")->def, 0.95);
    EXPECT_DOUBLE_EQ(param(m, "features")->def, 100);
    EXPECT_DOUBLE_EQ(param(m, "max_phases")->def, 20);
    EXPECT_DOUBLE_EQ(param(m, "silhouette_fraction")->def, 0.9);
  }
}

TEST(MethodRegistry, APercentageIsAFractionAndABadOneIsRefused) {
  const timing::GpuConfig cfg = timing::load_config("r9nano");
  EXPECT_NE(make_method("simprof", cfg, {"error=2%", "confidence=95%"}, false), nullptr);
  EXPECT_THROW(make_method("simprof", cfg, {"error=200%"}, false), InputError);  // above 1
  EXPECT_THROW(make_method("simprof", cfg, {"error=%"}, false), InputError);
  EXPECT_THROW(make_method("simprof", cfg, {"confidence=2%%"}, false), InputError);
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

TEST(MethodRegistry, UnknownParameterErrorListsTheValidNamesInDeclarationOrder) {
  try {
    check_sampling_sets({"pka"}, {"ipc_varaince=0.1"});
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown parameter 'ipc_varaince' (valid: ipc_variance, ipc_window, "
                                         "ipc_interval, open_generations, open_after_l2_fill, centroid_representative, parallelism, "
                                         "group_exponent, pca_variance, max_clusters, cluster_explained)"),
              std::string::npos)
        << e.what();
  }
}

/// Options holding every parameter of `schema` at its upper bound.
MethodOptions at_upper_bounds(const std::vector<MethodParam>& schema) {
  MethodOptions o;
  for (const MethodParam& p : schema) o.params[p.name] = p.hi;
  return o;
}

TEST(MethodParams, TheRegisteredSchemaIsTheParameterStructs) {
  const auto names = [](const std::vector<MethodParam>& v) {
    std::vector<std::string> n;
    for (const MethodParam& p : v) n.push_back(p.name);
    return n;
  };
  EXPECT_EQ(names(methods().at("photon").params), names(PhotonParams::schema()));
  EXPECT_EQ(names(methods().at("pka").params), names(PkaParams::schema()));
}

TEST(MethodParams, FieldDefaultsAreTheDeclaredDefaults) {
  MethodOptions o;
  for (const MethodParam& p : PhotonParams::schema()) o.params[p.name] = p.def;
  const PhotonParams d, r = PhotonParams::from(o);
  EXPECT_EQ(d.bb_window, r.bb_window);
  EXPECT_DOUBLE_EQ(d.bb_stable_share, 0.95);
  EXPECT_EQ(d.bbv_dims, 16u);
  EXPECT_TRUE(d.kernel_level && d.warp_level && d.bb_level);
  const PkaParams k;
  EXPECT_EQ(k.ipc_window, 3000u);
  EXPECT_EQ(k.max_clusters, 20);
}

TEST(MethodParams, FromReadsEachUserFacingNameIntoItsTypedField) {
  const PhotonParams p = PhotonParams::from(at_upper_bounds(PhotonParams::schema()));
  EXPECT_DOUBLE_EQ(p.bb_stable_share, 1.0);
  EXPECT_DOUBLE_EQ(p.dominant_warp_share, 1.0);
  EXPECT_DOUBLE_EQ(p.max_warp_imbalance, 1e9);
  EXPECT_EQ(p.bbv_dims, 256u);
  EXPECT_EQ(p.bb_window, 1u << 20);
  EXPECT_TRUE(p.bb_level);
  const PkaParams k = PkaParams::from(at_upper_bounds(PkaParams::schema()));
  EXPECT_EQ(k.ipc_interval, 1000000u);
  EXPECT_EQ(k.max_clusters, 1000);
  EXPECT_DOUBLE_EQ(k.cluster_explained, 1.0);
}

TEST(MethodParams, ZeroTurnsABoolParameterOff) {
  MethodOptions o = at_upper_bounds(PhotonParams::schema());
  o.params["warp_level"] = 0;
  const PhotonParams p = PhotonParams::from(o);
  EXPECT_FALSE(p.warp_level);
  EXPECT_TRUE(p.kernel_level);
}

}  // namespace
}  // namespace strobe::sampling
