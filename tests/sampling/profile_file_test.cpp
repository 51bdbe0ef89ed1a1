// The functional profile's file: it round-trips every column, rejects a truncated, corrupt,
// foreign or other-version file with an error naming the file and the reason, names the first
// difference from a workload, writes atomically, and its collector counts what the emulator
// counts, with memory requests at the profile's line size.
#include "sampling/profile/profile_file.h"

#include <gtest/gtest.h>

#include <cmath>

#include <filesystem>
#include <fstream>
#include <msgpack.hpp>

#include "common/error.h"
#include "emu/emu_test_util.h"
#include "sampling/profile/functional_profile.h"
#include "sampling/tbpoint/from_profile.h"

namespace strobe::sampling::profile {
namespace {

namespace fs = std::filesystem;

ProfileFile sample() {
  ProfileFile p;
  p.workload = {"benchmark", "vecadd", {"n=5000"}};
  p.line_bytes = 128;
  LaunchRecord l;
  l.id = {"vecadd", 0x1234, {512, 1, 1}, {256, 1, 1}, 0xfeed};
  l.workgroups.rows = 2;
  l.workgroups.u64[column::kWaveInsts] = {10, 20};
  l.workgroups.u64[column::kThreadInsts] = {640, 1280};
  l.workgroups.u64[column::kGlobalReqs] = {3, 3};
  l.workgroups.u64[column::kScratchReqs] = {0, 1};
  l.workgroups.u64[column::kMemReqs] = {3, 4};
  l.workgroups.f64["stall_probability"] = {0.25, 0.5};
  l.waves.rows = 1;
  for (const char* c : column::kUnitColumns) l.waves.u64[c] = {1};
  l.waves.u64[column::kWorkGroup] = {0};
  l.waves.u64[column::kWave] = {0};
  p.launches.push_back(l);
  return p;
}

/// The message decode() at `detail` throws for `bytes`, or "" when it does not throw.
std::string decode_error(std::string_view bytes, ProfileDetail detail = ProfileDetail::units) {
  try {
    decode(bytes, "p.prof", detail);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(ProfileFile, ATableWithoutAColumnEveryProfileHasIsCorrupt) {
  // A work-group table without wave_insts summed to zero instructions, and STEM's ratio
  // estimator then stopped on an internal error (found by FileFuzz). Every column a functional
  // profile writes must be there.
  for (const char* c : column::kUnitColumns) {
    ProfileFile p = sample();
    p.launches[0].workgroups.u64.erase(c);
    EXPECT_NE(decode_error(encode(p)).find(std::string("launch 0 work-group table has no '") + c + "' column"),
              std::string::npos)
        << decode_error(encode(p));
  }
  ProfileFile p = sample();
  p.launches[0].waves.u64.erase(column::kWorkGroup);
  EXPECT_NE(decode_error(encode(p)).find("wave table has no 'workgroup' column"), std::string::npos);
}

TEST(ProfileFile, RoundTripKeepsIdentityAndEveryNamedColumn) {
  const ProfileFile p = sample();
  const ProfileFile q = decode(encode(p), "p.prof");
  EXPECT_EQ(q.workload.name, "vecadd");
  EXPECT_EQ(q.workload.params, p.workload.params);
  EXPECT_EQ(q.line_bytes, 128u);
  EXPECT_EQ(q.mode, "functional");
  ASSERT_EQ(q.launches.size(), 1u);
  EXPECT_EQ(q.launches[0].id, p.launches[0].id);
  EXPECT_EQ(q.launches[0].workgroups.u64, p.launches[0].workgroups.u64);
  EXPECT_EQ(q.launches[0].workgroups.f64, p.launches[0].workgroups.f64);
  EXPECT_EQ(q.launches[0].waves.u64, p.launches[0].waves.u64);
}

TEST(ProfileFile, MethodBlobsRoundTripAndAreOptional) {
  ProfileFile p = sample();
  EXPECT_TRUE(decode(encode(p), "p.prof").launches[0].blobs.empty());  // a file without blobs
  p.launches[0].blobs["gpumech"] = std::string("\0\x01\xff trace", 9);
  const ProfileFile q = decode(encode(p), "p.prof");
  EXPECT_EQ(q.launches[0].blobs, p.launches[0].blobs);
}

TEST(ProfileFile, BlockTablesRoundTripAndAreOptional) {
  ProfileFile p = sample();
  EXPECT_TRUE(decode(encode(p), "p.prof").launches[0].blocks.u64.empty());  // written before block tables
  p.launches[0].blocks.rows = 2;
  p.launches[0].blocks.u64[column::kStartPc] = {0, 7};
  p.launches[0].blocks.u64[column::kWaveInsts] = {26, 4};
  const ProfileFile q = decode(encode(p), "p.prof");
  EXPECT_EQ(q.launches[0].blocks.rows, 2u);
  EXPECT_EQ(q.launches[0].blocks.u64, p.launches[0].blocks.u64);
}

TEST(ProfileFile, ABlobThatIsNotBinaryIsCorrupt) {
  msgpack::sbuffer buf;
  msgpack::packer<msgpack::sbuffer> pk(buf);
  // Re-pack the sample's launch with a blob stored as an integer.
  const std::string good = encode(sample());
  msgpack::object_handle h = msgpack::unpack(good.data(), good.size());
  msgpack::object root = h.get();
  pk.pack_map(root.via.map.size);
  for (uint32_t i = 0; i < root.via.map.size; ++i) {
    const auto& kv = root.via.map.ptr[i];
    pk.pack(kv.key);
    if (std::string_view(kv.key.via.str.ptr, kv.key.via.str.size) != "launches") {
      pk.pack(kv.val);
      continue;
    }
    pk.pack_array(1);
    const msgpack::object& l = kv.val.via.array.ptr[0];
    pk.pack_map(l.via.map.size + 1);
    for (uint32_t k = 0; k < l.via.map.size; ++k) pk.pack(l.via.map.ptr[k].key), pk.pack(l.via.map.ptr[k].val);
    pk.pack(std::string("blobs"));
    pk.pack_map(1);
    pk.pack(std::string("gpumech"));
    pk.pack(42);
  }
  EXPECT_NE(decode_error(std::string_view(buf.data(), buf.size())).find("blob 'gpumech' is not binary"),
            std::string::npos);
}

TEST(ProfileFile, ATruncatedFileIsRejectedAsTruncated) {
  const std::string b = encode(sample());
  EXPECT_NE(decode_error(b.substr(0, b.size() - 3)).find("p.prof: the file is truncated"), std::string::npos);
  EXPECT_NE(decode_error("").find("p.prof: the file is empty"), std::string::npos);
}

TEST(ProfileFile, ACorruptOrForeignFileIsRejected) {
  EXPECT_NE(decode_error(encode(sample()) + "xx").find("corrupt"), std::string::npos);
  EXPECT_NE(decode_error("\xc1garbage").find("p.prof: the file is corrupt"), std::string::npos);
  EXPECT_NE(decode_error("garbage").find("p.prof: not a strobe profile"), std::string::npos);
  msgpack::sbuffer buf;
  msgpack::pack(buf, std::map<std::string, int>{{"magic", 1}});
  EXPECT_NE(decode_error(std::string(buf.data(), buf.size())).find("not a strobe profile"), std::string::npos);
}

TEST(ProfileFile, B23_ANanOrNegativeCollectionTimeIsNamedAsWhatItIs) {
  // A NaN collection time was reported as "negative collection time".
  ProfileFile p = sample();
  p.seconds = std::nan("");
  EXPECT_NE(decode_error(encode(p)).find("collection time nan s is not a finite non-negative number"),
            std::string::npos)
      << decode_error(encode(p));
  p.seconds = -1.5;
  EXPECT_NE(decode_error(encode(p)).find("collection time -1.5 s is not a finite"), std::string::npos);
  p.seconds = 2.5;
  EXPECT_EQ(decode_error(encode(p)), "");
}

TEST(ProfileFile, ColumnsOfTheWrongLengthAreCorrupt) {
  // Also where only the sums are kept: a summed decode checks what a full one checks.
  for (ProfileDetail d : {ProfileDetail::units, ProfileDetail::sums}) {
    ProfileFile p = sample();
    p.launches[0].workgroups.u64[column::kWaveInsts].push_back(7);
    EXPECT_NE(decode_error(encode(p), d).find("column 'wave_insts' has 3 bytes for 2 rows"), std::string::npos);
    p = sample();
    p.launches[0].workgroups.f64["stall_probability"].pop_back();
    EXPECT_NE(decode_error(encode(p), d).find("column 'stall_probability' has 8 bytes for 2 rows"), std::string::npos);
    p = sample();
    p.launches[0].waves.u64.erase(column::kWorkGroup);
    EXPECT_NE(decode_error(encode(p), d).find("wave table has no 'workgroup' column"), std::string::npos);
  }
}

TEST(ProfileFile, AColumnKeepsValuesOfEveryWidth) {
  // A column is packed at the narrowest width that holds its largest value: each width round-trips.
  ProfileFile p = sample();
  for (uint64_t top : {uint64_t{255}, uint64_t{256}, uint64_t{65536}, uint64_t{1} << 32, ~uint64_t{0}}) {
    p.launches[0].workgroups.u64[column::kMemReqs] = {top, 1};
    EXPECT_EQ(decode(encode(p), "p.prof").launches[0].workgroups.u64.at(column::kMemReqs),
              (std::vector<uint64_t>{top, 1}));
  }
}

/// `p` in format version 2, whose columns are arrays of msgpack numbers.
std::string encode_version_2(const ProfileFile& p) {
  msgpack::sbuffer buf;
  msgpack::packer<msgpack::sbuffer> pk(buf);
  auto table = [&](const FeatureTable& t) {
    pk.pack_map(3);
    pk.pack(std::string("rows"));
    pk.pack(t.rows);
    pk.pack(std::string("u64"));
    pk.pack(t.u64);
    pk.pack(std::string("f64"));
    pk.pack(t.f64);
  };
  pk.pack_map(7);
  pk.pack(std::string("magic"));
  pk.pack(std::string(kProfileMagic));
  pk.pack(std::string("version"));
  pk.pack(2);
  pk.pack(std::string("mode"));
  pk.pack(p.mode);
  pk.pack(std::string("line_bytes"));
  pk.pack(p.line_bytes);
  pk.pack(std::string("seconds"));
  pk.pack(p.seconds);
  pk.pack(std::string("workload"));
  pk.pack_map(3);
  pk.pack(std::string("kind"));
  pk.pack(p.workload.kind);
  pk.pack(std::string("name"));
  pk.pack(p.workload.name);
  pk.pack(std::string("params"));
  pk.pack(p.workload.params);
  pk.pack(std::string("launches"));
  pk.pack_array(uint32_t(p.launches.size()));
  for (const LaunchRecord& l : p.launches) {
    pk.pack_map(7);
    pk.pack(std::string("kernel"));
    pk.pack(l.id.kernel);
    pk.pack(std::string("code_hash"));
    pk.pack(l.id.code_hash);
    pk.pack(std::string("grid"));
    pk.pack(l.id.grid);
    pk.pack(std::string("local"));
    pk.pack(l.id.local);
    pk.pack(std::string("kernarg_hash"));
    pk.pack(l.id.kernarg_hash);
    pk.pack(std::string("workgroups"));
    table(l.workgroups);
    pk.pack(std::string("waves"));
    table(l.waves);
  }
  return std::string(buf.data(), buf.size());
}

TEST(ProfileFile, AVersionTwoProfileIsStillRead) {
  // Captures and profiles made before columns were packed hold them as arrays.
  const ProfileFile p = sample();
  const ProfileFile q = decode(encode_version_2(p), "p.prof");
  ASSERT_EQ(q.launches.size(), 1u);
  EXPECT_EQ(q.launches[0].workgroups.u64, p.launches[0].workgroups.u64);
  EXPECT_EQ(q.launches[0].workgroups.f64, p.launches[0].workgroups.f64);
  EXPECT_EQ(q.launches[0].waves.u64, p.launches[0].waves.u64);
  ProfileFile bad = p;
  bad.launches[0].workgroups.u64[column::kWaveInsts].push_back(7);
  EXPECT_NE(decode_error(encode_version_2(bad)).find("column 'wave_insts' has 3 rows, the table 2"), std::string::npos);
}

TEST(ProfileFile, ASummedDecodeKeepsEachTablesRowsAndColumnSumsAtEveryWidthAndVersion) {
  ProfileFile p = sample();
  for (uint64_t top : {uint64_t{255}, uint64_t{256}, uint64_t{65536}, uint64_t{1} << 32, uint64_t{1} << 62}) {
    p.launches[0].workgroups.u64[column::kMemReqs] = {top, 3};
    for (const std::string& bytes : {encode(p), encode_version_2(p)}) {
      const ProfileFile q = decode(bytes, "p.prof", ProfileDetail::sums);
      const LaunchRecord& l = q.launches.at(0);
      EXPECT_EQ(l.id, p.launches[0].id);
      for (const auto& [got, want] : {std::pair{&l.workgroups, &p.launches[0].workgroups}, {&l.waves, &p.launches[0].waves}}) {
        ASSERT_TRUE(got->sums);
        EXPECT_TRUE(got->u64.empty());
        EXPECT_TRUE(got->f64.empty());
        EXPECT_EQ(got->rows, want->rows);
        EXPECT_EQ(got->sums->size(), want->u64.size());
        for (const auto& [name, col] : want->u64) {
          EXPECT_TRUE(got->has_u64(name)) << name;
          EXPECT_EQ(got->sum(name), want->sum(name)) << name << " at " << top;
        }
      }
      EXPECT_EQ(l.workgroups.sum(column::kMemReqs), top + 3);
      EXPECT_FALSE(l.workgroups.has_u64("absent"));
      EXPECT_EQ(l.workgroups.sum("absent"), 0u);
      // Asking a summed table for its rows, or writing it back, is a method's mistake, said loudly.
      EXPECT_THROW((void)l.workgroups.find_u64(column::kWaveInsts), FaultError);
      EXPECT_THROW((void)encode(q), FaultError);
    }
  }
}

TEST(ProfileFile, AnotherFormatVersionIsRejectedNamingBoth) {
  std::string b = encode(sample());
  // "version" is followed by a positive fixint holding the version.
  const size_t at = b.find("version") + 7;
  ASSERT_EQ(uint8_t(b[at]), kProfileVersion);
  b[at] = char(kProfileVersion + 1);
  EXPECT_NE(decode_error(b).find("format version 4, but this strobe reads versions 2 and 3"), std::string::npos);
  b[at] = char(kProfileVersion - 2);
  EXPECT_NE(decode_error(b).find("format version 1, but this strobe reads versions 2 and 3"), std::string::npos);
}

TEST(ProfileFile, TheFirstDifferenceFromTheWorkloadIsNamed) {
  const ProfileFile p = sample();
  EXPECT_FALSE(first_difference(p, p.workload, 128));
  EXPECT_EQ(*first_difference(p, WorkloadIdentity{"benchmark", "kmeans", {}}, 128),
            "it profiles benchmark 'vecadd', this run benchmark 'kmeans'");
  EXPECT_EQ(*first_difference(p, WorkloadIdentity{"benchmark", "vecadd", {"n=6000"}}, 128),
            "parameter 0 is 'n=5000' in the profile, 'n=6000' in this run");
  EXPECT_NE(first_difference(p, p.workload, 64)->find("128-byte lines"), std::string::npos);
  LaunchIdentity id = p.launches[0].id;
  EXPECT_FALSE(first_difference(p, std::vector<LaunchIdentity>{id}));
  id.grid = {1024, 1, 1};
  EXPECT_EQ(*first_difference(p, std::vector<LaunchIdentity>{id}),
            "launch 0 (vecadd) has grid 512x1x1 in the profile, 1024x1x1 in this run");
  EXPECT_EQ(*first_difference(p, std::vector<LaunchIdentity>{p.launches[0].id, id}),
            "the profile has 1 launches, this run 2");
  EXPECT_THROW(require_match("p.prof", first_difference(p, std::vector<LaunchIdentity>{})), InputError);
}

TEST(ProfileFile, ConversionToTbpointCarriesTheGroupColumns) {
  const tbpoint::ProgramProfile t = tbpoint::from_profile(sample());
  EXPECT_EQ(t.line_bytes, 128u);
  ASSERT_EQ(t.launches.size(), 1u);
  EXPECT_EQ(t.launches[0].kernel, "vecadd");
  EXPECT_EQ(t.launches[0].thread_insts(), 1920u);
  EXPECT_EQ(t.launches[0].wave_insts(), 30u);
  EXPECT_EQ(t.launches[0].mem_reqs(), 7u);
}

TEST(ProfileFile, SavingIsAtomicAndAFailedSaveLeavesNoFile) {
  const fs::path dir = fs::temp_directory_path() / ("strobe-prof-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "p.prof").string();
  save(path, sample());
  ProfileFile p = sample();
  p.line_bytes = 64;
  save(path, p);  // replaces the whole file
  EXPECT_EQ(load(path).line_bytes, 64u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);  // no temporaries left
  const std::string bad = (dir / "missing" / "p.prof").string();
  EXPECT_THROW(save(bad, p), InputError);
  EXPECT_FALSE(fs::exists(bad));
  try {
    load((dir / "nope.prof").string());
    ADD_FAILURE() << "loading a missing file did not throw";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("nope.prof"), std::string::npos);
  }
  fs::remove_all(dir);
}

// s[4:5] = out (kernarg 0); each lane stores a dword at out + tid * 4 (256 contiguous bytes per wave).
const char* const kStore = R"(
  s_load_dwordx2 s[4:5], s[0:1], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  v_mov_b32 v5, s5
  v_add_u32 v6, vcc, s4, v1
  v_addc_u32 v7, vcc, v5, 0, vcc
  flat_store_dword v[6:7], v0
  s_waitcnt vmcnt(0)
  s_endpgm
)";

LaunchRecord profile_store(uint32_t line_bytes, emu::DispatchStats& stats) {
  emu::test::AsmLaunch l(kStore, emu::test::KdSpec{}, {128, 1, 1}, {64, 1, 1});
  const uint64_t out = l.buffer({}, 512);
  l.mem.write(l.d.kernarg_address, &out, 8);
  return profile_launch(l.d, l.mem, line_bytes, stats);
}

TEST(FunctionalProfile, ColumnsSumToTheEmulatorsCountsPerGroupInDispatchOrder) {
  emu::DispatchStats st;
  const LaunchRecord r = profile_store(64, st);
  emu::test::AsmLaunch ref(kStore, emu::test::KdSpec{}, {128, 1, 1}, {64, 1, 1});
  const uint64_t out = ref.buffer({}, 512);
  ref.mem.write(ref.d.kernarg_address, &out, 8);
  const emu::DispatchStats want = ref.run();
  EXPECT_EQ(r.workgroups.rows, 2u);
  EXPECT_EQ(r.waves.rows, 2u);
  EXPECT_EQ(r.workgroups.sum(column::kWaveInsts), want.wave_instructions);
  EXPECT_EQ(r.workgroups.sum(column::kThreadInsts), want.thread_instructions);
  EXPECT_EQ(r.waves.sum(column::kThreadInsts), want.thread_instructions);
  EXPECT_EQ(st.wave_instructions, want.wave_instructions);
  EXPECT_EQ(*r.waves.find_u64(column::kWorkGroup), (std::vector<uint64_t>{0, 1}));
  // Scalar instructions count their wave's active lanes too: every instruction has 64.
  EXPECT_EQ(r.workgroups.u64.at(column::kThreadInsts)[0], 64u * r.workgroups.u64.at(column::kWaveInsts)[0]);
  EXPECT_EQ(r.id.kernel, ref.d.kernel_name);
  EXPECT_EQ(r.id.grid, (std::array<uint32_t, 3>{128, 1, 1}));
}

// A three-trip loop, a barrier and a tail: the timing model's blocks end at the branch (4), the
// barrier (5) and s_endpgm (7).
const char* const kLoop = emu::test::kLoopBarrierAsm;

/// The functional profile of emu::test::kGroupLoopStoreAsm over `groups` one-wave groups on
/// `threads` host threads, encoded.
std::string group_loop_profile(uint32_t groups, uint32_t threads) {
  emu::test::AsmLaunch l(emu::test::kGroupLoopStoreAsm, emu::test::KdSpec{}, {64 * groups, 1, 1}, {64, 1, 1});
  const uint64_t out = l.buffer({}, 64 * groups);
  l.mem.write(l.d.kernarg_address, &out, 8);
  emu::DispatchStats st;
  ProfileFile p;
  p.launches.push_back(profile_launch(l.d, l.mem, 64, st, nullptr, threads));
  EXPECT_EQ(p.launches[0].workgroups.rows, groups);
  EXPECT_EQ(p.launches[0].workgroups.sum(column::kWaveInsts), st.wave_instructions);
  return encode(p);
}

TEST(FunctionalProfile, ColumnsAndBlocksOnThreeThreadsAreTheOnesOneThreadCollects) {
  EXPECT_EQ(group_loop_profile(41, 3), group_loop_profile(41, 1));
}

TEST(FunctionalProfile, TheBlockVectorCountsEachBlocksExecutedInstructions) {
  // Four waves (two groups of two). Per wave: block 0..4 runs its first instruction once and
  // the loop's four three times (13), the barrier block 1, the tail 2.
  emu::test::AsmLaunch l(kLoop, emu::test::KdSpec{}, {256, 1, 1}, {128, 1, 1});
  emu::DispatchStats st;
  const LaunchRecord r = profile_launch(l.d, l.mem, 64, st);
  EXPECT_EQ(r.blocks.rows, 3u);
  EXPECT_EQ(*r.blocks.find_u64(column::kStartPc), (std::vector<uint64_t>{0, 5, 6}));
  EXPECT_EQ(*r.blocks.find_u64(column::kWaveInsts), (std::vector<uint64_t>{52, 4, 8}));
  EXPECT_EQ(r.blocks.sum(column::kWaveInsts), st.wave_instructions);
}

TEST(FunctionalProfile, MemoryRequestsAreDistinctLinesAtTheProfilesLineSize) {
  emu::DispatchStats st;
  // 256 contiguous bytes per group (page-aligned buffer): 4 lines of 64 B, 2 of 128 B.
  const LaunchRecord r64 = profile_store(64, st);
  const LaunchRecord r128 = profile_store(128, st);
  EXPECT_EQ(r64.workgroups.u64.at(column::kGlobalReqs), (std::vector<uint64_t>{4, 4}));
  EXPECT_EQ(r128.workgroups.u64.at(column::kGlobalReqs), (std::vector<uint64_t>{2, 2}));
  EXPECT_EQ(r128.workgroups.u64.at(column::kScratchReqs), (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(r128.workgroups.u64.at(column::kMemReqs), (std::vector<uint64_t>{2, 2}));
}

}  // namespace
}  // namespace strobe::sampling::profile
