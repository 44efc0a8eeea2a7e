// The 24-byte position record: every node of perft trees survives encode/decode, the colour
// flip and file mirror are involutions that keep the game the same, equal positions give equal
// bytes, and every malformed record is rejected with a message.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <string>

#include "core/movegen.h"
#include "core/packed_position.h"
#include "core/perft.h"
#include "test_core_support.h"

namespace tessera {
namespace {

using test::parse;
using test::play;

// The square of a pawn that a legal en-passant capture would take, or none().
Square legal_ep_victim(const Position& pos) {
  for (const Move m : MoveList<GenType::Noisy>(pos))
    if (m.kind() == MoveKind::EnPassant)
      return pos.ep_square().offset(pos.side_to_move() == WHITE ? -8 : 8);
  return Square::none();
}

// Describes the first way `decoded` differs from `original` as a game position, or "".
std::string difference(const Position& original, const Position& decoded) {
  for (int s = 0; s < 64; ++s)
    if (original.piece_on(Square(s)) != decoded.piece_on(Square(s)))
      return "piece on " + Square(s).to_string();
  if (original.side_to_move() != decoded.side_to_move()) return "side to move";
  if (original.castling_rights() != decoded.castling_rights()) return "castling rights";
  for (const CastlingRight r : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO})
    if (original.can_castle(r) && original.castling_rook(r) != decoded.castling_rook(r))
      return "castling rook";
  const bool legal_ep = !legal_ep_victim(original).is_none();
  if (decoded.ep_square() != (legal_ep ? original.ep_square() : Square::none()))
    return "en-passant square";
  if (legal_ep && original.key() != decoded.key()) return "key";
  if (count_legal_moves(original) != count_legal_moves(decoded)) return "legal move count";
  return {};
}

struct Counters {
  std::uint64_t nodes = 0, failures = 0, with_ep = 0, with_castling = 0;
};

void check_node(const Position& pos, Counters& c) {
  ++c.nodes;
  const PackedPosition record = encode(pos);
  std::string error;
  const auto decoded = decode(record, error);
  std::string problem;
  if (!decoded) {
    problem = "rejected: " + error;
  } else {
    problem = difference(pos, *decoded);
    if (problem.empty() && encode(*decoded) != record) problem = "re-encoding differs";
  }
  // The colour flip is an involution, decodes, and keeps the number of legal moves.
  const PackedPosition flipped = flip_colors(record);
  if (problem.empty() && flip_colors(flipped) != record) problem = "flip twice is not identity";
  if (problem.empty() && mirror_files(mirror_files(record)) != record)
    problem = "mirror twice is not identity";
  if (problem.empty()) {
    const auto flipped_pos = decode(flipped, error);
    if (!flipped_pos)
      problem = "flipped record rejected: " + error;
    else if (count_legal_moves(*flipped_pos) != count_legal_moves(pos))
      problem = "flip changed the legal move count";
    else if (flipped_pos->side_to_move() == pos.side_to_move())
      problem = "flip kept the side to move";
  }
  if (problem.empty() && pos.castling_rights() == NO_CASTLING) {
    const auto mirrored = decode(mirror_files(record), error);
    if (!mirrored || count_legal_moves(*mirrored) != count_legal_moves(pos))
      problem = "file mirror is not the same game";
  }
  if (problem.empty() && canonical(record) != canonical(flipped))
    problem = "canonical form differs from its flip's";
  c.with_ep += !legal_ep_victim(pos).is_none();
  c.with_castling += pos.castling_rights() != NO_CASTLING;
  if (!problem.empty() && ++c.failures <= 5) ADD_FAILURE() << problem << " at " << pos.fen();
}

void walk(Position& pos, int depth, Counters& c) {
  check_node(pos, c);
  if (depth == 0) return;
  for (const Move m : MoveList<GenType::All>(pos)) {
    pos.make_move(m);
    walk(pos, depth - 1, c);
    pos.unmake_move(m);
  }
}

Counters walk_suite(const std::vector<test::EpdEntry>& entries, bool chess960, int depth) {
  Counters c;
  for (const auto& e : entries) {
    Position pos = parse(e.fen, chess960);
    walk(pos, depth, c);
  }
  EXPECT_EQ(c.failures, 0u);
  return c;
}

TEST(PackedPosition, RoundTripsOverStandardPerftTrees) {
  const std::size_t stride = test::suite_stride();
  const Counters c =
      walk_suite(test::stride_sample(test::load_perft_epd("perft/standard.epd")), false, 3);
  EXPECT_GT(c.nodes, 50000u / stride);
  EXPECT_GT(c.with_ep, 0u);
  EXPECT_GT(c.with_castling, 1000u / stride);
}

TEST(PackedPosition, RoundTripsOverNamedPerftTrees) {
  // Seven positions: a stride samples them from the second (Kiwipete), which has en passant.
  const std::size_t stride = test::suite_stride();
  const Counters c = walk_suite(
      test::every_nth(test::load_perft_epd("tests/data/named.epd"), stride, stride > 1), false, 3);
  EXPECT_GT(c.nodes, 50000u / stride);
  EXPECT_GT(c.with_ep, 10u / stride);
}

TEST(PackedPosition, RoundTripsOverChess960PerftTrees) {
  const Counters c =
      walk_suite(test::every_nth(test::load_perft_epd("perft/fischer.epd"), 20), true, 2);
  EXPECT_GT(c.nodes, 5000u);
  EXPECT_GT(c.with_castling, 1000u);
}

TEST(PackedPosition, StartPositionBytesFollowTheLayout) {
  const PackedPosition r = encode(Position::startpos());
  std::uint64_t occupancy = 0;
  for (int i = 0; i < 8; ++i) occupancy |= std::uint64_t(r.bytes[i]) << (8 * i);
  EXPECT_EQ(occupancy, 0xFFFF00000000FFFFull);
  // a1 a castling rook (13) in the low nibble, b1 a white knight (1) in the high nibble.
  EXPECT_EQ(r.bytes[8], 0x1D);
  // e1 the white king (5) in the low nibble, f1 a bishop (2) above it.
  EXPECT_EQ(r.bytes[10], 0x25);
  // e8 the black king (11) with white to move, h8 a black castling rook (14).
  EXPECT_EQ(r.bytes[23] >> 4, 14);
  Position black = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  const PackedPosition rb = encode(black);
  EXPECT_EQ(rb.bytes[22] & 15, 15);  // e8: black king with black to move
}

TEST(PackedPosition, EqualPositionsGiveEqualBytes) {
  Position a = Position::startpos(), b = Position::startpos();
  play(a, "g1f3 g8f6 b1c3 b8c6");
  play(b, "b1c3 b8c6 g1f3 g8f6");
  EXPECT_EQ(encode(a), encode(b));
  // A double push that no pawn can answer en passant is not recorded.
  Position pushed = Position::startpos();
  play(pushed, "e2e4");
  EXPECT_EQ(encode(pushed),
            encode(parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")));
  // One that can is, and then differs from the same board without the right.
  Position ep = parse("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  play(ep, "e2e4");
  EXPECT_NE(encode(ep),
            encode(parse("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")));
  // An en-passant capture that would expose the king is not a right either.
  const Position pinned = parse("8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1");
  EXPECT_EQ(encode(pinned), encode(parse("8/8/8/8/k2pP2R/8/8/4K3 b - - 0 1")));
}

TEST(PackedPosition, CanonicalFormJoinsMirrorsOnlyWithoutCastling) {
  const PackedPosition plain = encode(parse("8/5k2/8/3p4/8/2N5/1K6/8 w - - 0 1"));
  const PackedPosition mirrored = encode(parse("8/2k5/8/4p3/8/5N2/6K1/8 w - - 0 1"));
  const PackedPosition flipped = encode(parse("8/1k6/2n5/8/3P4/8/5K2/8 b - - 0 1"));
  EXPECT_NE(plain, mirrored);
  EXPECT_EQ(canonical(plain), canonical(mirrored));
  EXPECT_EQ(canonical(plain), canonical(flipped));
  EXPECT_EQ(mirror_files(plain), mirrored);
  EXPECT_EQ(flip_colors(plain), flipped);
  const PackedPosition castling = encode(parse("r3k3/8/8/8/8/8/8/4K2R w Kq - 0 1"));
  const PackedPosition castling_mirror = encode(parse("3k3r/8/8/8/8/8/8/R2K4 w Qk - 0 1", true));
  EXPECT_NE(canonical(castling), canonical(castling_mirror));
}

TEST(PackedPosition, Chess960CastlingSideFollowsTheRookFile) {
  // King on b1 with rooks on a1 and h1: the a1 rook castles queen side, h1 king side.
  std::string error;
  const auto pos = decode(encode(parse("1k5r/8/8/8/8/8/8/RK5R w HAh - 0 1", true)), error);
  ASSERT_TRUE(pos) << error;
  EXPECT_TRUE(pos->chess960());
  EXPECT_EQ(pos->castling_rook(WHITE_OOO), test::sq("a1"));
  EXPECT_EQ(pos->castling_rook(WHITE_OO), test::sq("h1"));
  EXPECT_EQ(pos->castling_rook(BLACK_OO), test::sq("h8"));
  EXPECT_FALSE(pos->can_castle(BLACK_OOO));
  const auto standard = decode(encode(Position::startpos()), error);
  ASSERT_TRUE(standard) << error;
  EXPECT_FALSE(standard->chess960());
}

// A record from a board of nibbles given square by square.
PackedPosition make_record(std::initializer_list<std::pair<const char*, int>> squares) {
  std::array<int, 64> board;
  board.fill(-1);
  for (const auto& [name, nibble] : squares) board[test::sq(name).index()] = nibble;
  PackedPosition r;
  int n = 0;
  for (int s = 0; s < 64; ++s) {
    if (board[s] < 0) continue;
    r.bytes[s / 8] |= std::uint8_t(1 << (s % 8));
    r.bytes[8 + n / 2] |= std::uint8_t(n % 2 ? board[s] << 4 : board[s]);
    ++n;
  }
  return r;
}

TEST(PackedPosition, MalformedRecordsAreRejectedWithAMessage) {
  const std::vector<std::pair<const char*, PackedPosition>> bad = {
      {"no black king", make_record({{"e1", 5}, {"e2", 0}})},
      {"two white kings", make_record({{"e1", 5}, {"a1", 5}, {"e8", 11}})},
      {"black king twice", make_record({{"e1", 5}, {"a8", 15}, {"e8", 11}})},
      {"pawn on the eighth rank", make_record({{"e1", 5}, {"e8", 11}, {"a8", 0}})},
      {"side not to move in check", make_record({{"e1", 5}, {"e8", 11}, {"e4", 4}})},
      {"ep pawn on the third rank", make_record({{"e1", 5}, {"e8", 15}, {"d3", 12}})},
      {"ep pawn with the wrong side to move",
       make_record({{"e1", 5}, {"e8", 11}, {"d4", 12}, {"e4", 6}})},
      {"ep pawn with a blocked path",
       make_record({{"e1", 5}, {"e8", 15}, {"d4", 12}, {"e4", 6}, {"d3", 1}})},
      {"ep pawn nobody can take", make_record({{"e1", 5}, {"e8", 15}, {"d4", 12}})},
      {"ep capture that exposes the king",
       make_record({{"e1", 5}, {"a4", 15}, {"e4", 12}, {"d4", 6}, {"h4", 3}})},
      {"castling rook off the first rank", make_record({{"e1", 5}, {"e8", 11}, {"h2", 13}})},
      {"castling rook with a wandered king", make_record({{"e2", 5}, {"e8", 11}, {"h1", 13}})},
      {"two castling rooks on one side",
       make_record({{"e1", 5}, {"e8", 11}, {"g1", 13}, {"h1", 13}})},
      {"black castling rook on white's rank", make_record({{"e1", 5}, {"e8", 11}, {"h1", 14}})},
  };
  for (const auto& [what, record] : bad) {
    std::string error;
    EXPECT_FALSE(decode(record, error)) << what;
    EXPECT_FALSE(error.empty()) << what;
  }
  PackedPosition too_many;
  too_many.bytes.fill(0);
  for (int i = 0; i < 5; ++i) too_many.bytes[i] = 0xFF;  // 40 occupied squares
  std::string error;
  EXPECT_FALSE(decode(too_many, error));
  EXPECT_NE(error.find("32"), std::string::npos) << error;
  PackedPosition stray = make_record({{"e1", 5}, {"e8", 11}});
  stray.bytes[20] = 3;
  EXPECT_FALSE(decode(stray, error));
  // The well-formed version of the first records decodes.
  EXPECT_TRUE(decode(make_record({{"e1", 5}, {"e8", 11}, {"e2", 0}}), error)) << error;
}

TEST(PackedPosition, RandomBytesNeverCrashAndAcceptedOnesRoundTrip) {
  std::mt19937_64 rng(20261130);
  int accepted = 0;
  for (int i = 0; i < 200000; ++i) {
    PackedPosition r;
    // Sparse boards with a few pieces, so that some records are valid.
    const int pieces = 2 + int(rng() % 6);
    std::uint64_t occ = 0;
    while (std::popcount(occ) < pieces) occ |= std::uint64_t(1) << (rng() % 64);
    for (int b = 0; b < 8; ++b) r.bytes[b] = std::uint8_t(occ >> (8 * b));
    for (int n = 0; n < pieces; ++n)
      r.bytes[8 + n / 2] |= std::uint8_t((n % 2 ? 16 : 1) * (rng() % 16));
    std::string error;
    const auto pos = decode(r, error);
    if (!pos) continue;
    ++accepted;
    ASSERT_EQ(encode(*pos), r) << pos->fen();
  }
  EXPECT_GT(accepted, 100);
}

}  // namespace
}  // namespace tessera
