// The `strobe` command line: parses arguments and dispatches to subcommands.
#pragma once

namespace strobe::cli {

/// Runs the command line; returns the process exit status (0 ok, 1 failure, 2 bad input).
int run_main(int argc, char** argv);

}  // namespace strobe::cli
