// The apitrace reader on hand-built traces: every value kind, signatures defined once and reused
// by id, calls of several threads interleaved, incomplete calls, flags, backtraces, old format
// versions, and data cut into chunks at every possible place.
#include <gtest/gtest.h>

#include <cstring>

#include "common/error.h"
#include "gfx/dump_text.h"
#include "gfx/trace/apitrace_reader.h"
#include "gfx/trace_builder.h"

namespace strobe::gfx::trace {
namespace {

const std::vector<std::string> kKinds = {"null",   "f",     "t",      "neg",  "pos",    "flt",   "dbl",    "str",
                                         "blb",    "enm",   "bits",   "arr",  "strct",  "ptr",   "rep",    "wide"};

// One call "every" with one argument of each kind (both booleans), returning a pointer.
TraceBuilder every_kind_trace(std::string_view blob = std::string_view("\x00\x01\xff\x7f", 4)) {
  TraceBuilder t(6, {{"process.name", "/usr/bin/test"}});
  t.enter(0, 7, "every", kKinds);
  t.arg(0).null().arg(1).boolean(false).arg(2).boolean(true);
  t.arg(3).sint(-5).arg(4).uint_value(uint64_t{1} << 63);
  t.arg(5).f32(0.25f).arg(6).f64(-1.0 / 3);
  t.arg(7).string("a \"quoted\"\nline").arg(8).blob(blob);
  t.arg(9).enum_def(3, {{"GL_ZERO", 0}, {"GL_ONE", 1}, {"GL_MINUS", -2}}, -2);
  t.arg(10).bitmask_def(4, {{"GL_NONE", 0}, {"GL_A", 1}, {"GL_B", 4}}, 5);
  t.arg(11).array(3).uint_value(1).array(1).sint(-1).string("x");
  t.arg(12).struct_def(2, "Point", {"x", "y"}).f32(1.5f).struct_def(9, "Inner", {"z"}).uint_value(9);
  t.arg(13).pointer(0xdeadbeef);
  t.arg(14).repr().enum_ref(3, 1).uint_value(1);
  t.arg(15).wstring(U"w\u00e9\U0001F600");
  t.end();
  t.leave(0).ret().pointer(0x1000).end();
  return t;
}

// Checks every argument of the call every_kind_trace() writes.
void expect_every_kind(const Call& c, std::string_view blob) {
  EXPECT_EQ(c.number(), 0u);
  EXPECT_EQ(c.name(), "every");
  ASSERT_EQ(c.arg_count(), kKinds.size());
  for (size_t i = 0; i < kKinds.size(); ++i) ASSERT_NE(c.arg(i), nullptr) << kKinds[i];
  EXPECT_EQ(c.arg(0u)->kind(), ValueKind::Null);
  EXPECT_EQ(c.arg(0u)->pointer(), 0u);
  EXPECT_FALSE(c.arg(1)->boolean());
  EXPECT_TRUE(c.arg(2)->boolean());
  EXPECT_EQ(c.arg(3)->sint(), -5);
  EXPECT_EQ(c.arg(4)->uint(), uint64_t{1} << 63);
  EXPECT_EQ(c.arg(5)->f32(), 0.25f);
  EXPECT_EQ(c.arg(6)->f64(), -1.0 / 3);
  EXPECT_EQ(c.arg(7)->string(), "a \"quoted\"\nline");
  const auto b = c.arg(8)->blob();
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), blob);
  EXPECT_EQ(c.arg(9)->enum_value(), -2);
  EXPECT_EQ(c.arg(9)->enum_sig().name_of(-2), "GL_MINUS");
  EXPECT_EQ(c.arg(10)->bitmask_value(), 5u);
  EXPECT_EQ(c.arg(10)->bitmask_sig().flags.size(), 3u);
  const auto arr = c.arg(11)->elements();
  ASSERT_EQ(arr.size(), 3u);
  EXPECT_EQ(arr[0].uint(), 1u);
  ASSERT_EQ(arr[1].elements().size(), 1u);
  EXPECT_EQ(arr[1].elements()[0].sint(), -1);
  EXPECT_EQ(arr[2].string(), "x");
  const Value& s = *c.arg(12);
  EXPECT_EQ(s.struct_sig().name, "Point");
  ASSERT_EQ(s.members().size(), 2u);
  EXPECT_EQ(s.members()[0].f32(), 1.5f);
  EXPECT_EQ(s.members()[1].struct_sig().name, "Inner");
  EXPECT_EQ(s.members()[1].members()[0].uint(), 9u);
  EXPECT_EQ(c.arg(13)->pointer(), 0xdeadbeefu);
  EXPECT_EQ(c.arg(14)->human().enum_sig().name_of(c.arg(14)->human().enum_value()), "GL_ONE");
  EXPECT_EQ(c.arg(14)->machine().uint(), 1u);
  EXPECT_EQ(c.arg(15)->wstring(), U"w\u00e9\U0001F600");
  ASSERT_NE(c.ret(), nullptr);
  EXPECT_EQ(c.ret()->pointer(), 0x1000u);
  EXPECT_EQ(c.arg("strct"), c.arg(12));
  EXPECT_EQ(c.arg("nonesuch"), nullptr);
}

TEST(ApitraceReader, EveryValueKindIsReadWithItsPayload) {
  TempFile f("every.trace", every_kind_trace().file());
  ApitraceReader r(f.path());
  EXPECT_EQ(r.version(), 6u);
  EXPECT_EQ(r.semantic_version(), 6u);
  ASSERT_EQ(r.properties().size(), 1u);
  EXPECT_EQ(r.properties()[0].first, "process.name");
  EXPECT_EQ(r.properties()[0].second, "/usr/bin/test");
  const Call* c = r.next();
  ASSERT_NE(c, nullptr);
  expect_every_kind(*c, std::string_view("\x00\x01\xff\x7f", 4));
  EXPECT_FALSE(c->incomplete());
  EXPECT_FALSE(c->fake());
  EXPECT_EQ(r.next(), nullptr);
  EXPECT_EQ(r.next(), nullptr);
  EXPECT_EQ(r.data_bytes_read(), every_kind_trace().data().size());
}

TEST(ApitraceReader, ValuesAreRenderedAsApitraceDumpRendersThem) {
  TempFile f("render.trace", every_kind_trace().file());
  ApitraceReader r(f.path());
  EXPECT_EQ(dump_text(*r.next()),
            "0 every(null = NULL, f = false, t = true, neg = -5, pos = 9223372036854775808, flt = 0.25, "
            "dbl = -0.3333333333333333, str = \"a \\\"quoted\\\"\\nline\", blb = blob(4), enm = GL_MINUS, "
            "bits = GL_A | GL_B, arr = {1, &-1, \"x\"}, strct = {x = 1.5, y = {z = 9}}, ptr = 0xdeadbeef, "
            "rep = GL_ONE, wide = L\"w\\551\\0\") = 0x1000");  // apitrace's odd octal escapes
}

// Every chunk size from 1 byte up puts chunk boundaries inside every integer, float, string,
// blob and signature once; the values must not notice.
TEST(ApitraceReader, ChunkBoundariesAnywhereDoNotChangeTheValues) {
  const std::string blob(3000, 'b');
  const TraceBuilder t = every_kind_trace(blob);
  for (size_t chunk : {1, 2, 3, 5, 7, 13, 64, 100, 1000, 2999, 3001, 4096}) {
    SCOPED_TRACE(chunk);
    TempFile f("chunks.trace", t.file(chunk));
    ApitraceReader r(f.path());
    const Call* c = r.next();
    ASSERT_NE(c, nullptr);
    expect_every_kind(*c, blob);
    EXPECT_EQ(r.next(), nullptr);
  }
}

TEST(ApitraceReader, SignaturesAreDefinedOnceAndReusedById) {
  TraceBuilder t;
  t.enter(0, 40, "glEnable", {"cap"}).arg(0).enum_def(5, {{"GL_BLEND", 0x0BE2}, {"GL_CULL_FACE", 0x0B44}}, 0x0B44);
  t.end().leave(0).end();
  t.enter(0, 40).arg(0).enum_ref(5, 0x0BE2).end().leave(1).end();
  t.enter(0, 41, "glPos", {"p"}).arg(0).struct_def(1, "P", {"x"}).sint(3).end().leave(2).end();
  t.enter(0, 41).arg(0).struct_ref(1).sint(4).end().leave(3).end();
  TempFile f("sigs.trace", t.file());
  ApitraceReader r(f.path());
  const Call* c = r.next();
  const FunctionSig* enable = &c->sig();
  const EnumSig* cap = &c->arg(0u)->enum_sig();
  EXPECT_EQ(enable->id, 40u);
  EXPECT_EQ(enable->arg_names, std::vector<std::string>{"cap"});
  EXPECT_EQ(c->arg(0u)->enum_sig().name_of(c->arg(0u)->enum_value()), "GL_CULL_FACE");
  c = r.next();
  EXPECT_EQ(&c->sig(), enable);
  EXPECT_EQ(&c->arg(0u)->enum_sig(), cap);
  EXPECT_EQ(dump_text(*c), "1 glEnable(cap = GL_BLEND)");
  c = r.next();
  const StructSig* p = &c->arg(0u)->struct_sig();
  EXPECT_EQ(dump_text(*c), "2 glPos(p = {x = 3})");
  c = r.next();
  EXPECT_EQ(&c->arg(0u)->struct_sig(), p);
  EXPECT_EQ(dump_text(*c), "3 glPos(p = {x = 4})");
  EXPECT_EQ(r.next(), nullptr);
}

// Calls are numbered when entered and complete when left: another thread's call may sit between
// a call's two events, and its output arguments come with the leave event.
TEST(ApitraceReader, InterleavedThreadsYieldCallsInTheOrderTheyAreLeft) {
  TraceBuilder t;
  t.enter(0, 1, "glXSwapBuffers", {"dpy", "drawable"}).arg(0).pointer(0x10).arg(1).uint_value(2).end();
  t.enter(1, 2, "glGetIntegerv", {"pname", "params"}).arg(0).uint_value(7).end();
  t.leave(1).arg(1).array(1).sint(-3).end();
  t.leave(0).end();
  TempFile f("threads.trace", t.file());
  ApitraceReader r(f.path());
  const Call* c = r.next();
  EXPECT_EQ(c->number(), 1u);
  EXPECT_EQ(c->thread(), 1u);
  EXPECT_EQ(dump_text(*c), "1 glGetIntegerv(pname = 7, params = &-3)");
  EXPECT_FALSE(c->ends_frame());
  c = r.next();
  EXPECT_EQ(c->number(), 0u);
  EXPECT_EQ(c->thread(), 0u);
  EXPECT_TRUE(c->ends_frame());
  EXPECT_EQ(r.next(), nullptr);
}

// A call of one thread may stay open across many chunks of another thread's calls; its blob
// must survive the chunks moving on.
TEST(ApitraceReader, AnOpenCallsBlobSurvivesLaterChunks) {
  TraceBuilder t;
  std::string pixels(200, '\0');
  for (size_t i = 0; i < pixels.size(); ++i) pixels[i] = static_cast<char>(i * 7);
  t.enter(0, 1, "glTexImage2D", {"pixels"}).arg(0).blob(pixels).end();
  t.enter(1, 2, "glFlush", {}).end().leave(1).end();
  for (int i = 1; i < 50; ++i) t.enter(1, 2).end().leave(i + 1).end();
  t.leave(0).end();
  TempFile f("open.trace", t.file(256));
  ApitraceReader r(f.path());
  for (int i = 0; i < 50; ++i) ASSERT_EQ(r.next()->name(), "glFlush");
  const Call* c = r.next();
  ASSERT_EQ(c->name(), "glTexImage2D");
  const auto b = c->arg(0u)->blob();
  EXPECT_EQ(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()), pixels);
}

TEST(ApitraceReader, CallsOpenAtTheEndAreYieldedIncomplete) {
  TraceBuilder t;
  t.enter(0, 1, "glFinish", {}).end().leave(0).end();
  t.enter(0, 2, "glXMakeCurrent", {"dpy", "drawable", "ctx"}).arg(0).pointer(1).end();
  TempFile f("open-end.trace", t.file());
  ApitraceReader r(f.path());
  EXPECT_EQ(r.next()->name(), "glFinish");
  const Call* c = r.next();
  ASSERT_NE(c, nullptr);
  EXPECT_TRUE(c->incomplete());
  EXPECT_EQ(c->arg(1), nullptr);
  EXPECT_EQ(c->ret(), nullptr);
  EXPECT_EQ(dump_text(*c), "1 glXMakeCurrent(dpy = 0x1, drawable = ?, ctx = ?) // incomplete");
  EXPECT_EQ(r.next(), nullptr);
}

TEST(ApitraceReader, FakeFlagAndBacktraceAreRead) {
  TraceBuilder t;
  t.enter(0, 1, "glViewport", {"x"}).arg(0).sint(0);
  t.byte(0x05).uint(1);                                     // flags: fake
  t.byte(0x04).uint(2);                                     // a backtrace of two frames
  t.uint(0).byte(0x01).str("libfoo.so").byte(0x02).str("draw").byte(0x03).str("foo.c");
  t.byte(0x04).uint(42).byte(0x05).uint(0x1234).byte(0x00);
  t.uint(1).byte(0x02).str("main").byte(0x00);
  t.end().leave(0).end();
  t.enter(0, 1).byte(0x04).uint(1).uint(1).end().leave(1).end();  // frame 1 again, by id
  TempFile f("flags.trace", t.file());
  ApitraceReader r(f.path());
  const Call* c = r.next();
  EXPECT_TRUE(c->fake());
  ASSERT_EQ(c->backtrace().size(), 2u);
  const StackFrame& f0 = *c->backtrace()[0];
  EXPECT_EQ(f0.module, "libfoo.so");
  EXPECT_EQ(f0.function, "draw");
  EXPECT_EQ(f0.filename, "foo.c");
  EXPECT_EQ(f0.line, 42u);
  EXPECT_EQ(f0.offset, 0x1234u);
  EXPECT_EQ(c->backtrace()[1]->function, "main");
  EXPECT_FALSE(c->backtrace()[1]->line.has_value());
  EXPECT_EQ(dump_text(*c), "0 glViewport(x = 0) // fake");
  const StackFrame* caller = c->backtrace()[1];
  c = r.next();
  EXPECT_FALSE(c->fake());
  ASSERT_EQ(c->backtrace().size(), 1u);
  EXPECT_EQ(c->backtrace()[0], caller);
}

// Before version 6 there is no semantic version or property list; before 4 the thread is a call
// detail rather than part of the enter event; before 3 an enum signature is one name and value.
TEST(ApitraceReader, OlderFormatVersionsAreRead) {
  TraceBuilder v5(5);
  v5.enter(3, 1, "glFlush", {}).end().leave(0).end();
  TempFile f5("v5.trace", v5.file());
  ApitraceReader r5(f5.path());
  EXPECT_EQ(r5.version(), 5u);
  EXPECT_EQ(r5.semantic_version(), 5u);
  EXPECT_TRUE(r5.properties().empty());
  EXPECT_EQ(r5.next()->thread(), 3u);

  TraceBuilder v2(2);
  v2.byte(0x00).uint(1).str("glEnable").uint(1).str("cap");  // no thread in the enter event
  v2.byte(0x03).uint(4);                                       // thread detail
  v2.arg(0).byte(0x09).uint(6).str("GL_BLEND").sint(0x0BE2).end().leave(0).end();
  v2.byte(0x00).uint(1).arg(0).byte(0x09).uint(6).end().leave(1).end();  // the enum by id
  TempFile f2("v2.trace", v2.file());
  ApitraceReader r2(f2.path());
  const Call* c = r2.next();
  EXPECT_EQ(c->thread(), 4u);
  EXPECT_EQ(dump_text(*c), "0 glEnable(cap = GL_BLEND)");
  EXPECT_EQ(c->arg(0u)->enum_value(), 0x0BE2);
  EXPECT_EQ(dump_text(*r2.next()), "1 glEnable(cap = GL_BLEND)");
}

TEST(ApitraceReader, IntegerReadsEveryIntegerEncoding) {
  TraceBuilder t;
  t.enter(0, 1, "f", {"a", "b", "c", "d", "e"}).arg(0).sint(-7).arg(1).uint_value(7).arg(2).boolean(true);
  t.arg(3).enum_def(1, {{"X", 5}}, 5).arg(4).bitmask_def(1, {{"B", 2}}, 2).end().leave(0).end();
  TempFile f("ints.trace", t.file());
  ApitraceReader r(f.path());
  const Call* c = r.next();
  EXPECT_EQ(c->arg(0u)->integer(), -7);
  EXPECT_EQ(c->arg(1)->integer(), 7);
  EXPECT_EQ(c->arg(2)->integer(), 1);
  EXPECT_EQ(c->arg(3)->integer(), 5);
  EXPECT_EQ(c->arg(4)->integer(), 2);
}

TEST(ApitraceReader, AccessingAValueAsAnotherKindRaisesInputError) {
  TempFile f("kinds.trace", every_kind_trace().file());
  ApitraceReader r(f.path());
  const Call* c = r.next();
  try {
    (void)c->arg(0u)->blob();
    ADD_FAILURE() << "a null read as a blob";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "a null value where the caller expected blob");
  }
  EXPECT_THROW((void)c->arg(7)->integer(), InputError);
  EXPECT_THROW((void)c->arg(3)->uint(), InputError);
  EXPECT_THROW((void)c->arg(11)->members(), InputError);
  EXPECT_THROW((void)c->arg(12)->elements(), InputError);
}

TEST(ApitraceReader, FrameEndsAreTheCallsApitraceFlagsAsFrameEnds) {
  for (const char* name : {"glXSwapBuffers", "glXSwapBuffersMscOML", "eglSwapBuffers", "eglSwapBuffersWithDamageKHR",
                           "wglSwapBuffers", "wglSwapLayerBuffers", "CGLFlushDrawable", "glFrameTerminatorGREMEDY",
                           "IDirect3DDevice9::Present", "IDXGISwapChain::Present", "IDXGISwapChain1::Present1",
                           "IDXGIDecodeSwapChain::PresentBuffer"})
    EXPECT_TRUE(ends_frame(name)) << name;
  for (const char* name : {"glFlush", "glFinish", "glXSwapIntervalEXT", "glXSwapBuffersX", "eglSwapInterval",
                           "IDXGISwapChain::GetBuffer", "IDXGISwapChain1::Present1::x", "IDXGIFactory::Present", ""})
    EXPECT_FALSE(ends_frame(name)) << name;
}

}  // namespace
}  // namespace strobe::gfx::trace
