// Entry point of the `strobe` command.
#include "cli/app.h"

int main(int argc, char** argv) { return strobe::cli::run_main(argc, argv); }
