#include "uci/info.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iterator>

#include "uci/wdl.h"

namespace tessera::uci {

namespace {

[[nodiscard]] std::string score_text(const search::SearchInfo& info, const Position& root,
                                     bool show_wdl) {
  std::string text = info.is_mate ? fmt::format("score mate {}", info.mate_moves)
                                  : fmt::format("score cp {}", info.score);
  if (show_wdl) {
    const WdlPerMille wdl = wdl_of(info, root);
    fmt::format_to(std::back_inserter(text), " wdl {} {} {}", wdl.win, wdl.draw, wdl.loss);
  }
  if (info.bound == search::Bound::Lower) text += " lowerbound";
  if (info.bound == search::Bound::Upper) text += " upperbound";
  return text;
}

}  // namespace

std::vector<std::string> legal_pv(const std::vector<Move>& pv, const Position& root) {
  std::vector<std::string> moves;
  if (pv.empty()) return moves;
  Position pos = root;
  for (const Move m : pv) {
    if (!pos.is_legal_move(m)) break;
    moves.push_back(pos.move_to_uci(m));
    pos.make_move(m);
  }
  return moves;
}

std::string format_info(const search::SearchInfo& info, const Position& root, bool show_wdl) {
  if (info.depth == 0 && info.pv.empty())
    return fmt::format("info depth 0 {}", score_text(info, root, show_wdl));
  std::string line = fmt::format(
      "info depth {} seldepth {} multipv {} {} nodes {} nps {} hashfull {} tbhits {} time {}",
      info.depth, info.seldepth, info.multipv, score_text(info, root, show_wdl), info.nodes,
      info.nps, info.hashfull, info.tbhits, info.time_ms);
  const std::vector<std::string> pv = legal_pv(info.pv, root);
  if (!pv.empty()) fmt::format_to(std::back_inserter(line), " pv {}", fmt::join(pv, " "));
  return line;
}

std::string format_current_move(int depth, Move move, int number, const Position& root) {
  return fmt::format("info depth {} currmove {} currmovenumber {}", depth, root.move_to_uci(move),
                     number);
}

std::string format_bestmove(Move best, Move ponder, const Position& root) {
  if (best.is_none()) return "bestmove 0000";
  std::string line = "bestmove " + root.move_to_uci(best);
  if (ponder.is_none() || !root.is_legal_move(best)) return line;
  Position after = root;
  after.make_move(best);
  if (after.is_legal_move(ponder)) line += " ponder " + after.move_to_uci(ponder);
  return line;
}

}  // namespace tessera::uci
