// The one reader of parameter values: what each kind accepts and refuses, and how it says so.
#include "common/param_decl.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/error.h"

namespace strobe {
namespace {

ParamDecl decl(ParamKind kind, double lo = 0, double hi = 0) {
  ParamDecl p;
  p.name = "x", p.kind = kind, p.lo = lo, p.hi = hi, p.unit = "units", p.doc = "what x sets";
  return p;
}

/// The message of the InputError `f` throws ("" when it throws none).
template <class F>
std::string refusal(F f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ParamDecl, AnIntegerTakesAnyIntegralSpellingAndRefusesTheRest) {
  const ParamDecl p = decl(ParamKind::Int, 1, 1e6);
  EXPECT_EQ(read_value(p, "1e3", "--param"), 1000);
  EXPECT_EQ(read_value(p, "1000000", "--param"), 1e6);
  EXPECT_EQ(refusal([&] { read_value(p, "2.5", "--param"); }), "--param x=2.5: takes an integer (what x sets)");
  EXPECT_EQ(refusal([&] { read_value(p, "0x10", "--param"); }), "--param x=0x10: '0x10' is not a number (what x sets)");
  EXPECT_NE(refusal([&] { read_value(p, "2%", "--param"); }).find("is not a number"), std::string::npos);
  EXPECT_EQ(refusal([&] { read_value(p, "0", "--set"); }), "--set x=0: must be in [1, 1000000] units (what x sets)");
}

TEST(ParamDecl, ARealTakesAPercentage) {
  const ParamDecl p = decl(ParamKind::Float, 0, 1);
  EXPECT_DOUBLE_EQ(read_value(p, "2%", "--sampling-set"), 0.02);
  EXPECT_DOUBLE_EQ(read_value(p, "1e-3", "--sampling-set"), 0.001);
  EXPECT_NE(refusal([&] { read_value(p, "150%", "w"); }).find("must be in [0, 1] units"), std::string::npos);
  EXPECT_NE(refusal([&] { read_value(p, "nan", "w"); }).find("is not a number"), std::string::npos);
}

TEST(ParamDecl, AnEnumerationTakesANameAndGivesItsIndex) {
  ParamDecl p = decl(ParamKind::Enum);
  p.choices = {"lru", "fifo", "random"};
  EXPECT_EQ(read_value(p, "fifo", "w"), 1);
  EXPECT_EQ(refusal([&] { read_value(p, "plru", "w"); }), "w x=plru: expected one of lru, fifo, random (what x sets)");
  EXPECT_EQ(format_value(p, 2), "random");
}

TEST(ParamDecl, ATextTakesAnythingButNothing) {
  const ParamDecl p = decl(ParamKind::Text);
  EXPECT_NO_THROW(read_value(p, "a/file", "w"));
  EXPECT_NE(refusal([&] { read_value(p, "", "w"); }).find("is empty"), std::string::npos);
}

TEST(ParamDecl, ATypedValueIsCheckedAsAWrittenOneIs) {
  const ParamDecl p = decl(ParamKind::Int, 1, 8);
  EXPECT_EQ(check_value(p, 4, "4", "t.toml: config key"), 4);
  EXPECT_EQ(refusal([&] { check_value(p, 9, "9", "t.toml: config key"); }),
            "t.toml: config key x=9: must be in [1, 8] units (what x sets)");
}

TEST(ParamDecl, EveryKindIsListedWithItsTypedDefault) {
  ParamDecl i = decl(ParamKind::Int, 1, 8);
  i.def = 4;
  const nlohmann::json ji = to_json(i);
  EXPECT_EQ(ji["kind"], "int");
  EXPECT_TRUE(ji["default"].is_number_integer());
  EXPECT_EQ(ji["max"], 8);
  ParamDecl e = decl(ParamKind::Enum);
  e.choices = {"off", "on"}, e.def = 1;
  EXPECT_EQ(to_json(e)["default"], "on");
  EXPECT_FALSE(to_json(e).contains("min"));
  ParamDecl t = decl(ParamKind::Text);
  t.def_text = "none";
  EXPECT_EQ(to_json(t)["default"], "none");
}

}  // namespace
}  // namespace strobe
