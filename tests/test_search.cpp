// Search results through the Engine API: mates found with the right score, draws scored 0,
// root without legal moves, node limits, MultiPV, searchmoves and reproducibility; and the
// damping of null-window fail-highs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "engine/engine.h"
#include "engine_recorder.h"
#include "eval/evaluate.h"
#include "search/score.h"

namespace tessera {
namespace {

using engine::Engine;
using search::EngineCallbacks;
using search::SearchInfo;
using search::SearchLimits;
using testing::Recorder;

SearchLimits depth_limit(int depth) {
  SearchLimits l;
  l.depth = depth;
  return l;
}

// True when the side to move can force mate in at most `n` moves (exhaustive; small n only).
bool forced_mate_within(Position& pos, int n) {
  for (const Move m : MoveList<GenType::All>(pos)) {
    if (n == 1 && !pos.gives_check(m)) continue;  // a mating move gives check
    pos.make_move(m);
    bool all_replies_lose = true;
    const MoveList<GenType::All> replies(pos);
    if (replies.empty()) {
      all_replies_lose = pos.in_check();
    } else if (n == 1) {
      all_replies_lose = false;
    } else {
      for (const Move r : replies) {
        pos.make_move(r);
        const bool mated = forced_mate_within(pos, n - 1);
        pos.unmake_move(r);
        if (!mated) {
          all_replies_lose = false;
          break;
        }
      }
    }
    pos.unmake_move(m);
    if (all_replies_lose) return true;
  }
  return false;
}

Position from_fen(const std::string& fen) {
  std::string error;
  auto pos = Position::from_fen(fen, false, error);
  if (!pos) throw std::runtime_error(error);
  return *pos;
}

// Plays `pv` from `pos`; true when every move is legal and the line ends in checkmate.
bool pv_ends_in_mate(Position pos, const std::vector<Move>& pv) {
  for (const Move m : pv) {
    if (!pos.is_legal_move(m)) return false;
    pos.make_move(m);
  }
  return pos.in_check() && !has_legal_move(pos);
}

struct MateCase {
  const char* fen;
  int moves;
};

class SearchMate : public ::testing::TestWithParam<MateCase> {};

TEST_P(SearchMate, FindsTheShortestMateWithItsScore) {
  const MateCase c = GetParam();
  Position pos = from_fen(c.fen);
  // The position really is a mate in `moves` and not shorter (exhaustive check for small n).
  if (c.moves <= 2) {
    EXPECT_TRUE(forced_mate_within(pos, c.moves));
  }
  if (c.moves >= 2 && c.moves <= 3) {
    EXPECT_FALSE(forced_mate_within(pos, c.moves - 1));
  }

  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position(c.fen, {}), "");
  // Stop as soon as a mate in `moves` is proven; the depth cap makes a miss fail, not hang.
  SearchLimits limits = depth_limit(4 * c.moves + 8);
  limits.mate = c.moves;
  engine.search_sync(limits, search::Reports::All);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  ASSERT_FALSE(rec.infos.empty());
  const SearchInfo& last = rec.infos.back();
  EXPECT_TRUE(last.is_mate);
  EXPECT_EQ(last.mate_moves, c.moves);
  EXPECT_EQ(last.score, search::mate_in(2 * c.moves - 1));
  ASSERT_FALSE(last.pv.empty());
  EXPECT_EQ(last.pv.front(), rec.bestmoves[0].first);
  EXPECT_EQ(int(last.pv.size()), 2 * c.moves - 1);
  EXPECT_TRUE(pv_ends_in_mate(pos, last.pv));
}

// Positions checked with an independent engine as mates in exactly 1, 2, 3 and 4.
INSTANTIATE_TEST_SUITE_P(
    Mates, SearchMate,
    ::testing::Values(
        MateCase{"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", 1},
        MateCase{"r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1},
        MateCase{"r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", 2},
        MateCase{"4k3/8/8/8/8/8/8/RR4K1 w - - 0 1", 2},
        MateCase{"r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", 3},
        MateCase{"r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3},
        MateCase{"r1bk3r/pppq1ppp/5n2/4N1N1/2Bp4/Bn6/P4PPP/4R1K1 w - - 0 1", 4}));

// Data generation asks only for the final lines: one line (per MultiPV line) and the best
// move, the same line that ends a search reporting everything (the score it records).
TEST(Search, FinalReportsGiveOnlyTheLastLineOfAFullReport) {
  for (const char* fen : {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
                          "8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50"}) {
    Recorder all;
    Recorder final_only;
    Engine every(all.callbacks());
    Engine last(final_only.callbacks());
    ASSERT_EQ(every.set_position(fen, {}), "");
    ASSERT_EQ(last.set_position(fen, {}), "");
    every.search_sync(depth_limit(8), search::Reports::All);
    last.search_sync(depth_limit(8), search::Reports::Final);
    ASSERT_GE(all.infos.size(), 8u) << fen;
    ASSERT_EQ(final_only.infos.size(), 1u) << fen;
    EXPECT_EQ(final_only.infos[0].depth, all.infos.back().depth) << fen;
    EXPECT_EQ(final_only.infos[0].score, all.infos.back().score) << fen;
    EXPECT_EQ(final_only.infos[0].pv, all.infos.back().pv) << fen;
    ASSERT_EQ(final_only.bestmoves.size(), 1u) << fen;
    EXPECT_EQ(final_only.bestmoves[0], all.bestmoves[0]) << fen;
  }
}

TEST(Search, BeingMatedGivesANegativeMateCount) {
  // White's only move is Kg1, after which the queen mates on a1, c1 or e1: mated in one.
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("6k1/8/8/8/8/2q5/r7/7K w - - 0 1", {}), "");
  engine.search_sync(depth_limit(6), search::Reports::All);
  ASSERT_FALSE(rec.infos.empty());
  const SearchInfo& last = rec.infos.back();
  EXPECT_TRUE(last.is_mate);
  EXPECT_EQ(last.mate_moves, -1);
  EXPECT_EQ(last.score, search::mated_in(2));
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_EQ(engine.position().move_to_uci(rec.bestmoves[0].first), "h1g1");
}

TEST(Search, CheckmatedRootReportsMateZeroAndNoMove) {
  Recorder rec;
  Engine engine(rec.callbacks());
  // Fool's mate: White is checkmated.
  ASSERT_EQ(
      engine.set_position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", {}), "");
  engine.search_sync(depth_limit(5), search::Reports::All);
  ASSERT_EQ(rec.infos.size(), 1u);
  EXPECT_EQ(rec.infos[0].depth, 0);
  EXPECT_TRUE(rec.infos[0].is_mate);
  EXPECT_EQ(rec.infos[0].mate_moves, 0);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_EQ(rec.bestmoves[0].first, Move::none());
  EXPECT_EQ(rec.bestmoves[0].second, Move::none());
}

TEST(Search, StalematedRootReportsZeroAndNoMove) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", {}), "");
  engine.search_sync(depth_limit(5), search::Reports::All);
  ASSERT_EQ(rec.infos.size(), 1u);
  EXPECT_EQ(rec.infos[0].depth, 0);
  EXPECT_FALSE(rec.infos[0].is_mate);
  EXPECT_EQ(rec.infos[0].score, 0);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_EQ(rec.bestmoves[0].first, Move::none());
}

TEST(Search, StalemateIsScoredAsADraw) {
  // Every White move either stalemates Black or lets the king take the last pawn.
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("7k/7P/6K1/8/8/8/8/8 w - - 0 1", {}), "");
  engine.search_sync(depth_limit(10), search::Reports::All);
  ASSERT_FALSE(rec.infos.empty());
  EXPECT_FALSE(rec.infos.back().is_mate);
  EXPECT_EQ(rec.infos.back().score, 0);
}

TEST(Search, ThreefoldRepetitionIsScoredZero) {
  // Black has no queen; after the knight dance, ...Nf6g8 repeats the start position a third
  // time: a draw, far better for Black than playing on a queen down.
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"}),
            "");
  engine.search_sync(depth_limit(6), search::Reports::All);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_EQ(engine.position().move_to_uci(rec.bestmoves[0].first), "f6g8");
  EXPECT_EQ(rec.infos.back().score, 0);
  EXPECT_FALSE(rec.infos.back().is_mate);
}

TEST(Search, AnAdvantageShrinksAsTheFiftyMoveCounterGrows) {
  // A rook up with no pawns and no capture in reach: the same position scores less the closer
  // the fifty-move draw is, so the search prefers lines that capture or push a pawn.
  auto score_at = [](int halfmove_clock) {
    Recorder rec;
    Engine engine(rec.callbacks());
    const std::string fen =
        "4k3/8/1n6/8/8/8/8/R3K1N1 w - - " + std::to_string(halfmove_clock) + " 60";
    EXPECT_EQ(engine.set_position(fen, {}), "");
    engine.search_sync(depth_limit(1), search::Reports::All);
    EXPECT_FALSE(rec.infos.empty());
    return rec.infos.empty() ? 0 : rec.infos.back().score;
  };
  const int fresh = score_at(0);
  const int late = score_at(80);
  EXPECT_GT(fresh, 200);
  EXPECT_GT(late, 0);
  EXPECT_LT(late, fresh * 8 / 10);
}

// A damped fail-high lies between beta and the score, nearer beta the shallower the draft, so
// it never turns a cutoff into a fail-low; mate and tablebase scores pass unchanged.
TEST(Search, FailHighsArePulledTowardsBetaButStillFailHigh) {
  for (const int beta : {-700, -31, -1, 0, 1, 45, 900}) {
    for (const int excess : {0, 1, 7, 120, 2000}) {
      int previous = beta;
      for (int depth = 1; depth <= 20; ++depth) {
        const int damped = search::damped_fail_high(beta + excess, beta, depth);
        EXPECT_GE(damped, beta) << beta << " + " << excess << " at depth " << depth;
        EXPECT_LE(damped, beta + excess);
        EXPECT_GE(damped, previous);  // deeper drafts are trusted more
        previous = damped;
      }
    }
  }
  EXPECT_EQ(search::damped_fail_high(300, 100, 1), 200);
  EXPECT_EQ(search::damped_fail_high(500, 100, 3), 400);
  EXPECT_EQ(search::damped_fail_high(search::mate_in(5), 100, 1), search::mate_in(5));
  EXPECT_EQ(search::damped_fail_high(search::tb_win_in(9), 100, 2), search::tb_win_in(9));
  EXPECT_EQ(search::damped_fail_high(-50, search::mated_in(4), 2), -50);
}

// Wins and losses are mates and tablebase results alike: the pruning guards that ask "is this
// a proven loss?" must see a tablebase loss as one, and an evaluation as neither.
TEST(Search, WinsAndLossesCoverMatesAndTablebaseResults) {
  using namespace search;
  for (const int ply : {0, 1, 40, kMaxPly - 1}) {
    EXPECT_TRUE(is_win(mate_in(ply)) && is_win(tb_win_in(ply))) << ply;
    EXPECT_TRUE(is_loss(mated_in(ply)) && is_loss(tb_loss_in(ply))) << ply;
    EXPECT_FALSE(is_loss(tb_win_in(ply)) || is_win(tb_loss_in(ply))) << ply;
  }
  for (const int eval : {-20000, -1, 0, 1, 20000, kTbWinInMaxPly - 1}) {
    EXPECT_FALSE(is_win(eval) || is_loss(eval) || is_decisive(eval)) << eval;
    EXPECT_FALSE(is_win(-eval) || is_loss(-eval)) << eval;
  }
}

TEST(Search, NodeLimitIsRespected) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  SearchLimits limits;
  limits.nodes = 20000;
  const std::uint64_t nodes = engine.search_sync(limits, search::Reports::All);
  EXPECT_GE(nodes, 20000u);
  EXPECT_LE(nodes, 20000u + 64u);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_TRUE(engine.position().is_legal_move(rec.bestmoves[0].first));
}

TEST(Search, MultiPvReportsDistinctLegalMoves) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  engine.set_multipv(3);
  engine.search_sync(depth_limit(6), search::Reports::All);
  std::vector<const SearchInfo*> lines;
  for (const SearchInfo& i : rec.infos)
    if (i.depth == 6) lines.push_back(&i);
  ASSERT_GE(lines.size(), 3u);
  std::vector<Move> firsts;
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(lines[k]->multipv, int(k) + 1);
    ASSERT_FALSE(lines[k]->pv.empty());
    EXPECT_TRUE(engine.position().is_legal_move(lines[k]->pv[0]));
    firsts.push_back(lines[k]->pv[0]);
  }
  std::sort(firsts.begin(), firsts.end(), [](Move a, Move b) { return a.raw() < b.raw(); });
  EXPECT_EQ(std::unique(firsts.begin(), firsts.end()), firsts.end());
  // Lines are ordered best first.
  EXPECT_GE(lines[0]->score, lines[1]->score);
  EXPECT_GE(lines[1]->score, lines[2]->score);
  // The best move is the first line's.
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_EQ(rec.bestmoves[0].first,
            rec.infos.back().multipv == 1 ? rec.infos.back().pv[0] : lines[0]->pv[0]);
}

// A search stopped inside an iteration has lines of two depths: those it already re-searched
// and those it has not reached. Each line carries the depth its score comes from, so one depth
// never gives the same move two different verdicts.
TEST(Search, StoppedMultiPvLabelsEachLineWithItsOwnDepth) {
  int stops_with_a_deeper_line = 0;
  for (std::uint64_t nodes = 2000; nodes <= 80000; nodes += 2600) {
    Recorder rec;
    Engine engine(rec.callbacks());
    ASSERT_EQ(
        engine.set_position("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", {}),
        "");
    engine.set_multipv(4);
    SearchLimits limits;
    limits.nodes = nodes;
    engine.search_sync(limits, search::Reports::All);
    std::map<std::pair<int, std::uint16_t>, std::pair<int, search::Bound>> verdicts;
    int deepest_iteration = 0;
    for (const SearchInfo& info : rec.infos) {
      ASSERT_FALSE(info.pv.empty());
      const auto key = std::make_pair(info.depth, info.pv[0].raw());
      const auto verdict = std::make_pair(info.score, info.bound);
      const auto [it, inserted] = verdicts.emplace(key, verdict);
      EXPECT_TRUE(inserted || it->second == verdict)
          << "nodes " << nodes << ", depth " << info.depth << ": " << it->second.first << " then "
          << info.score;
      if (info.multipv == 4) deepest_iteration = std::max(deepest_iteration, info.depth);
    }
    for (const SearchInfo& info : rec.infos)
      if (info.depth > deepest_iteration) ++stops_with_a_deeper_line;
  }
  // The node limits above stop some searches after a line of the next depth was found.
  EXPECT_GT(stops_with_a_deeper_line, 0);
}

TEST(Search, SearchmovesRestrictsTheRootMoves) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  SearchLimits limits = depth_limit(6);
  limits.searchmoves = {engine.position().parse_uci_move("a2a3"),
                        engine.position().parse_uci_move("h2h4")};
  engine.search_sync(limits, search::Reports::All);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  const std::string best = engine.position().move_to_uci(rec.bestmoves[0].first);
  EXPECT_TRUE(best == "a2a3" || best == "h2h4") << best;
  for (const SearchInfo& i : rec.infos) {
    ASSERT_FALSE(i.pv.empty());
    const std::string first = engine.position().move_to_uci(i.pv[0]);
    EXPECT_TRUE(first == "a2a3" || first == "h2h4") << first;
  }
}

TEST(Search, FixedDepthSearchIsDeterministic) {
  Engine engine(EngineCallbacks{});
  const char* fens[] = {
      "startpos",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
  };
  for (const char* fen : fens) {
    ASSERT_EQ(engine.set_position(fen, {}), "");
    engine.clear_hash();
    const std::uint64_t a = engine.search_sync(depth_limit(9));
    engine.clear_hash();
    const std::uint64_t b = engine.search_sync(depth_limit(9));
    EXPECT_EQ(a, b) << fen;
    EXPECT_GT(a, 100u);
  }
}

TEST(Search, PvIsLegalStartsWithBestMoveAndPonderIsLegal) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_position(
                "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", {}),
            "");
  engine.search_sync(depth_limit(8), search::Reports::All);
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  const auto [best, ponder] = rec.bestmoves[0];
  for (const SearchInfo& info : rec.infos) {
    Position pos = engine.position();
    ASSERT_FALSE(info.pv.empty());
    for (const Move m : info.pv) {
      ASSERT_TRUE(pos.is_legal_move(m));
      pos.make_move(m);
    }
  }
  EXPECT_EQ(rec.infos.back().pv[0], best);
  Position after = engine.position();
  ASSERT_TRUE(after.is_legal_move(best));
  after.make_move(best);
  if (ponder) {
    EXPECT_TRUE(after.is_legal_move(ponder));
  }
}

TEST(Search, GoMateStopsAtTheMate) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(
      engine.set_position("r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1", {}),
      "");
  SearchLimits limits;
  limits.mate = 2;
  engine.go(limits);
  engine.wait();  // returns only because the mate was found: no other limit was given
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_EQ(engine.position().move_to_uci(rec.bestmoves[0].first), "d5f6");
  EXPECT_TRUE(rec.infos.back().is_mate);
  EXPECT_EQ(rec.infos.back().mate_moves, 2);
}

}  // namespace
}  // namespace tessera

namespace tessera {
namespace {

// The position with colours swapped and the board mirrored top to bottom.
std::string mirror_fen(const std::string& fen) {
  std::istringstream in(fen);
  std::string board, side, castling, ep, half = "0", full = "1";
  in >> board >> side >> castling >> ep >> half >> full;
  std::vector<std::string> ranks;
  std::string rank;
  for (const char c : board + "/") {
    if (c == '/') {
      ranks.push_back(rank);
      rank.clear();
    } else {
      rank += char(
          std::isalpha(static_cast<unsigned char>(c))
              ? (std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c))
              : c);
    }
  }
  std::string out;
  for (auto it = ranks.rbegin(); it != ranks.rend(); ++it)
    out += *it + (it + 1 == ranks.rend() ? "" : "/");
  std::string cast;
  for (const char c : castling)
    cast += c == '-' ? '-'
                     : char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c)
                                                                        : std::toupper(c));
  std::sort(cast.begin(), cast.end(), [](char a, char b) {
    return std::isupper(static_cast<unsigned char>(a)) &&
           !std::isupper(static_cast<unsigned char>(b));
  });
  if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
  return out + " " + (side == "w" ? "b" : "w") + " " + cast + " " + ep + " " + half + " " + full;
}

TEST(Evaluation, IsSymmetricAndBounded) {
  const char* fens[] = {
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
      "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
      "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
      "r1bk3r/pppq1ppp/5n2/4N1N1/2Bp4/Bn6/P4PPP/4R1K1 w - - 0 1",
      "6k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1",
      "4k3/8/8/8/8/8/8/4KN2 w - - 0 1",
  };
  for (const char* fen : fens) {
    const Position pos = from_fen(fen);
    const Position mirrored = from_fen(mirror_fen(fen));
    EXPECT_EQ(eval::evaluate(pos), eval::evaluate(mirrored)) << fen << " vs " << mirror_fen(fen);
    EXPECT_LT(std::abs(eval::evaluate(pos)), search::kMateInMaxPly);
  }
  // The side to move matters only through the tempo bonus.
  const Position start = from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  EXPECT_GT(eval::evaluate(start), 0);
  EXPECT_LT(eval::evaluate(start), 50);
  // More material is better.
  EXPECT_GT(eval::evaluate(from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")), 700);
}

}  // namespace
}  // namespace tessera
