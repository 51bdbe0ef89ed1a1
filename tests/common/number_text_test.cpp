// The one number reader behind --set, --param and --sampling-set: what it takes and refuses.
#include "common/number_text.h"

#include <gtest/gtest.h>

namespace strobe {
namespace {

TEST(NumberText, DecimalFractionsAndExponentsAreNumbersAndNothingElseIs) {
  EXPECT_EQ(parse_number("3"), 3.0);
  EXPECT_EQ(parse_number("-2.5"), -2.5);
  EXPECT_EQ(parse_number("1e6"), 1e6);
  EXPECT_EQ(parse_number(".5"), 0.5);
  for (const char* bad : {"", " 5", "5 ", "0x10", "inf", "nan", "1e999", "5%", "1,000", "+"})
    EXPECT_FALSE(parse_number(bad).has_value()) << '"' << bad << '"';
}

TEST(NumberText, APercentIsAFractionOnlyWhereAsked) {
  EXPECT_EQ(parse_number("2%", true), 0.02);
  EXPECT_EQ(parse_number("0.5", true), 0.5);
  EXPECT_FALSE(parse_number("2%").has_value());
  EXPECT_FALSE(parse_number("%", true).has_value());
}

TEST(NumberText, IntegersMayBeWrittenAsExponentsButMustBeIntegralAndFit) {
  EXPECT_EQ(parse_integer("42"), 42);
  EXPECT_EQ(parse_integer("1e6"), 1000000);
  EXPECT_EQ(parse_integer("-7"), -7);
  EXPECT_EQ(parse_integer("9223372036854775807"), INT64_MAX) << "exact beyond a double's 53 bits";
  for (const char* bad : {"2.5", "1e19", "", "0x10", "4 "})
    EXPECT_FALSE(parse_integer(bad).has_value()) << '"' << bad << '"';
}

}  // namespace
}  // namespace strobe
