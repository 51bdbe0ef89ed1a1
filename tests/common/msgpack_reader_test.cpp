// MsgpackReader's value-at-a-time reading of a large map document: the values found by skipping,
// each decoded alone and borrowing the document's bytes, and every malformed shape an error.
#include "common/msgpack_reader.h"

#include <gtest/gtest.h>

#include <functional>

#include "common/error.h"
#include "common/msgpack_writer.h"

namespace strobe {
namespace {

/// A root map: "n" 7, "rows" [[i, "row i"] for i < 20] (an array16), "blob" 3 bytes.
std::string document() {
  msgpack::sbuffer buf;
  MsgpackPacker pk(buf);
  pk.pack_map(3);
  pack_str(pk, "n");
  pk.pack(7);
  pack_str(pk, "rows");
  pk.pack_array(20);
  for (int i = 0; i < 20; ++i) {
    pk.pack_array(2);
    pk.pack(i);
    pack_str(pk, "row " + std::to_string(i));
  }
  pack_str(pk, "blob");
  pack_bin(pk, std::string("\x01\x02\x03", 3));
  return std::string(buf.data(), buf.size());
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(MsgpackReader, AMapIsReadAValueAndAnElementAtATime) {
  const std::string doc = document();
  const MsgpackReader r("doc d", "the doc is ");
  const auto entries = r.map_entries(doc, "the root");
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].first, "n");
  EXPECT_EQ(entries[1].first, "rows");
  EXPECT_EQ(entries[2].first, "blob");
  std::size_t at = entries[0].second;
  EXPECT_EQ(r.u64(r.parse_at(doc, at).get(), "n"), 7u);
  EXPECT_EQ(at, std::size_t(entries[1].first.data() - doc.data()) - 1)
      << "n's value ends where the key 'rows' begins (its fixstr header)";
  at = entries[1].second;
  ASSERT_EQ(r.array_at(doc, at, "rows"), 20u);
  for (uint64_t i = 0; i < 20; ++i) {
    const msgpack::object_handle h = r.parse_at(doc, at);
    const auto& row = r.array(h.get(), "a row");
    ASSERT_EQ(row.size, 2u);
    EXPECT_EQ(r.u64(row.ptr[0], "i"), i);
    EXPECT_EQ(r.str(row.ptr[1], "name"), "row " + std::to_string(i));
  }
  EXPECT_EQ(at, std::size_t(entries[2].first.data() - doc.data()) - 1) << "the last row ends at the key 'blob'";
  at = entries[2].second;
  const msgpack::object_handle blob = r.parse_at(doc, at);
  const std::string_view b = r.bin(blob.get(), "blob");
  EXPECT_EQ(b, std::string_view("\x01\x02\x03", 3));
  EXPECT_TRUE(b.data() >= doc.data() && b.data() < doc.data() + doc.size()) << "borrowed, not copied";
  EXPECT_EQ(at, doc.size());
}

TEST(MsgpackReader, EveryMalformedShapeIsAnErrorNamingTheDocument) {
  const std::string doc = document();
  const MsgpackReader r("doc d", "the doc is ");
  EXPECT_EQ(error_of([&] { r.map_entries("", "the root"); }), "doc d: the doc is empty");
  EXPECT_EQ(error_of([&] { r.map_entries(doc.substr(0, doc.size() - 1), "the root"); }), "doc d: the doc is truncated");
  EXPECT_EQ(error_of([&] { r.map_entries(doc.substr(0, 30), "the root"); }), "doc d: the doc is truncated");
  EXPECT_EQ(error_of([&] { r.map_entries(doc + "x", "the root"); }),
            "doc d: the doc is corrupt (1 bytes after the document)");
  EXPECT_EQ(error_of([&] { r.map_entries(std::string("\x93\x01\x02\x03"), "the root"); }),
            "doc d: the root is not a map (corrupt)");
  EXPECT_EQ(error_of([&] { r.map_entries(std::string("\xde\x00", 2), "the root"); }), "doc d: the doc is truncated")
      << "a map16 header cut short";
  EXPECT_EQ(error_of([&] { r.map_entries(std::string("\x81\x01\x02", 3), "the root"); }),
            "doc d: the root has a key that is not a string (corrupt)");
  std::size_t at = r.map_entries(doc, "the root")[0].second;
  EXPECT_EQ(error_of([&] { r.array_at(doc, at, "n"); }), "doc d: n is not an array (corrupt)");
  at = doc.size();
  EXPECT_EQ(error_of([&] { r.parse_at(doc, at); }), "doc d: the doc is truncated");
  // An array32 header claiming four billion elements in a 9-byte document: refused before any
  // caller reserves room for them.
  const std::string forged("\xdd\xff\xff\xff\xff\x01\x02\x03\x04", 9);
  at = 0;
  EXPECT_EQ(error_of([&] { r.array_at(forged, at, "rows"); }), "doc d: the doc is truncated");
}

}  // namespace
}  // namespace strobe
