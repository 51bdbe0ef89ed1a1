// Entry point of the `strobe` command.
#include "cli/app.h"
#include "common/huge_pages.h"

int main(int argc, char** argv) {
  strobe::use_huge_page_heap(argv);
  return strobe::cli::run_main(argc, argv);
}
