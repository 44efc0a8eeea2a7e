# A make front end to the CMake build, for OpenBench and anyone who expects `make`.
#
#   make [EXE=name] [CXX=compiler] [NATIVE=OFF] [SYZYGY=ON|OFF] [DATAGEN=ON|OFF] [PGO=ON]
#
# builds a Release engine (no tests, no microbenchmarks) in build/openbench/<compiler> and
# copies it to ./$(EXE). OpenBench runs `make -j EXE=... CXX=...` in the repository root and
# then `./$(EXE) bench`, whose last two lines are `Nodes searched: N` and `Nodes/second: M`.
# PGO=ON builds profile-guided (instrumented build, its bench, rebuild: tools/pgo_build.sh);
# the node count is the same either way.

EXE ?= tessera
CMAKE ?= cmake
NATIVE ?= ON
PGO ?= OFF
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
BUILD_DIR ?= build/openbench/$(COMPILER_NAME)

.PHONY: all $(EXE) clean

all: $(EXE)

CONFIG_FLAGS := -DTESSERA_BUILD_TESTS=OFF -DTESSERA_BUILD_BENCH=OFF -DTESSERA_NATIVE=$(NATIVE) \
  -DTESSERA_SYZYGY=$(SYZYGY) -DTESSERA_DATAGEN=$(DATAGEN) $(COMPILER_FLAG)

# The `+` hands make's job server (-j) on to the generated build.
$(EXE):
ifeq ($(PGO),ON)
	+tools/pgo_build.sh $(BUILD_DIR)-pgo $(CONFIG_FLAGS)
	cp $(BUILD_DIR)-pgo/tessera $(EXE)
else
	$(CMAKE) -S . -B $(BUILD_DIR) -DCMAKE_BUILD_TYPE=Release -DTESSERA_PGO=OFF $(CONFIG_FLAGS)
	+$(CMAKE) --build $(BUILD_DIR) --target tessera
	cp $(BUILD_DIR)/tessera $(EXE)
endif

clean:
	rm -rf build/openbench
	rm -f $(EXE)
