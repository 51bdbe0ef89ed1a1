// The YAML subset parser used for v2 metadata: what LLVM writes parses, the rest is refused clearly.
#include <gtest/gtest.h>

#include "loader/format_error.h"
#include "loader/yaml_subset.h"

namespace strobe::loader {
namespace {

TEST(YamlSubset, ParsesTheShapesLlvmWrites) {
  const YamlNode root = parse_yaml_subset(R"(---
Version:         [ 1, 0 ]
Printf:
  - '1:1:4:%d\n'
Kernels:
  - Name:            k
    SymbolName:      'k@kd'
    Language:        OpenCL C
    Attrs:
      ReqdWorkGroupSize: [ 64, 1, 1 ]
    Args:
      - TypeName:        'it''s'
        Size:            8
      - Size:            4
        Name:            "q\"x"
    Empty:
...
)");
  ASSERT_EQ(root.kind, YamlNode::Kind::Mapping);
  const YamlNode* version = root.find("Version");
  ASSERT_NE(version, nullptr);
  ASSERT_EQ(version->items.size(), 2u);
  EXPECT_EQ(version->items[1].scalar, "0");
  EXPECT_EQ(root.find("Printf")->items[0].scalar, "1:1:4:%d\\n");
  const YamlNode& k = root.find("Kernels")->items.at(0);
  EXPECT_EQ(k.find("SymbolName")->scalar, "k@kd");
  EXPECT_EQ(k.find("Language")->scalar, "OpenCL C");
  EXPECT_EQ(k.find("Attrs")->find("ReqdWorkGroupSize")->items.size(), 3u);
  const YamlNode* args = k.find("Args");
  ASSERT_EQ(args->items.size(), 2u);
  EXPECT_EQ(args->items[0].find("TypeName")->scalar, "it's");
  EXPECT_EQ(args->items[1].find("Name")->scalar, "q\"x");
  EXPECT_EQ(args->items[1].line, 14);
  EXPECT_EQ(k.find("Empty")->scalar, "");
}

TEST(YamlSubset, SequenceAtTheKeyIndentation) {
  const YamlNode root = parse_yaml_subset("Kernels:\n- Name: a\n- Name: b\nVersion: [1, 0]\n");
  ASSERT_EQ(root.find("Kernels")->items.size(), 2u);
  EXPECT_EQ(root.find("Kernels")->items[1].find("Name")->scalar, "b");
  EXPECT_EQ(root.find("Version")->items.size(), 2u);
}

void expect_error(std::string_view text, const std::string& message) {
  try {
    parse_yaml_subset(text);
    ADD_FAILURE() << "no error for: " << text;
  } catch (const detail::FormatError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << "wanted: " << message << "\n got: " << e.what();
  }
}

TEST(YamlSubset, RefusesWhatItDoesNotSupport) {
  expect_error("a: [1, 2\n", "YAML line 1: unterminated flow sequence");
  expect_error("a: [[1]]\n", "nested flow collections are not supported");
  expect_error("a: {b: 1}\n", "flow mappings are not supported");
  expect_error("a: |\n  text\n", "block scalars are not supported");
  expect_error("a: &x 1\n", "anchors, aliases and tags are not supported");
  expect_error("a: 'open\n", "unterminated quoted scalar");
  expect_error("a: \"\\q\"\n", "unsupported escape");
  expect_error("a: 1\n   b: 2\n", "YAML line 2: unexpected indentation");
  expect_error("a:\n  - 1\n  b: 2\n", "YAML line 3: unexpected indentation inside a mapping");
  expect_error("a: 1\n- 2\n", "YAML line 2: sequence item where a mapping key was expected");
  expect_error("just text\n", "YAML line 1: expected 'key: value'");
  expect_error("a: 'x' y\n", "text after a quoted scalar");
  expect_error("%YAML 1.2\n", "directives are not supported");
}

TEST(YamlSubset, DeepNestingIsBounded) {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += std::string(static_cast<size_t>(i), ' ') + "k:\n";
  expect_error(deep, "nesting deeper than 64 levels");
}

}  // namespace
}  // namespace strobe::loader
