// Endgame knowledge (see endgame.h for the policy).
//
// The specialised evaluations are written from the strong side's point of view, on squares seen
// from the strong side (Square::relative), and turned to white's point of view at the end, so
// that a position and its colour flip score exactly opposite. Their ingredients:
//
//  - mates with a lone king (KXK, KBNK) score kEndgameKnownWin plus the material, plus terms
//    that reward the lone king standing near the edge (KBNK: near a corner the bishop can
//    cover) and the two kings standing close: the search then makes progress towards the mate
//    long before it can see it;
//  - KPK is exact: the bitbase's verdict, a win worth about a queen less a pawn or a draw;
//  - KRKP and KQKP are classic rules of thumb, in the spirit of the old hand-written engines.
#include "eval/endgame.h"

#include <algorithm>
#include <cstdlib>

#include "core/bitboard.h"
#include "eval/kpk.h"

namespace tessera::eval {

namespace {

// Endgame material values, close to the evaluation's endgame values.
constexpr int kPawnValue = 100;
constexpr int kKnightValue = 300;
constexpr int kBishopValue = 320;
constexpr int kRookValue = 540;
constexpr int kQueenValue = 990;

[[nodiscard]] int manhattan(Square a, Square b) {
  return std::abs(a.file() - b.file()) + std::abs(a.rank() - b.rank());
}
[[nodiscard]] bool dark(Square s) { return (kDarkSquares & s.bb()) != 0; }

// 0 in the four centre squares, 6 in the corners: how far the lone king has been driven.
[[nodiscard]] int edge_distance_bonus(Square s) {
  const int file = std::max(3 - s.file(), s.file() - 4);
  const int rank = std::max(3 - s.rank(), s.rank() - 4);
  return 20 * (file + rank);
}
// 0 for kings at the far ends of the board, 100 for kings in opposition.
[[nodiscard]] int closeness_bonus(Square a, Square b) { return 20 * (7 - distance(a, b)); }

[[nodiscard]] int material(const Position& pos, Color c) {
  return kPawnValue * pos.count(c, PAWN) + kKnightValue * pos.count(c, KNIGHT) +
         kBishopValue * pos.count(c, BISHOP) + kRookValue * pos.count(c, ROOK) +
         kQueenValue * pos.count(c, QUEEN);
}

// Non-pawn material in minor-piece units (knight and bishop 3, rook 5, queen 9).
[[nodiscard]] int piece_units(const Position& pos, Color c) {
  return 3 * (pos.count(c, KNIGHT) + pos.count(c, BISHOP)) + 5 * pos.count(c, ROOK) +
         9 * pos.count(c, QUEEN);
}

// Lone king against mating material. Material counts up to 2000 only, so that the edge and
// king terms still steer the search (and the sum stays below kEndgameMaxScore) with a heap of
// queens on the board. Bishops all of one colour with nothing else cannot mate: a draw.
[[nodiscard]] int evaluate_kxk(const Position& pos, Color strong) {
  const Color weak = ~strong;
  const Bitboard bishops = pos.pieces(strong, BISHOP);
  if (pos.pieces(strong) == (bishops | pos.pieces(strong, KING)) &&
      ((bishops & kDarkSquares) == 0 || (bishops & ~kDarkSquares) == 0))
    return 0;
  const Square strong_king = pos.king_square(strong);
  const Square weak_king = pos.king_square(weak);
  return kEndgameKnownWin + std::min(material(pos, strong), 2000) + edge_distance_bonus(weak_king) +
         closeness_bonus(strong_king, weak_king);
}

// Bishop and knight: only the two corners of the bishop's colour are mating corners. The lone
// king's Manhattan distance to the nearer of them (0..14) is what the strong side reduces, 30
// per step; from the wrong corner it decreases along the edge all the way.
[[nodiscard]] int evaluate_kbnk(const Position& pos, Color strong) {
  const Color weak = ~strong;
  const Square strong_king = pos.king_square(strong);
  const Square weak_king = pos.king_square(weak);
  const bool dark_bishop = dark(lsb(pos.pieces(strong, BISHOP)));
  const Square corner_a = dark_bishop ? Square(0, 0) : Square(7, 0);  // a1 or h1
  const Square corner_b = dark_bishop ? Square(7, 7) : Square(0, 7);  // h8 or a8
  const int corner = std::min(manhattan(weak_king, corner_a), manhattan(weak_king, corner_b));
  return kEndgameKnownWin + kKnightValue + kBishopValue + 30 * (14 - corner) +
         closeness_bonus(strong_king, weak_king);
}

// King and pawn: the bitbase's verdict. A win is worth about a queen less a pawn, more as the
// pawn advances (so pushing it is progress); a draw is 0.
[[nodiscard]] int evaluate_kpk(const Position& pos, Color strong) {
  const Square pawn = lsb(pos.pieces(strong, PAWN));
  if (!kpk_is_win(strong, pos.king_square(strong), pawn, pos.king_square(~strong),
                  pos.side_to_move()))
    return 0;
  return kKpkWin + 20 * pawn.relative_rank(strong);
}

// Rook against pawn, squares seen from the rook's side (the pawn runs towards rank 1):
//  - the rook side's king stands in front of the pawn, or the lone king is far from both its
//    pawn and the rook: a win, about a rook, less as the rook's king is farther from the pawn;
//  - the pawn's king stands next to its pawn on the rook side's first three ranks (the pawn is
//    far advanced and supported) and the rook's king is far: drawish, a small plus for the rook;
//  - otherwise a rook's advantage that shrinks as the pawn's king is closer to the pawn's path
//    than the rook's king, and as the pawn is nearer to promotion.
// The side to move is worth a step of king distance.
[[nodiscard]] int evaluate_krkp(const Position& pos, Color strong) {
  const Color weak = ~strong;
  const Square strong_king = pos.king_square(strong).relative(strong);
  const Square weak_king = pos.king_square(weak).relative(strong);
  const Square rook = lsb(pos.pieces(strong, ROOK)).relative(strong);
  const Square pawn = lsb(pos.pieces(weak, PAWN)).relative(strong);
  const Square queening(pawn.file(), 0);
  const Square in_front = pawn.offset(SOUTH);
  const bool strong_to_move = pos.side_to_move() == strong;

  if (strong_king.file() == pawn.file() && strong_king.rank() < pawn.rank())
    return kRookValue - 10 * distance(strong_king, pawn);
  if (distance(weak_king, pawn) >= 3 + (strong_to_move ? 0 : 1) && distance(weak_king, rook) >= 3)
    return kRookValue - 10 * distance(strong_king, pawn);
  if (weak_king.rank() <= 2 && distance(weak_king, pawn) == 1 && strong_king.rank() >= 3 &&
      distance(strong_king, pawn) > 2 + (strong_to_move ? 1 : 0))
    return 80 - 8 * distance(strong_king, pawn);
  return 200 - 8 * (distance(strong_king, in_front) - distance(weak_king, in_front) -
                    distance(pawn, queening));
}

// Queen against pawn: a win (a queen less a pawn, plus bringing the kings together), except the
// known fortress: a rook or bishop pawn on its seventh rank with its king next to it, and the
// queen's king more than two squares from the pawn, which is a draw (stalemate defences); there
// only the king closeness term remains, so the search still brings the king nearer.
[[nodiscard]] int evaluate_kqkp(const Position& pos, Color strong) {
  const Color weak = ~strong;
  const Square strong_king = pos.king_square(strong);
  const Square weak_king = pos.king_square(weak);
  const Square pawn = lsb(pos.pieces(weak, PAWN));
  const int file = pawn.file();
  const bool fortress = pawn.relative_rank(weak) == 6 &&
                        (file == 0 || file == 2 || file == 5 || file == 7) &&
                        distance(weak_king, pawn) == 1 && distance(strong_king, pawn) > 2;
  const int value = closeness_bonus(strong_king, weak_king);
  return fortress ? value : value + kQueenValue - kPawnValue;
}

}  // namespace

EndgameInfo classify_endgame(const Position& pos) {
  for (const Color strong : {WHITE, BLACK}) {
    const Color weak = ~strong;
    const int pawns = pos.count(strong, PAWN);
    const int knights = pos.count(strong, KNIGHT);
    const int bishops = pos.count(strong, BISHOP);
    const int rooks = pos.count(strong, ROOK);
    const int queens = pos.count(strong, QUEEN);
    const int pieces = knights + bishops + rooks + queens;
    const int weak_pawns = pos.count(weak, PAWN);
    const int weak_pieces = pos.count(weak, KNIGHT) + pos.count(weak, BISHOP) +
                            pos.count(weak, ROOK) + pos.count(weak, QUEEN);
    const bool weak_bare = weak_pawns == 0 && weak_pieces == 0;

    if (weak_bare) {
      if (pieces == 2 && pawns == 0 && knights == 1 && bishops == 1) return {Endgame::KBNK, strong};
      if (queens + rooks > 0 || (knights > 0 && bishops > 0) || bishops >= 2)
        return {Endgame::KXK, strong};
      if (pieces == 0 && pawns == 1) return {Endgame::KPK, strong};
    }
    // Exactly one piece against exactly one pawn.
    if (weak_pawns == 1 && weak_pieces == 0 && pawns == 0 && pieces == 1) {
      if (rooks == 1) return {Endgame::KRKP, strong};
      if (queens == 1) return {Endgame::KQKP, strong};
    }
  }
  return {};
}

int evaluate_endgame(const Position& pos, const EndgameInfo& info) {
  int value = 0;
  switch (info.kind) {
    case Endgame::None:
      return 0;
    case Endgame::KXK:
      value = evaluate_kxk(pos, info.strong);
      break;
    case Endgame::KBNK:
      value = evaluate_kbnk(pos, info.strong);
      break;
    case Endgame::KPK:
      value = evaluate_kpk(pos, info.strong);
      break;
    case Endgame::KRKP:
      value = evaluate_krkp(pos, info.strong);
      break;
    case Endgame::KQKP:
      value = evaluate_kqkp(pos, info.strong);
      break;
  }
  value = std::clamp(value, -kEndgameMaxScore, kEndgameMaxScore);
  return info.strong == WHITE ? value : -value;
}

int scale_factor(const Position& pos, Color strong) {
  const Color weak = ~strong;
  const int strong_pawns = pos.count(strong, PAWN);
  const int weak_pawns = pos.count(weak, PAWN);
  const int strong_units = piece_units(pos, strong);
  const int weak_units = piece_units(pos, weak);
  const Square weak_king = pos.king_square(weak);

  if (strong_pawns == 0) {
    // A single minor piece (or nothing) cannot force mate against anything: KK, KNK, KBK, KB
    // against KN, a knight against pawns. A draw.
    if (strong_units <= 3) return kScaleDraw;
    // Two knights cannot force mate against a lone king (a draw); against pawns there are
    // wins (the pawns take away the stalemate), but rare and far beyond the evaluation.
    if (pos.count(strong, KNIGHT) == 2 && strong_units == 6)
      return weak_pawns == 0 && weak_units == 0 ? kScaleDraw : 16;
    // At most a minor piece up without pawns is usually a draw. Two bishops against a knight
    // are the exception (a long but general win).
    const bool bishop_pair_vs_knight = pos.count(strong, BISHOP) == 2 && strong_units == 6 &&
                                       pos.count(weak, KNIGHT) == 1 && weak_units == 3;
    if (strong_units - weak_units <= 3 && !bishop_pair_vs_knight) {
      // Against at most one minor piece (KRKB, KRKN): nearly always held, 8. Against more
      // (KRBKR, KRNKR, KQKRB): the defence is harder, 16.
      return weak_units <= 3 ? 8 : 16;
    }
    return kScaleNormal;
  }

  // Rook pawns only, and the lone king on or next to their promotion square: the pawns cannot
  // promote (the king cannot be driven out of the corner), unless a bishop of the promotion
  // square's colour helps. Weak pawns on the neighbouring file (b or g) can change this (they
  // may block the own king or get in the way of stalemate), so then nothing is decided here.
  const Bitboard strong_pawn_bb = pos.pieces(strong, PAWN);
  const bool a_pawns = (strong_pawn_bb & ~kFileA) == 0;
  const bool h_pawns = (strong_pawn_bb & ~kFileH) == 0;
  if ((a_pawns || h_pawns) && weak_units == 0) {
    const Square queening = Square(a_pawns ? 0 : 7, 7).relative(strong);
    const Bitboard neighbour_file = file_bb(a_pawns ? 1 : 6);
    const bool king_holds =
        distance(weak_king, queening) <= 1 && (pos.pieces(weak, PAWN) & neighbour_file) == 0;
    if (king_holds) {
      // Only pawns: the king in the corner is a draw.
      if (strong_units == 0) return kScaleDraw;
      // A bishop that cannot cover the promotion square does not change that.
      if (strong_units == 3 && pos.count(strong, BISHOP) == 1 &&
          dark(lsb(pos.pieces(strong, BISHOP))) != dark(queening))
        return kScaleDraw;
    }
  }

  // Opposite-coloured bishops. With only the bishops left, an extra pawn or two is seldom
  // enough: the defending bishop blockades the passers on squares the other cannot attack. Down
  // to 16 with at most one pawn more, 24 with more. With other pieces too the bishops still
  // favour the defence, but less: 44.
  if (pos.count(strong, BISHOP) == 1 && pos.count(weak, BISHOP) == 1 &&
      dark(lsb(pos.pieces(strong, BISHOP))) != dark(lsb(pos.pieces(weak, BISHOP)))) {
    if (strong_units == 3 && weak_units == 3) return strong_pawns - weak_pawns <= 1 ? 16 : 24;
    return 44;
  }

  // One pawn and equal pieces (KRPKR, KBPKB, KNPKN, KQPKQ), with the lone defending king
  // standing on the pawn's path: mostly a draw (Philidor's defence and its cousins), 24.
  if (strong_pawns == 1 && weak_pawns == 0 && strong_units == weak_units && strong_units > 0) {
    const Square pawn = lsb(strong_pawn_bb);
    if (weak_king.file() == pawn.file() &&
        weak_king.relative_rank(strong) > pawn.relative_rank(strong))
      return 24;
  }
  return kScaleNormal;
}

}  // namespace tessera::eval
