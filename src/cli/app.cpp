// Top-level command dispatch for `strobe`.
#include "cli/app.h"

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "common/error.h"

namespace strobe::cli {

int run_main(int argc, char** argv) {
  CLI::App app{"strobe: a GCN3 GPU simulator with sampled simulation"};
  app.require_subcommand(1);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : static_cast<int>(ExitCode::BadInput);
  }
  return 0;
}

}  // namespace strobe::cli
