// The command line of `tessera datagen` (datagen/datagen.h): its flags and their checks. The
// flags exist in every build; without TESSERA_DATAGEN the command itself says it is not built.
#pragma once

#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <vector>

#include "datagen/convert.h"
#include "datagen/datagen.h"

namespace tessera::cli {

// Adds --openings, --output and --append. datagen also reads the selfplay flags --games,
// --threads, --nodes, --hash, --seed, --random-plies, --max-plies, and --depth and --chess960.
void add_datagen_options(cxxopts::Options& options);

// The configuration the parsed flags ask for, with datagen's own defaults where a shared flag
// is not given (100 games, 5000 nodes, 8 random plies or none from an openings file); nullopt
// with `error` set for a value out of range, no --output, or both --nodes and --depth.
[[nodiscard]] std::optional<datagen::DatagenConfig> datagen_config(
    const cxxopts::ParseResult& parsed, std::string& error);

// --format: chains or records; false and `error` for anything else (unchanged when not given).
[[nodiscard]] bool read_format(const cxxopts::ParseResult& parsed, datagen::DataFormat& format,
                               std::string& error);

// `datagen-convert INPUT... --output FILE [--format F] [--append]`; nullopt and `error` without
// inputs or --output.
[[nodiscard]] std::optional<datagen::ConvertConfig> convert_config(
    const cxxopts::ParseResult& parsed, const std::vector<std::string>& inputs, std::string& error);

}  // namespace tessera::cli
