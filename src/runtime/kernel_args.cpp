// Lays out the kernarg segment from the code object's argument metadata (v2..v5 hidden args).
#include "runtime/kernel_args.h"

#include <cstring>
#include <map>
#include <string>

#include <fmt/core.h>

#include "common/error.h"

namespace strobe::runtime {

using loader::ArgKind;
using loader::KernelArg;
using loader::KernelInfo;

std::vector<const KernelArg*> explicit_args(const KernelInfo& kernel) {
  std::vector<const KernelArg*> out;
  for (const auto& a : kernel.args)
    if (!a.is_hidden()) out.push_back(&a);
  return out;
}

namespace {

uint32_t align_up(uint32_t x, uint32_t a) { return (x + a - 1) / a * a; }

void put(std::vector<uint8_t>& seg, const KernelArg& a, uint64_t value, const std::string& kernel) {
  if (uint64_t(a.offset) + a.size > seg.size())
    throw InputError(fmt::format("kernel '{}': argument at offset {} (size {}) lies outside the {}-byte kernarg segment",
                                 kernel, a.offset, a.size, seg.size()));
  uint32_t n = a.size < 8 ? a.size : 8;
  std::memcpy(seg.data() + a.offset, &value, n);
}

std::string describe(const KernelArg& a, size_t index) {
  std::string s = fmt::format("argument {}", index);
  if (!a.name.empty()) s += fmt::format(" ('{}'", a.name) + (a.type_name.empty() ? ")" : fmt::format(": {})", a.type_name));
  return s;
}

/// Value of a hidden argument; zero for the ones strobe does not provide (printf, hostcall, heap...).
uint64_t hidden_value(ArgKind k, const HiddenArgValues& h) {
  switch (k) {
    case ArgKind::HiddenGlobalOffsetX: return h.global_offset[0];
    case ArgKind::HiddenGlobalOffsetY: return h.global_offset[1];
    case ArgKind::HiddenGlobalOffsetZ: return h.global_offset[2];
    case ArgKind::HiddenBlockCountX: return h.grid[0] / h.local[0];
    case ArgKind::HiddenBlockCountY: return h.grid[1] / h.local[1];
    case ArgKind::HiddenBlockCountZ: return h.grid[2] / h.local[2];
    case ArgKind::HiddenGroupSizeX: return h.local[0];
    case ArgKind::HiddenGroupSizeY: return h.local[1];
    case ArgKind::HiddenGroupSizeZ: return h.local[2];
    case ArgKind::HiddenRemainderX: return h.grid[0] % h.local[0];
    case ArgKind::HiddenRemainderY: return h.grid[1] % h.local[1];
    case ArgKind::HiddenRemainderZ: return h.grid[2] % h.local[2];
    case ArgKind::HiddenGridDims: return h.dims;
    case ArgKind::HiddenQueuePtr: return h.queue_address;
    case ArgKind::HiddenPrivateBase: return h.private_aperture_hi;
    case ArgKind::HiddenSharedBase: return h.shared_aperture_hi;
    case ArgKind::HiddenDynamicLdsSize: return h.dynamic_lds_bytes;
    default: return 0;
  }
}

}  // namespace

KernargLayout build_kernargs(const KernelInfo& kernel, const std::vector<ArgValue>& args,
                             const HiddenArgValues& hidden) {
  KernargLayout out;
  uint32_t size = kernel.kernarg_segment_size;
  for (const auto& a : kernel.args) size = std::max<uint32_t>(size, a.offset + a.size);
  out.bytes.assign(size, 0);

  auto formal = explicit_args(kernel);
  if (formal.size() != args.size())
    throw InputError(fmt::format("kernel '{}' takes {} argument{} but {} {} given", kernel.name, formal.size(),
                                 formal.size() == 1 ? "" : "s", args.size(), args.size() == 1 ? "was" : "were"));

  // Dynamic __local buffers are placed after the static group segment, each 16-byte aligned,
  // and the pointer argument carries the LDS offset (the group-segment address).
  uint32_t lds = align_up(kernel.group_segment_fixed_size, 16);
  for (size_t i = 0; i < formal.size(); ++i) {
    const KernelArg& f = *formal[i];
    const ArgValue& v = args[i];
    switch (f.kind) {
      case ArgKind::ByValue:
        if (v.kind != ArgValue::Kind::Scalar)
          throw InputError(fmt::format("kernel '{}': {} is passed by value ({} bytes); give a scalar",
                                       kernel.name, describe(f, i), f.size));
        if (v.bytes.size() != f.size)
          throw InputError(fmt::format("kernel '{}': {} is {} bytes but the value given is {} bytes",
                                       kernel.name, describe(f, i), f.size, v.bytes.size()));
        if (uint64_t(f.offset) + f.size > out.bytes.size())
          throw InputError(fmt::format("kernel '{}': {} lies outside the kernarg segment", kernel.name, describe(f, i)));
        std::memcpy(out.bytes.data() + f.offset, v.bytes.data(), f.size);
        break;
      case ArgKind::GlobalBuffer:
        if (v.kind != ArgValue::Kind::Pointer)
          throw InputError(fmt::format("kernel '{}': {} is a global buffer; give a buffer", kernel.name, describe(f, i)));
        put(out.bytes, f, v.pointer, kernel.name);
        break;
      case ArgKind::DynamicSharedPointer:
        if (v.kind != ArgValue::Kind::Local)
          throw InputError(fmt::format("kernel '{}': {} is a __local buffer; give local:BYTES", kernel.name, describe(f, i)));
        put(out.bytes, f, lds, kernel.name);
        out.dynamic_lds_bytes += v.local_bytes;
        lds = align_up(lds + v.local_bytes, 16);
        break;
      default:
        throw NotImplementedError(fmt::format("kernel '{}': {} has value kind '{}', which strobe does not support",
                                              kernel.name, describe(f, i), f.value_kind));
    }
  }
  // The launch's own dynamic bytes follow everything else; HIP's extern __shared__ arrays start
  // at the (variable-aligned) end of the static segment, inside the range this covers.
  out.lds_total_bytes = (out.dynamic_lds_bytes ? lds : kernel.group_segment_fixed_size) + hidden.dynamic_lds_bytes;
  out.dynamic_lds_bytes += hidden.dynamic_lds_bytes;

  HiddenArgValues h = hidden;
  h.dynamic_lds_bytes = out.dynamic_lds_bytes;
  for (const auto& a : kernel.args)
    if (a.is_hidden()) put(out.bytes, a, hidden_value(a.kind, h), kernel.name);
  return out;
}

std::string scalar_kind(const loader::KernelArg& arg) {
  if (arg.kind != loader::ArgKind::ByValue) return {};
  static const std::map<std::string, std::string> kinds = {
      {"int", "i32"},    {"uint", "u32"},     {"unsigned int", "u32"}, {"long", "i64"},     {"ulong", "u64"},
      {"unsigned long", "u64"}, {"size_t", "u64"}, {"float", "f32"},    {"double", "f64"},   {"int32_t", "i32"},
      {"uint32_t", "u32"}, {"int64_t", "i64"}, {"uint64_t", "u64"}};
  const auto it = kinds.find(arg.type_name);
  return it == kinds.end() ? std::string() : it->second;
}

}  // namespace strobe::runtime
