// Polyglot opening books: move decoding (castling, promotions), lookup, the best and weighted
// choices, the rejection of damaged files, random bytes as a book, a book written by Debian's
// `polyglot make-book`, and the Engine playing book moves.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "book/polyglot_book.h"
#include "core/movegen.h"
#include "core/polyglot_key.h"
#include "core/position.h"
#include "engine/engine.h"
#include "temp_dir.h"

namespace tessera {
namespace {

using book::BookMove;
using book::PolyglotBook;
using book::PolyglotEntry;
using engine::Engine;
using search::EngineCallbacks;
using search::SearchInfo;
using search::SearchLimits;
namespace fs = std::filesystem;

const std::string kOpeningsBin = TESSERA_SOURCE_DIR "/tests/data/book/openings.bin";

using test::TempDir;

// The Polyglot code of a move written as UCI text ("e2e4", "a7a8q"); castling as king to rook.
[[nodiscard]] std::uint16_t code(const std::string& uci) {
  const auto sq = [&](std::size_t at) { return (uci[at] - 'a') | ((uci[at + 1] - '1') << 3); };
  int promo = 0;
  if (uci.size() == 5) promo = int(std::string_view("nbrq").find(uci[4])) + 1;
  return std::uint16_t(sq(2) | (sq(0) << 6) | (promo << 12));
}

void put_be(std::vector<unsigned char>& out, std::uint64_t v, int bytes) {
  for (int i = bytes - 1; i >= 0; --i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

[[nodiscard]] std::vector<unsigned char> serialise(const std::vector<PolyglotEntry>& entries) {
  std::vector<unsigned char> bytes;
  for (const PolyglotEntry& e : entries) {
    put_be(bytes, e.key, 8);
    put_be(bytes, e.move, 2);
    put_be(bytes, e.weight, 2);
    put_be(bytes, e.learn, 4);
  }
  return bytes;
}

void write_file(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

// Writes the entries sorted by key (stable, so file order within a key is kept).
void write_book(const std::string& path, std::vector<PolyglotEntry> entries) {
  std::stable_sort(entries.begin(), entries.end(),
                   [](const PolyglotEntry& a, const PolyglotEntry& b) { return a.key < b.key; });
  write_file(path, serialise(entries));
}

[[nodiscard]] Position position(const std::string& fen,
                                const std::vector<std::string>& moves = {}) {
  std::string error;
  std::optional<Position> pos = Position::from_fen(fen, false, error);
  EXPECT_TRUE(pos.has_value()) << error;
  if (!pos) return Position::startpos();
  for (const std::string& text : moves) {
    const Move m = pos->parse_uci_move(text);
    EXPECT_FALSE(m.is_none()) << text;
    if (m.is_none()) break;
    pos->make_move(m);
  }
  return *pos;
}

[[nodiscard]] Position startpos_after(const std::vector<std::string>& moves) {
  return position(std::string(Position::kStartFen), moves);
}

// The startpos book of the brief: e2e4 (10), d2d4 (5) and e2e5, which is illegal there.
[[nodiscard]] std::vector<PolyglotEntry> startpos_entries() {
  const std::uint64_t k = polyglot_key(Position::startpos());
  return {{k, code("e2e5"), 100, 0},
          {k, code("e2e4"), 10, 0},
          {k, code("d2d4"), 5, 0},
          {k - 1, code("a2a3"), 7, 0},  // neighbours: the search must not stray into them
          {k + 1, code("h2h3"), 7, 0}};
}

[[nodiscard]] std::optional<PolyglotBook> load(const std::string& path) {
  std::string error;
  std::optional<PolyglotBook> book = PolyglotBook::load(path, error);
  EXPECT_TRUE(book.has_value()) << error;
  return book;
}

// ----- Move codes

TEST(Book, MoveCodesRoundTripForEveryLegalMove) {
  for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                          "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                          "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
                          "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"}) {
    const Position pos = position(fen);
    for (const Move m : MoveList<GenType::All>(pos))
      EXPECT_EQ(book::decode_move(pos, book::encode_move(m)), m)
          << fen << " " << pos.move_to_uci(m);
  }
}

TEST(Book, PromotionCodesNameThePiece) {
  const Position pos = position("8/P6k/8/8/8/8/8/K7 w - - 0 1");
  EXPECT_EQ(book::decode_move(pos, code("a7a8q")), pos.parse_uci_move("a7a8q"));
  EXPECT_EQ(book::decode_move(pos, code("a7a8n")), pos.parse_uci_move("a7a8n"));
  EXPECT_EQ(book::decode_move(pos, code("a7a8r")), pos.parse_uci_move("a7a8r"));
  EXPECT_EQ(book::decode_move(pos, code("a7a8b")), pos.parse_uci_move("a7a8b"));
  EXPECT_TRUE(book::decode_move(pos, code("a7a8")).is_none());  // a promotion needs its piece
  EXPECT_TRUE(book::decode_move(pos, std::uint16_t(code("a7a8q") | 0x8000)).is_none());
}

TEST(Book, CastlingIsKingToOwnRook) {
  const Position white = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
  const Move oo = book::decode_move(white, code("e1h1"));
  EXPECT_EQ(oo.kind(), MoveKind::Castling);
  EXPECT_EQ(oo, white.parse_uci_move("e1g1"));
  EXPECT_EQ(book::decode_move(white, code("e1a1")), white.parse_uci_move("e1c1"));
  // Books from other tools that write the king's own move are read the same way.
  EXPECT_EQ(book::decode_move(white, code("e1g1")), oo);

  const Position black = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R b KQkq - 0 1");
  EXPECT_EQ(book::decode_move(black, code("e8h8")), black.parse_uci_move("e8g8"));
  EXPECT_EQ(book::decode_move(black, code("e8a8")), black.parse_uci_move("e8c8"));

  // Without the right, the code is no move.
  const Position no_rights = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w kq - 0 1");
  EXPECT_TRUE(book::decode_move(no_rights, code("e1h1")).is_none());
}

TEST(Book, CastlingEntryInABookIsPlayed) {
  TempDir dir;
  const Position pos = position("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
  write_book(dir.file("castle.bin"), {{polyglot_key(pos), code("e1h1"), 3, 0}});
  const auto book = load(dir.file("castle.bin"));
  ASSERT_TRUE(book);
  std::mt19937_64 rng(1);
  const Move m = book->pick(pos, false, rng);
  EXPECT_EQ(m.kind(), MoveKind::Castling);
  EXPECT_EQ(pos.move_to_uci(m), "e1g1");
}

// ----- Lookup and choice

TEST(Book, LookupSkipsTheIllegalEntry) {
  TempDir dir;
  write_book(dir.file("tiny.bin"), startpos_entries());
  const auto book = load(dir.file("tiny.bin"));
  ASSERT_TRUE(book);
  EXPECT_EQ(book->size(), 5u);
  const Position pos = Position::startpos();
  EXPECT_EQ(book->entries(polyglot_key(pos)).size(), 3u);
  const std::vector<BookMove> moves = book->moves(pos);
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(pos.move_to_uci(moves[0].move), "e2e4");
  EXPECT_EQ(moves[0].weight, 10);
  EXPECT_EQ(pos.move_to_uci(moves[1].move), "d2d4");
  EXPECT_EQ(moves[1].weight, 5);
  // A position the book does not know.
  EXPECT_TRUE(book->moves(startpos_after({"g1f3"})).empty());
  std::mt19937_64 rng(7);
  EXPECT_TRUE(book->pick(startpos_after({"g1f3"}), true, rng).is_none());
}

TEST(Book, BestMoveIsTheHighestLegalWeight) {
  TempDir dir;
  write_book(dir.file("tiny.bin"), startpos_entries());
  const auto book = load(dir.file("tiny.bin"));
  ASSERT_TRUE(book);
  std::mt19937_64 rng(1);
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(Position::startpos().move_to_uci(book->pick(Position::startpos(), true, rng)),
              "e2e4");
}

TEST(Book, WeightedChoiceFollowsTheWeights) {
  TempDir dir;
  write_book(dir.file("tiny.bin"), startpos_entries());
  const auto book = load(dir.file("tiny.bin"));
  ASSERT_TRUE(book);
  const Position pos = Position::startpos();
  std::mt19937_64 rng(20261130);
  std::map<std::string, int> seen;
  constexpr int kDraws = 3000;
  for (int i = 0; i < kDraws; ++i) ++seen[pos.move_to_uci(book->pick(pos, false, rng))];
  ASSERT_EQ(seen.size(), 2u);  // never the illegal e2e5, never none
  // Expected 2000 : 1000; the bounds are over five standard deviations (about 26) wide.
  EXPECT_NEAR(seen["e2e4"], 2000, 150);
  EXPECT_NEAR(seen["d2d4"], 1000, 150);

  // The same seed gives the same sequence.
  std::mt19937_64 a(99), b(99);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(book->pick(pos, false, a), book->pick(pos, false, b));
}

TEST(Book, ZeroWeightsCountOnlyWhenAllAreZero) {
  const Position pos = Position::startpos();
  const Move e4 = pos.parse_uci_move("e2e4"), d4 = pos.parse_uci_move("d2d4");
  std::mt19937_64 rng(5);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(book::weighted_choice({{e4, 0}, {d4, 3}}, rng), d4);
  int e4_count = 0;
  for (int i = 0; i < 1000; ++i) e4_count += book::weighted_choice({{e4, 0}, {d4, 0}}, rng) == e4;
  EXPECT_NEAR(e4_count, 500, 100);
  EXPECT_TRUE(book::weighted_choice({}, rng).is_none());
}

// ----- Damaged files

TEST(Book, BadFilesAreRejectedWithAReason) {
  TempDir dir;
  const auto rejected = [](const std::string& path, const std::string& word) {
    std::string error;
    EXPECT_FALSE(PolyglotBook::load(path, error).has_value()) << path;
    EXPECT_NE(error.find(word), std::string::npos) << error;
    EXPECT_NE(error.find(path), std::string::npos) << error;  // the message names the file
  };
  rejected(dir.file("missing.bin"), "cannot open");
  write_file(dir.file("empty.bin"), {});
  rejected(dir.file("empty.bin"), "empty");
  std::vector<unsigned char> bytes = serialise(startpos_entries());
  bytes.pop_back();
  write_file(dir.file("truncated.bin"), bytes);
  rejected(dir.file("truncated.bin"), "truncated");
  // As listed, the startpos entries (key k) come before the entry of key k - 1.
  write_file(dir.file("unsorted.bin"), serialise(startpos_entries()));
  rejected(dir.file("unsorted.bin"), "not sorted");
  rejected(dir.file(""), "directory");
  std::string error;
  EXPECT_FALSE(PolyglotBook::load("", error).has_value());
  EXPECT_FALSE(error.empty());
}

// Random bytes, and random move codes under real keys, never crash and never yield an
// illegal move.
TEST(Book, RandomBooksNeverCrash) {
  TempDir dir;
  std::mt19937_64 rng(0x7e55e7a);
  const std::vector<Position> probes = {Position::startpos(), startpos_after({"e2e4"}),
                                        startpos_after({"e2e4", "e7e5", "g1f3"}),
                                        position("8/P6k/8/8/8/8/8/K7 w - - 0 1")};
  int loaded = 0;
  for (int file = 0; file < 300; ++file) {
    const std::size_t n = rng() % 40;
    std::vector<unsigned char> bytes;
    if (file % 3 == 0) {
      // Valid framing, sorted, keys of the probe positions: exercises decoding and choice.
      std::vector<PolyglotEntry> entries;
      for (std::size_t i = 0; i < n; ++i)
        entries.push_back({polyglot_key(probes[rng() % probes.size()]), std::uint16_t(rng()),
                           std::uint16_t(rng() % 3), std::uint32_t(rng())});
      std::sort(entries.begin(), entries.end(),
                [](const PolyglotEntry& a, const PolyglotEntry& b) { return a.key < b.key; });
      bytes = serialise(entries);
    } else {
      const std::size_t size = file % 3 == 1 ? 16 * n : rng() % 700;
      for (std::size_t i = 0; i < size; ++i) bytes.push_back(static_cast<unsigned char>(rng()));
    }
    const std::string path = dir.file("random" + std::to_string(file) + ".bin");
    write_file(path, bytes);
    std::string error;
    const std::optional<PolyglotBook> book = PolyglotBook::load(path, error);
    if (!book) {
      EXPECT_FALSE(error.empty());
      continue;
    }
    ++loaded;
    for (const Position& pos : probes) {
      for (const bool best : {true, false}) {
        const Move m = book->pick(pos, best, rng);
        if (m) {
          EXPECT_TRUE(MoveList<GenType::All>(pos).contains(m));
        }
      }
    }
  }
  EXPECT_GT(loaded, 90);  // the sorted third at least, so the choice code did run
}

// ----- A book made by `polyglot make-book` (tests/data/book/README.md)

TEST(Book, ReadsABookMadeByPolyglot) {
  const auto book = load(kOpeningsBin);
  ASSERT_TRUE(book);
  EXPECT_EQ(book->size(), 41u);
  std::mt19937_64 rng(3);

  const Position start = Position::startpos();
  std::vector<std::string> first;
  for (const BookMove& b : book->moves(start)) first.push_back(start.move_to_uci(b.move));
  std::sort(first.begin(), first.end());
  EXPECT_EQ(first, (std::vector<std::string>{"d2d4", "e2e4"}));
  EXPECT_EQ(start.move_to_uci(book->pick(start, true, rng)), "e2e4");  // 3 games, 2 won

  const Position after_d4 = startpos_after({"d2d4"});
  EXPECT_EQ(after_d4.move_to_uci(book->pick(after_d4, true, rng)), "g8f6");  // the black win
  const Position after_e4 = startpos_after({"e2e4"});
  EXPECT_EQ(after_e4.move_to_uci(book->pick(after_e4, true, rng)), "e7e5");

  // The Ruy Lopez line castles: polyglot wrote e1h1.
  const Position ruy =
      startpos_after({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6"});
  const Move castle = book->pick(ruy, true, rng);
  EXPECT_EQ(castle.kind(), MoveKind::Castling);
  EXPECT_EQ(ruy.move_to_uci(castle), "e1g1");

  // Past -max-ply 16 the book knows nothing.
  const Position deep =
      startpos_after({"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1",
                      "f8e7", "f1e1", "b7b5", "a4b3", "d7d6", "c2c3", "e8g8"});
  EXPECT_TRUE(book->moves(deep).empty());
}

// ----- The Engine

struct Recorder {
  std::mutex mutex;
  std::vector<SearchInfo> infos;
  std::vector<Move> bestmoves;
  std::vector<Move> pondermoves;
  std::vector<std::string> messages;

  EngineCallbacks callbacks() {
    EngineCallbacks cb;
    cb.on_info = [this](const SearchInfo& i) {
      std::lock_guard lock(mutex);
      infos.push_back(i);
    };
    cb.on_bestmove = [this](Move best, Move ponder) {
      std::lock_guard lock(mutex);
      bestmoves.push_back(best);
      pondermoves.push_back(ponder);
    };
    cb.on_message = [this](const std::string& m) {
      std::lock_guard lock(mutex);
      messages.push_back(m);
    };
    return cb;
  }
};

TEST(BookEngine, GoPlaysTheBookMoveAtOnce) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_book_file(kOpeningsBin), "");
  EXPECT_TRUE(engine.book_loaded());
  engine.set_own_book(true);
  engine.set_book_best_move(true);
  SearchLimits limits;
  limits.depth = 30;  // a search would take long; the book answers at once
  engine.go(limits);
  engine.wait();
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_EQ(Position::startpos().move_to_uci(rec.bestmoves[0]), "e2e4");
  // The ponder move is the book's main answer.
  EXPECT_EQ(startpos_after({"e2e4"}).move_to_uci(rec.pondermoves[0]), "e7e5");
  ASSERT_EQ(rec.infos.size(), 1u);
  ASSERT_EQ(rec.infos[0].pv.size(), 1u);
  EXPECT_EQ(rec.infos[0].pv[0], rec.bestmoves[0]);
  ASSERT_FALSE(rec.messages.empty());
  EXPECT_EQ(rec.messages[0], "book move e2e4");
}

TEST(BookEngine, BookIsNotUsedWhenOffTooDeepOrAnalysing) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_book_file(kOpeningsBin), "");
  engine.set_book_seed(42);
  EXPECT_TRUE(engine.book_move().is_none());  // OwnBook is off by default
  engine.set_own_book(true);
  EXPECT_FALSE(engine.book_move().is_none());
  ASSERT_EQ(engine.set_position("startpos", {"e2e4"}), "");
  EXPECT_EQ(engine.position().move_to_uci(engine.book_move()), "e7e5");
  engine.set_book_depth(1);  // one ply played: the book is over
  EXPECT_TRUE(engine.book_move().is_none());
  // The game ply counts from the FEN's move number, not from the FEN.
  engine.set_book_depth(100);
  ASSERT_EQ(engine.set_position("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 60", {}),
            "");
  EXPECT_TRUE(engine.book_move().is_none());

  // Infinite analysis searches even from a book position.
  ASSERT_EQ(engine.set_position("startpos", {}), "");
  SearchLimits limits;
  limits.infinite = true;
  engine.go(limits);
  EXPECT_TRUE(engine.searching());
  engine.stop();
  engine.wait();
  // So does a search restricted by searchmoves: it plays the one move allowed, a non-book one.
  SearchLimits restricted;
  restricted.depth = 2;
  restricted.searchmoves = {Position::startpos().parse_uci_move("g1f3")};
  engine.go(restricted);
  engine.wait();
  ASSERT_EQ(rec.bestmoves.size(), 2u);
  EXPECT_EQ(Position::startpos().move_to_uci(rec.bestmoves[1]), "g1f3");
  for (const std::string& m : rec.messages) EXPECT_EQ(m.find("book move"), std::string::npos);
}

TEST(BookEngine, ABadBookLeavesNoBookAndTheEngineSearches) {
  Recorder rec;
  Engine engine(rec.callbacks());
  ASSERT_EQ(engine.set_book_file(kOpeningsBin), "");
  const std::string error = engine.set_book_file("/nonexistent/tessera/book.bin");
  EXPECT_NE(error.find("/nonexistent/tessera/book.bin"), std::string::npos) << error;
  EXPECT_FALSE(engine.book_loaded());
  engine.set_own_book(true);
  SearchLimits limits;
  limits.depth = 2;
  engine.go(limits);
  engine.wait();
  ASSERT_EQ(rec.bestmoves.size(), 1u);
  EXPECT_TRUE(MoveList<GenType::All>(Position::startpos()).contains(rec.bestmoves[0]));
  EXPECT_EQ(engine.set_book_file("<empty>"), "");
}

}  // namespace
}  // namespace tessera
