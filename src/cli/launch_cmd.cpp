// `strobe launch`: run any kernel of any gfx803 code object with arguments from the command line.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/arg_spec.h"
#include "cli/commands.h"
#include "cli/report.h"
#include "cli/spec_options.h"
#include "experiment/run_spec.h"
#include "common/atomic_file.h"
#include "common/error.h"
#include "runtime/device.h"
#include "runtime/kernel_args.h"

namespace strobe::cli {

namespace {

struct LaunchOptions {
  std::string file, kernel, grid, local = "64";
  std::vector<std::string> args;
  std::vector<std::string> sets;
  bool counters = false;
  std::string dump, mode = "functional", arch = "r9nano", json, memory_check = "page";
  uint32_t dynamic_lds = 0;
  uint32_t threads = 0;
};

/// Buffers created for the launch, remembered so --dump can write them back.
struct Materialised {
  runtime::ArgValue value;
  uint64_t buffer_bytes = 0;  ///< non-zero for global buffers
};

Materialised materialise(runtime::Device& dev, const ArgSpec& spec) {
  Materialised m;
  switch (spec.kind) {
    case ArgSpec::Kind::File: {
      std::string bytes = read_file(spec.path);
      uint64_t n = std::max<uint64_t>(bytes.size(), 1);
      uint64_t addr = dev.malloc(n);
      dev.memset(addr, 0, n);
      dev.copy_to_device(addr, bytes.data(), bytes.size());
      m.value = runtime::ArgValue::buffer(addr);
      m.buffer_bytes = bytes.size();
      break;
    }
    case ArgSpec::Kind::Zeros: {
      uint64_t n = std::max<uint64_t>(spec.bytes, 1);
      uint64_t addr = dev.malloc(n);
      dev.memset(addr, 0, n);
      m.value = runtime::ArgValue::buffer(addr);
      m.buffer_bytes = spec.bytes;
      break;
    }
    case ArgSpec::Kind::Local:
      m.value = runtime::ArgValue::local(uint32_t(spec.bytes));
      break;
    case ArgSpec::Kind::Scalar:
      m.value.kind = runtime::ArgValue::Kind::Scalar;
      m.value.bytes = spec.value;
      break;
  }
  return m;
}

int run_launch(const LaunchOptions& o) {
  experiment::check_mode(o.mode);
  experiment::require_timing_for_sets(o.sets, o.mode);
  // The configuration is resolved (and every --set checked) before anything runs.
  timing::GpuConfig gpu_cfg = experiment::resolve_gpu_config(o.arch, o.sets);

  std::vector<ArgSpec> specs;
  for (const auto& s : o.args) specs.push_back(parse_arg_spec(s));
  runtime::LaunchConfig cfg;
  cfg.grid = parse_dims(o.grid, "--grid", &cfg.dims);
  uint32_t local_dims = 0;
  cfg.local = parse_dims(o.local, "--local", &local_dims);
  cfg.dynamic_lds_bytes = o.dynamic_lds;

  const emu::MemoryCheck memory_check = emu::parse_memory_check(o.memory_check);
  auto t0 = std::chrono::steady_clock::now();
  runtime::Device dev;
  dev.set_memory_check(memory_check);
  dev.set_threads(experiment::host_threads(o.threads));
  if (o.mode == "timing") dev.enable_timing(gpu_cfg);
  runtime::Module& mod = dev.load(o.file);
  // A missing kernel, or a scalar of another type than the kernel declares, is reported before
  // any buffer is read.
  const std::vector<const loader::KernelArg*> formals = runtime::explicit_args(mod.code_object().kernel(o.kernel));
  for (size_t i = 0; i < std::min(formals.size(), specs.size()); ++i) check_scalar_type(specs[i], *formals[i], i);

  std::vector<Materialised> args;
  for (const auto& s : specs) {
    args.push_back(materialise(dev, s));
    cfg.args.push_back(args.back().value);
  }
  runtime::LaunchResult r = dev.launch(mod, o.kernel, cfg);
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  if (!o.dump.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(o.dump, ec);
    if (ec) throw InputError(fmt::format("--dump '{}': cannot create directory: {}", o.dump, ec.message()));
    for (size_t i = 0; i < args.size(); ++i) {
      if (args[i].value.kind != runtime::ArgValue::Kind::Pointer) continue;
      std::string data(args[i].buffer_bytes, '\0');
      dev.copy_to_host(data.data(), args[i].value.pointer, data.size());
      write_file_atomic((std::filesystem::path(o.dump) / fmt::format("arg{}.bin", i)).string(), data);
    }
  }

  report::RunReport rep;
  rep.benchmark = fmt::format("{}:{}", std::filesystem::path(o.file).filename().string(), o.kernel);
  rep.mode = o.mode;
  rep.arch = o.arch;
  rep.wall_seconds = wall;
  rep.launches.push_back({r, cfg.grid, cfg.local});
  rep.raw_counters = o.counters;
  report::attach_timing(rep, dev);
  emit_report(rep, o.json);
  return 0;
}

}  // namespace

void add_launch_command(CLI::App& app, Action& action) {
  auto o = std::make_shared<LaunchOptions>();
  auto* cmd = app.add_subcommand("launch", "Launch one kernel of a gfx803 code object");
  cmd->add_option("file", o->file, "Code object (.hsaco)")->required();
  cmd->add_option("--kernel", o->kernel, "Kernel name")->required();
  cmd->add_option("--grid", o->grid, "Total work-items per dimension: GX[,GY[,GZ]]")->required();
  cmd->add_option("--local", o->local, "Work-group size: LX[,LY[,LZ]] (default 64)");
  cmd->add_option("--arg", o->args,
                  "Kernel argument, in order: buf:PATH zeros:BYTES local:BYTES i32:V u32:V i64:V u64:V f32:V f64:V");
  cmd->add_option("--dynamic-lds", o->dynamic_lds,
                  "Dynamic group (LDS) bytes per work-group beyond the kernel's static size, as HIP's "
                  "dynamic shared memory (extern __shared__) is given at launch");
  cmd->add_option("--dump", o->dump, "Write each buffer argument after the run to DIR/arg<i>.bin");
  cmd->add_option("--mode", o->mode, "functional or timing (default functional)");
  cmd->add_option("--arch", o->arch, "GPU preset r9nano, mi100, mi300x, or FILE.toml (default r9nano)");
  cmd->add_option("--set", o->sets, "Override a GPU configuration parameter KEY=VALUE (repeatable)");
  cmd->add_option("--memory-check", o->memory_check,
                  "Accesses past the end of an allocation: page (default; as the hardware, allowed inside a mapped page with a "
                  "warning) or strict (every such access is a fault)");
  add_threads_option(*cmd, o->threads);
  cmd->add_option("--json", o->json, "Write the JSON report to FILE, or - for stdout")->check(output_file());
  add_wave_budget_option(*cmd);
  cmd->add_flag("--counters", o->counters, "Timing mode: include every raw counter of each launch in the JSON");
  cmd->callback([o, &action] { action = [o] { return run_launch(*o); }; });
}

}  // namespace strobe::cli
