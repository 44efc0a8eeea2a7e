#include "uci/eval_report.h"

#include <fmt/format.h>

#include "core/movegen.h"
#include "eval/evaluate.h"
#include "eval/material_scale.h"
#include "eval/nnue/trace.h"
#include "search/tunables.h"

namespace tessera::uci {

namespace {

[[nodiscard]] const char* side_name(Color c) { return c == WHITE ? "white" : "black"; }

void add_hand_crafted(const eval::EvalTrace& t, std::vector<std::string>& lines) {
  if (t.endgame) {
    lines.push_back(fmt::format("specialised endgame evaluator: {}", t.endgame));
    return;
  }
  lines.push_back(fmt::format("{:<36} {:>7} {:>7}", "term (white - black, cp)", "mg", "eg"));
  int mg = 0, eg = 0;
  for (const eval::EvalTerm& term : t.terms) {
    lines.push_back(fmt::format("{:<36} {:>7} {:>7}", term.name, term.mg, term.eg));
    mg += term.mg;
    eg += term.eg;
  }
  lines.push_back(fmt::format("{:<36} {:>7} {:>7}", "total", mg, eg));
  lines.push_back(fmt::format("phase {}/{} (mg weight): blended {:+} for white", t.phase,
                              t.max_phase, t.tapered));
  if (t.scale != eval::kScaleNormal)
    lines.push_back(fmt::format("drawish material: scale {}/{}, {:+} for white", t.scale,
                                eval::kScaleNormal, t.scaled));
}

// The board from white's side, each piece with what it is worth to the network.
void add_network(const eval::nnue::NetworkTrace& t, const Position& pos,
                 std::vector<std::string>& lines) {
  lines.push_back(
      "network: each piece's value (cp for white: the score less the score "
      "without it)");
  for (int rank = 7; rank >= 0; --rank) {
    std::string pieces = fmt::format("{} |", rank + 1);
    std::string values = "  |";
    for (int file = 0; file < 8; ++file) {
      const Square s(file, rank);
      const Piece p = pos.piece_on(s);
      pieces += fmt::format(" {:^6}|", p.is_none() ? ' ' : p.to_char());
      values += t.piece_value[s.index()] ? fmt::format(" {:^+6}|", *t.piece_value[s.index()])
                                         : std::string("       |");
    }
    lines.push_back(pieces);
    lines.push_back(values);
  }
  lines.push_back("     a      b      c      d      e      f      g      h");
  lines.push_back(fmt::format("network evaluation {:+} cp for the side to move", t.score));
}

}  // namespace

std::vector<std::string> eval_report(const engine::Engine& engine, const Position& pos) {
  if (!has_legal_move(pos)) {
    if (pos.in_check())
      return {fmt::format("checkmate: {} wins (no evaluation)", side_name(~pos.side_to_move()))};
    return {"stalemate: a draw (no evaluation)"};
  }
  std::vector<std::string> lines;
  const eval::EvalTrace hce = engine::Engine::hand_crafted_trace(pos);
  add_hand_crafted(hce, lines);
  const auto net = engine.network_trace(pos);
  int network_score = 0;
  if (net) {
    add_network(*net, pos, lines);
    // What the search uses: the network's score scaled by the material on the board, then
    // under the endgame knowledge.
    const int scaled = eval::scaled_by_material(pos, net->score, search::tune::EvalMaterialBase);
    if (scaled != net->score)
      lines.push_back(fmt::format(
          "scaled by the material on the board ({} of {} pawns' worth) {:+} cp for the side to "
          "move",
          eval::material_in_pawns(pos), eval::kStartingMaterialInPawns, scaled));
    eval::EvalCache cache;
    network_score = eval::with_endgame_knowledge(pos, cache, scaled);
    if (network_score != scaled)
      lines.push_back(
          fmt::format("with the endgame knowledge {:+} cp for the side to move", network_score));
  }
  const bool by_network = net && engine.network_in_use();
  lines.push_back(fmt::format("final evaluation {:+} cp for the side to move ({}; {})",
                              by_network ? network_score : hce.result,
                              side_name(pos.side_to_move()),
                              by_network ? "network" : "hand-crafted"));
  return lines;
}

}  // namespace tessera::uci
