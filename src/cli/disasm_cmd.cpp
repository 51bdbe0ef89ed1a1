// `strobe disasm`: llvm-objdump-compatible disassembly of code objects or raw byte streams.
#include <algorithm>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "common/atomic_file.h"
#include "isa/disassembler.h"
#include "loader/code_object.h"

namespace strobe::cli {

namespace {

struct DisasmOptions {
  std::string file;
  bool raw = false;
};

int run_disasm(const DisasmOptions& o) {
  if (o.raw) {
    std::string bytes = read_file(o.file);
    std::fputs(isa::disassemble({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, 0).c_str(), stdout);
    return 0;
  }
  auto co = loader::CodeObject::load(o.file);
  std::vector<const loader::KernelInfo*> ks;
  for (const auto& k : co.kernels()) ks.push_back(&k);
  std::sort(ks.begin(), ks.end(), [](auto* a, auto* b) { return a->entry_address < b->entry_address; });
  // Branch targets are labelled as llvm-objdump labels them: relative to the nearest kernel
  // symbol at or below the target (v2 symbols mark the amd_kernel_code_t header, not the code).
  std::vector<std::pair<uint64_t, std::string>> symbols;
  for (const auto* k : ks) symbols.emplace_back(co.version() == 2 ? k->descriptor_address : k->entry_address, k->name);
  std::sort(symbols.begin(), symbols.end());
  isa::TargetLabeler labeler = [&](uint64_t target) -> std::string {
    const std::pair<uint64_t, std::string>* best = nullptr;
    for (const auto& s : symbols)
      if (s.first <= target) best = &s;
    if (!best) return fmt::format(".text+0x{:x}", target - co.text_address());
    if (best->first == target) return best->second;
    return fmt::format("{}+0x{:x}", best->second, target - best->first);
  };
  for (const auto* k : ks) {
    fmt::print("<{}>:\n", k->name);
    std::fputs(isa::disassemble(co.code(*k), k->entry_address, labeler).c_str(), stdout);
  }
  return 0;
}

}  // namespace

void add_disasm_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<DisasmOptions>();
  auto* cmd = app.add_subcommand("disasm", "Disassemble a gfx803 code object (or --raw byte stream) like llvm-objdump");
  cmd->add_option("file", opts->file, "Code object (.hsaco) or, with --raw, a flat instruction byte file")->required();
  cmd->add_flag("--raw", opts->raw, "Decode FILE as a flat byte stream from offset 0");
  cmd->callback([opts, &action] { action = [opts] { return run_disasm(*opts); }; });
}

}  // namespace strobe::cli
