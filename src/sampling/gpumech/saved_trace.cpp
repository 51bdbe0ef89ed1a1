// GPUMech's saved trace (see saved_trace.h). Per-instruction arrays go as msgpack binaries of
// little-endian words: a trace holds tens of millions of entries, which as msgpack integers
// would cost more to write and parse than the model takes to run.
#include "sampling/gpumech/saved_trace.h"

#include <bit>
#include <cstring>

#include <fmt/format.h>
#include <msgpack.hpp>

#include "common/error.h"
#include "common/msgpack_reader.h"

namespace strobe::sampling::gpumech {

namespace {

static_assert(std::endian::native == std::endian::little, "saved traces are stored little-endian");

/// Bumped whenever the layout changes; another version is refused, not guessed at.
constexpr uint32_t kSavedTraceVersion = 1;

using Packer = msgpack::packer<msgpack::sbuffer>;

void pack_key(Packer& pk, std::string_view k) {
  pk.pack_str(uint32_t(k.size()));
  pk.pack_str_body(k.data(), uint32_t(k.size()));
}

template <class T>
void pack_words(Packer& pk, const std::vector<T>& v) {
  const size_t n = v.size() * sizeof(T);
  pk.pack_bin(uint32_t(n));
  pk.pack_bin_body(reinterpret_cast<const char*>(v.data()), uint32_t(n));
}

/// Reads the decoded blob, naming `where` in every error.
struct Reader : MsgpackReader {
  explicit Reader(const std::string& where) : MsgpackReader(where + ": GPUMech trace") {}

  /// A binary value as little-endian words of T.
  template <class T>
  std::vector<T> words(const msgpack::object& o, std::string_view what) const {
    const std::string_view b = bin(o, what);
    if (b.size() % sizeof(T) != 0) fail(fmt::format("{} is not an array of {}-byte words (corrupt)", what, sizeof(T)));
    std::vector<T> v(b.size() / sizeof(T));
    if (!v.empty()) std::memcpy(v.data(), b.data(), b.size());
    return v;
  }
};

}  // namespace

std::string encode_saved_trace(const SavedTrace& s) {
  msgpack::sbuffer buf;
  Packer pk(buf);
  const LaunchTrace& t = s.trace;
  pk.pack_map(7);
  pack_key(pk, "version");
  pk.pack(kSavedTraceVersion);
  pack_key(pk, "line_bytes");
  pk.pack(t.line_bytes);
  pack_key(pk, "workgroups");
  pk.pack(t.workgroups);
  pack_key(pk, "waves_per_group");
  pk.pack(t.waves_per_group);
  pack_key(pk, "instructions");
  pk.pack(t.instructions);
  pack_key(pk, "representative");
  pk.pack(s.representative);
  pack_key(pk, "waves");
  pk.pack_array(uint32_t(t.waves.size()));
  for (const CollectedWave& w : t.waves) {
    pk.pack_array(6);
    pk.pack(w.workgroup);
    pk.pack(w.wave);
    pack_words(pk, w.pc);
    pack_words(pk, w.nproducers);
    pack_words(pk, w.producers);
    pack_words(pk, w.lines.raw());
  }
  return std::string(buf.data(), buf.size());
}

SavedTrace decode_saved_trace(std::string_view bytes, const std::string& where) {
  const Reader r(where);
  const msgpack::object_handle h = r.parse(bytes);
  const msgpack::object& root = h.get();
  const uint64_t version = r.u64(r.field(root, "version", "the trace"), "the version");
  if (version != kSavedTraceVersion)
    r.fail(fmt::format("version {}, but this strobe reads version {} (profile again with --gpumech)", version,
                       kSavedTraceVersion));
  SavedTrace s;
  LaunchTrace& t = s.trace;
  t.line_bytes = uint32_t(r.u64(r.field(root, "line_bytes", "the trace"), "the line size"));
  if (t.line_bytes == 0 || !std::has_single_bit(t.line_bytes)) r.fail("the line size is not a power of two (corrupt)");
  t.workgroups = r.u64(r.field(root, "workgroups", "the trace"), "the work-group count");
  t.waves_per_group = uint32_t(r.u64(r.field(root, "waves_per_group", "the trace"), "the waves per group"));
  t.instructions = r.u64(r.field(root, "instructions", "the trace"), "the instruction count");
  s.representative = r.u64(r.field(root, "representative", "the trace"), "the representative");
  const msgpack::object_array& waves = r.array(r.field(root, "waves", "the trace"), "the waves");
  uint64_t insts = 0;
  for (uint32_t i = 0; i < waves.size; ++i) {
    const msgpack::object& o = waves.ptr[i];
    const std::string what = fmt::format("wave {}", i);
    if (o.type != msgpack::type::ARRAY || o.via.array.size != 6) r.fail(what + " is not a 6-entry array (corrupt)");
    const msgpack::object* f = o.via.array.ptr;
    CollectedWave w;
    w.workgroup = r.u64(f[0], what + " work-group");
    w.wave = uint32_t(r.u64(f[1], what + " index"));
    w.pc = r.words<uint32_t>(f[2], what + " PCs");
    w.nproducers = r.words<uint8_t>(f[3], what + " producer counts");
    w.producers = r.words<uint32_t>(f[4], what + " producers");
    w.lines = LineStream::from_raw(r.words<uint8_t>(f[5], what + " lines"));
    if (w.nproducers.size() != w.pc.size())
      r.fail(fmt::format("{} has {} producer counts for {} instructions (corrupt)", what, w.nproducers.size(), w.pc.size()));
    size_t p = 0;
    for (size_t k = 0; k < w.pc.size(); ++k) {
      if (w.nproducers[k] > w.producers.size() - p) r.fail(what + " runs out of producers (corrupt)");
      for (size_t j = 0; j < w.nproducers[k]; ++j, ++p)
        if (w.producers[p] >= k) r.fail(fmt::format("{} instruction {} names a producer that is not earlier (corrupt)", what, k));
    }
    if (p != w.producers.size()) r.fail(what + " has producers no instruction names (corrupt)");
    if (w.lines.count_entries() < 0) r.fail(what + " lines do not parse (corrupt)");
    // The groups are contiguous and in dispatch order, every one with its waves: the cache-only
    // simulation indexes its per-group tables with these (a group past the count overran one).
    const uint64_t prev = t.waves.empty() ? 0 : t.waves.back().workgroup;
    if (w.workgroup >= t.workgroups || (t.waves.empty() ? w.workgroup != 0 : w.workgroup != prev && w.workgroup != prev + 1))
      r.fail(fmt::format("{} is of work-group {} after work-group {} of {} (corrupt)", what, w.workgroup,
                         t.waves.empty() ? std::string("none") : std::to_string(prev), t.workgroups));
    insts += w.pc.size();
    t.waves.push_back(std::move(w));
  }
  if ((t.waves.empty() ? 0 : t.waves.back().workgroup + 1) != t.workgroups)
    r.fail(fmt::format("its waves cover {} of its {} work-groups (corrupt)",
                       t.waves.empty() ? 0 : t.waves.back().workgroup + 1, t.workgroups));
  if (insts != t.instructions) r.fail(fmt::format("{} instructions in its waves, {} in its header (corrupt)", insts, t.instructions));
  if (t.waves.empty() ? s.representative != 0 : s.representative >= t.waves.size())
    r.fail(fmt::format("representative wave {} of {} (corrupt)", s.representative, t.waves.size()));
  return s;
}

void check_trace_program(const LaunchTrace& trace, const std::vector<StaticInst>& statics, const std::string& where) {
  for (size_t i = 0; i < trace.waves.size(); ++i) {
    const CollectedWave& w = trace.waves[i];
    int64_t memory = 0;
    for (const uint32_t pc : w.pc) {
      if (pc >= statics.size())
        throw InputError(fmt::format("{}: GPUMech trace: wave {} runs instruction {}, past the program's {} (another "
                                     "program?)", where, i, pc, statics.size()));
      memory += statics[pc].cls == InstClass::VectorMemory;
    }
    if (w.lines.count_entries() != memory)
      throw InputError(fmt::format("{}: GPUMech trace: wave {} has lines for {} memory instructions, the program "
                                   "runs {} (another program?)", where, i, w.lines.count_entries(), memory));
  }
}

}  // namespace strobe::sampling::gpumech
