// Tessera: a UCI chess engine.
#include "cli/cli.h"

int main(int argc, char** argv) { return tessera::cli::run_cli(argc, argv); }
