// A small parser for the subset of YAML that LLVM's YAML I/O writes (the v2 HSA metadata).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace strobe::loader {

/// One YAML node: a scalar, a sequence or a mapping (keys kept in file order).
struct YamlNode {
  enum class Kind { Scalar, Sequence, Mapping };
  Kind kind = Kind::Scalar;
  std::string scalar;  ///< unquoted text (Scalar); empty for a null value
  std::vector<YamlNode> items;
  std::vector<std::pair<std::string, YamlNode>> entries;
  int line = 0;  ///< 1-based source line, for error messages

  /// The value of `key` in a mapping, or nullptr (also for non-mappings).
  const YamlNode* find(std::string_view key) const;
};

/// Parses one YAML document made of block mappings, block sequences, flow sequences of scalars,
/// and plain, single- or double-quoted scalars. Anything else (anchors, tags, block scalars,
/// flow mappings, multi-line flow) is rejected with detail::FormatError naming the line.
YamlNode parse_yaml_subset(std::string_view text);

}  // namespace strobe::loader
