// Shared helpers for the rules-core tests (test_core_*.cpp): loading the EPD suites, parsing
// FENs that must be valid, playing move sequences, and checking a position's internal
// consistency against from-scratch recomputation.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/bitboard.h"
#include "core/movegen.h"
#include "core/position.h"
#include "core/types.h"

namespace tessera::test {

// A path relative to the repository root.
inline std::string repo_path(std::string_view relative) {
  return std::string(TESSERA_SOURCE_DIR) + "/" + std::string(relative);
}

// One line of a perft EPD: the FEN and the published leaf counts, `counts[d]` for depth d
// (0 where the line gives none).
struct EpdEntry {
  std::string fen;
  std::vector<std::uint64_t> counts;
  int line = 0;

  [[nodiscard]] bool has_depth(int depth) const {
    return depth < int(counts.size()) && counts[depth] != 0;
  }
};

// Reads `FEN ;D1 n ;D2 n ...` lines. Throws when the file is missing or a line is malformed, so
// a broken data file fails the test instead of silently testing nothing.
inline std::vector<EpdEntry> load_perft_epd(std::string_view relative) {
  const std::string path = repo_path(relative);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<EpdEntry> entries;
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    EpdEntry e;
    e.line = number;
    std::size_t semi = line.find(';');
    e.fen = line.substr(0, semi);
    while (!e.fen.empty() && (e.fen.back() == ' ' || e.fen.back() == '\r')) e.fen.pop_back();
    while (semi != std::string::npos) {
      const std::size_t next = line.find(';', semi + 1);
      std::istringstream field(line.substr(semi + 1, next - semi - 1));
      std::string tag;
      std::uint64_t count = 0;
      if (!(field >> tag >> count) || tag.size() < 2 || tag[0] != 'D')
        throw std::runtime_error(path + ":" + std::to_string(number) + ": bad perft field");
      const int depth = std::stoi(tag.substr(1));
      if (depth >= int(e.counts.size())) e.counts.resize(depth + 1, 0);
      e.counts[depth] = count;
      semi = next;
    }
    entries.push_back(std::move(e));
  }
  if (entries.empty()) throw std::runtime_error(path + " holds no positions");
  return entries;
}

// Reads one FEN per non-empty line.
inline std::vector<std::string> load_fens(std::string_view relative) {
  const std::string path = repo_path(relative);
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> fens;
  std::string line;
  while (std::getline(in, line)) {
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    if (!line.empty()) fens.push_back(line);
  }
  if (fens.empty()) throw std::runtime_error(path + " holds no positions");
  return fens;
}

// The exhaustive tree walks take every stride-th position of their suite when the environment
// sets TESSERA_TEST_STRIDE (1 to 64; the sanitizer test presets set 4). Those builds run many
// times slower, and the memory and undefined-behaviour errors they look for show in a sample
// of the trees as well as in all of them. What a walk must have seen is divided by the same
// stride.
inline std::size_t suite_stride() {
  static const std::size_t stride = [] {
    const char* text = std::getenv("TESSERA_TEST_STRIDE");
    const long n = text ? std::strtol(text, nullptr, 10) : 1;
    return n >= 1 && n <= 64 ? std::size_t(n) : std::size_t(1);
  }();
  return stride;
}

// Every `step`-th entry starting at `first`: a deterministic sample of a large suite.
template <typename T>
std::vector<T> every_nth(const std::vector<T>& all, std::size_t step, std::size_t first = 0) {
  std::vector<T> out;
  for (std::size_t i = first; i < all.size(); i += step) out.push_back(all[i]);
  return out;
}

// Parses a FEN the test relies on; an unexpected rejection throws, which GoogleTest reports as
// a failure of the running test (with the parser's own message).
inline Position parse(std::string_view fen, bool chess960 = false) {
  std::string error;
  std::optional<Position> pos = Position::from_fen(fen, chess960, error);
  if (!pos) throw std::runtime_error("rejected FEN '" + std::string(fen) + "': " + error);
  return std::move(*pos);
}

// Plays space-separated UCI moves; an unparsable or illegal move throws.
inline void play(Position& pos, std::string_view moves) {
  std::istringstream in{std::string(moves)};
  std::string text;
  while (in >> text) {
    const Move m = pos.parse_uci_move(text);
    if (m.is_none()) throw std::runtime_error("move '" + text + "' not legal in " + pos.fen());
    pos.make_move(m);
  }
}

// A move of the current position given in UCI notation; throws when it is not legal.
inline Move uci(const Position& pos, std::string_view text) {
  const Move m = pos.parse_uci_move(text);
  if (m.is_none())
    throw std::runtime_error("move '" + std::string(text) + "' not legal in " + pos.fen());
  return m;
}

// Checks everything the position keeps incrementally against a from-scratch computation:
// the three keys, the checkers, and the piece bitboards versus the mailbox and counts.
// Returns a description of the first mismatch, or an empty string.
inline std::string consistency_error(const Position& pos) {
  if (pos.key() != pos.compute_key()) return "key differs from compute_key()";
  if (pos.pawn_key() != pos.compute_pawn_key()) return "pawn key differs from compute_pawn_key()";
  if (pos.material_key() != pos.compute_material_key())
    return "material key differs from compute_material_key()";
  const Color us = pos.side_to_move();
  const Bitboard checkers = pos.attackers_to(pos.king_square(us)) & pos.pieces(~us);
  if (pos.checkers() != checkers) return "checkers differ from attackers_to(king)";
  for (int s = 0; s < 64; ++s) {
    const Square sq(s);
    const Piece p = pos.piece_on(sq);
    const bool occupied = (pos.pieces() & sq.bb()) != 0;
    if (p.is_none() == occupied) return "mailbox and occupancy disagree on " + sq.to_string();
    if (!p.is_none() && (pos.pieces(p.color(), p.type()) & sq.bb()) == 0)
      return "bitboards miss the piece on " + sq.to_string();
  }
  for (int c = 0; c < kColorCount; ++c)
    for (int t = 0; t < kPieceTypeCount; ++t)
      if (popcount(pos.pieces(Color(c), PieceType(t))) != pos.count(Color(c), PieceType(t)))
        return "piece count differs from popcount";
  return {};
}

// The space-separated fields of a FEN.
inline std::vector<std::string> fen_fields(std::string_view fen) {
  std::istringstream in{std::string(fen)};
  std::vector<std::string> fields;
  std::string f;
  while (in >> f) fields.push_back(f);
  return fields;
}

// A suite thinned by suite_stride(): every stride-th position, plus (when thinned) every
// position with an en-passant square, so that a sample still meets en passant.
inline std::vector<EpdEntry> stride_sample(const std::vector<EpdEntry>& all) {
  const std::size_t stride = suite_stride();
  if (stride == 1) return all;
  std::vector<EpdEntry> out;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (i % stride == 0 || fen_fields(all[i].fen).at(3) != "-") out.push_back(all[i]);
  return out;
}

// Square from text, for readable test code: sq("e4").
inline Square sq(std::string_view text) {
  const Square s = parse_square(text);
  if (s.is_none()) throw std::runtime_error("bad square " + std::string(text));
  return s;
}

}  // namespace tessera::test
