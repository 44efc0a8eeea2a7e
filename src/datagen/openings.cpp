#include "datagen/openings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/position.h"

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

}  // namespace

bool is_chess960_book(const std::string& path) {
  const std::string name = lower_case(std::filesystem::path(path).filename().string());
  return name.find("frc") != std::string::npos || name.find("960") != std::string::npos ||
         name.find("fischer") != std::string::npos;
}

bool load_openings(const std::string& path, bool chess960, std::vector<std::string>& fens,
                   std::string& error) {
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
