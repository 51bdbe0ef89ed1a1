// The v3+ msgpack metadata reader on hand-built documents: shapes, limits and errors.
#include <gtest/gtest.h>

#include <msgpack.hpp>

#include "loader/format_error.h"
#include "loader/msgpack_metadata.h"

namespace strobe::loader {
namespace {

/// Packs a minimal valid metadata map with one kernel whose single argument has `value_kind`.
std::vector<uint8_t> document(const std::string& value_kind, bool with_symbol = true) {
  msgpack::sbuffer buf;
  msgpack::packer<msgpack::sbuffer> pk(buf);
  pk.pack_map(3);
  pk.pack(std::string("amdhsa.version"));
  pk.pack_array(2);
  pk.pack(1);
  pk.pack(2);
  pk.pack(std::string("amdhsa.target"));
  pk.pack(std::string("amdgcn-amd-amdhsa--gfx803"));
  pk.pack(std::string("amdhsa.kernels"));
  pk.pack_array(1);
  pk.pack_map(with_symbol ? 4 : 3);
  pk.pack(std::string(".name"));
  pk.pack(std::string("k"));
  if (with_symbol) {
    pk.pack(std::string(".symbol"));
    pk.pack(std::string("k.kd"));
  }
  pk.pack(std::string(".kernarg_segment_size"));
  pk.pack(8);
  pk.pack(std::string(".args"));
  pk.pack_array(1);
  pk.pack_map(3);
  pk.pack(std::string(".offset"));
  pk.pack(0);
  pk.pack(std::string(".size"));
  pk.pack(8);
  pk.pack(std::string(".value_kind"));
  pk.pack(value_kind);
  return {reinterpret_cast<const uint8_t*>(buf.data()), reinterpret_cast<const uint8_t*>(buf.data()) + buf.size()};
}

std::string error_of(const std::vector<uint8_t>& doc) {
  try {
    parse_msgpack_metadata(doc);
  } catch (const detail::FormatError& e) {
    return e.what();
  }
  return "no error";
}

TEST(MsgpackMetadata, ReadsAMinimalDocument) {
  const CodeObjectMetadata md = parse_msgpack_metadata(document("global_buffer"));
  EXPECT_EQ(md.version, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(md.target, "amdgcn-amd-amdhsa--gfx803");
  ASSERT_EQ(md.kernels.size(), 1u);
  EXPECT_EQ(md.kernels[0].symbol, "k.kd");
  EXPECT_EQ(md.kernels[0].kernarg_segment_size, 8u);
  EXPECT_FALSE(md.kernels[0].sgpr_count.has_value());
  EXPECT_EQ(md.kernels[0].args.at(0).kind, ArgKind::GlobalBuffer);
}

TEST(MsgpackMetadata, UnknownHiddenKindsAreTolerated) {
  EXPECT_EQ(parse_msgpack_metadata(document("hidden_future_thing")).kernels[0].args[0].kind, ArgKind::HiddenUnknown);
  EXPECT_EQ(error_of(document("mystery")), "unsupported kernel argument value kind 'mystery'");
}

TEST(MsgpackMetadata, MissingKeysAndTruncationAreErrors) {
  EXPECT_EQ(error_of(document("by_value", false)), "metadata of kernel 'k' has no .symbol");
  std::vector<uint8_t> doc = document("by_value");
  doc.resize(doc.size() - 3);
  EXPECT_EQ(error_of(doc), "NT_AMDGPU_METADATA msgpack is truncated");
  EXPECT_EQ(error_of({}), "NT_AMDGPU_METADATA msgpack is truncated");
  EXPECT_EQ(error_of({0x90}), "metadata root is not a map");
}

TEST(MsgpackMetadata, HugeCountsFailWithoutAllocating) {
  // array32 claiming 2^32-1 elements in a 5-byte note: refused by the unpack limits.
  EXPECT_NE(error_of({0xDD, 0xFF, 0xFF, 0xFF, 0xFF}).find("not valid msgpack"), std::string::npos);
  // map32 likewise.
  EXPECT_NE(error_of({0xDF, 0xFF, 0xFF, 0xFF, 0xFF}).find("not valid msgpack"), std::string::npos);
  // Deep nesting beyond the depth limit.
  EXPECT_NE(error_of(std::vector<uint8_t>(100, 0x91)).find("not valid msgpack"), std::string::npos);
}

}  // namespace
}  // namespace strobe::loader
