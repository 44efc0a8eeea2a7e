#include "uci/eval_report.h"

#include <fmt/format.h>

#include "eval/evaluate.h"

namespace tessera::uci {

std::vector<std::string> eval_report(const Position& pos) {
  const EvalTrace t = evaluate_traced(pos);
  std::vector<std::string> lines;
  if (t.endgame) {
    lines.push_back(fmt::format("specialised endgame evaluator: {}", t.endgame));
    lines.push_back(fmt::format("final evaluation {:+} cp for the side to move ({})", t.result,
                                pos.side_to_move() == WHITE ? "white" : "black"));
    return lines;
  }
  lines.push_back(fmt::format("{:<36} {:>7} {:>7}", "term (white - black, cp)", "mg", "eg"));
  int mg = 0, eg = 0;
  for (const EvalTerm& term : t.terms) {
    lines.push_back(fmt::format("{:<36} {:>7} {:>7}", term.name, term.mg, term.eg));
    mg += term.mg;
    eg += term.eg;
  }
  lines.push_back(fmt::format("{:<36} {:>7} {:>7}", "total", mg, eg));
  lines.push_back(fmt::format("phase {}/{} (mg weight): blended {:+} for white", t.phase,
                              t.max_phase, t.tapered));
  if (t.scale != kScaleNormal)
    lines.push_back(fmt::format("drawish material: scale {}/{}, {:+} for white", t.scale,
                                kScaleNormal, t.scaled));
  lines.push_back(fmt::format("final evaluation {:+} cp for the side to move ({})", t.result,
                              pos.side_to_move() == WHITE ? "white" : "black"));
  return lines;
}

}  // namespace tessera::uci
