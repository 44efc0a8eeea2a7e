// Staged move picker: hands out the moves of a node one at a time, best guesses first, and
// generates each group of moves only when the previous ones failed to cut the node off.
//
// Policy. Main search order: the table move; captures and queen promotions that do not lose
// material (SEE >= 0), best victim first; the two killers; the counter move; the remaining
// quiet moves ordered by butterfly and continuation history; and last the losing captures.
// Quiescence: the table move if it is noisy, then every noisy move by victim value; when the
// side to move is in check, every evasion (noisy ones first). ProbCut: the noisy moves whose
// static exchange reaches a threshold. Moves from the generator are
// legal; table, killer and counter moves come from other positions, so they are emitted only
// after Position::pseudo_legal and Position::legal accept them (the table move arrives checked,
// as a CheckedMove), and every move is emitted at most once.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

#include "core/movegen.h"
#include "core/position.h"
#include "search/history.h"

namespace tessera::search {

enum class PickStage : std::uint8_t {
  // Main search
  TableMove,
  CaptureInit,
  GoodCaptures,
  Killer1,
  Killer2,
  Counter,
  QuietInit,
  Quiets,
  BadCaptures,
  // Quiescence
  QsTableMove,
  QsCaptureInit,
  QsCaptures,
  QsQuietInit,  // only in check: the quiet evasions
  QsQuiets,
  // ProbCut
  ProbCutTableMove,
  ProbCutInit,
  ProbCutCaptures,
  Done,
};

// The squares the opponent's cheaper pieces attack, for ordering quiet moves: a piece that
// steps out of such an attack is tried earlier, one that steps into it later; and every square
// the opponent attacks, which picks the butterfly table. Computed once per node: by the main
// search at each node (its children's history updates read it too), by a picker itself where
// none is given.
struct QuietThreats {
  QuietThreats() = default;
  explicit QuietThreats(const Position& pos);
  // The ordering bonus (or, negative, malus) of moving a `moved` piece from `from` to `to`.
  [[nodiscard]] int score(PieceType moved, Square from, Square to) const;

  static constexpr int kQueenEscape = 12000;
  static constexpr int kRookEscape = 10000;
  static constexpr int kMinorEscape = 8000;
  Bitboard by_pawn = 0;   // enemy pawn attacks
  Bitboard by_minor = 0;  // ... and knight and bishop attacks
  Bitboard by_rook = 0;   // ... and rook attacks
  Bitboard by_any = 0;    // ... and queen and king attacks: every attacked square
};

// The history tables a picker reads, for the side to move at one node.
struct OrderingContext {
  const Histories* histories = nullptr;
  // Continuation tables of the moves 1, 2 and 4 plies earlier (never null: sentinel if none).
  std::array<const PieceToHistory*, 3> continuation{};
  // The node's threats, when the search has them; null makes the picker compute its own.
  const QuietThreats* threats = nullptr;
  // The node's check squares, when the search has them: with quiet moves skipped, each quiet
  // move is tested for check, and without them that test computes two slider attacks.
  const CheckInfo* check_info = nullptr;
};

// A move from another position (a table entry) that Position::pseudo_legal and Position::legal
// have accepted in this one, or none. The picker takes its table move in this form, so that a
// node whose search has already checked the move does not check it a second time.
class CheckedMove {
 public:
  [[nodiscard]] static CheckedMove verify(const Position& pos, Move m) {
    return CheckedMove(m && pos.pseudo_legal(m) && pos.legal(m) ? m : Move::none());
  }
  [[nodiscard]] static constexpr CheckedMove none() { return CheckedMove(Move::none()); }
  [[nodiscard]] constexpr Move move() const { return move_; }

 private:
  explicit constexpr CheckedMove(Move m) : move_(m) {}
  Move move_;
};

class MovePicker {
 public:
  [[nodiscard]] static MovePicker main_search(const Position& pos, CheckedMove table_move,
                                              const OrderingContext& ctx,
                                              const std::array<Move, 2>& killers, Move counter);
  // Noisy moves whose static exchange wins at least `threshold`, table move first.
  [[nodiscard]] static MovePicker probcut(const Position& pos, CheckedMove table_move,
                                          const OrderingContext& ctx, int threshold);
  [[nodiscard]] static MovePicker quiescence(const Position& pos, CheckedMove table_move,
                                             const OrderingContext& ctx);

  // The next move, or Move::none() when the node has no more. With `skip_quiets` the quiet
  // stages (killers, counter, quiets) yield only checks: late-move pruning has begun, and it
  // spares checks, which may be a mate (a quiet mate in one must not hide behind it).
  [[nodiscard]] Move next(bool skip_quiets = false);
  [[nodiscard]] PickStage stage() const { return stage_; }

  MovePicker(const MovePicker&) = delete;
  MovePicker& operator=(const MovePicker&) = delete;
  MovePicker(MovePicker&&) = default;

 private:
  // Trivially constructible, so that a picker's 256 entries are not cleared at every node (a
  // Move clears itself to none: that loop took about a tenth of the search's time). load()
  // writes each entry before anything reads it.
  struct ScoredMove {
    std::uint16_t raw;
    int score;
    [[nodiscard]] Move move() const { return Move(raw); }
  };
  static_assert(std::is_trivially_default_constructible_v<ScoredMove>);

  MovePicker(const Position& pos, Move table_move, const OrderingContext& ctx, PickStage first);
  [[nodiscard]] bool usable_refutation(Move m) const;
  [[nodiscard]] bool is_refutation(Move m) const;
  [[nodiscard]] bool quiet_wanted(Move m, bool skip_quiets) const;
  // Generates the legal moves of kind T into moves_[first...], unscored, as [cur_, end_).
  template <GenType T>
  void load(int first);
  void score_captures();
  void score_quiets();
  // Sorts moves_[begin, end) by score, highest first, equal scores in their present order.
  void sort_descending(int begin, int end);
  // Moves the best-scored move of [cur_, end_) to cur_ and returns it.
  [[nodiscard]] ScoredMove pick_best();

  const Position& pos_;
  OrderingContext ctx_;
  Move table_move_;
  std::array<Move, 2> killers_{};
  Move counter_;
  PickStage stage_;
  int cur_ = 0;
  int end_ = 0;
  int bad_end_ = 0;  // losing captures are parked in [0, bad_end_)
  int bad_cur_ = 0;
  int threshold_ = 0;  // ProbCut: the minimum static exchange
  std::array<ScoredMove, kMaxMoves> moves_;
};

}  // namespace tessera::search
