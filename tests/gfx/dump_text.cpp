// apitrace dump's text for a call (see dump_text.h); its rules are those of apitrace's
// lib/trace/trace_dump.cpp, including its quirks (strings end at a NUL, carriage returns vanish).
#include "gfx/dump_text.h"

#include <cstdio>

#include <fmt/format.h>

namespace strobe::gfx::trace {
namespace {

// std::ostream's default float formatting at a precision of `digits` is printf's %g.
std::string general(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v);
  return buf;
}

template <typename String>
std::string quoted(const String& s) {
  std::string out = "\"";
  for (auto ch : s) {
    const auto c = static_cast<unsigned>(ch);
    if (c == 0) break;
    if (c == '"') {
      out += "\\\"";
    } else if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c <= 0x7e) {
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += '\t';
    } else if (c == '\n') {
      out += "\\n";
    } else if (c != '\r') {
      // apitrace's octal escape, the repeated middle digit included
      const unsigned o0 = c & 7, o1 = (c >> 3) & 7, o2 = (c >> 3) & 7;
      out += '\\';
      if (o2) out += static_cast<char>('0' + o2);
      if (o1) out += static_cast<char>('0' + o1);
      out += static_cast<char>('0' + o0);
    }
  }
  return out + "\"";
}

std::string bitmask_text(const Value& v) {
  uint64_t rest = v.bitmask_value();
  std::string out;
  bool first = true;
  for (const auto& [name, bits] : v.bitmask_sig().flags) {
    if ((bits && (rest & bits) == bits) || (!bits && rest == 0)) {
      if (!first) out += " | ";
      out += name;
      rest &= ~bits;
      first = false;
    }
    if (rest == 0) break;
  }
  if (rest || first) {
    if (!first) out += " | ";
    out += fmt::format("0x{:x}", rest);
  }
  return out;
}

std::string members_text(const Value& v, std::string& sep) {
  std::string out;
  const auto& names = v.struct_sig().member_names;
  const auto members = v.members();
  for (size_t i = 0; i < members.size(); ++i) {
    if (names[i].empty() && members[i].kind() == ValueKind::Struct) {  // anonymous: flattened
      out += members_text(members[i], sep);
      continue;
    }
    out += sep + names[i] + " = " + dump_text(members[i]);
    sep = ", ";
  }
  return out;
}

}  // namespace

std::string dump_text(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Null: return "NULL";
    case ValueKind::Bool: return v.boolean() ? "true" : "false";
    case ValueKind::SInt: return std::to_string(v.sint());
    case ValueKind::UInt: return std::to_string(v.uint());
    case ValueKind::Float: return general(v.f32(), 7);
    case ValueKind::Double: return general(v.f64(), 16);
    case ValueKind::String: return quoted(v.string());
    case ValueKind::WString: return "L" + quoted(v.wstring());
    case ValueKind::Enum: {
      const std::string_view name = v.enum_sig().name_of(v.enum_value());
      return name.empty() ? std::to_string(v.enum_value()) : std::string(name);
    }
    case ValueKind::Bitmask: return bitmask_text(v);
    case ValueKind::Array: {
      const auto e = v.elements();
      if (e.size() == 1) return "&" + dump_text(e[0]);
      std::string out = "{";
      for (size_t i = 0; i < e.size(); ++i) out += (i ? ", " : "") + dump_text(e[i]);
      return out + "}";
    }
    case ValueKind::Struct: {
      std::string sep;
      return "{" + members_text(v, sep) + "}";
    }
    case ValueKind::Blob: return fmt::format("blob({})", v.blob().size());
    case ValueKind::Pointer: return fmt::format("0x{:x}", v.pointer());
    case ValueKind::Repr: return dump_text(v.human());
  }
  return "?";
}

std::string dump_text(const Call& call) {
  std::string out = fmt::format("{} {}(", call.number(), call.name());
  for (size_t i = 0; i < call.arg_count(); ++i) {
    if (i) out += ", ";
    out += call.sig().arg_names[i] + " = ";
    const Value* a = call.arg(i);
    out += a ? dump_text(*a) : "?";
  }
  out += ")";
  if (const Value* r = call.ret()) out += " = " + dump_text(*r);
  if (call.fake() || call.incomplete()) {
    out += " //";
    if (call.fake()) out += " fake";
    if (call.incomplete()) out += " incomplete";
  }
  return out;
}

}  // namespace strobe::gfx::trace
