// Indentation-driven recursive descent over lines; LLVM's YAML output is regular enough that a
// general YAML library is not needed, and this keeps the loader free of another dependency.
#include "loader/yaml_subset.h"

#include "loader/format_error.h"

namespace strobe::loader {

using detail::fail;

const YamlNode* YamlNode::find(std::string_view key) const {
  for (const auto& [k, v] : entries)
    if (k == key) return &v;
  return nullptr;
}

namespace {

/// Nesting deeper than this is not metadata; the cap bounds recursion on hostile input.
constexpr int kMaxDepth = 64;

struct Line {
  int number = 0;   ///< 1-based
  size_t indent = 0;
  std::string_view content;  ///< without indentation and trailing blanks
};

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view trim_right(std::string_view s) {
  while (!s.empty() && (is_blank(s.back()) || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

bool is_sequence_item(std::string_view c) { return c == "-" || c.starts_with("- "); }

class Parser {
 public:
  explicit Parser(std::string_view text) { split_lines(text); }

  YamlNode parse_document() {
    if (lines_.empty()) return YamlNode{};
    YamlNode root = parse_block(lines_[0].indent, 0);
    if (pos_ < lines_.size()) fail("YAML line {}: unexpected indentation", lines_[pos_].number);
    return root;
  }

 private:
  void split_lines(std::string_view text) {
    int number = 0;
    while (!text.empty()) {
      const size_t nl = text.find('\n');
      std::string_view raw = text.substr(0, nl);
      text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
      ++number;
      size_t indent = 0;
      while (indent < raw.size() && raw[indent] == ' ') ++indent;
      std::string_view content = trim_right(raw.substr(indent));
      if (content.empty() || content.front() == '#') continue;
      if (content.front() == '\t') fail("YAML line {}: tab in indentation", number);
      if (indent == 0 && (content == "---" || content.starts_with("--- ") || content == "...")) continue;
      if (content.starts_with("%")) fail("YAML line {}: directives are not supported", number);
      lines_.push_back({number, indent, content});
    }
  }

  /// Parses the block (sequence or mapping) whose first line is at pos_ with `indent`.
  YamlNode parse_block(size_t indent, int depth) {
    if (depth > kMaxDepth) fail("YAML line {}: nesting deeper than {} levels", lines_[pos_].number, kMaxDepth);
    return is_sequence_item(lines_[pos_].content) ? parse_sequence(indent, depth) : parse_mapping(indent, depth);
  }

  /// The value after "key:" or "- " when it is on the next lines: a nested block, or null.
  YamlNode parse_nested(size_t parent_indent, bool allow_same_indent_sequence, int depth, int line) {
    if (pos_ < lines_.size()) {
      const Line& next = lines_[pos_];
      if (next.indent > parent_indent) return parse_block(next.indent, depth + 1);
      // YAML lets a mapping key's sequence sit at the key's own indentation.
      if (allow_same_indent_sequence && next.indent == parent_indent && is_sequence_item(next.content))
        return parse_sequence(next.indent, depth + 1);
    }
    YamlNode null;
    null.line = line;
    return null;
  }

  YamlNode parse_sequence(size_t indent, int depth) {
    YamlNode node;
    node.kind = YamlNode::Kind::Sequence;
    node.line = lines_[pos_].number;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent && is_sequence_item(lines_[pos_].content)) {
      Line& line = lines_[pos_];
      std::string_view rest = line.content.substr(1);
      size_t skip = 1;
      while (!rest.empty() && rest.front() == ' ') { rest.remove_prefix(1); ++skip; }
      if (rest.empty()) {
        ++pos_;
        node.items.push_back(parse_nested(indent, false, depth, line.number));
      } else if (is_sequence_item(rest) || find_key_colon(rest) != std::string_view::npos) {
        // "- key: value" opens a mapping (or "- - x" a sequence) indented to where `rest` starts:
        // re-read this line as if it began there.
        line.indent = indent + skip;
        line.content = rest;
        node.items.push_back(parse_block(line.indent, depth + 1));
      } else {
        ++pos_;
        node.items.push_back(parse_inline_value(rest, line.number));
      }
    }
    if (pos_ < lines_.size() && lines_[pos_].indent > indent)
      fail("YAML line {}: unexpected indentation inside a sequence", lines_[pos_].number);
    return node;
  }

  YamlNode parse_mapping(size_t indent, int depth) {
    YamlNode node;
    node.kind = YamlNode::Kind::Mapping;
    node.line = lines_[pos_].number;
    while (pos_ < lines_.size() && lines_[pos_].indent == indent) {
      const Line line = lines_[pos_];
      if (is_sequence_item(line.content)) fail("YAML line {}: sequence item where a mapping key was expected", line.number);
      const size_t colon = find_key_colon(line.content);
      if (colon == std::string_view::npos) fail("YAML line {}: expected 'key: value'", line.number);
      std::string key = unquote_key(trim_right(line.content.substr(0, colon)), line.number);
      std::string_view value = line.content.substr(colon + 1);
      while (!value.empty() && is_blank(value.front())) value.remove_prefix(1);
      ++pos_;
      if (value.empty() || value.front() == '#')
        node.entries.emplace_back(std::move(key), parse_nested(indent, true, depth, line.number));
      else
        node.entries.emplace_back(std::move(key), parse_inline_value(value, line.number));
    }
    if (pos_ < lines_.size() && lines_[pos_].indent > indent)
      fail("YAML line {}: unexpected indentation inside a mapping", lines_[pos_].number);
    return node;
  }

  /// Position of the ':' that ends a mapping key (followed by a blank or the line end), skipping
  /// quoted keys; npos if the content is not a "key: value" line.
  static size_t find_key_colon(std::string_view c) {
    size_t i = 0;
    if (!c.empty() && (c.front() == '\'' || c.front() == '"')) {
      const char q = c.front();
      for (i = 1; i < c.size(); ++i) {
        if (c[i] == q) {
          if (q == '\'' && i + 1 < c.size() && c[i + 1] == '\'') { ++i; continue; }
          break;
        }
        if (q == '"' && c[i] == '\\') ++i;
      }
      if (i >= c.size()) return std::string_view::npos;
      ++i;
      return (i < c.size() && c[i] == ':' && (i + 1 == c.size() || is_blank(c[i + 1]))) ? i : std::string_view::npos;
    }
    if (!c.empty() && (c.front() == '[' || c.front() == '{')) return std::string_view::npos;
    for (; i < c.size(); ++i)
      if (c[i] == ':' && (i + 1 == c.size() || is_blank(c[i + 1]))) return i;
    return std::string_view::npos;
  }

  static std::string unquote_key(std::string_view key, int line) {
    if (key.empty()) fail("YAML line {}: empty mapping key", line);
    if (key.front() == '\'' || key.front() == '"') {
      size_t end = 0;
      std::string s = parse_quoted(key, end, line);
      return s;
    }
    return std::string(key);
  }

  /// A quoted scalar starting at s[0]; `end` receives the index just past the closing quote.
  static std::string parse_quoted(std::string_view s, size_t& end, int line) {
    const char q = s.front();
    std::string out;
    for (size_t i = 1; i < s.size(); ++i) {
      const char c = s[i];
      if (c == q) {
        if (q == '\'' && i + 1 < s.size() && s[i + 1] == '\'') { out += '\''; ++i; continue; }
        end = i + 1;
        return out;
      }
      if (q == '"' && c == '\\') {
        if (++i >= s.size()) break;
        switch (s[i]) {
          case 'n': out += '\n'; break;
          case 't': out += '\t'; break;
          case 'r': out += '\r'; break;
          case '0': out += '\0'; break;
          case '\\': out += '\\'; break;
          case '"': out += '"'; break;
          case '/': out += '/'; break;
          case ' ': out += ' '; break;
          default: fail("YAML line {}: unsupported escape '\\{}' in a double-quoted scalar", line, s[i]);
        }
        continue;
      }
      out += c;
    }
    fail("YAML line {}: unterminated quoted scalar", line);
  }

  /// A scalar, or a one-line flow sequence of scalars, given on the same line as its key.
  static YamlNode parse_inline_value(std::string_view v, int line) {
    YamlNode node;
    node.line = line;
    if (v.front() == '[') {
      node.kind = YamlNode::Kind::Sequence;
      size_t i = 1;
      auto skip_blanks = [&] { while (i < v.size() && is_blank(v[i])) ++i; };
      skip_blanks();
      if (i < v.size() && v[i] == ']') return finish_flow(node, v, i + 1, line);
      while (true) {
        skip_blanks();
        if (i >= v.size()) fail("YAML line {}: unterminated flow sequence (multi-line flow is not supported)", line);
        if (v[i] == '[' || v[i] == '{') fail("YAML line {}: nested flow collections are not supported", line);
        YamlNode item;
        item.line = line;
        if (v[i] == '\'' || v[i] == '"') {
          size_t end = 0;
          item.scalar = parse_quoted(v.substr(i), end, line);
          i += end;
        } else {
          const size_t start = i;
          while (i < v.size() && v[i] != ',' && v[i] != ']') ++i;
          item.scalar = std::string(trim_right(v.substr(start, i - start)));
        }
        node.items.push_back(std::move(item));
        skip_blanks();
        if (i >= v.size()) fail("YAML line {}: unterminated flow sequence (multi-line flow is not supported)", line);
        if (v[i] == ']') return finish_flow(node, v, i + 1, line);
        if (v[i] != ',') fail("YAML line {}: expected ',' or ']' in a flow sequence", line);
        ++i;
      }
    }
    if (v == "{}") { node.kind = YamlNode::Kind::Mapping; return node; }
    switch (v.front()) {
      case '{': fail("YAML line {}: flow mappings are not supported", line);
      case '|': case '>': fail("YAML line {}: block scalars are not supported", line);
      case '&': case '*': case '!': fail("YAML line {}: anchors, aliases and tags are not supported", line);
      default: break;
    }
    if (v.front() == '\'' || v.front() == '"') {
      size_t end = 0;
      node.scalar = parse_quoted(v, end, line);
      std::string_view tail = v.substr(end);
      while (!tail.empty() && is_blank(tail.front())) tail.remove_prefix(1);
      if (!tail.empty() && tail.front() != '#') fail("YAML line {}: text after a quoted scalar", line);
      return node;
    }
    const size_t comment = v.find(" #");
    node.scalar = std::string(trim_right(v.substr(0, comment)));
    if (node.scalar == "~" || node.scalar == "null") node.scalar.clear();
    return node;
  }

  static YamlNode finish_flow(YamlNode& node, std::string_view v, size_t i, int line) {
    while (i < v.size() && is_blank(v[i])) ++i;
    if (i < v.size() && v[i] != '#') fail("YAML line {}: text after a flow sequence", line);
    return std::move(node);
  }

  std::vector<Line> lines_;
  size_t pos_ = 0;
};

}  // namespace

YamlNode parse_yaml_subset(std::string_view text) { return Parser(text).parse_document(); }

}  // namespace strobe::loader
