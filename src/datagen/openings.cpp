#include "datagen/openings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/position.h"
#include "datagen/pgn_import.h"

namespace tessera::datagen {

std::string epd_position(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> fields;
  std::string field;
  while (fields.size() < 6 && in >> field) fields.push_back(field);
  const auto is_number = [](const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
  };
  const std::size_t keep = fields.size() == 6 && is_number(fields[4]) && is_number(fields[5])
                               ? 6
                               : std::min<std::size_t>(fields.size(), 4);
  std::string fen;
  for (std::size_t i = 0; i < keep; ++i) fen += (i ? " " : "") + fields[i];
  return fen;
}

namespace {

[[nodiscard]] std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return text;
}

[[nodiscard]] bool load_pgn_openings(const std::string& path, bool chess960,
                                     std::vector<std::string>& fens, std::string& error,
                                     std::string* warning) {
  std::string text;
  if (!read_whole_file(path, text, error)) {
    error = fmt::format("cannot read the openings file '{}'", path);
    return false;
  }
  std::uint64_t skipped = 0;
  std::string first_skip;
  pgn_end_positions(
      text, path, chess960, [&](const Position& pos) { fens.push_back(pos.fen()); },
      [&](const std::string& why) {
        if (skipped++ == 0) first_skip = why;
      });
  if (fens.empty()) {
    error = skipped
                ? fmt::format("the PGN book '{}' has no usable game ({} skipped; the first: {})",
                              path, skipped, first_skip)
                : fmt::format("the PGN book '{}' has no games", path);
    return false;
  }
  if (skipped && warning)
    *warning = fmt::format("{} of {} games of the PGN book '{}' skipped (the first: {})", skipped,
                           skipped + fens.size(), path, first_skip);
  return true;
}

}  // namespace

bool is_chess960_book(const std::string& path) {
  const std::string name = lower_case(std::filesystem::path(path).filename().string());
  return name.find("frc") != std::string::npos || name.find("960") != std::string::npos ||
         name.find("fischer") != std::string::npos;
}

bool is_pgn_book(const std::string& path) {
  const std::string name = lower_case(path);
  return name.size() >= 4 && name.compare(name.size() - 4, 4, ".pgn") == 0;
}

bool load_openings(const std::string& path, bool chess960, std::vector<std::string>& fens,
                   std::string& error, std::string* warning) {
  if (is_pgn_book(path)) return load_pgn_openings(path, chess960, fens, error, warning);
  std::ifstream in(path);
  if (!in) {
    error = fmt::format("cannot read the openings file '{}'", path);
    return false;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::string fen = epd_position(line);
    std::string why;
    if (!Position::from_fen(fen, chess960, why)) {
      error = fmt::format("{}:{}: not a position: {}", path, number, why);
      return false;
    }
    fens.push_back(std::move(fen));
  }
  if (in.bad()) {
    error = fmt::format("cannot read the openings file '{}'", path);
    return false;
  }
  if (fens.empty()) {
    error = fmt::format("the openings file '{}' has no positions", path);
    return false;
  }
  return true;
}

}  // namespace tessera::datagen
