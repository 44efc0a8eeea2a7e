// The layout of the evaluation's weights: every number the evaluation adds is one entry of a
// single flat array of middlegame/endgame pairs, addressed by group and index.
//
// Policy. The values live in weights.h, which the tuner (tools/tuner) writes; this header only
// fixes the order, the names and the sizes of the groups, so that the evaluation, the `eval`
// command and the tuner agree on what entry i means. Each group belongs to one category of the
// `eval` breakdown. Every term of the evaluation is linear in these weights (a count times a
// weight), which is what lets the tuner fit them by gradient descent; non-linear ideas such as
// king danger are expressed through table lookups (the index is fixed, the entry is tuned).
#pragma once

#include <array>
#include <cstdint>

namespace tessera::eval {

// A middlegame / endgame pair. Terms are summed as pairs and blended once at the end.
struct S {
  int mg = 0;
  int eg = 0;
  constexpr S() = default;
  constexpr S(int m, int e) : mg(m), eg(e) {}
  constexpr S operator+(S o) const { return {mg + o.mg, eg + o.eg}; }
  constexpr S operator-(S o) const { return {mg - o.mg, eg - o.eg}; }
  constexpr S operator-() const { return {-mg, -eg}; }
  constexpr S operator*(int k) const { return {mg * k, eg * k}; }
  constexpr S& operator+=(S o) { return *this = *this + o; }
  constexpr S& operator-=(S o) { return *this = *this - o; }
  constexpr bool operator==(const S&) const = default;
};

// The categories of the `eval` breakdown.
enum class Category : std::uint8_t {
  Material,
  PieceSquare,
  Imbalance,
  Pawns,
  PassedPawns,
  Mobility,
  Pieces,
  Threats,
  KingSafety,
  Space,
  Tempo,
  Count
};
inline constexpr std::array<const char*, std::size_t(Category::Count)> kCategoryNames = {
    "Material",     "Piece-square tables",
    "Imbalance",    "Pawn structure",
    "Passed pawns", "Mobility",
    "Pieces",       "Threats",
    "King safety",  "Space",
    "Tempo"};

enum class Group : std::uint8_t {
  Material,                 // [piece type P..Q]
  Psqt,                     // [piece type * 64 + square], square from white's side (a1 = 0)
  KnightPawnAdjust,         // per knight, times (own pawns - 5)
  RookPawnAdjust,           // per rook, times (own pawns - 5)
  BishopPair,               //
  Isolated,                 // per isolated pawn
  Doubled,                  // per pawn with an own pawn in front on its file
  Backward,                 // per backward pawn
  Connected,                // [relative rank] per pawn beside or defended by an own pawn
  Candidate,                // [relative rank] per candidate passed pawn
  Passed,                   // [relative rank] per passed pawn
  PassedOurKingDistance,    // [relative rank] times the distance of our king to the stop square
  PassedTheirKingDistance,  // [relative rank] times the distance of their king to the stop square
  PassedBlocked,            // [relative rank] when the stop square is occupied
  PassedSafePath,           // [relative rank] when no square of the path is attacked by them
  PassedUnstoppable,        // a passer the lone king cannot catch (rule of the square)
  ShelterRank,              // [relative rank of our nearest pawn, 0 none] per file around the king
  StormRank,                // [relative rank of their nearest pawn, 0 none] per file around it
  KingOpenFile,             // per file around the king without pawns
  KingSemiOpenFile,         // per file around the king without own pawns but with theirs
  KingDanger,               // [attack units, capped] on the enemy king
  SafeCheck,                // [piece type N..Q - 1] per safe square from which it could check
  KnightMobility,           // [safe squares]
  BishopMobility,           // [safe squares]
  RookMobility,             // [safe squares]
  QueenMobility,            // [safe squares]
  KnightOutpost,            //
  BishopOutpost,            //
  BishopPawnsOnColour,      // per own pawn on the bishop's square colour
  RookOpenFile,             //
  RookSemiOpenFile,         //
  RookOnSeventh,            //
  ThreatByPawn,             // per enemy piece attacked by a pawn
  ThreatByMinor,            // [victim type] per enemy piece attacked by a knight or bishop
  ThreatByRook,             // [victim type] per enemy piece attacked by a rook
  ThreatByKing,             // per undefended enemy piece next to our king
  Hanging,                  // per enemy piece attacked by us and not defended
  PawnPushThreat,           // per enemy piece a safe pawn push would attack
  Space,                    // per safe square behind our pawns in the centre
  Tempo,                    // for the side to move
  Count
};

inline constexpr int kKingDangerSize = 40;

struct GroupInfo {
  const char* name;
  int size;
  Category category;
};

inline constexpr std::array<GroupInfo, std::size_t(Group::Count)> kGroups = {{
    {"Material", 5, Category::Material},
    {"Psqt", 6 * 64, Category::PieceSquare},
    {"KnightPawnAdjust", 1, Category::Imbalance},
    {"RookPawnAdjust", 1, Category::Imbalance},
    {"BishopPair", 1, Category::Imbalance},
    {"Isolated", 1, Category::Pawns},
    {"Doubled", 1, Category::Pawns},
    {"Backward", 1, Category::Pawns},
    {"Connected", 8, Category::Pawns},
    {"Candidate", 8, Category::Pawns},
    {"Passed", 8, Category::PassedPawns},
    {"PassedOurKingDistance", 8, Category::PassedPawns},
    {"PassedTheirKingDistance", 8, Category::PassedPawns},
    {"PassedBlocked", 8, Category::PassedPawns},
    {"PassedSafePath", 8, Category::PassedPawns},
    {"PassedUnstoppable", 1, Category::PassedPawns},
    {"ShelterRank", 8, Category::KingSafety},
    {"StormRank", 8, Category::KingSafety},
    {"KingOpenFile", 1, Category::KingSafety},
    {"KingSemiOpenFile", 1, Category::KingSafety},
    {"KingDanger", kKingDangerSize, Category::KingSafety},
    {"SafeCheck", 4, Category::KingSafety},
    {"KnightMobility", 9, Category::Mobility},
    {"BishopMobility", 14, Category::Mobility},
    {"RookMobility", 15, Category::Mobility},
    {"QueenMobility", 28, Category::Mobility},
    {"KnightOutpost", 1, Category::Pieces},
    {"BishopOutpost", 1, Category::Pieces},
    {"BishopPawnsOnColour", 1, Category::Pieces},
    {"RookOpenFile", 1, Category::Pieces},
    {"RookSemiOpenFile", 1, Category::Pieces},
    {"RookOnSeventh", 1, Category::Pieces},
    {"ThreatByPawn", 1, Category::Threats},
    {"ThreatByMinor", 6, Category::Threats},
    {"ThreatByRook", 6, Category::Threats},
    {"ThreatByKing", 1, Category::Threats},
    {"Hanging", 1, Category::Threats},
    {"PawnPushThreat", 1, Category::Threats},
    {"Space", 1, Category::Space},
    {"Tempo", 1, Category::Tempo},
}};

[[nodiscard]] constexpr int group_offset(Group g) {
  int offset = 0;
  for (std::size_t i = 0; i < std::size_t(g); ++i) offset += kGroups[i].size;
  return offset;
}
[[nodiscard]] constexpr int group_size(Group g) { return kGroups[std::size_t(g)].size; }

inline constexpr int kWeightCount = group_offset(Group::Count);

// The group an entry belongs to (for printing and the tuner's output).
[[nodiscard]] constexpr Group group_of(int index) {
  int g = 0;
  while (index >= group_offset(Group(g + 1))) ++g;
  return Group(g);
}

}  // namespace tessera::eval
