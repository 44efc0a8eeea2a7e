// The trainer's data: positions of `tessera datagen` record files, decoded once into feature
// lists, with the filters that decide which positions are trained on.
//
// Policy. A Sample is a fixed 72-byte value: the pieces as their one-bucket input features from
// white's perspective (one per piece, at most 32), both kings' squares, the side to move, and
// the search score and game result from the side to move's point of view. The features that a
// network with king buckets reads follow from these through the engine's own functions
// (active_features()), so they are not stored. Positions are filtered while they are read (in
// check, not quiet, early plies, extreme scores) and never kept in any other form. Whole games
// go either to the training or to the validation set (consecutive records of one game are too
// alike to be split), chosen by a hash of the game's index and the seed. A sample remembers
// whether castling rights remain, so that training may reflect it left to right.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/packed_position.h"
#include "core/position.h"
#include "datagen/record.h"
#include "eval/nnue/architecture.h"

namespace tessera::trainer {

inline constexpr int kInputs = eval::nnue::kInputs;
inline constexpr int kMaxFeatures = 32;

// The input index of a piece on a square seen from one side: the engine's.
using eval::nnue::feature_index;

// Black's index of the piece whose white index is `white`: colours swap, ranks mirror.
[[nodiscard]] constexpr int black_feature(int white) { return ((white + 384) % 768) ^ 56; }

// The piece and square of white's one-bucket index `white` (feature_index(WHITE, piece, sq)).
[[nodiscard]] constexpr Piece feature_piece(int white) {
  return Piece(white < 384 ? WHITE : BLACK, PieceType(white % 384 / 64));
}
[[nodiscard]] constexpr Square feature_square(int white) { return Square(white % 64); }

struct Sample {
  // No castling right remains, so the position reflected a-h is the same game.
  static constexpr std::uint8_t kNoCastling = 1;

  std::array<std::uint16_t, kMaxFeatures> features{};  // white's perspective, `count` used
  std::int16_t score = 0;                              // centipawns, side to move's view
  std::uint8_t count = 0;
  std::uint8_t side_to_move = WHITE;
  std::uint8_t result = 1;              // side to move's: 0 loss, 1 draw, 2 win
  std::uint8_t flags = 0;               // kNoCastling
  std::array<std::uint8_t, 2> kings{};  // each colour's king square, by Color
};
static_assert(sizeof(Sample) == 72);

// The first-layer rows that `s` activates in the view of `perspective`, one per piece in the
// order of s.features: eval::nnue::feature_index() in the king view (bucket and mirror half)
// that `layout` gives the perspective's own king, exactly as the engine computes them.
void active_features(const Sample& s, const eval::nnue::KingBuckets& layout, Color perspective,
                     std::uint16_t* rows);

// The features of a valid packed position (one that decode() accepts), read from its bytes.
[[nodiscard]] Sample sample_from_packed(const PackedPosition& packed);
// The same from a Position (slower; the reference for sample_from_packed()).
[[nodiscard]] Sample sample_from_position(const Position& pos);
// The sample of the position reflected a-h (for a position without castling rights, an
// equally valid training example): the pieces and the kings reflected. With a mirrored king-
// bucket layout it activates exactly the rows of `s` (each view swaps its files back).
[[nodiscard]] Sample mirrored(const Sample& s);
// A record's sample: its position's features, score and result turned to the side to move.
[[nodiscard]] Sample sample_from_record(const datagen::TrainingRecord& record);

struct LoadOptions {
  int min_ply = 0;           // skip positions before this ply of the game
  int max_score = 3000;      // skip |score| beyond this (mates are +-32000)
  bool quiet_only = true;    // skip positions whose best move is a capture or promotion
  double validation = 0.05;  // fraction of the games held out
  std::uint64_t seed = 1;
  std::uint64_t limit = 0;  // stop after this many kept positions (0: no limit)
};

struct LoadStats {
  std::uint64_t records = 0;
  std::uint64_t kept = 0;
  std::uint64_t in_check = 0;
  std::uint64_t not_quiet = 0;
  std::uint64_t early = 0;
  std::uint64_t extreme = 0;
  std::uint64_t games = 0;
  std::vector<std::string> warnings;  // truncated files
};

struct Dataset {
  std::vector<Sample> train;
  std::vector<Sample> validation;
};

// Appends the kept positions of the file at `path` to `data`. A file cut inside a frame (a
// writer still running or killed) is read up to the cut and noted in stats.warnings; false with
// `error` set when the file cannot be read or holds bad data.
[[nodiscard]] bool load_file(const std::string& path, const LoadOptions& options, Dataset& data,
                             LoadStats& stats, std::string& error);

}  // namespace tessera::trainer
