// `strobe disasm`: llvm-objdump-compatible disassembly of code objects or raw byte streams.
#include <span>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli/commands.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "emu/code_object_program.h"
#include "isa/disassembler.h"
#include "isa/listing.h"
#include "loader/code_object.h"
#include "loader/elf_reader.h"

namespace strobe::cli {

namespace {

struct DisasmOptions {
  std::string file;
  bool raw = false;
  std::string mcpu;  ///< --mcpu: the processor of a --raw stream (a code object names its own)
};


/// Every executable section of the ELF image with the named, non-section symbols defined in it,
/// which is what llvm-objdump -d lists.
std::vector<isa::ListingSection> executable_sections(std::span<const uint8_t> image, isa::Target target) {
  constexpr uint8_t kSttSection = 3;
  const loader::ElfFile elf(image, loader::read_elf_header(image));
  const std::vector<loader::ElfSymbol> symbols = elf.symbols();
  std::vector<isa::ListingSection> out;
  const auto& sections = elf.sections();
  for (size_t i = 0; i < sections.size(); ++i) {
    const loader::ElfSection& s = sections[i];
    if (!(s.flags & loader::elf::SHF_EXECINSTR) || s.type == loader::elf::SHT_NOBITS || s.size == 0) continue;
    isa::ListingSection l{s.name, s.addr, s.bytes, {}, target};
    for (const loader::ElfSymbol& sym : symbols)
      if (sym.shndx == i && !sym.name.empty() && sym.type != kSttSection)
        l.symbols.push_back({sym.value, sym.name, sym.type});
    out.push_back(std::move(l));
  }
  return out;
}

int run_disasm(const DisasmOptions& o) {
  if (o.raw) {
    const std::string mcpu = o.mcpu.empty() ? std::string(loader::kSupportedProcessor) : o.mcpu;
    if (mcpu != loader::kSupportedProcessor && mcpu != loader::kDecodedProcessor)
      throw InputError(fmt::format("--mcpu {}: strobe decodes {} and {}", mcpu, loader::kSupportedProcessor,
                                   loader::kDecodedProcessor));
    std::string bytes = read_file(o.file);
    const isa::Target target = mcpu == loader::kDecodedProcessor ? isa::Target::Gfx942 : isa::Target::Gfx803;
    std::fputs(isa::disassemble({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()}, 0, nullptr, target)
                   .c_str(),
               stdout);
    // Instructions are whole 32-bit words: a tail shorter than one is shown, never dropped.
    if (const size_t tail = bytes.size() % 4) {
      std::string hex;
      for (size_t i = bytes.size() - tail; i < bytes.size(); ++i) hex += fmt::format(" {:02x}", uint8_t(bytes[i]));
      fmt::print("\t// {:012X}: {} trailing byte{} (not a whole instruction word):{}\n", bytes.size() - tail, tail,
                 tail == 1 ? "" : "s", hex);
      fmt::print(stderr, "strobe: warning: {}: its last {} byte{} do{} not make a whole instruction word\n", o.file,
                 tail, tail == 1 ? "" : "s", tail == 1 ? "es" : "");
    }
    return 0;
  }
  // Validate first, so a foreign or broken file gets the loader's one clear error; the code
  // object names its processor, which --mcpu may only repeat.
  const loader::CodeObject co = loader::CodeObject::load(o.file, loader::Accept::Decodable);
  if (!o.mcpu.empty() && o.mcpu != co.processor())
    throw InputError(fmt::format("{}: built for {}, not for --mcpu {}", o.file, co.processor(), o.mcpu));
  const std::string file = read_file(o.file);
  const std::span<const uint8_t> image(reinterpret_cast<const uint8_t*>(file.data()), file.size());
  // Whole sections, as llvm-objdump prints them: every symbol (kernels, called functions, local
  // branch labels such as BB0_3) and every byte between them (padding, v2 kernel headers).
  std::string out = isa::listing_heading(o.file);
  for (const isa::ListingSection& s : executable_sections(image, emu::isa_target(co))) out += isa::list_section(s);
  std::fputs(out.c_str(), stdout);
  return 0;
}

}  // namespace

void add_disasm_command(CLI::App& app, Action& action) {
  auto opts = std::make_shared<DisasmOptions>();
  auto* cmd = app.add_subcommand("disasm", "Disassemble a gfx803 or gfx942 code object (or --raw byte stream) like llvm-objdump");
  cmd->add_option("file", opts->file, "Code object (.hsaco) or, with --raw, a flat instruction byte file")->required();
  cmd->add_flag("--raw", opts->raw, "Decode FILE as a flat byte stream from offset 0");
  cmd->add_option("--mcpu", opts->mcpu, "Processor of a --raw stream: gfx803 (default) or gfx942");
  cmd->callback([opts, &action] { action = [opts] { return run_disasm(*opts); }; });
}

}  // namespace strobe::cli
