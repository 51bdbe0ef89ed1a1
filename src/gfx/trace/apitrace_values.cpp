// The reader's value types (see apitrace_reader.h): typed access to values, calls' arguments,
// and the function names that end frames.
#include "gfx/trace/apitrace_reader.h"

#include <algorithm>

#include <fmt/format.h>

#include "common/error.h"

namespace strobe::gfx::trace {
namespace {

bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool all_word(std::string_view s) { return std::all_of(s.begin(), s.end(), is_word); }

// "IDXGI(Decode)?SwapChain\w*::Present\w*": every DXGI swap chain's Present* ends a frame.
bool is_dxgi_present(std::string_view name) {
  if (!name.starts_with("IDXGI")) return false;
  name.remove_prefix(5);
  if (name.starts_with("Decode")) name.remove_prefix(6);
  if (!name.starts_with("SwapChain")) return false;
  const size_t colons = name.find("::");
  if (colons == std::string_view::npos || !all_word(name.substr(0, colons))) return false;
  const std::string_view method = name.substr(colons + 2);
  return method.starts_with("Present") && all_word(method);
}

}  // namespace

std::string_view kind_name(ValueKind kind) {
  static constexpr std::string_view kNames[] = {"null",  "bool",    "sint",  "uint",   "float",
                                                "double", "string", "blob",  "enum",   "bitmask",
                                                "array", "struct",  "pointer", "repr", "wstring"};
  const auto i = static_cast<size_t>(kind);
  return i < std::size(kNames) ? kNames[i] : "absent";
}

bool ends_frame(std::string_view function) {
  // The names apitrace flags CALL_FLAG_END_FRAME (lib/trace/trace_parser_flags.cpp), sorted.
  static constexpr std::string_view kNames[] = {
      "CGLFlushDrawable",
      "IDirect3DDevice8::Present",
      "IDirect3DDevice9::GetRenderTargetData",
      "IDirect3DDevice9::Present",
      "IDirect3DDevice9Ex::GetRenderTargetData",
      "IDirect3DDevice9Ex::Present",
      "IDirect3DDevice9Ex::PresentEx",
      "IDirect3DSwapChain9::Present",
      "IDirect3DSwapChain9Ex::Present",
      "eglSwapBuffers",
      "eglSwapBuffersWithDamageEXT",
      "eglSwapBuffersWithDamageKHR",
      "glFrameTerminatorGREMEDY",
      "glXSwapBuffers",
      "glXSwapBuffersMscOML",
      "wglSwapBuffers",
      "wglSwapLayerBuffers",
      "wglSwapMultipleBuffers",
  };
  return std::binary_search(std::begin(kNames), std::end(kNames), function) || is_dxgi_present(function);
}

std::string_view EnumSig::name_of(int64_t value) const {
  for (const auto& [name, v] : values)
    if (v == value) return name;
  return {};
}

// ---------------------------------------------------------------------------------- Value

void Value::wrong_kind(std::string_view wanted) const {
  throw InputError(fmt::format("a {} value where the caller expected {}", kind_name(kind_), wanted));
}

bool Value::boolean() const { expect(ValueKind::Bool); return num_.b; }
int64_t Value::sint() const { expect(ValueKind::SInt); return num_.i; }
uint64_t Value::uint() const { expect(ValueKind::UInt); return num_.u; }
float Value::f32() const { expect(ValueKind::Float); return num_.f; }
double Value::f64() const { expect(ValueKind::Double); return num_.d; }
int64_t Value::enum_value() const { expect(ValueKind::Enum); return num_.i; }
uint64_t Value::bitmask_value() const { expect(ValueKind::Bitmask); return num_.u; }
const EnumSig& Value::enum_sig() const { expect(ValueKind::Enum); return *static_cast<const EnumSig*>(sig_); }
const BitmaskSig& Value::bitmask_sig() const {
  expect(ValueKind::Bitmask);
  return *static_cast<const BitmaskSig*>(sig_);
}
const StructSig& Value::struct_sig() const {
  expect(ValueKind::Struct);
  return *static_cast<const StructSig*>(sig_);
}

int64_t Value::integer() const {
  switch (kind_) {
    case ValueKind::Bool: return num_.b;
    case ValueKind::SInt:
    case ValueKind::Enum: return num_.i;
    case ValueKind::UInt:
    case ValueKind::Bitmask: return static_cast<int64_t>(num_.u);
    default: wrong_kind("an integer");
  }
}

std::string_view Value::string() const { expect(ValueKind::String); return std::string_view(ptr_.bytes, size_); }
std::span<const std::byte> Value::blob() const {
  expect(ValueKind::Blob);
  return {reinterpret_cast<const std::byte*>(ptr_.bytes), size_};
}
std::u32string_view Value::wstring() const { expect(ValueKind::WString); return std::u32string_view(ptr_.wide, size_); }
std::span<const Value> Value::elements() const { expect(ValueKind::Array); return std::span(ptr_.children, size_); }
std::span<const Value> Value::members() const { expect(ValueKind::Struct); return std::span(ptr_.children, size_); }
const Value& Value::human() const { expect(ValueKind::Repr); return ptr_.children[0]; }
const Value& Value::machine() const { expect(ValueKind::Repr); return ptr_.children[1]; }

uint64_t Value::pointer() const {
  if (kind_ == ValueKind::Null) return 0;
  expect(ValueKind::Pointer);
  return num_.u;
}

// ---------------------------------------------------------------------------------- Call

const Value* Call::arg(size_t i) const { return i < args_.size() && args_[i].kind_ != Value::kAbsent ? &args_[i] : nullptr; }

const Value* Call::arg(std::string_view name) const {
  for (size_t i = 0; i < args_.size(); ++i)
    if (sig_->arg_names[i] == name) return arg(i);
  return nullptr;
}

const Value* Call::ret() const { return ret_.kind_ != Value::kAbsent ? &ret_ : nullptr; }

}  // namespace strobe::gfx::trace
