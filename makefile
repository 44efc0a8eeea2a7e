# A make front end to the CMake build, for OpenBench and anyone who expects `make`.
#
#   make [EXE=name] [CXX=compiler] [EVALFILE=network] [NATIVE=OFF] [SYZYGY=ON|OFF]
#        [DATAGEN=ON|OFF] [STANDALONE=ON|OFF] [PGO=ON] [TUNE=ON]
#
# builds a Release engine (no tests, no microbenchmarks) in build/openbench/<compiler> and
# copies it to ./$(EXE). OpenBench runs `make -j EXE=... CXX=... [EVALFILE=...]` in the
# repository root and then `./$(EXE) bench`, whose last two lines are `Nodes searched: N` and
# `Nodes/second: M`. EVALFILE embeds that network file instead of src/eval/nnue/default.tnn
# (a relative path is taken from the repository root, where make runs).
# A worker needs make, a C++20 compiler, CMake 3.25 or later and the Debian packages
# libfmt-dev and libcxxopts-dev; libfathom-dev and libzstd-dev are used where installed.
# The binary is standalone (STANDALONE=ON, CMake's TESSERA_STANDALONE): it needs only the C
# library at run time, not fmt, zstd, Fathom or libstdc++, so it runs on a machine without
# them too (Syzygy tables then cannot be loaded; the bench never probes them). PGO=ON builds
# profile-guided (instrumented build, its bench, rebuild: tools/pgo_build.sh); the node count
# is the same either way. TUNE=ON builds the SPSA engine: the search's constants
# (src/search/tunables.h) become UCI spin options and `spsa` prints OpenBench's SPSA input.

EXE ?= tessera
CMAKE ?= cmake
NATIVE ?= ON
PGO ?= OFF
STANDALONE ?= ON
TUNE ?= OFF
# Tablebase support needs Debian's libfathom-dev; a worker without it still builds the engine
# (a bench never probes tables, so the node count is the same either way).
SYZYGY ?= $(if $(wildcard /usr/include/tbprobe.h),ON,OFF)
# Likewise `tessera datagen` needs zstd (libzstd-dev); without it the engine builds without it.
DATAGEN ?= $(if $(wildcard /usr/include/zstd.h),ON,OFF)

# make always defines CXX (as g++). Only a compiler chosen on the command line or in the
# environment is handed to CMake; otherwise CMake picks the system compiler as usual.
ifneq ($(filter command line environment,$(origin CXX)),)
  COMPILER_FLAG := -DCMAKE_CXX_COMPILER=$(CXX)
  COMPILER_NAME := $(notdir $(firstword $(CXX)))
else
  COMPILER_NAME := default
endif
# One build directory per compiler: switching compilers in one CMake cache forces a reset.
BUILD_DIR ?= build/openbench/$(COMPILER_NAME)$(if $(filter ON,$(TUNE)),-tune)

.PHONY: all $(EXE) clean

all: $(EXE)

CONFIG_FLAGS := -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_NATIVE=$(NATIVE) \
  -DTESSERA_SYZYGY=$(SYZYGY) -DTESSERA_DATAGEN=$(DATAGEN) -DTESSERA_STANDALONE=$(STANDALONE) \
  -DTESSERA_TUNE=$(TUNE) $(COMPILER_FLAG)

# The network to embed, always handed to CMake: its cache would otherwise keep the EVALFILE of
# an earlier run. `make EVALFILE=` with an empty value is the default network too.
ifeq ($(strip $(EVALFILE)),)
  NET := $(CURDIR)/src/eval/nnue/default.tnn
else
  NET := $(if $(filter /%,$(firstword $(EVALFILE))),$(EVALFILE),$(CURDIR)/$(EVALFILE))
endif

# Before CMake: a missing or old cmake, or a missing EVALFILE, each fail with one line.
define CHECK_PREREQUISITES
@v=$$($(CMAKE) --version 2>/dev/null | sed -n 's/^cmake version \([0-9]*\)\.\([0-9]*\).*/\1 \2/p'); \
if [ -z "$$v" ]; then \
  echo "makefile: '$(CMAKE)' not found: install the Debian package 'cmake' (CMake 3.25 or later)" >&2; \
  exit 1; \
fi; \
set -- $$v; \
if [ "$$1" -lt 3 ] || { [ "$$1" -eq 3 ] && [ "$$2" -lt 25 ]; }; then \
  echo "makefile: CMake $$1.$$2 is too old: Tessera needs 3.25 or later (Debian package 'cmake' from Debian 12 or Ubuntu 23.04 on, or pip install cmake)" >&2; \
  exit 1; \
fi
@if [ ! -f '$(NET)' ]; then \
  echo "makefile: EVALFILE: no network file at '$(NET)'" >&2; \
  exit 1; \
fi
endef

# The `+` hands make's job server (-j) on to the generated build.
$(EXE):
	$(CHECK_PREREQUISITES)
ifeq ($(PGO),ON)
	+bash tools/pgo_build.sh $(BUILD_DIR)-pgo $(CONFIG_FLAGS) '-DTESSERA_DEFAULT_NET=$(NET)'
	cp $(BUILD_DIR)-pgo/tessera $(EXE)
else
	$(CMAKE) -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DTESSERA_PGO=OFF $(CONFIG_FLAGS) \
	  '-DTESSERA_DEFAULT_NET=$(NET)'
	+$(CMAKE) --build $(BUILD_DIR) --target tessera
	cp $(BUILD_DIR)/tessera $(EXE)
endif

clean:
	rm -rf build/openbench
	rm -f $(EXE)
