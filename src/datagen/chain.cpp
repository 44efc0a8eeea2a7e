#include "datagen/chain.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "core/movegen.h"

namespace tessera::datagen {

namespace {

void put16(std::vector<std::uint8_t>& out, std::uint16_t v) {
  out.push_back(std::uint8_t(v & 0xFF));
  out.push_back(std::uint8_t(v >> 8));
}

[[nodiscard]] bool resets_rule50(const Position& pos, Move m) {
  return pos.is_capture(m) || pos.moved_piece(m).type() == PAWN;
}

}  // namespace

TrainingRecord record_of(const Position& pos, int score_white, Move move, int ply, int rule50) {
  TrainingRecord r;
  r.position = encode(pos);
  r.score_white = std::int16_t(std::clamp(score_white, -kScoreLimit, kScoreLimit));
  const bool known = !move.is_none() && move != Move::null();
  const bool quiet =
      !pos.in_check() && !(known && (pos.is_capture(move) || move.kind() == MoveKind::Promotion));
  r.flags = std::uint8_t((quiet ? TrainingRecord::kQuiet : 0) |
                         (pos.in_check() ? TrainingRecord::kInCheck : 0));
  r.ply = std::uint16_t(std::clamp(ply, 0, 0xFFFF));
  r.rule50 = std::uint8_t(std::clamp(rule50, 0, 0xFF));
  return r;
}

void GameChain::append_bytes(std::vector<std::uint8_t>& out) const {
  out.insert(out.end(), start.bytes.begin(), start.bytes.end());
  put16(out, ply);
  out.push_back(rule50);
  out.push_back(0);
  for (const ChainPly& p : plies) {
    put16(out, p.move.raw());
    put16(out, std::uint16_t(p.score_white));
  }
  put16(out, Move::none().raw());
  put16(out, std::uint16_t(result));
}

std::optional<GameChain> chain_header_from_bytes(
    std::span<const std::uint8_t, GameChain::kHeaderSize> bytes, std::string& error) {
  GameChain chain;
  std::copy_n(bytes.begin(), PackedPosition::kSize, chain.start.bytes.begin());
  chain.ply = std::uint16_t(bytes[24] | (bytes[25] << 8));
  chain.rule50 = bytes[26];
  if (bytes[27] != 0) {
    error = fmt::format("reserved byte {} (0 expected)", bytes[27]);
    return std::nullopt;
  }
  std::string why;
  if (!decode(chain.start, why)) {
    error = "bad start position: " + why;
    return std::nullopt;
  }
  return chain;
}

std::optional<std::vector<TrainingRecord>> GameChain::to_records(std::string& error) const {
  std::string why;
  std::optional<Position> pos = decode(start, why);
  if (!pos) {
    error = "bad start position: " + why;
    return std::nullopt;
  }
  if (plies.empty() || plies.size() > kMaxPlies) {
    error = fmt::format("a game of {} plies (1 to {} expected)", plies.size(), kMaxPlies);
    return std::nullopt;
  }
  if (std::uint8_t(result) > std::uint8_t(GameResult::WhiteWins)) {
    error = fmt::format("result {} (0, 1 or 2 expected)", int(result));
    return std::nullopt;
  }
  std::vector<TrainingRecord> records;
  records.reserve(plies.size());
  int game_ply = ply, fifty = rule50;
  for (std::size_t i = 0; i < plies.size(); ++i) {
    const ChainPly& p = plies[i];
    const bool last = i + 1 == plies.size();
    if (std::abs(int(p.score_white)) > kScoreLimit) {
      error = fmt::format("ply {}: score {} beyond +-{}", i, p.score_white, kScoreLimit);
      return std::nullopt;
    }
    if (!(last && p.move == Move::null()) && !pos->is_legal_move(p.move)) {
      error = fmt::format("ply {}: move {:04x} is not legal in {}", i, p.move.raw(), pos->fen());
      return std::nullopt;
    }
    records.push_back(record_of(*pos, p.score_white, p.move, game_ply, fifty));
    records.back().result = result;
    if (last) break;
    fifty = resets_rule50(*pos, p.move) ? 0 : fifty + 1;
    ++game_ply;
    pos->make_move(p.move);
  }
  return records;
}

Move connecting_move(const Position& from, const PackedPosition& to) {
  Position next = from;
  for (const Move m : MoveList<>(from)) {
    next.make_move(m);
    const bool found = encode(next) == to;
    next.unmake_move(m);
    if (found) return m;
  }
  return Move::none();
}

}  // namespace tessera::datagen
