#include "dataset.h"

#include <bit>
#include <cstdlib>

#include "datagen/record_file.h"

namespace tessera::trainer {

namespace {

// The nibble codes of core/packed_position.h that are not plain pieces.
constexpr std::uint8_t kEnPassantPawn = packed::kEnPassantPawn;
constexpr std::uint8_t kWhiteCastlingRook = packed::kWhiteCastlingRook;
constexpr std::uint8_t kBlackCastlingRook = packed::kBlackCastlingRook;
constexpr std::uint8_t kBlackKingToMove = packed::kBlackKingToMove;

Piece nibble_piece(std::uint8_t nibble, Square sq) {
  switch (nibble) {
    case kEnPassantPawn:  // a pawn on its fourth rank is white's, on its fifth black's
      return Piece(sq.rank() == 3 ? WHITE : BLACK, PAWN);
    case kWhiteCastlingRook:
      return Piece(WHITE, ROOK);
    case kBlackCastlingRook:
      return Piece(BLACK, ROOK);
    case kBlackKingToMove:
      return Piece(BLACK, KING);
    default:
      return Piece::from_index(nibble);
  }
}

// A well-mixed hash, so that games go to validation independently of their order.
std::uint64_t mix(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

bool in_validation(std::uint64_t game, const LoadOptions& options) {
  if (options.validation <= 0) return false;
  const double u = double(mix(game ^ mix(options.seed)) >> 11) / double(1ull << 53);
  return u < options.validation;
}

}  // namespace

Sample sample_from_packed(const PackedPosition& packed) {
  Sample s;
  Bitboard occupied = 0;
  for (int i = 0; i < 8; ++i) occupied |= Bitboard(packed.bytes[std::size_t(i)]) << (8 * i);
  int nibble = 0;
  for (Bitboard b = occupied; b && nibble < kMaxFeatures; b &= b - 1, ++nibble) {
    const std::uint8_t byte = packed.bytes[std::size_t(8 + nibble / 2)];
    const auto code = std::uint8_t(nibble % 2 ? byte >> 4 : byte & 15);
    const Square sq(std::countr_zero(b));
    if (code == kBlackKingToMove) s.side_to_move = BLACK;
    const Piece piece = nibble_piece(code, sq);
    if (piece.type() == KING) s.kings[piece.color()] = std::uint8_t(sq.index());
    s.features[std::size_t(nibble)] = std::uint16_t(feature_index(WHITE, piece, sq));
  }
  s.count = std::uint8_t(nibble);
  if (!has_castling_rooks(packed)) s.flags |= Sample::kNoCastling;
  return s;
}

Sample sample_from_position(const Position& pos) {
  Sample s;
  for (Bitboard b = pos.pieces(); b; b &= b - 1) {
    const Square sq(std::countr_zero(b));
    const Piece piece = pos.piece_on(sq);
    if (piece.type() == KING) s.kings[piece.color()] = std::uint8_t(sq.index());
    s.features[s.count++] = std::uint16_t(feature_index(WHITE, piece, sq));
  }
  s.side_to_move = pos.side_to_move();
  if (pos.castling_rights() == NO_CASTLING) s.flags |= Sample::kNoCastling;
  return s;
}

Sample mirrored(const Sample& s) {
  Sample m = s;
  // A feature's low three bits are the file in both perspectives.
  for (int k = 0; k < s.count; ++k) m.features[std::size_t(k)] ^= 7;
  for (std::uint8_t& king : m.kings) king ^= 7;
  return m;
}

void active_features(const Sample& s, const eval::nnue::KingBuckets& layout, Color perspective,
                     std::uint16_t* rows) {
  const eval::nnue::KingView view =
      eval::nnue::king_view(layout, perspective, Square(s.kings[perspective]));
  for (int k = 0; k < s.count; ++k) {
    const int f = s.features[std::size_t(k)];
    rows[k] = std::uint16_t(feature_index(perspective, view, feature_piece(f), feature_square(f)));
  }
}

Sample sample_from_record(const datagen::TrainingRecord& record) {
  Sample s = sample_from_packed(record.position);
  const bool white = s.side_to_move == WHITE;
  s.score = std::int16_t(white ? record.score_white : -record.score_white);
  const auto result = std::uint8_t(record.result);
  s.result = std::uint8_t(white ? result : 2 - result);
  return s;
}

bool load_file(const std::string& path, const LoadOptions& options, Dataset& data, LoadStats& stats,
               std::string& error) {
  datagen::RecordReader reader;
  if (!reader.open(path, error)) return false;
  datagen::TrainingRecord r;
  int last_ply = -1;
  bool validation = false;
  while ((options.limit == 0 || stats.kept < options.limit) && reader.next(r)) {
    ++stats.records;
    // A game's records are consecutive plies; a ply that does not grow starts the next game.
    if (int(r.ply) <= last_ply || last_ply < 0) {
      ++stats.games;
      validation = in_validation(stats.games, options);
    }
    last_ply = r.ply;
    if (r.in_check()) {
      ++stats.in_check;
      continue;
    }
    if (options.quiet_only && !r.quiet()) {
      ++stats.not_quiet;
      continue;
    }
    if (int(r.ply) < options.min_ply) {
      ++stats.early;
      continue;
    }
    if (std::abs(int(r.score_white)) > options.max_score) {
      ++stats.extreme;
      continue;
    }
    ++stats.kept;
    (validation ? data.validation : data.train).push_back(sample_from_record(r));
  }
  if (!reader.error().empty()) {
    if (!reader.truncated()) {
      error = reader.error();
      return false;
    }
    stats.warnings.push_back(reader.error());
  }
  return true;
}

}  // namespace tessera::trainer
