#include "search/search.h"

#include <algorithm>
#include <climits>
#include <cmath>

#include "core/movegen.h"
#include "eval/evaluate.h"
#include "eval/material_scale.h"
#include "eval/nnue/move_delta.h"
#include "search/movepick.h"
#include "search/tunables.h"

namespace tessera::search {

namespace {
// Drafts stored by the quiescence search: below every main-search draft, so that a main-search
// probe never takes a quiescence result for a real search.
constexpr int kDepthQsCheck = 0;
constexpr int kDepthQs = -1;
// A singular move whose alternatives fail DoubleExtMargin below the singular bound is extended
// by two plies, at most this many times on one line.
constexpr int kMaxDoubleExtensions = 6;
// The static evaluation is scaled by (base - fifty-move counter) / base.
constexpr int kFiftyMoveScaleBase = 200;
}  // namespace

// The score of a tablebase result `ply` plies below the root. Under the fifty-move rule a
// cursed win is a draw, but one the opponent may still spoil: a point above the draw keeps it
// preferred to a dead draw. Without the rule it is a win like any other.
int tablebase_score(Wdl wdl, int ply, bool fifty_move_rule) {
  switch (wdl) {
    case Wdl::Win:
      return tb_win_in(ply);
    case Wdl::Loss:
      return tb_loss_in(ply);
    case Wdl::CursedWin:
      return fifty_move_rule ? kDraw + 1 : tb_win_in(ply);
    case Wdl::BlessedLoss:
      return fifty_move_rule ? kDraw - 1 : tb_loss_in(ply);
    case Wdl::Draw:
      break;
  }
  return kDraw;
}

// Main thread only: stops the search when a node or hard time limit is reached. The clock is
// read every 1024 nodes; a node limit is checked at every node, so that a single thread stops
// exactly at it (`go nodes N` searches N nodes; helper threads may add a few).
void Worker::check_limits() {
  const SearchLimits& limits = shared_.limits;
  if (limits.nodes && shared_.total_nodes() >= limits.nodes) {
    shared_.stop.store(true, std::memory_order_relaxed);
    return;
  }
  if (--limit_check_countdown_ > 0) return;
  limit_check_countdown_ = 1024;
  // Until depth 1 is complete there is no searched move to play: a depth-1 search is cheap.
  if (completed_depth_ < 1 || !shared_.time.enabled() ||
      shared_.pondering.load(std::memory_order_relaxed))
    return;
  if (shared_.budget_elapsed_ms() >= shared_.time.maximum_ms())
    shared_.stop.store(true, std::memory_order_relaxed);
}

HistoryCell<kHistoryLimit>& Worker::capture_history(Move m) {
  return histories_->capture_cell(pos_->moved_piece(m), m.to(), pos_->captured_piece(m));
}

int Worker::reduction(bool improving, int depth, int move_count) const {
  const int r = reductions_[std::min(depth, 63)][std::min(move_count, 63)];
  return r + (!improving && r > 1);
}

namespace {

// The search's make-move observer: fetches the child's table cluster as soon as its exact key
// is known, so the memory access overlaps the board update and the child's first steps, and
// gathers the pieces that change for the network's accumulator.
struct SearchObserver : eval::nnue::MoveDelta {
  const TranspositionTable& tt;
  explicit SearchObserver(const TranspositionTable& table) : tt(table) {}
  void key_known(Key key) const { tt.prefetch(key); }
};

}  // namespace

void Worker::make_move(Move m, StackEntry* ss) {
  Position& pos = *pos_;
  const Piece moved = pos.moved_piece(m);
  ss->current_move = m;
  ss->moved_piece = moved;
  ss->continuation = &histories_->continuation[moved.index()][m.to().index()];
  SearchObserver observer(*shared_.tt);
  pos.make_move(m, observer);
  if (const eval::nnue::Network* net = shared_.config.network)
    observer.apply(*net, pos, (*accumulators_)[ss->ply], (*accumulators_)[ss->ply + 1],
                   *accumulator_cache_);
}

void Worker::unmake_move(Move m) { pos_->unmake_move(m); }

void Worker::make_null_move(StackEntry* ss) {
  ss->current_move = Move::null();
  ss->moved_piece = Piece::none();
  ss->continuation = &histories_->sentinel;
  pos_->make_null_move();
  shared_.tt->prefetch(pos_->key());
  if (shared_.config.network) (*accumulators_)[ss->ply + 1] = (*accumulators_)[ss->ply];
}

CorrectionKeys Worker::correction_keys(const StackEntry* ss) const {
  const Move prev = (ss - 1)->current_move;
  return {pos_->pawn_key(),
          pos_->material_key(),
          prev.is_ok() ? (ss - 1)->moved_piece.index() * 64 + prev.to().index() : -1,
          {pos_->non_pawn_key(WHITE), pos_->non_pawn_key(BLACK)}};
}

bool Worker::previous_move_quiet(const StackEntry* ss) const {
  const Move prev = (ss - 1)->current_move;
  return prev.is_ok() && prev.kind() == MoveKind::Normal && pos_->state().captured.is_none();
}

int Worker::evaluator_verdict(int ply) {
  if (!shared_.config.network) return eval::evaluate(*pos_, *eval_cache_);
  const int network_score =
      eval::nnue::evaluate(*shared_.config.network, (*accumulators_)[ply], pos_->side_to_move());
  return eval::with_endgame_knowledge(
      *pos_, *eval_cache_, eval::scaled_by_material(*pos_, network_score, tune::EvalMaterialBase));
}

int Worker::fifty_move_scaled(int verdict) const {
  // An advantage that has made no capture or pawn move for long is drifting towards the
  // fifty-move draw: shrink it, so the search prefers lines that make progress.
  return verdict * (kFiftyMoveScaleBase - pos_->rule50()) / kFiftyMoveScaleBase;
}

int Worker::cached_verdict(const TTProbe& tt, int ply) {
  return tt.hit && tt.data.eval != kNone ? tt.data.eval : evaluator_verdict(ply);
}

void Worker::unmake_null_move() { pos_->unmake_null_move(); }

void Worker::update_pv(int ply, Move m) {
  auto& table = *pv_;
  table[ply][ply] = m;
  const int child_len = pv_length_[ply + 1];
  for (int i = ply + 1; i < child_len; ++i) table[ply][i] = table[ply + 1][i];
  pv_length_[ply] = std::max(child_len, ply + 1);
}

RootMove* Worker::find_root_move(Move m) {
  for (auto& rm : root_moves_)
    if (rm.move == m) return &rm;
  return nullptr;
}

bool Worker::root_move_searchable(Move m) const {
  for (std::size_t i = pv_idx_; i < root_moves_.size(); ++i)
    if (root_moves_[i].move == m) return true;
  return false;
}

void Worker::update_continuation(StackEntry* ss, Piece pc, Square to, int bonus) {
  update_continuations(*histories_,
                       {(ss - 1)->continuation, (ss - 2)->continuation, (ss - 4)->continuation}, pc,
                       to, bonus);
}

void Worker::update_quiet_stats(StackEntry* ss, Move m, int bonus) {
  const Position& pos = *pos_;
  const Piece pc = pos.moved_piece(m);
  histories_->quiet(pos.side_to_move(), m, ss->threatened).update(bonus);
  update_continuation(ss, pc, m.to(), bonus);
}

template <Worker::NodeType NT>
int Worker::search(int alpha, int beta, int depth, bool cut_node, StackEntry* ss) {
  constexpr bool pv_node = NT != NodeType::NonPV;
  constexpr bool root = NT == NodeType::Root;
  Position& pos = *pos_;

  // Step 1. At the horizon, resolve captures in the quiescence search
  constexpr NodeType kQsType = pv_node ? NodeType::PV : NodeType::NonPV;
  if (depth <= 0) return qsearch<kQsType>(alpha, beta, ss);
  depth = std::min(depth, kMaxPly - 1);

  // Step 2. Initialise the node
  const int ply = ss->ply;
  pv_length_[ply] = ply;
  // A stopped search counts no more nodes (`go nodes N` reports at most N).
  if (!root && shared_.stop.load(std::memory_order_relaxed)) return 0;
  count_node();
  if (is_main()) check_limits();
  seldepth_ = std::max(seldepth_, ply + 1);
  const bool in_check = pos.in_check();
  ss->in_check = in_check;
  ss->move_count = 0;
  (ss + 1)->excluded_move = Move::none();
  (ss + 2)->killers = {};
  (ss + 1)->cutoff_count = 0;
  const Move excluded = ss->excluded_move;
  const Color us = pos.side_to_move();

  if constexpr (!root) {
    // Step 3. Aborted search, draws and the maximum ply
    if (shared_.stop.load(std::memory_order_relaxed)) return 0;
    if (pos.is_draw(ply)) return kDraw;
    if (ply >= kMaxPly - 1) return in_check ? kDraw : static_evaluation(ply);

    // Step 4. Mate distance pruning: no line from here can beat a mate already found closer
    // to the root.
    alpha = std::max(mated_in(ply), alpha);
    beta = std::min(mate_in(ply + 1), beta);
    if (alpha >= beta) return alpha;
  }
  // Step 5. Transposition table lookup
  // The singular verification search (an excluded move) probes too: its table move keeps
  // internal iterative reduction away, though it neither cuts off on the entry nor stores one.
  const Key key = pos.key();
  const TTProbe tt = shared_.tt->probe(key);
  const int tt_score = tt.hit ? score_from_tt(tt.data.score, ply, pos.rule50()) : int(kNone);
  // A table move may belong to another position with the same 16-bit check: verify it (once:
  // the pickers below take it verified).
  const Move stored = root ? root_moves_[pv_idx_].move : tt.hit ? tt.data.move : Move::none();
  const CheckedMove checked_tt_move = CheckedMove::verify(pos, stored);
  const Move tt_move = checked_tt_move.move();
  const bool tt_capture = tt_move && pos.is_noisy(tt_move);
  // On a principal variation now or once (the singular verification keeps its node's mark).
  if (!excluded) ss->tt_pv = pv_node || (tt.hit && tt.data.pv);

  if (!pv_node && !excluded && tt.hit && tt.data.depth >= depth && tt_score != kNone &&
      (int(tt.data.bound) & int(tt_score >= beta ? Bound::Lower : Bound::Upper)) &&
      pos.rule50() < 90) {  // near the fifty-move draw a stored score may be stale
    if (tt_score >= beta) {
      // A quiet table move that cuts off again keeps its history as fresh as a searched one.
      if (tt_move && !tt_capture) {
        ss->threatened = QuietThreats(pos).by_any;  // picks its butterfly table (see Step 13)
        update_quiet_stats(ss, tt_move, history_bonus(depth));
      }
      // The opponent's quiet move, tried early in its list, is refuted at once: a move the
      // ordering thought good is not.
      if ((ss - 1)->move_count <= 2 && previous_move_quiet(ss))
        update_continuation(ss - 1, (ss - 1)->moved_piece, (ss - 1)->current_move.to(),
                            -history_bonus(depth + 1));
    }
    return tt_score;
  }

  // Step 6. Tablebase probe: with few pieces, right after a capture or pawn move (where Fathom
  // answers), the tables know the result. A draw is exact; a win is a lower bound and a loss
  // an upper bound (a mate may be found, or suffered, sooner), so they cut off only beyond the
  // window. In a PV node a bound that does not cut still narrows the result.
  int tb_min = -kInfinite;
  int tb_max = kInfinite;
  if (!root && !excluded && tb_cardinality_ > 0 && pos.rule50() == 0) {
    const int pieces = popcount(pos.pieces());
    if (pieces <= tb_cardinality_ &&
        (pieces < tb_cardinality_ || depth >= shared_.config.tb_probe_depth)) {
      if (const std::optional<Wdl> wdl = shared_.config.tablebases->probe_wdl(pos)) {
        count_tbhits(1);
        const int v = tablebase_score(*wdl, ply, shared_.config.tb_50_move_rule);
        const Bound b = v >= kTbWinInMaxPly    ? Bound::Lower
                        : v <= kTbLossInMaxPly ? Bound::Upper
                                               : Bound::Exact;
        if (b == Bound::Exact || (b == Bound::Lower ? v >= beta : v <= alpha)) {
          tt.writer.write(key, score_to_tt(v, ply), std::min(depth + 6, kMaxPly - 1), b,
                          Move::none(), kNone, ss->tt_pv);
          return v;
        }
        if (pv_node) {
          if (b == Bound::Lower) {
            tb_min = v;
            alpha = std::max(alpha, v);
          } else {
            tb_max = v;
          }
        }
      }
    }
  }

  // Step 7. Static evaluation (the table's, when it has one), refined by the table score when
  // its bound allows
  int eval = kNone;
  int verdict = kNone;  // the evaluator's, as the table keeps it
  int raw_eval = kNone;
  // Out of check: where this node's corrections are read now and learnt at the end (Step 23).
  CorrectionKeys corrections{};
  bool improving = false;
  if (in_check) {
    ss->static_eval = kNone;
  } else if (excluded) {
    // The singular verification of this very node: its evaluation is known, and the table
    // score belongs to the excluded move, so it does not refine it.
    eval = ss->static_eval;
  } else {
    verdict = cached_verdict(tt, ply);
    if (!tt.hit) tt.writer.write_eval(key, verdict, ss->tt_pv);
    raw_eval = fifty_move_scaled(verdict);
    corrections = correction_keys(ss);
    ss->static_eval = eval = corrected_eval(*histories_, us, corrections, raw_eval);
    if (tt.hit && tt_score != kNone &&
        (int(tt.data.bound) & int(tt_score > eval ? Bound::Lower : Bound::Upper)))
      eval = tt_score;
    // A quiet move that left the opponent worse off than before it was a good move: teach the
    // history so at once (both evaluations are from their own side's view).
    const Move prev = (ss - 1)->current_move;
    if (previous_move_quiet(ss) && (ss - 1)->static_eval != kNone) {
      const int bonus = std::clamp(-10 * ((ss - 1)->static_eval + ss->static_eval), -1000, 1000);
      histories_->quiet(~us, prev, (ss - 1)->threatened).update(bonus);
    }
  }
  if (!in_check) {
    if ((ss - 2)->static_eval != kNone)
      improving = ss->static_eval > (ss - 2)->static_eval;
    else if ((ss - 4)->static_eval != kNone)
      improving = ss->static_eval > (ss - 4)->static_eval;
    else
      improving = true;
  }

  // Razoring and reverse futility also serve the singular verification search; the pruning
  // that searches other moves or passes (null move, ProbCut) does not.
  const bool can_prune_eval = !pv_node && !in_check;
  const bool can_prune_node = can_prune_eval && !excluded;

  // Step 8. Razoring: far below alpha at low depth, only captures could save the node
  if (can_prune_eval && depth <= 3 && eval + tune::RazorMargin * depth < alpha) {
    const int v = qsearch<NodeType::NonPV>(alpha, alpha + 1, ss);
    if (v <= alpha) return v;
  }

  // Step 9. Reverse futility pruning: so far above beta that a quiet move will not fall back
  if (can_prune_eval && depth <= tune::RfpMaxDepth && !is_win(eval) && !is_loss(beta) &&
      eval - (improving ? tune::RfpMarginImproving : tune::RfpMargin) * depth >= beta)
    return (eval + beta) / 2;

  // Step 10. Null-move pruning: if passing still fails high, a real move will too. Skipped
  // with only king and pawns, where zugzwang is common, and verified at high depth.
  if (can_prune_node && (ss - 1)->current_move != Move::null() && eval >= beta &&
      ss->static_eval >= beta && depth >= 3 && ply >= nmp_min_ply_ &&
      pos.has_non_pawn_material(us) && !is_loss(beta)) {
    const int r = tune::NmpBase + depth / tune::NmpDepthDivisor +
                  std::min((eval - beta) / tune::NmpEvalDivisor, 3);
    make_null_move(ss);
    const int v = -search<NodeType::NonPV>(-beta, -beta + 1, depth - r, !cut_node, ss + 1);
    unmake_null_move();
    if (shared_.stop.load(std::memory_order_relaxed)) return 0;
    if (v >= beta && !is_win(v)) {  // a pass proves no mate and no tablebase win
      if (depth < tune::NmpVerifyDepth || nmp_min_ply_ != 0) return v;
      // Verification: search again without null moves for the next plies.
      nmp_min_ply_ = ply + 3 * (depth - r) / 4;
      const int w = search<NodeType::NonPV>(beta - 1, beta, depth - r, false, ss);
      nmp_min_ply_ = 0;
      if (w >= beta) return v;
    }
  }

  // Step 11. ProbCut: a capture that beats beta by a margin in a shallow search will very
  // likely beat beta in the full one too.
  const int probcut_beta = beta + tune::ProbcutMargin - tune::ProbcutImproving * improving;
  if (can_prune_node && depth >= tune::ProbcutMinDepth && !is_decisive(beta) &&
      !(tt.hit && tt.data.depth >= depth - 3 && tt_score != kNone && tt_score < probcut_beta)) {
    OrderingContext pc_ctx;
    pc_ctx.histories = histories_.get();
    pc_ctx.continuation = {(ss - 1)->continuation, (ss - 2)->continuation, (ss - 4)->continuation};
    MovePicker pc =
        MovePicker::probcut(pos, checked_tt_move, pc_ctx, probcut_beta - ss->static_eval);
    while (const Move m = pc.next()) {
      make_move(m, ss);
      // A quick capture search first; only if it holds, the reduced full search.
      int v = -qsearch<NodeType::NonPV>(-probcut_beta, -probcut_beta + 1, ss + 1);
      if (v >= probcut_beta)
        v = -search<NodeType::NonPV>(-probcut_beta, -probcut_beta + 1, depth - 4, !cut_node,
                                     ss + 1);
      unmake_move(m);
      if (shared_.stop.load(std::memory_order_relaxed)) return 0;
      if (v >= probcut_beta) {
        tt.writer.write(key, score_to_tt(v, ply), depth - 3, Bound::Lower, m, verdict, ss->tt_pv);
        return v;
      }
    }
  }

  // Step 12. Internal iterative reduction: without a table move this node was never searched
  // well; search it shallower now, the next iteration will find it in the table.
  if ((pv_node || cut_node) && !root && depth >= tune::IirMinDepth && !tt_move) depth -= 1;

  // Step 13. The move loop
  // The opponent's attacks choose the butterfly table of this node's quiet moves, for the
  // picker, for the pruning below and for the children's updates of the move that led there.
  // Found only here, past every early return: no child before this point reads them (null
  // moves and ProbCut's noisy moves are not quiet, and quiescence keeps no history).
  const QuietThreats threats(pos);
  ss->threatened = threats.by_any;
  const Move prev_move = (ss - 1)->current_move;
  const Move counter =
      prev_move.is_ok() ? histories_->counter[(ss - 1)->moved_piece.index()][prev_move.to().index()]
                        : Move::none();
  const CheckInfo check_info = pos.check_info();
  OrderingContext ctx;
  ctx.histories = histories_.get();
  ctx.continuation = {(ss - 1)->continuation, (ss - 2)->continuation, (ss - 4)->continuation};
  ctx.threats = &threats;
  ctx.check_info = &check_info;
  MovePicker picker = MovePicker::main_search(pos, checked_tt_move, ctx, ss->killers, counter);

  std::array<Move, 64> quiets_tried;
  std::array<Move, 32> captures_tried;
  int quiet_count = 0;
  int capture_count = 0;
  int move_count = 0;
  int best_score = -kInfinite;
  Move best_move = Move::none();
  bool skip_quiets = false;

  while (const Move m = picker.next(skip_quiets)) {
    if (m == excluded) continue;
    if (root && !root_move_searchable(m)) continue;
    ss->move_count = ++move_count;
    if constexpr (root) report_current_move(m, move_count + int(pv_idx_));

    const bool capture = pos.is_noisy(m);
    const bool gives_check = pos.gives_check(m, check_info);
    const Piece moved = pos.moved_piece(m);
    const int to = m.to().index();
    int new_depth = depth - 1;
    const int history = capture ? int(capture_history(m))
                                : histories_->quiet(us, m, ss->threatened) +
                                      (*ctx.continuation[0])[moved.index()][to] +
                                      (*ctx.continuation[1])[moved.index()][to];

    // Step 14. Pruning at shallow depth, once a line that avoids being mated exists
    if (!root && !is_loss(best_score) && pos.has_non_pawn_material(us)) {
      const int lmr_depth = std::max(new_depth - reduction(improving, depth, move_count), 0);
      // Late-move pruning: after enough moves the remaining quiet ones are not worth trying,
      // except checks, which may be the start of a mating attack.
      if (!capture && !gives_check &&
          move_count >= (tune::LmpBase + depth * depth) / (2 - improving)) {
        skip_quiets = depth <= 2;  // at the lowest depths skip their generation too
        continue;
      }
      if (capture || gives_check) {
        // Futility pruning of captures: even winning this piece leaves the node below alpha.
        if (capture && !gives_check && !in_check && lmr_depth < 7 &&
            m.kind() != MoveKind::Promotion) {
          const Piece victim = pos.captured_piece(m);
          if (ss->static_eval + tune::FutCaptureBase + tune::FutCapturePerDepth * lmr_depth +
                  (victim.is_none() ? 0 : eval::piece_value(victim.type())) <=
              alpha)
            continue;
        }
        // SEE pruning of captures and checks that lose too much material; a capture that has
        // often paid off here (its history) may lose a little more before it is dropped.
        const int see_margin = tune::SeeCaptureMargin * depth;
        const int see_history =
            capture ? std::clamp(history / tune::SeeCaptureHistoryDivisor, -see_margin, see_margin)
                    : 0;
        if (depth <= 8 && !pos.see_ge(m, -see_margin - see_history)) continue;
      } else {
        // Quiet moves with a bad history record at low depth.
        if (lmr_depth < 4 && history < -tune::HistoryPruneMargin * depth) continue;
        // Futility pruning: even a good quiet move will not lift the score to alpha.
        if (!in_check && lmr_depth < 9 &&
            ss->static_eval + tune::FutQuietBase + tune::FutQuietPerDepth * lmr_depth <= alpha)
          continue;
        // SEE pruning of quiets that hang material.
        if (!pos.see_ge(m, -tune::SeeQuietMargin * lmr_depth * lmr_depth)) continue;
      }
    }

    // Step 15. Extensions
    int extension = 0;
    if (!root && ply < 2 * root_depth_) {
      // Singular extension: when the table move is much better than every alternative, it
      // deserves a deeper look; when several moves beat beta, the node is cut off at once;
      // when others come close and the table move is expected to fail high anyway, it gets
      // less: two plies where its table score already beats beta, one in a cut node.
      if (m == tt_move && !excluded && depth >= tune::SingularMinDepth && tt.hit &&
          (int(tt.data.bound) & int(Bound::Lower)) && tt.data.depth >= depth - 3 &&
          !is_decisive(tt_score)) {
        // A node once on a principal variation is worth more care: its move must stand out
        // further before it is called singular.
        const int margin_x10 =
            tune::SingularMarginX10 + tune::SingularTtPvX10 * int(ss->tt_pv && !pv_node);
        const int singular_beta = tt_score - margin_x10 * depth / 10;
        ss->excluded_move = m;
        const int v = search<NodeType::NonPV>(singular_beta - 1, singular_beta, (depth - 1) / 2,
                                              cut_node, ss);
        ss->excluded_move = Move::none();
        ss->move_count = move_count;
        if (shared_.stop.load(std::memory_order_relaxed)) return 0;
        if (v < singular_beta) {
          // Far below: the only move here. A second ply, a bounded number of times per line,
          // so that the tree cannot explode.
          extension = !pv_node && v < singular_beta - tune::DoubleExtMargin &&
                              (ss - 1)->double_extensions < kMaxDoubleExtensions
                          ? 2
                          : 1;
        } else if (singular_beta >= beta)
          return singular_beta;
        else if (tt_score >= beta)
          extension = -2;
        else if (cut_node)
          extension = -1;
      }
      // Check extension: forcing lines are cheap to search and often decisive. A table move
      // that the singular test left as it was is a check like any other.
      if (extension == 0 && gives_check && pos.see_ge(m, 0)) extension = 1;
    }
    new_depth += extension;
    ss->double_extensions = (ss - 1)->double_extensions + int(extension == 2);

    // Step 16. Make the move (fetching the child's table cluster first)
    const bool bad_capture = capture && picker.stage() == PickStage::BadCaptures;
    const std::uint64_t nodes_before = root ? nodes() : 0;
    make_move(m, ss);

    // Step 17. Late move reductions, then principal variation search
    int score = -kInfinite;
    if (depth >= 2 && move_count > 1 + int(root)) {
      int r = reduction(improving, depth, move_count);
      // A capture that wins material is reduced a ply less than a quiet move, and by its
      // history: late in the list, a capture that rarely pays off here is cheap to look at
      // shallower, one that often does keeps its depth.
      if (capture && !bad_capture) r -= 1;
      if (capture) r -= std::clamp(history / tune::LmrCaptureHistoryDivisor, -2, 2);
      if (ss->tt_pv) r -= 1;  // a principal variation, now or once
      if (cut_node) r += 1;
      // Most replies so far refuted their move: this looks like a node where all fail low.
      if ((ss + 1)->cutoff_count > 3) r += 1;
      if (tt_capture && !capture) r += 1;
      if (gives_check) r -= 1;
      if (m == ss->killers[0] || m == ss->killers[1] || m == counter) r -= 1;
      if (!capture) r -= std::clamp(history / tune::LmrHistoryDivisor, -2, 2);
      const int d = std::clamp(new_depth - r, 1, new_depth);
      score = -search<NodeType::NonPV>(-alpha - 1, -alpha, d, true, ss + 1);
      if (score > alpha && d < new_depth) {
        // The reduced search beat alpha: how clearly decides the depth of the full one. Far
        // above the best so far, it earns a ply more; barely above, a ply less suffices.
        new_depth += int(score > best_score + tune::LmrDeeperMargin + 2 * new_depth) -
                     int(score < best_score + tune::LmrShallowerMargin);
        if (d < new_depth)
          score = -search<NodeType::NonPV>(-alpha - 1, -alpha, new_depth, !cut_node, ss + 1);
      }
    } else if (!pv_node || move_count > 1) {
      score = -search<NodeType::NonPV>(-alpha - 1, -alpha, new_depth, !cut_node, ss + 1);
    }
    if (pv_node && (move_count == 1 || (score > alpha && (root || score < beta))))
      score = -search<NodeType::PV>(-beta, -alpha, new_depth, false, ss + 1);

    unmake_move(m);

    // Step 18. A stopped search returns garbage: discard it before it reaches any table
    if (shared_.stop.load(std::memory_order_relaxed)) return 0;

    if constexpr (root) {
      RootMove* rm = find_root_move(m);
      rm->nodes += nodes() - nodes_before;
      if (move_count == 1 || score > alpha) {
        rm->score = score;
        rm->display_score = score;
        rm->score_depth = root_depth_;
        rm->seldepth = seldepth_;
        rm->bound = score >= beta ? Bound::Lower : score <= alpha ? Bound::Upper : Bound::Exact;
        rm->pv.assign(1, m);
        for (int i = ply + 1; i < pv_length_[ply + 1]; ++i) rm->pv.push_back((*pv_)[ply + 1][i]);
        if (move_count > 1 && is_main() && pv_idx_ == 0) best_move_changes_ += 1;
      } else {
        rm->score = -kInfinite;  // only an upper bound: keeps its place behind proven moves
      }
    }

    // Step 19. Best move so far
    if (score > best_score) {
      best_score = score;
      if (score > alpha) {
        best_move = m;
        if (pv_node) update_pv(ply, m);
        if (score >= beta) {
          ss->cutoff_count += 1;
          break;
        }
        alpha = score;
        // A move that raised alpha in a PV node is likely the best: the ones after it only
        // have to be refuted, which a ply less does more cheaply.
        if (depth > 2 && depth < 12 && !is_decisive(score)) depth -= 1;
      }
    }
    if (m != best_move) {
      if (capture && capture_count < int(captures_tried.size()))
        captures_tried[capture_count++] = m;
      else if (!capture && quiet_count < int(quiets_tried.size()))
        quiets_tried[quiet_count++] = m;
    }
  }

  // Step 20. No move searched: checkmate or stalemate (or only the excluded move)
  if (move_count == 0) {
    best_score = excluded ? alpha : in_check ? mated_in(ply) : kDraw;
  } else if (!best_move) {
    // Every move failed low: the opponent's quiet move that led here was a good one.
    if (previous_move_quiet(ss)) {
      // More so when it was found late in its list, or when this node fell far short.
      const int weight = 1 + int(depth > 5) + int((ss - 1)->move_count > 10) +
                         int(!in_check && best_score < ss->static_eval - 100);
      const int bonus = history_bonus(depth) * weight / 2;
      histories_->quiet(~us, prev_move, (ss - 1)->threatened).update(bonus);
      update_continuation(ss - 1, (ss - 1)->moved_piece, prev_move.to(), bonus);
    }
  } else {
    // Step 21. Reward the move that proved best, punish those tried before it
    const int bonus = history_bonus(depth);
    if (!pos.is_noisy(best_move)) {
      if (ss->killers[0] != best_move) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = best_move;
      }
      if (prev_move.is_ok())
        histories_->counter[(ss - 1)->moved_piece.index()][prev_move.to().index()] = best_move;
      update_quiet_stats(ss, best_move, bonus);
      for (int i = 0; i < quiet_count; ++i) update_quiet_stats(ss, quiets_tried[i], -bonus);
    } else {
      capture_history(best_move).update(bonus);
    }
    for (int i = 0; i < capture_count; ++i) capture_history(captures_tried[i]).update(-bonus);
  }

  // Step 22. The tables' bounds on a PV node they did not cut off; a null-window fail-high
  // pulled towards beta
  best_score = std::clamp(best_score, tb_min, tb_max);
  if (!pv_node && best_score >= beta) best_score = damped_fail_high(best_score, beta, depth);

  const Bound bound = best_score >= beta       ? Bound::Lower
                      : (pv_node && best_move) ? Bound::Exact
                                               : Bound::Upper;

  // Step 23. Learn how wrong the static evaluation was, when the result says so reliably: not
  // in check, not decided by a capture, and not a bound on the wrong side of the evaluation.
  if (!in_check && !excluded && !is_decisive(best_score) &&
      !(best_move && pos.is_noisy(best_move)) &&
      !(bound == Bound::Lower && best_score <= ss->static_eval) &&
      !(bound == Bound::Upper && best_score >= ss->static_eval))
    update_correction(*histories_, us, corrections, best_score - raw_eval, depth);

  // Step 24. Store the result (not for a partial root search of a secondary MultiPV line)
  if (!excluded && !(root && pv_idx_ > 0))
    tt.writer.write(key, score_to_tt(best_score, ply), depth, bound, best_move, verdict, ss->tt_pv);
  return best_score;
}

template <Worker::NodeType NT>
int Worker::qsearch(int alpha, int beta, StackEntry* ss) {
  constexpr bool pv_node = NT == NodeType::PV;
  Position& pos = *pos_;

  // Step 1. Initialise the node
  const int ply = ss->ply;
  pv_length_[ply] = ply;
  if (shared_.stop.load(std::memory_order_relaxed)) return 0;
  count_node();
  if (is_main()) check_limits();
  seldepth_ = std::max(seldepth_, ply + 1);
  const bool in_check = pos.in_check();

  // Step 2. Aborted search, draws and the maximum ply
  if (shared_.stop.load(std::memory_order_relaxed)) return 0;
  if (pos.is_draw(ply)) return kDraw;
  if (ply >= kMaxPly - 1) return in_check ? kDraw : static_evaluation(ply);

  // Step 3. Transposition table lookup (any stored depth suffices here)
  const Key key = pos.key();
  const TTProbe tt = shared_.tt->probe(key);
  const int tt_score = tt.hit ? score_from_tt(tt.data.score, ply, pos.rule50()) : int(kNone);
  if (!pv_node && tt.hit && tt_score != kNone && tt.data.depth >= kDepthQs &&
      (int(tt.data.bound) & int(tt_score >= beta ? Bound::Lower : Bound::Upper)))
    return tt_score;

  // Step 4. Stand pat: outside check the side to move may decline every capture
  int best_score = -kInfinite;
  int futility_base = -kInfinite;
  const bool tt_pv = tt.hit && tt.data.pv;
  int verdict = kNone;
  if (!in_check) {
    verdict = cached_verdict(tt, ply);
    const int static_eval = corrected_eval(*histories_, pos.side_to_move(), correction_keys(ss),
                                           fifty_move_scaled(verdict));
    best_score = static_eval;
    // The table score is a better estimate, but in PV nodes standing pat on it would cut the
    // principal variation short.
    if (!pv_node && tt.hit && tt_score != kNone &&
        (int(tt.data.bound) & int(tt_score > static_eval ? Bound::Lower : Bound::Upper)))
      best_score = tt_score;
    if (best_score >= beta) {
      // Standing pat proves only a bound: outside the PV, meet beta halfway (see
      // damped_fail_high).
      if (!pv_node) best_score = damped_fail_high(best_score, beta, 1);
      if (!tt.hit || tt.data.bound == Bound::None)
        tt.writer.write(key, score_to_tt(best_score, ply), kDepthQs, Bound::Lower, Move::none(),
                        verdict, tt_pv);
      return best_score;
    }
    alpha = std::max(alpha, best_score);
    futility_base = static_eval + tune::QsFutilityMargin;
  }

  // Step 5. Captures and queen promotions; every evasion when in check
  OrderingContext ctx;
  ctx.histories = histories_.get();
  ctx.continuation = {(ss - 1)->continuation, (ss - 2)->continuation, (ss - 4)->continuation};
  MovePicker picker = MovePicker::quiescence(
      pos, CheckedMove::verify(pos, tt.hit ? tt.data.move : Move::none()), ctx);
  Move best_move = Move::none();
  int move_count = 0;
  const CheckInfo check_info = pos.check_info();

  while (const Move m = picker.next()) {
    ++move_count;
    const bool gives_check = pos.gives_check(m, check_info);

    // Step 6. Futility and SEE pruning (never when in check: every evasion counts)
    if (!in_check && !is_loss(best_score)) {
      if (!gives_check && m.kind() != MoveKind::Promotion) {
        const Piece captured = pos.captured_piece(m);
        const int futility_value =
            futility_base + (captured.is_none() ? 0 : eval::piece_value(captured.type()));
        if (futility_value <= alpha) {
          best_score = std::max(best_score, futility_value);
          continue;
        }
        if (futility_base <= alpha && !pos.see_ge(m, 1)) {
          best_score = std::max(best_score, futility_base);
          continue;
        }
      }
      if (!pos.see_ge(m, 0)) continue;
    }

    // Step 7. Make, search and unmake the move
    make_move(m, ss);
    const int score = -qsearch<NT>(-beta, -alpha, ss + 1);
    unmake_move(m);
    if (shared_.stop.load(std::memory_order_relaxed)) return 0;

    // Step 8. Best move so far
    if (score > best_score) {
      best_score = score;
      if (score > alpha) {
        best_move = m;
        if (pv_node) update_pv(ply, m);
        if (score >= beta) {
          ss->cutoff_count += 1;
          break;
        }
        alpha = score;
      }
    }
  }

  // Step 9. In check with no legal move: checkmate
  if (in_check && move_count == 0) return mated_in(ply);

  // Step 10. Store the result
  tt.writer.write(key, score_to_tt(best_score, ply), in_check ? kDepthQsCheck : kDepthQs,
                  best_score >= beta ? Bound::Lower : Bound::Upper, best_move, verdict, tt_pv);
  return best_score;
}

// The root search is started from iterative_deepening (root.cpp).
template int Worker::search<Worker::NodeType::Root>(int, int, int, bool, StackEntry*);

}  // namespace tessera::search
