// Registration of each `strobe` subcommand onto the CLI11 application.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace strobe::cli {

/// A subcommand's action, run after parsing; returns the exit status.
using Action = std::function<int()>;

/// Adds `strobe launch`; sets `action` when the subcommand is selected.
void add_launch_command(CLI::App& app, Action& action);
/// Adds `strobe disasm`.
void add_disasm_command(CLI::App& app, Action& action);
/// Adds `strobe run`: built-in benchmarks, or `program` (everything after `--`) as an OpenCL
/// host program.
void add_run_command(CLI::App& app, Action& action, std::vector<std::string> program = {});
/// Adds `strobe compare`: full detailed simulation against sampling methods, on built-in
/// benchmarks or on `program` (everything after `--`), an OpenCL host program.
void add_compare_command(CLI::App& app, Action& action, std::vector<std::string> program = {});
/// Adds `strobe profile`: the functional profile of a benchmark; `program` (everything after
/// `--`) is refused as not implemented.
void add_profile_command(CLI::App& app, Action& action, std::vector<std::string> program = {});
/// Adds `strobe capture`: a benchmark's functional run, or `program`'s (everything after `--`),
/// recorded for replay from checkpoints.
void add_capture_command(CLI::App& app, Action& action, std::vector<std::string> program = {});
/// Adds `strobe keep`: a capture copied with only the checkpoints a selection needs.
void add_keep_command(CLI::App& app, Action& action);
/// Adds `strobe sweep`: design-space sweeps, locally or on Slurm.
void add_sweep_command(CLI::App& app, Action& action);
/// Adds `strobe report`: an HTML page of result files.
void add_report_command(CLI::App& app, Action& action);
/// Adds `strobe shader`: a GL program's GLSL compiled to gfx803 graphics shaders.
void add_shader_command(CLI::App& app, Action& action);
/// Adds `strobe frames`: a window of a graphics trace as strobe's own frame file.
void add_frames_command(CLI::App& app, Action& action);
/// Adds `strobe list`.
void add_list_command(CLI::App& app, Action& action);

}  // namespace strobe::cli
