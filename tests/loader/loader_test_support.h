// Shared helpers of the loader tests: finding the built code objects and running LLVM's tools.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace strobe::loader::testing {

/// Every .hsaco the build produced (STROBE_BUILD_DIR/kernels*) plus the checked-in fixtures, sorted.
std::vector<std::filesystem::path> all_code_objects();
/// The checked-in fixture tests/loader/data/<name>.
std::filesystem::path fixture(const std::string& name);
/// A code object from the build dir, e.g. build_object("kernels/loader/args.hsaco").
std::filesystem::path build_object(const std::string& relative);
/// Whether the build produced clang-19 (code object v5) kernels.
bool have_clang19_objects();

/// The file's bytes.
std::vector<uint8_t> read_bytes(const std::filesystem::path& p);
/// stdout of a shell command; fails the current test if it exits non-zero.
std::string run_command(const std::string& cmd);
/// The newest llvm-readelf / llvm-objdump available (newer ones decode v5 metadata).
std::string llvm_tool(const std::string& tool);

/// `llvm-objdump -s` of a section: its bytes keyed by address (one entry per section start).
std::map<uint64_t, std::vector<uint8_t>> objdump_section(const std::filesystem::path& p, const std::string& section);

/// One row of `llvm-readelf -s`.
struct ReadelfSymbol {
  uint64_t value = 0, size = 0;
  std::string type, name;
};
/// Rows of the first symbol table `llvm-readelf -s` prints (.dynsym) and then .symtab.
std::vector<ReadelfSymbol> readelf_symbols(const std::filesystem::path& p);

/// The metadata YAML document of `llvm-readelf --notes` (both the v2 and the v3+ form print YAML).
std::string readelf_metadata_yaml(const std::filesystem::path& p);

}  // namespace strobe::loader::testing
