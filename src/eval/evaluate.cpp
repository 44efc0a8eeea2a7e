#include "eval/evaluate.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "core/bitboard.h"

namespace tessera {

namespace {

// A middlegame / endgame pair. Terms are summed as pairs and blended once at the end.
struct S {
  int mg = 0;
  int eg = 0;
  constexpr S() = default;
  constexpr S(int m, int e) : mg(m), eg(e) {}
  constexpr S operator+(S o) const { return {mg + o.mg, eg + o.eg}; }
  constexpr S operator-(S o) const { return {mg - o.mg, eg - o.eg}; }
  constexpr S operator*(int k) const { return {mg * k, eg * k}; }
  constexpr S& operator+=(S o) { return *this = *this + o; }
  constexpr S& operator-=(S o) { return *this = *this - o; }
};

constexpr std::array<S, 6> kMaterial = {S{82, 100},  S{330, 300},  S{350, 320},
                                        S{470, 540}, S{1000, 990}, S{0, 0}};

// Game phase: 24 with all minor and major pieces on the board, 0 with none.
constexpr std::array<int, 6> kPhaseWeight = {0, 1, 1, 2, 4, 0};
constexpr int kMaxPhase = 24;

// Piece-square tables from white's point of view, written as a board diagram (rank 8 on the
// first row), middlegame then endgame. Black reads them with the rank mirrored.
using Table = std::array<int, 64>;

// clang-format off
constexpr Table kPawnMg = {
    0,   0,   0,   0,   0,   0,   0,   0,
   40,  45,  45,  50,  50,  45,  45,  40,
   10,  15,  20,  30,  30,  20,  15,  10,
    0,   5,  10,  22,  22,  10,   5,   0,
   -3,   0,   5,  18,  18,   5,   0,  -3,
   -3,  -2,   2,   6,   6,   0,  -2,  -3,
   -5,   0,   0, -12, -12,   5,   5,  -5,
    0,   0,   0,   0,   0,   0,   0,   0};
constexpr Table kPawnEg = {
    0,   0,   0,   0,   0,   0,   0,   0,
   50,  50,  45,  40,  40,  45,  50,  50,
   25,  25,  20,  15,  15,  20,  25,  25,
   10,  10,   5,   0,   0,   5,  10,  10,
    3,   3,   0,  -3,  -3,   0,   3,   3,
   -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
   -2,  -2,  -2,  -2,  -2,  -2,  -2,  -2,
    0,   0,   0,   0,   0,   0,   0,   0};
constexpr Table kKnightMg = {
  -60, -30, -20, -15, -15, -20, -30, -60,
  -30, -10,   0,   5,   5,   0, -10, -30,
  -15,   5,  15,  20,  20,  15,   5, -15,
  -10,  10,  20,  25,  25,  20,  10, -10,
  -15,   5,  15,  20,  20,  15,   5, -15,
  -20,   0,  10,  12,  12,  10,   0, -20,
  -30, -15,  -5,   0,   0,  -5, -15, -30,
  -50, -30, -25, -20, -20, -25, -30, -50};
constexpr Table kKnightEg = {
  -50, -35, -25, -20, -20, -25, -35, -50,
  -30, -15,  -5,   0,   0,  -5, -15, -30,
  -20,  -5,   8,  12,  12,   8,  -5, -20,
  -15,   0,  12,  18,  18,  12,   0, -15,
  -15,   0,  12,  18,  18,  12,   0, -15,
  -20,  -5,   5,  10,  10,   5,  -5, -20,
  -30, -15,  -5,   0,   0,  -5, -15, -30,
  -50, -35, -25, -20, -20, -25, -35, -50};
constexpr Table kBishopMg = {
  -20, -10, -10, -10, -10, -10, -10, -20,
  -10,   0,   0,   0,   0,   0,   0, -10,
   -5,   5,   8,  10,  10,   8,   5,  -5,
   -5,  10,   8,  15,  15,   8,  10,  -5,
    0,   5,  15,  15,  15,  15,   5,   0,
    0,  10,  10,  10,  10,  10,  10,   0,
    0,  15,   5,   5,   5,   5,  15,   0,
  -15,  -5, -10,  -5,  -5, -10,  -5, -15};
constexpr Table kBishopEg = {
  -15, -10,  -8,  -5,  -5,  -8, -10, -15,
  -10,  -3,   0,   2,   2,   0,  -3, -10,
   -8,   0,   5,   6,   6,   5,   0,  -8,
   -5,   2,   6,  10,  10,   6,   2,  -5,
   -5,   2,   6,  10,  10,   6,   2,  -5,
   -8,   0,   5,   6,   6,   5,   0,  -8,
  -10,  -3,   0,   2,   2,   0,  -3, -10,
  -15, -10,  -8,  -5,  -5,  -8, -10, -15};
constexpr Table kRookMg = {
    5,  10,  10,  12,  12,  10,  10,   5,
   20,  25,  25,  25,  25,  25,  25,  20,
    0,   5,   5,   5,   5,   5,   5,   0,
   -5,   0,   0,   0,   0,   0,   0,  -5,
   -8,  -3,   0,   0,   0,   0,  -3,  -8,
  -10,  -5,   0,   0,   0,   0,  -5, -10,
  -15,  -5,   0,   0,   0,   0,  -5, -15,
   -5,  -3,   2,   8,   8,   5,  -3,  -5};
constexpr Table kRookEg = {
   10,  10,  10,  10,  10,  10,  10,  10,
   15,  15,  15,  15,  15,  15,  15,  15,
    5,   5,   5,   5,   5,   5,   5,   5,
    0,   0,   0,   0,   0,   0,   0,   0,
   -3,  -3,  -3,  -3,  -3,  -3,  -3,  -3,
   -5,  -5,  -5,  -5,  -5,  -5,  -5,  -5,
   -8,  -8,  -5,  -5,  -5,  -5,  -8,  -8,
  -10,  -5,  -3,  -3,  -3,  -3,  -5, -10};
constexpr Table kQueenMg = {
  -20, -10, -10,  -5,  -5, -10, -10, -20,
  -10,  -5,   0,   0,   0,   0,  -5, -10,
  -10,   0,   5,   5,   5,   5,   0, -10,
   -5,   0,   5,   5,   5,   5,   0,  -5,
   -5,   0,   5,   5,   5,   5,   0,  -5,
  -10,   2,   5,   5,   5,   5,   2, -10,
  -10,   0,   3,   2,   2,   0,   0, -10,
  -20, -10, -10,   0,  -5, -10, -10, -20};
constexpr Table kQueenEg = {
  -20, -10,  -5,   0,   0,  -5, -10, -20,
  -10,   0,   5,  10,  10,   5,   0, -10,
   -5,   5,  12,  15,  15,  12,   5,  -5,
    0,  10,  15,  20,  20,  15,  10,   0,
    0,  10,  15,  20,  20,  15,  10,   0,
   -5,   5,  12,  15,  15,  12,   5,  -5,
  -10,   0,   5,  10,  10,   5,   0, -10,
  -20, -10,  -5,   0,   0,  -5, -10, -20};
constexpr Table kKingMg = {
  -60, -70, -70, -80, -80, -70, -70, -60,
  -60, -70, -70, -80, -80, -70, -70, -60,
  -50, -60, -60, -70, -70, -60, -60, -50,
  -40, -50, -55, -65, -65, -55, -50, -40,
  -30, -40, -45, -55, -55, -45, -40, -30,
  -15, -20, -25, -35, -35, -25, -20, -15,
   15,  15,  -5, -20, -20,  -5,  15,  15,
   25,  35,  15, -10,   0,  10,  35,  25};
constexpr Table kKingEg = {
  -50, -30, -20, -15, -15, -20, -30, -50,
  -25,  -5,   5,  10,  10,   5,  -5, -25,
  -15,   5,  20,  25,  25,  20,   5, -15,
  -15,   5,  25,  30,  30,  25,   5, -15,
  -20,   0,  20,  25,  25,  20,   0, -20,
  -25,  -5,  10,  15,  15,  10,  -5, -25,
  -35, -15,  -5,   0,   0,  -5, -15, -35,
  -55, -35, -25, -20, -20, -25, -35, -55};
// clang-format on

// psq[piece index][square]: material plus table, ready to add, built once at compile time.
using PsqTable = std::array<std::array<S, 64>, kPieceCount>;

constexpr PsqTable build_psq() {
  const std::array<const Table*, 6> mg = {&kPawnMg, &kKnightMg, &kBishopMg,
                                          &kRookMg, &kQueenMg,  &kKingMg};
  const std::array<const Table*, 6> eg = {&kPawnEg, &kKnightEg, &kBishopEg,
                                          &kRookEg, &kQueenEg,  &kKingEg};
  PsqTable t{};
  for (int c = 0; c < 2; ++c)
    for (int pt = 0; pt < 6; ++pt)
      for (int s = 0; s < 64; ++s) {
        const Square rel = Square(s).relative(Color(c));
        const int idx = (7 - rel.rank()) * 8 + rel.file();
        t[Piece(Color(c), PieceType(pt)).index()][s] =
            kMaterial[pt] + S{(*mg[pt])[idx], (*eg[pt])[idx]};
      }
  return t;
}

constexpr PsqTable kPsq = build_psq();

// Mobility: bonus per reachable safe square, centred on a typical count so that an average
// piece adds about nothing.
constexpr std::array<S, 6> kMobilityPerSquare = {S{0, 0}, S{4, 4}, S{5, 5},
                                                 S{2, 4}, S{1, 2}, S{0, 0}};
constexpr std::array<int, 6> kMobilityCentre = {0, 4, 6, 7, 13, 0};

constexpr S kBishopPair{30, 50};
constexpr S kDoubledPawn{-10, -20};
constexpr S kIsolatedPawn{-10, -12};
constexpr S kRookOpenFile{25, 10};
constexpr S kRookSemiOpenFile{12, 6};
constexpr S kTempo{15, 5};
constexpr S kThreatByPawn{55, 35};   // a piece attacked by an enemy pawn
constexpr S kThreatByMinor{30, 25};  // a rook or queen attacked by a knight or bishop
constexpr S kThreatByRook{25, 20};   // a queen attacked by a rook
constexpr S kHanging{30, 15};        // a piece attacked and not defended
constexpr S kRookOnSeventh{15, 25};
constexpr S kKnightOutpost{20, 10};
// Connected (side by side or defended) pawns by rank counted from their own side.
constexpr std::array<S, 8> kConnected = {S{0, 0},   S{3, 2},   S{5, 3},   S{8, 6},
                                         S{14, 12}, S{24, 22}, S{40, 40}, S{0, 0}};
// King-safety units of a safe square from which an enemy piece of each type could check.
constexpr std::array<int, 6> kSafeCheckUnits = {0, 6, 4, 6, 5, 0};
// Passed pawn by rank counted from its own side (index 1 = second rank).
constexpr std::array<S, 8> kPassed = {S{0, 0},   S{0, 5},   S{5, 10},   S{10, 20},
                                      S{20, 40}, S{40, 70}, S{70, 110}, S{0, 0}};
// King-safety weights of an attacker hitting the zone around the king, per attacked square.
constexpr std::array<int, 6> kAttackWeight = {0, 2, 2, 3, 5, 0};

[[nodiscard]] int distance(Square a, Square b) {
  return std::max(std::abs(a.file() - b.file()), std::abs(a.rank() - b.rank()));
}

[[nodiscard]] Bitboard adjacent_files(int file) {
  return (file > 0 ? file_bb(file - 1) : 0) | (file < 7 ? file_bb(file + 1) : 0);
}

// Squares in front of `s` from `c`'s point of view, on the same file.
[[nodiscard]] Bitboard forward_file(Color c, Square s) {
  const Bitboard f = file_bb(s.file());
  return c == WHITE ? f & ~((Bitboard(2) << s.index()) - 1) & ~s.bb()
                    : f & ((Bitboard(1) << s.index()) - 1);
}

// Squares an enemy pawn must not stand on for a pawn on `s` to be passed: the own file and the
// two adjacent ones, in front of it.
[[nodiscard]] Bitboard passed_span(Color c, Square s) {
  const Bitboard files = file_bb(s.file()) | adjacent_files(s.file());
  const Bitboard ahead = c == WHITE ? ~((Bitboard(2) << s.index()) - 1) & ~rank_bb(s.rank())
                                    : ((Bitboard(1) << s.index()) - 1) & ~rank_bb(s.rank());
  return files & ahead;
}

struct EvalState {
  Bitboard pawn_attacks[2] = {0, 0};
  Bitboard attacked[2] = {0, 0};    // every square attacked by a piece of that colour
  Bitboard attacked_by[2][6] = {};  // the same, per attacking piece type
  Bitboard king_zone[2] = {0, 0};
  int attack_units[2] = {0, 0};  // [c]: pressure of c's pieces on the enemy king zone
  int attackers[2] = {0, 0};
};

S pawn_terms(const Position& pos, Color us) {
  S score;
  const Color them = ~us;
  const Bitboard ours = pos.pieces(us, PAWN);
  const Bitboard theirs = pos.pieces(them, PAWN);
  Bitboard b = ours;
  while (b) {
    const Square s = pop_lsb(b);
    const int f = s.file();
    if (!(ours & adjacent_files(f))) score += kIsolatedPawn;
    if (forward_file(us, s) & ours) score += kDoubledPawn;
    const Bitboard neighbours = ours & adjacent_files(f);
    const Bitboard beside = neighbours & rank_bb(s.rank());
    const Bitboard defenders = neighbours & pawn_attacks(them, s);
    if (beside | defenders) score += kConnected[s.relative_rank(us)];
    if (!(passed_span(us, s) & theirs) && !(forward_file(us, s) & ours)) {
      const int r = s.relative_rank(us);
      S bonus = kPassed[r];
      const Square stop = s.offset(us == WHITE ? 8 : -8);
      // In the endgame the kings decide: ours should escort, theirs should be far away.
      const int weight = std::max(r - 2, 0);
      bonus.eg += weight * (5 * distance(pos.king_square(them), stop) -
                            2 * distance(pos.king_square(us), stop));
      if (!pos.empty(stop)) bonus = S{bonus.mg / 2, bonus.eg / 2};
      score += bonus;
    }
  }
  return score;
}

S piece_terms(const Position& pos, Color us, EvalState& st) {
  S score;
  const Color them = ~us;
  const Bitboard occupied = pos.pieces();
  const Bitboard mobility_area = ~(pos.pieces(us, PAWN, KING) | st.pawn_attacks[them]);
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
    Bitboard b = pos.pieces(us, pt);
    while (b) {
      const Square s = pop_lsb(b);
      const Bitboard att = piece_attacks(pt, s, occupied);
      st.attacked_by[us][pt] |= att;
      const int mob = popcount(att & mobility_area);
      score += kMobilityPerSquare[pt] * (mob - kMobilityCentre[pt]);
      const Bitboard zone_hits = att & st.king_zone[them];
      if (zone_hits) {
        ++st.attackers[us];
        st.attack_units[us] += kAttackWeight[pt] * popcount(zone_hits);
      }
      if (pt == KNIGHT) {
        // An outpost: defended by a pawn, never to be chased away by an enemy pawn.
        const int r = s.relative_rank(us);
        if (r >= 3 && r <= 5 && (st.pawn_attacks[us] & s.bb()) &&
            !(passed_span(us, s) & ~file_bb(s.file()) & pos.pieces(them, PAWN)))
          score += kKnightOutpost;
      }
      if (pt == ROOK) {
        const Bitboard file = file_bb(s.file());
        if (!(file & pos.pieces(PAWN)))
          score += kRookOpenFile;
        else if (!(file & pos.pieces(us, PAWN)))
          score += kRookSemiOpenFile;
        if (s.relative_rank(us) == 6 && (pos.king_square(them).relative_rank(us) == 7 ||
                                         (pos.pieces(them, PAWN) & rank_bb(us == WHITE ? 6 : 1))))
          score += kRookOnSeventh;
      }
    }
  }
  if (pos.count(us, BISHOP) >= 2) score += kBishopPair;
  return score;
}

// Pieces of `us` that attack more valuable or undefended enemy pieces. Needs the attack maps
// of both sides, so it runs after piece_terms for both.
S threat_terms(const Position& pos, Color us, const EvalState& st) {
  S score;
  const Color them = ~us;
  const Bitboard targets = pos.pieces(them) & ~pos.pieces(them, PAWN, KING);
  score += kThreatByPawn * popcount(targets & st.pawn_attacks[us]);
  const Bitboard minors = st.attacked_by[us][KNIGHT] | st.attacked_by[us][BISHOP];
  score += kThreatByMinor * popcount(pos.pieces(them, ROOK, QUEEN) & minors);
  score += kThreatByRook * popcount(pos.pieces(them, QUEEN) & st.attacked_by[us][ROOK]);
  score += kHanging * popcount(targets & st.attacked[us] & ~st.attacked[them]);
  return score;
}

// The defending side's king: its pawn shield and the pressure measured in piece_terms.
S king_terms(const Position& pos, Color us, const EvalState& st) {
  S score;
  const Color them = ~us;
  const Square k = pos.king_square(us);
  if (k.relative_rank(us) <= 1) {
    const Bitboard files = file_bb(k.file()) | adjacent_files(k.file());
    const Bitboard ours = pos.pieces(us, PAWN) & files;
    const Bitboard rank2 = rank_bb(us == WHITE ? 1 : 6);
    const Bitboard rank3 = rank_bb(us == WHITE ? 2 : 5);
    score.mg += 12 * popcount(ours & rank2) + 6 * popcount(ours & rank3);
    // An open file next to the king is a highway for the enemy rooks.
    for (int f = std::max(k.file() - 1, 0); f <= std::min(k.file() + 1, 7); ++f)
      if (!(pos.pieces(us, PAWN) & file_bb(f))) score.mg -= 15;
  }
  if (st.attackers[them] >= 2 && pos.count(them, QUEEN) > 0) {
    int u = st.attack_units[them];
    // Checks the enemy could give from squares we do not defend.
    const Bitboard occupied = pos.pieces();
    const Bitboard safe = ~st.attacked[us] & ~pos.pieces(them);
    const Bitboard diag = bishop_attacks(k, occupied);
    const Bitboard orth = rook_attacks(k, occupied);
    u +=
        kSafeCheckUnits[KNIGHT] * popcount(knight_attacks(k) & st.attacked_by[them][KNIGHT] & safe);
    u += kSafeCheckUnits[BISHOP] * popcount(diag & st.attacked_by[them][BISHOP] & safe);
    u += kSafeCheckUnits[ROOK] * popcount(orth & st.attacked_by[them][ROOK] & safe);
    u += kSafeCheckUnits[QUEEN] * popcount((diag | orth) & st.attacked_by[them][QUEEN] & safe);
    score.mg -= std::min(u * u / 4, 450);
    score.eg -= u;
  }
  return score;
}

}  // namespace

int piece_value(PieceType t) { return t < KING ? kMaterial[t].mg : 0; }

namespace {

// The evaluation proper; fills `trace` (white's point of view, before tapering) when given.
int evaluate_impl(const Position& pos, EvalTrace* trace) {
  S score;  // from white's point of view
  int phase = 0;
  Bitboard occ = pos.pieces();
  while (occ) {
    const Square s = pop_lsb(occ);
    const Piece p = pos.piece_on(s);
    const S v = kPsq[p.index()][s.index()];
    if (p.color() == WHITE)
      score += v;
    else
      score -= v;
    phase += kPhaseWeight[p.type()];
  }
  phase = std::min(phase, kMaxPhase);

  EvalState st;
  for (Color c : {WHITE, BLACK}) {
    st.pawn_attacks[c] = pawn_attacks_bb(c, pos.pieces(c, PAWN));
    const Square k = pos.king_square(c);
    st.king_zone[c] = king_attacks(k) | k.bb();
  }
  const S pawns[2] = {pawn_terms(pos, WHITE), pawn_terms(pos, BLACK)};
  const S pieces[2] = {piece_terms(pos, WHITE, st), piece_terms(pos, BLACK, st)};
  for (Color c : {WHITE, BLACK}) {
    st.attacked_by[c][PAWN] = st.pawn_attacks[c];
    st.attacked_by[c][KING] = king_attacks(pos.king_square(c));
    for (int pt = 0; pt < 6; ++pt) st.attacked[c] |= st.attacked_by[c][pt];
  }
  const S threats[2] = {threat_terms(pos, WHITE, st), threat_terms(pos, BLACK, st)};
  const S king[2] = {king_terms(pos, WHITE, st), king_terms(pos, BLACK, st)};
  const S tempo = pos.side_to_move() == WHITE ? kTempo : kTempo * -1;
  if (trace) {
    S material;
    for (int t = PAWN; t < KING; ++t)
      material += kMaterial[t] * (pos.count(WHITE, PieceType(t)) - pos.count(BLACK, PieceType(t)));
    const S psq = score - material;
    trace->terms = {{{"Material", material.mg, material.eg},
                     {"Piece-square tables", psq.mg, psq.eg},
                     {"Pawn structure", (pawns[0] - pawns[1]).mg, (pawns[0] - pawns[1]).eg},
                     {"Pieces (mobility, files, outposts)", (pieces[0] - pieces[1]).mg,
                      (pieces[0] - pieces[1]).eg},
                     {"Threats", (threats[0] - threats[1]).mg, (threats[0] - threats[1]).eg},
                     {"King safety", (king[0] - king[1]).mg, (king[0] - king[1]).eg},
                     {"Tempo", tempo.mg, tempo.eg}}};
    trace->phase = phase;
    trace->max_phase = kMaxPhase;
  }
  score += pawns[0] - pawns[1];
  score += pieces[0] - pieces[1];
  score += threats[0] - threats[1];
  score += king[0] - king[1];
  score += tempo;

  int value = (score.mg * phase + score.eg * (kMaxPhase - phase)) / kMaxPhase;
  if (trace) trace->tapered = value;

  // Without pawns, a side that is at most a minor piece up rarely wins: scale towards a draw.
  const Color strong = value > 0 ? WHITE : BLACK;
  if (pos.count(strong, PAWN) == 0) {
    auto non_pawn = [&](Color c) {
      return 3 * (pos.count(c, KNIGHT) + pos.count(c, BISHOP)) + 5 * pos.count(c, ROOK) +
             9 * pos.count(c, QUEEN);
    };
    if (non_pawn(strong) - non_pawn(~strong) <= 3) value /= 8;
  }
  if (trace) trace->scaled = value;

  value = pos.side_to_move() == WHITE ? value : -value;
  return std::clamp(value, -20000, 20000);
}

}  // namespace

int evaluate(const Position& pos) { return evaluate_impl(pos, nullptr); }

EvalTrace evaluate_traced(const Position& pos) {
  EvalTrace trace;
  trace.result = evaluate_impl(pos, &trace);
  return trace;
}

}  // namespace tessera
