#include "eval/evaluate.h"

#include <algorithm>
#include <array>
#include <cstdlib>

#include "core/bitboard.h"
#include "eval/endgame.h"
#include "eval/weights.h"

namespace tessera::eval {

namespace {

static_assert(kWeights.size() == std::size_t(kWeightCount));

inline constexpr auto kGroupOffsets = [] {
  std::array<int, std::size_t(Group::Count) + 1> offsets{};
  for (std::size_t g = 0; g <= std::size_t(Group::Count); ++g) offsets[g] = group_offset(Group(g));
  return offsets;
}();

constexpr std::array<int, 6> kPhaseWeight = {0, 1, 1, 2, 4, 0};

// King-attack units of a piece that attacks the enemy king zone (the index of KingDanger adds
// these to the number of zone squares attacked).
constexpr std::array<int, 6> kAttackerUnits = {0, 2, 2, 3, 5, 0};

// psq[piece index][square]: material plus piece-square weight, for the untraced path.
using PsqTable = std::array<std::array<S, 64>, kPieceCount>;
constexpr PsqTable build_psq() {
  PsqTable t{};
  for (int c = 0; c < 2; ++c)
    for (int pt = 0; pt < 6; ++pt)
      for (int s = 0; s < 64; ++s) {
        const S material = pt < KING ? kWeights[std::size_t(kGroupOffsets[0] + pt)] : S{};
        const int rel = Square(s).relative(Color(c)).index();
        const S square =
            kWeights[std::size_t(kGroupOffsets[std::size_t(Group::Psqt)] + pt * 64 + rel)];
        t[Piece(Color(c), PieceType(pt)).index()][s] = material + square;
      }
  return t;
}
constexpr PsqTable kPsq = build_psq();

// ----- Geometry.

[[nodiscard]] Bitboard adjacent_files(int file) {
  return (file > 0 ? file_bb(file - 1) : 0) | (file < 7 ? file_bb(file + 1) : 0);
}

// Every square of `b` and those in front of them, from `c`'s point of view.
[[nodiscard]] Bitboard fill_forward(Color c, Bitboard b) {
  if (c == WHITE) {
    b |= b << 8;
    b |= b << 16;
    b |= b << 32;
  } else {
    b |= b >> 8;
    b |= b >> 16;
    b |= b >> 32;
  }
  return b;
}

// The ranks strictly in front of `rank` from `c`'s point of view.
[[nodiscard]] Bitboard ranks_ahead(Color c, int rank) {
  if (c == WHITE) return rank == 7 ? 0 : ~((Bitboard(1) << (8 * (rank + 1))) - 1);
  return rank == 0 ? 0 : (Bitboard(1) << (8 * rank)) - 1;
}

// Squares strictly in front of `s` from `c`'s point of view, on its file.
[[nodiscard]] Bitboard forward_file(Color c, Square s) { return fill_forward(c, s.bb()) & ~s.bb(); }

// The squares an enemy pawn must not stand on for a pawn of `c` on `s` to be passed.
[[nodiscard]] Bitboard passed_span(Color c, Square s) {
  const Bitboard front = forward_file(c, s);
  return front | ((front & ~kFileA) >> 1) | ((front & ~kFileH) << 1);
}

// The weight of entry `i` of group `g`.
[[nodiscard]] constexpr S weight(Group g, int i = 0) {
  return kWeights[std::size_t(kGroupOffsets[std::size_t(g)] + i)];
}

// Sums weighted terms as white minus black; with Trace, also counts how often each weight
// was used (the tuner's coefficients).
template <bool Trace>
struct Accumulator {
  S score;
  std::array<int, kWeightCount>* coefficients = nullptr;

  void add(Color c, Group g, int i = 0, int count = 1) {
    const S w = weight(g, i) * count;
    if (c == WHITE)
      score += w;
    else
      score -= w;
    if constexpr (Trace)
      (*coefficients)[std::size_t(kGroupOffsets[std::size_t(g)] + i)] +=
          c == WHITE ? count : -count;
  }
};

// ----- Material table: phase, imbalance and endgame knowledge (piece counts only).

template <bool Trace>
void material_terms(const Position& pos, Accumulator<Trace>& acc) {
  for (Color c : {WHITE, BLACK}) {
    const int pawns = pos.count(c, PAWN);
    if (const int n = pos.count(c, KNIGHT)) acc.add(c, Group::KnightPawnAdjust, 0, n * (pawns - 5));
    if (const int n = pos.count(c, ROOK)) acc.add(c, Group::RookPawnAdjust, 0, n * (pawns - 5));
    if (pos.count(c, BISHOP) >= 2) acc.add(c, Group::BishopPair);
  }
}

[[nodiscard]] int game_phase(const Position& pos) {
  int phase = 0;
  for (int pt = KNIGHT; pt <= QUEEN; ++pt)
    phase += kPhaseWeight[pt] * (pos.count(WHITE, PieceType(pt)) + pos.count(BLACK, PieceType(pt)));
  return std::min(phase, kMaxPhase);
}

// Whether some drawish-material rule could apply, judged by the counts alone (so that the
// common case skips scale_factor()).
[[nodiscard]] bool may_need_scaling(const Position& pos) {
  const auto minors = [&](Color c) { return pos.count(c, KNIGHT) + pos.count(c, BISHOP); };
  const auto majors = [&](Color c) { return pos.count(c, ROOK) + pos.count(c, QUEEN); };
  const bool pawnless_side = pos.count(WHITE, PAWN) == 0 || pos.count(BLACK, PAWN) == 0;
  const bool bishops_each = pos.count(WHITE, BISHOP) == 1 && pos.count(BLACK, BISHOP) == 1;
  const bool lone_bishop =
      (pos.count(WHITE, BISHOP) == 1 && minors(WHITE) == 1 && majors(WHITE) == 0) ||
      (pos.count(BLACK, BISHOP) == 1 && minors(BLACK) == 1 && majors(BLACK) == 0);
  const bool pawns_only_side =
      !pos.has_non_pawn_material(WHITE) || !pos.has_non_pawn_material(BLACK);
  return pawnless_side || bishops_each || lone_bishop || pawns_only_side;
}

void fill_material_entry(const Position& pos, MaterialEntry& e) {
  Accumulator<false> acc;
  material_terms(pos, acc);
  e.key = pos.material_key();
  e.imbalance = acc.score;
  e.phase = std::uint8_t(game_phase(pos));
  e.check_scaling = may_need_scaling(pos);
  e.endgame = classify_endgame(pos);
}

// The material entry of `pos` from the cache, filled on a miss; counts the probe.
const MaterialEntry& probe_material(const Position& pos, EvalCache& cache) {
  MaterialEntry& me = cache.material_slot(pos.material_key());
  ++cache.stats.material_probes;
  if (me.key == pos.material_key())
    ++cache.stats.material_hits;
  else
    fill_material_entry(pos, me);
  return me;
}

// ----- Pawn table: pawn structure and everything else that depends on pawns and kings only.

template <bool Trace>
void pawn_terms(const Position& pos, Color us, Accumulator<Trace>& acc, PawnEntry& e) {
  const Color them = ~us;
  const Bitboard ours = pos.pieces(us, PAWN);
  const Bitboard theirs = pos.pieces(them, PAWN);
  const int forward = us == WHITE ? 8 : -8;
  Bitboard b = ours;
  while (b) {
    const Square s = pop_lsb(b);
    const int f = s.file();
    const int r = s.relative_rank(us);
    const Square stop = s.offset(forward);
    const Bitboard neighbours = ours & adjacent_files(f);
    const Bitboard supporters = neighbours & ~ranks_ahead(us, s.rank());  // level or behind
    const bool passed = !(passed_span(us, s) & theirs) && !(forward_file(us, s) & ours);

    if (!neighbours) acc.add(us, Group::Isolated);
    if (forward_file(us, s) & ours) acc.add(us, Group::Doubled);
    if ((neighbours & rank_bb(s.rank())) || (neighbours & pawn_attacks(them, s)))
      acc.add(us, Group::Connected, r);
    // Backward: no own pawn can ever defend it, and its stop square is held by an enemy pawn.
    if (neighbours && !supporters && (pawn_attacks(us, stop) & theirs))
      acc.add(us, Group::Backward);

    if (passed) {
      e.passed[us] |= s.bb();
      acc.add(us, Group::Passed, r);
      acc.add(us, Group::PassedOurKingDistance, r, distance(pos.king_square(us), stop));
      acc.add(us, Group::PassedTheirKingDistance, r, distance(pos.king_square(them), stop));
    } else if (!(forward_file(us, s) & theirs)) {
      // A candidate: an open file ahead and at least as many helpers as enemy sentries.
      const Bitboard sentries = passed_span(us, s) & ~file_bb(f) & theirs;
      if (popcount(supporters) >= popcount(sentries)) acc.add(us, Group::Candidate, r);
    }
  }
}

// Shelter and storm on the king's file and the two next to it.
template <bool Trace>
void shelter_terms(const Position& pos, Color us, Accumulator<Trace>& acc) {
  const Color them = ~us;
  const Square k = pos.king_square(us);
  const Bitboard in_front = ranks_ahead(us, k.rank()) | rank_bb(k.rank());
  const int centre = std::clamp(k.file(), 1, 6);
  for (int f = centre - 1; f <= centre + 1; ++f) {
    const Bitboard file = file_bb(f);
    const Bitboard ours = pos.pieces(us, PAWN) & file & in_front;
    const Bitboard theirs = pos.pieces(them, PAWN) & file & in_front;
    // Our nearest pawn in front of the king and their nearest (most advanced) one.
    const int shelter = ours ? (us == WHITE ? lsb(ours) : msb(ours)).relative_rank(us) : 0;
    const int storm = theirs ? (us == WHITE ? lsb(theirs) : msb(theirs)).relative_rank(us) : 0;
    acc.add(us, Group::ShelterRank, shelter);
    acc.add(us, Group::StormRank, storm);
    if (!(pos.pieces(PAWN) & file))
      acc.add(us, Group::KingOpenFile);
    else if (!(pos.pieces(us, PAWN) & file))
      acc.add(us, Group::KingSemiOpenFile);
  }
}

template <bool Trace>
void fill_pawn_entry(const Position& pos, Accumulator<Trace>& acc, PawnEntry& e) {
  e.key = pos.pawn_key();
  e.passed[WHITE] = e.passed[BLACK] = 0;
  for (Color c : {WHITE, BLACK}) {
    e.attacks[c] = pawn_attacks_bb(c, pos.pieces(c, PAWN));
    e.attack_span[c] = fill_forward(c, e.attacks[c]);
    pawn_terms(pos, c, acc, e);
    shelter_terms(pos, c, acc);
  }
}

// ----- Pieces, threats and king safety (every evaluation).

struct AttackInfo {
  Bitboard attacked[2] = {0, 0};        // by any piece of that colour
  Bitboard attacked_twice[2] = {0, 0};  // by two or more
  Bitboard by[2][6] = {};               // per attacking piece type
  Bitboard king_zone[2] = {0, 0};
  int king_units[2] = {0, 0};  // [c]: c's pressure on the enemy king
  int king_attackers[2] = {0, 0};

  void add(Color c, PieceType pt, Bitboard att) {
    attacked_twice[c] |= attacked[c] & att;
    attacked[c] |= att;
    by[c][pt] |= att;
  }
};

template <bool Trace>
void piece_terms(const Position& pos, Color us, const PawnEntry& pe, AttackInfo& ai,
                 Accumulator<Trace>& acc) {
  const Color them = ~us;
  const Bitboard occupied = pos.pieces();
  const Bitboard mobility_area = ~(pos.pieces(us, PAWN, KING) | pe.attacks[them]);
  const Bitboard outpost_ranks =
      us == WHITE ? rank_bb(3) | rank_bb(4) | rank_bb(5) : rank_bb(4) | rank_bb(3) | rank_bb(2);
  const Bitboard outposts = outpost_ranks & pe.attacks[us] & ~pe.attack_span[them];
  // Indexed by piece type; the pawn and king entries are never used.
  constexpr std::array<Group, 6> kMobility = {Group::Tempo,          Group::KnightMobility,
                                              Group::BishopMobility, Group::RookMobility,
                                              Group::QueenMobility,  Group::Tempo};
  for (PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
    Bitboard b = pos.pieces(us, pt);
    while (b) {
      const Square s = pop_lsb(b);
      const Bitboard att = piece_attacks(pt, s, occupied);
      ai.add(us, pt, att);
      acc.add(us, kMobility[pt], popcount(att & mobility_area));
      if (att & ai.king_zone[them]) {
        ++ai.king_attackers[us];
        ai.king_units[us] += kAttackerUnits[pt];
      }
      if (pt == KNIGHT && (outposts & s.bb())) acc.add(us, Group::KnightOutpost);
      if (pt == BISHOP) {
        if (outposts & s.bb()) acc.add(us, Group::BishopOutpost);
        const Bitboard same_colour = (kDarkSquares & s.bb()) ? kDarkSquares : ~kDarkSquares;
        if (const int n = popcount(pos.pieces(us, PAWN) & same_colour))
          acc.add(us, Group::BishopPawnsOnColour, 0, n);
      }
      if (pt == ROOK) {
        const Bitboard file = file_bb(s.file());
        if (!(file & pos.pieces(PAWN)))
          acc.add(us, Group::RookOpenFile);
        else if (!(file & pos.pieces(us, PAWN)))
          acc.add(us, Group::RookSemiOpenFile);
        if (s.relative_rank(us) == 6 && (pos.king_square(them).relative_rank(us) == 7 ||
                                         (pos.pieces(them, PAWN) & rank_bb(us == WHITE ? 6 : 1))))
          acc.add(us, Group::RookOnSeventh);
      }
    }
  }
}

template <bool Trace>
void threat_terms(const Position& pos, Color us, const AttackInfo& ai, Accumulator<Trace>& acc) {
  const Color them = ~us;
  const Bitboard pieces = pos.pieces(them) & ~pos.pieces(them, PAWN, KING);
  const Bitboard defended = ai.attacked[them];
  if (const int n = popcount(pieces & ai.by[us][PAWN])) acc.add(us, Group::ThreatByPawn, 0, n);
  const Bitboard minors = ai.by[us][KNIGHT] | ai.by[us][BISHOP];
  const Bitboard targets = pos.pieces(them) & ~pos.pieces(them, KING);
  for (PieceType victim : {PAWN, KNIGHT, BISHOP, ROOK, QUEEN}) {
    const Bitboard v = pos.pieces(them, victim) & targets;
    // A pawn counts as a target only when it is not defended.
    const Bitboard attackable = victim == PAWN ? v & ~defended : v;
    if (const int n = popcount(attackable & minors)) acc.add(us, Group::ThreatByMinor, victim, n);
    if (const int n = popcount(attackable & ai.by[us][ROOK]))
      acc.add(us, Group::ThreatByRook, victim, n);
  }
  if (const int n = popcount(targets & ai.by[us][KING] & ~defended))
    acc.add(us, Group::ThreatByKing, 0, n);
  if (const int n = popcount(pieces & ai.attacked[us] & ~defended))
    acc.add(us, Group::Hanging, 0, n);
  // Pawn pushes to safe squares that would then attack a piece.
  const Bitboard empty = ~pos.pieces();
  Bitboard pushes = (us == WHITE ? pos.pieces(us, PAWN) << 8 : pos.pieces(us, PAWN) >> 8) & empty;
  const Bitboard third = rank_bb(us == WHITE ? 2 : 5);
  pushes |= (us == WHITE ? (pushes & third) << 8 : (pushes & third) >> 8) & empty;
  pushes &= ~ai.by[them][PAWN] & (ai.attacked[us] | ~ai.attacked[them]);
  if (const int n = popcount(pawn_attacks_bb(us, pushes) & pieces))
    acc.add(us, Group::PawnPushThreat, 0, n);
}

// The pressure of `them` on our king: attack units from piece_terms plus the zone squares
// they attack, and the safe squares from which each piece type could check.
template <bool Trace>
void king_terms(const Position& pos, Color us, const AttackInfo& ai, Accumulator<Trace>& acc) {
  const Color them = ~us;
  const Square k = pos.king_square(us);
  const Bitboard safe =
      ~pos.pieces(them) & (~ai.attacked[us] | (ai.attacked_twice[them] & ~ai.attacked_twice[us]));
  const Bitboard occupied = pos.pieces();
  const Bitboard diag = bishop_attacks(k, occupied);
  const Bitboard orth = rook_attacks(k, occupied);
  const std::array<Bitboard, 4> checks = {
      knight_attacks(k) & ai.by[them][KNIGHT] & safe, diag & ai.by[them][BISHOP] & safe,
      orth & ai.by[them][ROOK] & safe, (diag | orth) & ai.by[them][QUEEN] & safe};
  for (int i = 0; i < 4; ++i)
    if (const int n = popcount(checks[std::size_t(i)])) acc.add(them, Group::SafeCheck, i, n);
  if (ai.king_attackers[them] >= 2) {
    const int units =
        ai.king_units[them] + popcount(ai.king_zone[us] & ai.attacked[them] & ~ai.by[them][PAWN]);
    acc.add(them, Group::KingDanger, std::min(units, kKingDangerSize - 1));
  }
}

// Passed pawns beyond the cached part: blockers, a path the enemy does not control, and the
// rule of the square against a lone king.
template <bool Trace>
void passed_terms(const Position& pos, Color us, const PawnEntry& pe, const AttackInfo& ai,
                  Accumulator<Trace>& acc) {
  const Color them = ~us;
  Bitboard b = pe.passed[us];
  while (b) {
    const Square s = pop_lsb(b);
    const int r = s.relative_rank(us);
    const Bitboard path = forward_file(us, s);
    const Square stop = s.offset(us == WHITE ? 8 : -8);
    if (pos.pieces() & stop.bb()) acc.add(us, Group::PassedBlocked, r);
    if (!(path & ai.attacked[them])) acc.add(us, Group::PassedSafePath, r);
    if (!pos.has_non_pawn_material(them) && !(path & pos.pieces(us))) {
      const Square promotion(s.file(), us == WHITE ? 7 : 0);
      const int pawn_moves = std::min(7 - r, 5);  // a pawn on its second rank may jump
      const int king_moves =
          distance(pos.king_square(them), promotion) - (pos.side_to_move() == them ? 1 : 0);
      if (pawn_moves < king_moves) acc.add(us, Group::PassedUnstoppable);
    }
  }
}

// Safe squares in the centre behind or on our half of the board, counted twice behind our
// pawns: room for the pieces to manoeuvre.
template <bool Trace>
void space_terms(const Position& pos, Color us, const PawnEntry& pe, Accumulator<Trace>& acc) {
  const Color them = ~us;
  constexpr Bitboard kCentreFiles = file_bb(2) | file_bb(3) | file_bb(4) | file_bb(5);
  const Bitboard own_half =
      us == WHITE ? rank_bb(1) | rank_bb(2) | rank_bb(3) : rank_bb(6) | rank_bb(5) | rank_bb(4);
  const Bitboard area = kCentreFiles & own_half & ~pos.pieces(us, PAWN) & ~pe.attacks[them];
  Bitboard behind = pos.pieces(us, PAWN);
  behind |= us == WHITE ? behind >> 8 : behind << 8;
  behind |= us == WHITE ? behind >> 16 : behind << 16;
  const int n = popcount(area) + popcount(area & behind);
  if (n) acc.add(us, Group::Space, 0, n);
}

struct Outcome {
  int white = 0;  // before the clamp
  int phase = 0;
  int tapered = 0;
  int scale = kScaleNormal;
  bool specialised = false;  // `endgame` decided the value
  EndgameInfo endgame{};
};

// The evaluation proper. Without Trace the caches are used when given; with Trace every term
// is computed afresh into `acc.coefficients`.
template <bool Trace>
Outcome evaluate_white(const Position& pos, EvalCache* cache, Accumulator<Trace>& acc) {
  Outcome out;
  // Step 1. Material table: phase, imbalance, specialised endgames.
  MaterialEntry local_material;
  const MaterialEntry* me = &local_material;
  if (!Trace && cache)
    me = &probe_material(pos, *cache);
  else
    fill_material_entry(pos, local_material);
  if (me->endgame.kind != Endgame::None) {
    out.specialised = true;
    out.endgame = me->endgame;
    out.white = evaluate_endgame(pos, me->endgame);
    out.tapered = out.white;
    out.phase = me->phase;
    return out;
  }
  out.phase = me->phase;
  if constexpr (Trace)
    material_terms(pos, acc);
  else
    acc.score += me->imbalance;

  // Step 2. Material and piece-square tables.
  Bitboard occ = pos.pieces();
  while (occ) {
    const Square s = pop_lsb(occ);
    const Piece p = pos.piece_on(s);
    if constexpr (Trace) {
      if (p.type() != KING) acc.add(p.color(), Group::Material, p.type());
      acc.add(p.color(), Group::Psqt, p.type() * 64 + s.relative(p.color()).index());
    } else {
      if (p.color() == WHITE)
        acc.score += kPsq[p.index()][s.index()];
      else
        acc.score -= kPsq[p.index()][s.index()];
    }
  }

  // Step 3. Pawn table: structure, static passed-pawn terms, shelter and storm.
  PawnEntry local_pawns;
  PawnEntry* pe = &local_pawns;
  if (!Trace && cache) {
    pe = &cache->pawn_slot(pos.pawn_key());
    ++cache->stats.pawn_probes;
    if (pe->key == pos.pawn_key()) {
      ++cache->stats.pawn_hits;
    } else {
      Accumulator<false> pawn_acc;
      fill_pawn_entry(pos, pawn_acc, *pe);
      pe->score = pawn_acc.score;
    }
    acc.score += pe->score;
  } else {
    fill_pawn_entry(pos, acc, *pe);
  }

  // Step 4. Pieces (mobility, placement) and the attack maps.
  AttackInfo ai;
  for (Color c : {WHITE, BLACK}) {
    const Square k = pos.king_square(c);
    ai.king_zone[c] = king_attacks(k) | k.bb();
    ai.add(c, PAWN, pe->attacks[c]);
    ai.add(c, KING, king_attacks(k));
  }
  piece_terms(pos, WHITE, *pe, ai, acc);
  piece_terms(pos, BLACK, *pe, ai, acc);

  // Step 5. Threats, king safety, passed pawns, space.
  for (Color c : {WHITE, BLACK}) {
    threat_terms(pos, c, ai, acc);
    king_terms(pos, c, ai, acc);
    passed_terms(pos, c, *pe, ai, acc);
    space_terms(pos, c, *pe, acc);
  }

  // Step 6. Tempo.
  acc.add(pos.side_to_move(), Group::Tempo);

  // Step 7. Taper, then scale drawish material towards a draw.
  out.tapered = (acc.score.mg * out.phase + acc.score.eg * (kMaxPhase - out.phase)) / kMaxPhase;
  if (me->check_scaling && out.tapered != 0)
    out.scale = scale_factor(pos, out.tapered > 0 ? WHITE : BLACK);
  out.white = out.tapered * out.scale / kScaleNormal;
  return out;
}

[[nodiscard]] const char* endgame_name(Endgame e) {
  switch (e) {
    case Endgame::KXK:
      return "KXK (mate with a lone king: drive it to the edge)";
    case Endgame::KBNK:
      return "KBNK (drive the king to a corner of the bishop's colour)";
    case Endgame::KPK:
      return "KPK (exact, by bitbase)";
    case Endgame::KRKP:
      return "KRKP (rook against pawn)";
    case Endgame::KQKP:
      return "KQKP (queen against pawn)";
    case Endgame::None:
      break;
  }
  return "none";
}

[[nodiscard]] int from_side_to_move(const Position& pos, int white) {
  return std::clamp(pos.side_to_move() == WHITE ? white : -white, -20000, 20000);
}

}  // namespace

int piece_value(PieceType t) {
  // Fixed nominal values: search margins should not move when the evaluation is retuned.
  constexpr std::array<int, 6> kNominal = {82, 330, 350, 470, 1000, 0};
  return kNominal[t];
}

int evaluate(const Position& pos) {
  Accumulator<false> acc;
  return from_side_to_move(pos, evaluate_white(pos, nullptr, acc).white);
}

int evaluate(const Position& pos, EvalCache& cache) {
  Accumulator<false> acc;
  return from_side_to_move(pos, evaluate_white(pos, &cache, acc).white);
}

int with_endgame_knowledge(const Position& pos, EvalCache& cache, int score) {
  const MaterialEntry& me = probe_material(pos, cache);
  if (me.endgame.kind != Endgame::None)
    return from_side_to_move(pos, evaluate_endgame(pos, me.endgame));
  if (!me.check_scaling || score == 0) return score;
  const Color ahead = (score > 0) == (pos.side_to_move() == WHITE) ? WHITE : BLACK;
  return score * scale_factor(pos, ahead) / kScaleNormal;
}

EvalCoefficients evaluate_coefficients(const Position& pos) {
  std::array<int, kWeightCount> counts{};
  Accumulator<true> acc;
  acc.coefficients = &counts;
  const Outcome out = evaluate_white(pos, nullptr, acc);
  EvalCoefficients c;
  c.phase = out.phase;
  c.scale = out.scale;
  c.specialised = out.specialised;
  for (int i = 0; i < kWeightCount; ++i)
    if (counts[std::size_t(i)] != 0)
      c.terms.emplace_back(std::uint16_t(i), std::int16_t(counts[std::size_t(i)]));
  return c;
}

EvalTrace evaluate_traced(const Position& pos) {
  std::array<int, kWeightCount> counts{};
  Accumulator<true> acc;
  acc.coefficients = &counts;
  const Outcome out = evaluate_white(pos, nullptr, acc);
  EvalTrace t;
  for (std::size_t i = 0; i < t.terms.size(); ++i) t.terms[i].name = kCategoryNames[i];
  for (int i = 0; i < kWeightCount; ++i) {
    const auto cat = std::size_t(kGroups[std::size_t(group_of(i))].category);
    const S w = kWeights[std::size_t(i)] * counts[std::size_t(i)];
    t.terms[cat].mg += w.mg;
    t.terms[cat].eg += w.eg;
  }
  t.endgame = out.specialised ? endgame_name(out.endgame.kind) : nullptr;
  t.phase = out.phase;
  t.max_phase = kMaxPhase;
  t.tapered = out.tapered;
  t.scale = out.scale;
  t.scaled = out.white;
  t.result = from_side_to_move(pos, out.white);
  return t;
}

}  // namespace tessera::eval
