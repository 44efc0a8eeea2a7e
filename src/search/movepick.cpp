#include "search/movepick.h"

#include <algorithm>

#include "core/movegen.h"
#include "search/tunables.h"

namespace tessera::search {

MovePicker::MovePicker(const Position& pos, Move table_move, const OrderingContext& ctx,
                       PickStage first)
    : pos_(pos), ctx_(ctx), table_move_(table_move), stage_(first) {}

MovePicker MovePicker::main_search(const Position& pos, CheckedMove table_move,
                                   const OrderingContext& ctx, const std::array<Move, 2>& killers,
                                   Move counter) {
  const Move tt = table_move.move();
  MovePicker mp(pos, tt, ctx, tt ? PickStage::TableMove : PickStage::CaptureInit);
  mp.killers_ = killers;
  mp.counter_ = counter;
  return mp;
}

MovePicker MovePicker::probcut(const Position& pos, CheckedMove table_move,
                               const OrderingContext& ctx, int threshold) {
  const Move tt = table_move.move();
  const bool tt_ok = tt && pos.is_noisy(tt) && pos.see_ge(tt, threshold);
  MovePicker mp(pos, tt_ok ? tt : Move::none(), ctx,
                tt_ok ? PickStage::ProbCutTableMove : PickStage::ProbCutInit);
  mp.threshold_ = threshold;
  return mp;
}

MovePicker MovePicker::quiescence(const Position& pos, CheckedMove table_move,
                                  const OrderingContext& ctx) {
  // Outside check quiescence searches noisy moves only, so a quiet table move is ignored.
  const Move tt = table_move.move();
  const bool tt_ok = tt && (pos.in_check() || pos.is_noisy(tt));
  return MovePicker(pos, tt_ok ? tt : Move::none(), ctx,
                    tt_ok ? PickStage::QsTableMove : PickStage::QsCaptureInit);
}

bool MovePicker::is_refutation(Move m) const {
  return m == killers_[0] || m == killers_[1] || m == counter_;
}

// A killer or counter move is tried before generation, so it must be checked here: it must be
// legal in this position, quiet (noisy moves have their own stages) and not the table move.
bool MovePicker::usable_refutation(Move m) const {
  return m && m != table_move_ && !pos_.is_noisy(m) && pos_.pseudo_legal(m) && pos_.legal(m);
}

template <GenType T>
void MovePicker::load(int first) {
  std::array<Move, kMaxMoves> generated;
  const int n = int(generate<T>(pos_, generated.data()) - generated.data());
  for (int i = 0; i < n; ++i) moves_[first + i] = {generated[i].raw(), 0};
  cur_ = first;
  end_ = first + n;
}

void MovePicker::score_captures() {
  for (int i = cur_; i < end_; ++i) {
    const Move m = moves_[i].move();
    const Piece moved = pos_.moved_piece(m);
    const Piece captured = pos_.captured_piece(m);
    int victim = captured.is_none() ? 0 : kSeeValue[captured.type()];
    if (m.kind() == MoveKind::Promotion) victim += kSeeValue[QUEEN];
    const int hist = ctx_.histories->capture_cell(moved, m.to(), captured);
    // Most valuable victim first, but a capture's history here may move it past a richer
    // victim or behind a poorer one: at its limit it is worth about five pawns of victim
    // (history at half weight against 16 per centipawn). Measured at fixed nodes: history / 64,
    // a tie-break only, 26 Elo weaker than / 4; / 8 no stronger than / 64; / 2 stronger than / 4.
    moves_[i].score = 16 * victim - int(moved.type()) + hist * tune::OrderCaptureHistoryPct / 100;
  }
}

QuietThreats::QuietThreats(const Position& pos) {
  const Color them = ~pos.side_to_move();
  const Bitboard occupied = pos.pieces();
  by_pawn = pawn_attacks_bb(them, pos.pieces(them, PAWN));
  Bitboard minor = by_pawn;
  for (Bitboard b = pos.pieces(them, KNIGHT); b;) minor |= knight_attacks(pop_lsb(b));
  for (Bitboard b = pos.pieces(them, BISHOP); b;) minor |= bishop_attacks(pop_lsb(b), occupied);
  by_minor = minor;
  Bitboard rook = minor;
  for (Bitboard b = pos.pieces(them, ROOK); b;) rook |= rook_attacks(pop_lsb(b), occupied);
  by_rook = rook;
  Bitboard any = rook | king_attacks(pos.king_square(them));
  for (Bitboard b = pos.pieces(them, QUEEN); b;) any |= queen_attacks(pop_lsb(b), occupied);
  by_any = any;
}

int QuietThreats::score(PieceType moved, Square from, Square to) const {
  // The attacks of cheaper enemy pieces, which win material whatever defends the square.
  Bitboard danger = 0;
  int value = 0;
  switch (moved) {
    case QUEEN:
      danger = by_rook;
      value = kQueenEscape;
      break;
    case ROOK:
      danger = by_minor;
      value = kRookEscape;
      break;
    case KNIGHT:
    case BISHOP:
      danger = by_pawn;
      value = kMinorEscape;
      break;
    default:
      return 0;
  }
  const bool from_attacked = (danger & from.bb()) != 0;
  const bool to_attacked = (danger & to.bb()) != 0;
  return to_attacked ? -value : from_attacked ? value : 0;
}

void MovePicker::score_quiets() {
  const Histories& h = *ctx_.histories;
  const Color us = pos_.side_to_move();
  const QuietThreats own = ctx_.threats ? QuietThreats{} : QuietThreats(pos_);
  const QuietThreats& threats = ctx_.threats ? *ctx_.threats : own;
  for (int i = cur_; i < end_; ++i) {
    const Move m = moves_[i].move();
    const Piece moved = pos_.moved_piece(m);
    const int pc = moved.index();
    const int to = m.to().index();
    // The butterfly table at half weight against the continuation tables: measured +9.7 Elo
    // over full weight, and counting it twice lost 32 (docs/measurements.md).
    moves_[i].score = h.quiet(us, m, threats.by_any) * tune::OrderButterflyPct / 100 +
                      (*ctx_.continuation[0])[pc][to] + (*ctx_.continuation[1])[pc][to] +
                      (*ctx_.continuation[2])[pc][to] * tune::OrderContinuation4Pct / 100 +
                      threats.score(moved.type(), m.from(), m.to());
  }
  sort_descending(cur_, end_);
}

// Nearly every node that scores its quiet moves looks at several of them, so all are sorted at
// once. By rank: a move's place is the number of moves that go before it, a higher score first
// and, among equal scores, the one generated first (the order of a stable sort). The counting
// has no branch, so the compiler vectorises it; an insertion sort here mispredicted about once
// a move and took half of the time of scoring and sorting.
void MovePicker::sort_descending(int begin, int end) {
  // Distinct 32-bit keys: the score, offset to be non-negative, above the inverted index.
  constexpr int kIndexBits = 8;
  constexpr int kScoreOffset = 1 << (31 - kIndexBits);
  static_assert(kMaxMoves <= 1 << kIndexBits);
  // The largest quiet score: two continuation tables at full weight, two tables at their
  // tunables' largest weights, and the threat term.
  constexpr int kQuietScoreBound =
      kHistoryLimit * (200 + tune::max::OrderButterflyPct + tune::max::OrderContinuation4Pct) /
          100 +
      QuietThreats::kQueenEscape;
  static_assert(kQuietScoreBound < kScoreOffset, "every quiet score fits its key");
  const int n = end - begin;
  std::array<std::uint32_t, kMaxMoves> keys;
  for (int i = 0; i < n; ++i)
    keys[i] = std::uint32_t(moves_[begin + i].score + kScoreOffset) << kIndexBits |
              std::uint32_t(kMaxMoves - 1 - i);
  // Row by row, so that the inner loop adds whole vectors of comparisons to the places.
  std::array<std::uint32_t, kMaxMoves> place;
  std::fill_n(place.begin(), n, 0u);
  for (int j = 0; j < n; ++j) {
    const std::uint32_t key = keys[j];
    for (int i = 0; i < n; ++i) place[i] += std::uint32_t(key > keys[i]);
  }
  std::array<ScoredMove, kMaxMoves> sorted;
  for (int i = 0; i < n; ++i) sorted[place[i]] = moves_[begin + i];
  std::copy_n(sorted.begin(), n, moves_.begin() + begin);
}

MovePicker::ScoredMove MovePicker::pick_best() {
  int best = cur_;
  for (int i = cur_ + 1; i < end_; ++i)
    if (moves_[i].score > moves_[best].score) best = i;
  std::swap(moves_[cur_], moves_[best]);
  return moves_[cur_++];
}

// A quiet move (legal here) is wanted unless quiets are being skipped and it gives no check.
bool MovePicker::quiet_wanted(Move m, bool skip_quiets) const {
  if (!skip_quiets) return true;
  return ctx_.check_info ? pos_.gives_check(m, *ctx_.check_info) : pos_.gives_check(m);
}

Move MovePicker::next(bool skip_quiets) {
  while (true) {
    switch (stage_) {
      case PickStage::TableMove:
        stage_ = PickStage::CaptureInit;
        return table_move_;

      case PickStage::CaptureInit: {
        bad_end_ = bad_cur_ = 0;
        load<GenType::Noisy>(0);
        score_captures();
        stage_ = PickStage::GoodCaptures;
        break;
      }

      case PickStage::GoodCaptures:
        while (cur_ < end_) {
          const ScoredMove sm = pick_best();
          if (sm.move() == table_move_) continue;
          if (pos_.see_ge(sm.move(), 0)) return sm.move();
          moves_[bad_end_++] = sm;  // cur_ > bad_end_, so this slot is already consumed
        }
        stage_ = PickStage::Killer1;
        break;

      case PickStage::Killer1:
        stage_ = PickStage::Killer2;
        if (usable_refutation(killers_[0]) && quiet_wanted(killers_[0], skip_quiets))
          return killers_[0];
        break;

      case PickStage::Killer2:
        stage_ = PickStage::Counter;
        if (killers_[1] != killers_[0] && usable_refutation(killers_[1]) &&
            quiet_wanted(killers_[1], skip_quiets))
          return killers_[1];
        break;

      case PickStage::Counter:
        stage_ = PickStage::QuietInit;
        if (counter_ != killers_[0] && counter_ != killers_[1] && usable_refutation(counter_) &&
            quiet_wanted(counter_, skip_quiets))
          return counter_;
        break;

      case PickStage::QuietInit: {
        stage_ = PickStage::Quiets;
        load<GenType::Quiet>(bad_end_);
        if (!skip_quiets) score_quiets();  // skipping, only the checks among them are wanted
        break;
      }

      case PickStage::Quiets:
        while (cur_ < end_) {
          const Move m = moves_[cur_++].move();
          if (m == table_move_ || is_refutation(m) || !quiet_wanted(m, skip_quiets)) continue;
          return m;
        }
        stage_ = PickStage::BadCaptures;
        break;

      case PickStage::BadCaptures:
        while (bad_cur_ < bad_end_) {
          const Move m = moves_[bad_cur_++].move();
          if (m != table_move_) return m;
        }
        stage_ = PickStage::Done;
        break;

      case PickStage::ProbCutTableMove:
        stage_ = PickStage::ProbCutInit;
        return table_move_;

      case PickStage::ProbCutInit: {
        load<GenType::Noisy>(0);
        score_captures();
        stage_ = PickStage::ProbCutCaptures;
        break;
      }

      case PickStage::ProbCutCaptures:
        while (cur_ < end_) {
          const ScoredMove sm = pick_best();
          if (sm.move() != table_move_ && pos_.see_ge(sm.move(), threshold_)) return sm.move();
        }
        stage_ = PickStage::Done;
        break;

      case PickStage::QsTableMove:
        stage_ = PickStage::QsCaptureInit;
        return table_move_;

      case PickStage::QsCaptureInit: {
        load<GenType::Noisy>(0);
        score_captures();
        stage_ = PickStage::QsCaptures;
        break;
      }

      case PickStage::QsCaptures:
        while (cur_ < end_) {
          const ScoredMove sm = pick_best();
          if (sm.move() != table_move_) return sm.move();
        }
        stage_ = pos_.in_check() ? PickStage::QsQuietInit : PickStage::Done;
        break;

      case PickStage::QsQuietInit: {
        load<GenType::Quiet>(0);
        score_quiets();
        stage_ = PickStage::QsQuiets;
        break;
      }

      case PickStage::QsQuiets:
        while (cur_ < end_) {
          const Move m = moves_[cur_++].move();
          if (m != table_move_) return m;
        }
        stage_ = PickStage::Done;
        break;

      case PickStage::Done:
        return Move::none();
    }
  }
}

}  // namespace tessera::search
