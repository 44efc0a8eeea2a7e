// tessera-train: see cli.h.
#include "cli.h"

int main(int argc, char** argv) { return tessera::trainer::run_cli(argc, argv); }
