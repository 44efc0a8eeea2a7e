// Accumulator: the first layer's output for one position, in both perspectives, and the
// functions that build it, update it move by move, and evaluate it.
//
// half(WHITE) is the white-perspective half, half(BLACK) the black one; evaluate() orders
// them by the side to move. An accumulator is a pure function of the pieces on the board: a
// full refresh() and any chain of incremental updates that reaches the same board give the
// same values (lanes wrap modulo 2^16, so even overflow cannot make them differ).
//
// Width. An accumulator has room for kMaxHidden lanes a half and holds the width H of the
// network that computed it (architecture.h): the halves are dense at that width (white's lanes
// 0..H-1, black's H..2H-1), after one 64-byte line of bookkeeping, so that at H = 128 it spans
// the same nine lines as an accumulator of that width alone. Lanes beyond 2H are never read or
// written; equality and copies cover the live ones only. Every function below takes the width
// from the network, so an accumulator is used with the network that computed it.
//
// Each half was computed in its perspective's king view (architecture.h: the king bucket and
// mirror half of that side's own king), which the accumulator records. The piece functions
// below keep the views; a move after which a king's view differs must rebuild that half, which
// apply_move() does through an AccumulatorCache, updating the other half incrementally.
//
// The incremental functions copy the parent ply's accumulator into the child's and apply the
// move's feature changes in one pass (`parent` and `child` may be the same object):
//   quiet move or promotion          add_sub         (piece on its new square; piece off)
//   capture, en passant, capture-promotion  add_sub_sub  (... and the captured piece off)
//   castling                         add_add_sub_sub (king and rook on; king and rook off)
// MoveDelta (move_delta.h) picks the right one from the make-move observer's piece events.
// Each keeps the piece count as well, so an accumulator knows its output bucket.
//
// Each function exists twice: in this namespace with the kernel the build selected, and in
// namespace `scalar` with the portable reference, which must give identical results.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/position.h"
#include "core/types.h"
#include "eval/nnue/architecture.h"
#include "eval/nnue/network.h"

namespace tessera::eval::nnue {

struct alignas(64) Accumulator {
  int pieces = 0;  // on the board, kings included: it picks the output bucket
  int hidden = 0;  // the width H of the halves; 0 before the first refresh
  std::array<KingView, kColorCount> views{};  // the view each half was computed in
  alignas(64) std::array<std::int16_t, 2 * std::size_t(kMaxHidden)> values{};

  Accumulator() = default;
  // Copies move the bookkeeping and the live lanes only: at H = 128 a quarter of the storage.
  Accumulator(const Accumulator& other) { *this = other; }
  Accumulator& operator=(const Accumulator& other) {
    if (this == &other) return *this;
    pieces = other.pieces;
    hidden = other.hidden;
    views = other.views;
    std::copy_n(other.values.begin(), 2 * other.hidden, values.begin());
    return *this;
  }

  // Perspective c's half: `hidden` lanes.
  [[nodiscard]] std::span<std::int16_t> half(Color c) {
    return {values.data() + std::ptrdiff_t(c) * hidden, std::size_t(hidden)};
  }
  [[nodiscard]] std::span<const std::int16_t> half(Color c) const {
    return {values.data() + std::ptrdiff_t(c) * hidden, std::size_t(hidden)};
  }
  [[nodiscard]] bool operator==(const Accumulator& other) const {
    return pieces == other.pieces && hidden == other.hidden && views == other.views &&
           std::equal(values.begin(), values.begin() + 2 * hidden, other.values.begin());
  }
};

// The "Finny table" of a search thread: for each perspective and king view, the half last
// computed in that view and the board it was computed for. Rebuilding a half then costs the
// pieces that differ between that board and the current one (after a king move, usually a few)
// rather than every piece. The values are exactly a refresh of the stored board, because the
// lanes' modular arithmetic makes every order of additions agree; so a refresh through the cache
// equals a full refresh. The cache belongs to one network: using it with another (another
// fingerprint) empties it first. Its entries have room for kMaxHidden lanes, of which the
// network's first H are live.
class AccumulatorCache {
 public:
  struct alignas(64) Entry {
    std::array<Bitboard, kPieceCount> pieces;  // the board `values` belong to, by Piece::index()
    alignas(64) std::array<std::int16_t, kMaxHidden> values;
  };

  // Every entry back to the empty board (the biases) of `net`.
  void reset(const Network& net);
  // reset(net) unless the cache already belongs to `net`'s parameters.
  void prepare(const Network& net) {
    if (!ready_ || fingerprint_ != net.fingerprint()) reset(net);
  }
  [[nodiscard]] Entry& entry(Color perspective, KingView view) {
    return entries_[perspective][std::size_t(view.bucket)][view.mirrored];
  }

 private:
  std::array<std::array<std::array<Entry, 2>, kMaxKingBuckets>, kColorCount> entries_{};
  std::uint64_t fingerprint_ = 0;
  bool ready_ = false;
};

// One piece on one square: a feature in each perspective.
struct PieceSquare {
  Piece piece;
  Square square;
};

// Evaluations stay within +-kMaxEvalCp, like the hand-crafted evaluation's.
inline constexpr int kMaxEvalCp = 19999;

// The accumulator of `pos` from scratch: the biases plus the rows of every piece.
void refresh(const Network& net, const Position& pos, Accumulator& acc);
// The same result through `cache`: each half from the cached half of its king view, corrected
// by the pieces that differ (and the cache entries brought up to `pos`).
void refresh(const Network& net, const Position& pos, Accumulator& acc, AccumulatorCache& cache);

// In place: one piece put on or taken off the board.
void add_piece(const Network& net, Accumulator& acc, PieceSquare add);
void remove_piece(const Network& net, Accumulator& acc, PieceSquare sub);

// child = parent with the pieces `add*` put on and `sub*` taken off, in the parent's views.
void add_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
             PieceSquare sub);
void add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
                 PieceSquare sub1, PieceSquare sub2);
void add_add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,
                     PieceSquare add1, PieceSquare add2, PieceSquare sub1, PieceSquare sub2);

// child = parent after a move that took `removed` off the board and put `added` on (one or two
// of each, as MoveDelta gathers them), `pos` being the position after it. A half whose king's
// view the move changed is refreshed through `cache`; the other is updated with the fused
// function that fits. With a single-bucket network no view ever changes.
void apply_move(const Network& net, const Position& pos, const Accumulator& parent,
                Accumulator& child, std::span<const PieceSquare> added,
                std::span<const PieceSquare> removed, AccumulatorCache& cache);

// The network's value of the accumulator's position in centipawns from `side_to_move`'s point
// of view, clamped to +-kMaxEvalCp.
[[nodiscard]] int evaluate(const Network& net, const Accumulator& acc, Color side_to_move);

// The portable reference implementation of the same functions, for comparison in tests.
namespace scalar {
void refresh(const Network& net, const Position& pos, Accumulator& acc);
void refresh(const Network& net, const Position& pos, Accumulator& acc, AccumulatorCache& cache);
void add_piece(const Network& net, Accumulator& acc, PieceSquare add);
void remove_piece(const Network& net, Accumulator& acc, PieceSquare sub);
void add_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
             PieceSquare sub);
void add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add,
                 PieceSquare sub1, PieceSquare sub2);
void add_add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,
                     PieceSquare add1, PieceSquare add2, PieceSquare sub1, PieceSquare sub2);
void apply_move(const Network& net, const Position& pos, const Accumulator& parent,
                Accumulator& child, std::span<const PieceSquare> added,
                std::span<const PieceSquare> removed, AccumulatorCache& cache);
[[nodiscard]] int evaluate(const Network& net, const Accumulator& acc, Color side_to_move);
}  // namespace scalar

}  // namespace tessera::eval::nnue
