// --arch and --set handling on top of the timing model's declared parameters.
#include "cli/gpu_config_options.h"

namespace strobe::cli {

timing::GpuConfig resolve_gpu_config(const std::string& arch, const std::vector<std::string>& sets) {
  timing::GpuConfig cfg = timing::load_config(arch);
  for (const auto& s : sets) timing::apply_override(cfg, s);
  timing::validate(cfg);
  return cfg;
}

}  // namespace strobe::cli
