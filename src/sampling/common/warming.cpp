#include "sampling/common/warming.h"

#include <fmt/format.h>

#include "common/error.h"
#include "emu/executor.h"

namespace strobe::sampling {

const char* warming_name(Warming w) { return w == Warming::Caches ? "caches" : "none"; }

Warming parse_warming(const std::string& text, const std::string& option) {
  if (text == "none") return Warming::None;
  if (text == "caches") return Warming::Caches;
  throw InputError(fmt::format("{} '{}': unknown warming (valid: none, caches)", option, text));
}

emu::DispatchStats run_functional_launch(const emu::Dispatch& d, emu::GlobalMemory& mem, timing::Gpu& gpu,
                                         Warming w) {
  return w == Warming::Caches ? gpu.run_functional(d, mem) : emu::run_dispatch(d, mem, gpu.host_threads());
}

}  // namespace strobe::sampling
