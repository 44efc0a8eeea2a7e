// Game chains, the compact training-data format: the layout of a game, chain files (round
// trip against the records of the same games, appending, files cut at every offset, damaged
// bytes), datagen writing either format with the same records, the converter between the
// formats and from match-runner PGNs, the Chess960 starts, the soft node limit and `genfens`.
// Built only with TESSERA_DATAGEN.
#if TESSERA_DATAGEN
#include <gtest/gtest.h>
#include <zstd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/san.h"
#include "datagen/chain.h"
#include "datagen/chain_file.h"
#include "datagen/convert.h"
#include "datagen/datagen.h"
#include "datagen/genfens.h"
#include "datagen/pgn_import.h"
#include "datagen/record_file.h"
#include "engine/engine.h"
#include "game/game_rules.h"
#include "genfens_lines.h"
#include "temp_dir.h"

namespace tessera {
namespace {

using datagen::ChainReader;
using datagen::ChainWriter;
using datagen::DataFormat;
using datagen::GameChain;
using datagen::GameResult;
using datagen::TrainingRecord;
using test::TempDir;

using test::read_bytes;
using test::write_bytes;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// A random game of `plies` plies (fewer when it ends) from the start position, scores varied.
[[nodiscard]] GameChain random_chain(std::uint64_t seed, int plies) {
  std::mt19937_64 rng(seed);
  Position pos = Position::startpos();
  GameChain chain;
  chain.start = encode(pos);
  chain.result = GameResult(rng() % 3);
  for (int i = 0; i < plies; ++i) {
    const MoveList<> moves(pos);
    if (moves.empty()) break;
    const Move m = moves[std::size_t(rng() % moves.size())];
    chain.plies.push_back({m, std::int16_t(int(rng() % 64001) - 32000)});
    pos.make_move(m);
  }
  return chain;
}

struct ReadBack {
  std::vector<GameChain> games;
  std::vector<TrainingRecord> records;
  std::string error;
  bool truncated = false;
};

[[nodiscard]] ReadBack read_chains(const std::string& path) {
  ReadBack back;
  ChainReader reader;
  if (!reader.open(path, back.error)) return back;
  GameChain game;
  std::vector<TrainingRecord> records;
  while (reader.next(game, records)) {
    back.games.push_back(game);
    back.records.insert(back.records.end(), records.begin(), records.end());
  }
  back.error = reader.error();
  back.truncated = reader.truncated();
  return back;
}

[[nodiscard]] std::vector<TrainingRecord> read_records(const std::string& path,
                                                       std::string* error = nullptr) {
  datagen::RecordReader reader;
  std::string e;
  std::vector<TrainingRecord> records;
  if (!reader.open(path, e)) {
    if (error) *error = e;
    return records;
  }
  TrainingRecord r;
  while (reader.next(r)) records.push_back(r);
  if (error) *error = reader.error();
  return records;
}

void write_chains(const std::string& path, const std::vector<GameChain>& games,
                  bool append = false) {
  ChainWriter writer;
  std::string error;
  ASSERT_TRUE(writer.open(path, append, error)) << error;
  for (const GameChain& g : games) ASSERT_TRUE(writer.write(g)) << writer.error();
  ASSERT_TRUE(writer.close()) << writer.error();
}

// ----- The game

TEST(Chain, LayoutIsLittleEndian) {
  GameChain chain;
  const Position start = Position::startpos();
  chain.start = encode(start);
  chain.ply = 0x0102;
  chain.rule50 = 7;
  const Move e4(Square(4, 1), Square(4, 3));
  const Move e5(Square(4, 6), Square(4, 4));
  chain.plies = {{e4, -2}, {e5, 0x1234}};
  chain.result = GameResult::WhiteWins;
  std::vector<std::uint8_t> bytes;
  chain.append_bytes(bytes);
  ASSERT_EQ(bytes.size(), chain.byte_size());
  ASSERT_EQ(bytes.size(), 28u + 4 * 3);
  EXPECT_TRUE(std::equal(chain.start.bytes.begin(), chain.start.bytes.end(), bytes.begin()));
  EXPECT_EQ(bytes[24], 0x02);
  EXPECT_EQ(bytes[25], 0x01);
  EXPECT_EQ(bytes[26], 7);
  EXPECT_EQ(bytes[27], 0);
  EXPECT_EQ(bytes[28], e4.raw() & 0xFF);
  EXPECT_EQ(bytes[29], e4.raw() >> 8);
  EXPECT_EQ(bytes[30], 0xFE);  // -2
  EXPECT_EQ(bytes[31], 0xFF);
  EXPECT_EQ(bytes[34], 0x34);
  EXPECT_EQ(bytes[35], 0x12);
  EXPECT_EQ(bytes[36], 0);  // the end mark: a zero move...
  EXPECT_EQ(bytes[37], 0);
  EXPECT_EQ(bytes[38], 2);  // ...and the result
  EXPECT_EQ(bytes[39], 0);
}

TEST(Chain, ReplaysToTheRecordsOfItsPositions) {
  // e4 e5 Nf3 Nc6 Bb5 a6 Bxc6: the capture resets the fifty-move counter and is not quiet.
  Position pos = Position::startpos();
  GameChain chain;
  chain.start = encode(pos);
  chain.ply = 0;
  chain.result = GameResult::Draw;
  std::vector<Position> positions;
  for (const char* uci : {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6"}) {
    positions.push_back(pos);
    Move m = Move::none();
    for (const Move legal : MoveList<>(pos))
      if (pos.move_to_uci(legal) == uci) m = legal;
    ASSERT_FALSE(m.is_none()) << uci;
    chain.plies.push_back({m, std::int16_t(10 * int(positions.size()))});
    pos.make_move(m);
  }
  std::string error;
  const auto records = chain.to_records(error);
  ASSERT_TRUE(records) << error;
  ASSERT_EQ(records->size(), positions.size());
  const int rule50[] = {0, 0, 0, 1, 2, 3, 0};
  for (std::size_t i = 0; i < records->size(); ++i) {
    const TrainingRecord& r = (*records)[i];
    EXPECT_EQ(r.position, encode(positions[i])) << i;
    EXPECT_EQ(r.ply, i);
    EXPECT_EQ(r.score_white, 10 * int(i + 1));
    EXPECT_EQ(r.result, GameResult::Draw);
    EXPECT_EQ(r.quiet(), i != 6) << i;
    EXPECT_EQ(int(r.rule50), rule50[i]) << i;
  }
}

TEST(Chain, RefusesWhatIsNotAGame) {
  GameChain good = random_chain(1, 30);
  std::string error;
  ASSERT_TRUE(good.to_records(error)) << error;
  GameChain empty = good;
  empty.plies.clear();
  EXPECT_FALSE(empty.to_records(error));
  GameChain illegal = good;
  illegal.plies[5].move = illegal.plies[4].move;  // the other side's move
  EXPECT_FALSE(illegal.to_records(error));
  EXPECT_NE(error.find("ply 5"), std::string::npos) << error;
  GameChain null_inside = good;
  null_inside.plies[3].move = Move::null();
  EXPECT_FALSE(null_inside.to_records(error));
  GameChain null_last = good;
  null_last.plies.back().move = Move::null();
  EXPECT_TRUE(null_last.to_records(error)) << error;
  GameChain score = good;
  score.plies[2].score_white = 32001;
  EXPECT_FALSE(score.to_records(error));
  GameChain bad_start = good;
  bad_start.start.bytes.fill(0);
  EXPECT_FALSE(bad_start.to_records(error));
}

// ----- The file

TEST(ChainFile, RoundTripsAndAppends) {
  TempDir dir;
  std::vector<GameChain> games;
  for (int i = 0; i < 20; ++i) games.push_back(random_chain(std::uint64_t(i), 20 + 7 * i));
  const std::string path = dir.file("games.chain");
  write_chains(path, std::vector<GameChain>(games.begin(), games.begin() + 12));
  write_chains(path, std::vector<GameChain>(games.begin() + 12, games.end()), true);
  const ReadBack back = read_chains(path);
  EXPECT_EQ(back.error, "");
  ASSERT_EQ(back.games.size(), games.size());
  std::size_t positions = 0;
  for (std::size_t i = 0; i < games.size(); ++i) {
    EXPECT_EQ(back.games[i].plies, games[i].plies) << i;
    EXPECT_EQ(back.games[i].result, games[i].result) << i;
    positions += games[i].plies.size();
  }
  EXPECT_EQ(back.records.size(), positions);
  // The record reader takes chain files and yields the same records.
  const auto records = read_records(path);
  ASSERT_EQ(records.size(), positions);
  for (std::size_t i = 0; i < positions; ++i)
    EXPECT_EQ(records[i].to_bytes(), back.records[i].to_bytes()) << i;
  // Appending to a record file as chains is refused.
  datagen::RecordWriter records_writer;
  std::string error;
  ASSERT_TRUE(records_writer.open(dir.file("r.zst"), false, error));
  records_writer.write(back.records[0]);
  ASSERT_TRUE(records_writer.close());
  ChainWriter writer;
  EXPECT_FALSE(writer.open(dir.file("r.zst"), true, error));
  EXPECT_NE(error.find("not a chain file"), std::string::npos) << error;
}

TEST(ChainFile, CutAnywhereKeepsTheGamesBeforeTheCut) {
  TempDir dir;
  std::vector<GameChain> games;
  for (int i = 0; i < 6; ++i) games.push_back(random_chain(std::uint64_t(100 + i), 40));
  const std::string path = dir.file("games.chain");
  write_chains(path, games);
  const auto whole = read_bytes(path);
  for (std::size_t cut = 0; cut < whole.size(); ++cut) {
    write_bytes(dir.file("cut.chain"), {whole.begin(), whole.begin() + std::ptrdiff_t(cut)});
    const ReadBack back = read_chains(dir.file("cut.chain"));
    ASSERT_LE(back.games.size(), games.size()) << cut;
    for (std::size_t i = 0; i < back.games.size(); ++i)
      ASSERT_EQ(back.games[i].plies, games[i].plies) << "cut at " << cut;
    // A cut is clean only at a frame end; inside a frame it is reported as truncation.
    if (!back.error.empty()) {
      EXPECT_TRUE(back.truncated || cut < datagen::kChainFileMark.size())
          << "cut at " << cut << ": " << back.error;
    }
  }
  EXPECT_EQ(read_chains(path).games.size(), games.size());
}

TEST(ChainFile, DamagedBytesNeverCrash) {
  TempDir dir;
  std::vector<GameChain> games;
  for (int i = 0; i < 5; ++i) games.push_back(random_chain(std::uint64_t(200 + i), 60));
  const std::string path = dir.file("games.chain");
  write_chains(path, games);
  const auto whole = read_bytes(path);
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 300; ++trial) {
    auto damaged = whole;
    damaged[rng() % damaged.size()] ^= std::uint8_t(1 + rng() % 255);
    write_bytes(dir.file("damaged.chain"), damaged);
    const ReadBack back = read_chains(dir.file("damaged.chain"));
    EXPECT_FALSE(back.error.empty()) << "trial " << trial;  // the mark or a checksum
    EXPECT_LT(back.games.size(), games.size()) << "trial " << trial;
  }
}

TEST(ChainFile, NamesTheGameThatDoesNotReplay) {
  TempDir dir;
  std::vector<GameChain> games = {random_chain(1, 20), random_chain(2, 20), random_chain(3, 20)};
  std::vector<std::uint8_t> raw(datagen::kChainFileMark.begin(), datagen::kChainFileMark.end());
  std::vector<std::uint8_t> body;
  for (const GameChain& g : games) g.append_bytes(body);
  // Game 1's fourth move becomes its third: illegal for the side to move.
  const std::size_t at = games[0].byte_size() + GameChain::kHeaderSize + 3 * 4;
  body[at] = body[at - 4];
  body[at + 1] = body[at - 3];
  std::vector<std::uint8_t> frame(ZSTD_compressBound(body.size()));
  frame.resize(ZSTD_compress(frame.data(), frame.size(), body.data(), body.size(), 3));
  raw.insert(raw.end(), frame.begin(), frame.end());
  write_bytes(dir.file("bad.chain"), raw);
  const ReadBack back = read_chains(dir.file("bad.chain"));
  EXPECT_EQ(back.games.size(), 1u);
  EXPECT_FALSE(back.truncated);
  EXPECT_NE(back.error.find("game 1"), std::string::npos) << back.error;
  std::string error;
  ChainReader reader;
  write_bytes(dir.file("records.zst"), {0x28, 0xB5, 0x2F, 0xFD, 0, 0, 0, 0});
  EXPECT_FALSE(reader.open(dir.file("records.zst"), error));
  EXPECT_NE(error.find("not a chain file"), std::string::npos) << error;
}

// ----- datagen and the converter

[[nodiscard]] datagen::DatagenConfig tiny(const std::string& output, DataFormat format) {
  datagen::DatagenConfig c;
  c.games = 4;
  c.nodes = 300;
  c.seed = 5;
  c.hash_mb = 4;
  c.output = output;
  c.format = format;
  return c;
}

int run(const datagen::DatagenConfig& config) {
  std::ostringstream out, err;
  const std::atomic<bool> stop{false};
  return datagen::run_datagen(config, out, err, &stop);
}

TEST(ChainDatagen, BothFormatsHoldTheSameRecords) {
  TempDir dir;
  ASSERT_EQ(run(tiny(dir.file("c.chain"), DataFormat::Chains)), 0);
  ASSERT_EQ(run(tiny(dir.file("r.zst"), DataFormat::Records)), 0);
  const auto chains = read_records(dir.file("c.chain"));
  const auto records = read_records(dir.file("r.zst"));
  ASSERT_FALSE(records.empty());
  ASSERT_EQ(chains.size(), records.size());
  for (std::size_t i = 0; i < records.size(); ++i)
    EXPECT_EQ(chains[i].to_bytes(), records[i].to_bytes()) << i;
  EXPECT_LT(read_bytes(dir.file("c.chain")).size() * 2, read_bytes(dir.file("r.zst")).size());
}

TEST(ChainDatagen, ConverterKeepsTheRecords) {
  TempDir dir;
  ASSERT_EQ(run(tiny(dir.file("r.zst"), DataFormat::Records)), 0);
  auto other = tiny(dir.file("r2.zst"), DataFormat::Records);
  other.seed = 6;
  ASSERT_EQ(run(other), 0);
  std::ostringstream out, err;
  datagen::ConvertConfig to_chains{{dir.file("r.zst"), dir.file("r2.zst")}, dir.file("c.chain")};
  ASSERT_EQ(datagen::run_convert(to_chains, out, err), 0) << err.str();
  datagen::ConvertConfig back{{dir.file("c.chain")}, dir.file("back.zst"), DataFormat::Records};
  ASSERT_EQ(datagen::run_convert(back, out, err), 0) << err.str();
  auto originals = read_records(dir.file("r.zst"));
  const auto second = read_records(dir.file("r2.zst"));
  originals.insert(originals.end(), second.begin(), second.end());
  const auto converted = read_records(dir.file("back.zst"));
  ASSERT_EQ(converted.size(), originals.size());
  EXPECT_EQ(read_chains(dir.file("c.chain")).games.size(), 8u);
  // Only the flags of a game's last position may differ: its search move is not in the records.
  int differing = 0;
  for (std::size_t i = 0; i < originals.size(); ++i) {
    TrainingRecord a = originals[i], b = converted[i];
    if (a.flags != b.flags) {
      ++differing;
      EXPECT_TRUE(i + 1 == originals.size() || originals[i + 1].ply != a.ply + 1) << i;
    }
    a.flags = b.flags = 0;
    EXPECT_EQ(a.to_bytes(), b.to_bytes()) << i;
  }
  EXPECT_LE(differing, 8);
  // The output may not be an input.
  datagen::ConvertConfig onto_itself{{dir.file("c.chain")}, dir.file("c.chain")};
  EXPECT_EQ(datagen::run_convert(onto_itself, out, err), 1);
}

TEST(ChainDatagen, Chess960StartsAreTheNineHundredSixty) {
  EXPECT_EQ(game::chess960_start_fen(518),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
  std::set<std::string> seen;
  for (int i = 0; i < 960; ++i) {
    const std::string fen = game::chess960_start_fen(i);
    std::string error;
    const auto pos = Position::from_fen(fen, true, error);
    ASSERT_TRUE(pos) << fen << ": " << error;
    const std::string rank = fen.substr(fen.rfind('/') + 1, 8);
    const auto bishop = rank.find('B'), other = rank.rfind('B');
    EXPECT_NE(bishop % 2, other % 2) << fen;  // opposite colours
    EXPECT_LT(rank.find('R'), rank.find('K')) << fen;
    EXPECT_GT(rank.rfind('R'), rank.find('K')) << fen;
    EXPECT_EQ(pos->castling_rights(), ALL_CASTLING) << fen;
    seen.insert(rank);
  }
  EXPECT_EQ(seen.size(), 960u);
  auto config = tiny("", DataFormat::Chains);
  TempDir dir;
  config.output = dir.file("frc.chain");
  config.chess960_starts = true;
  ASSERT_EQ(run(config), 0);
  const ReadBack back = read_chains(config.output);
  ASSERT_EQ(back.games.size(), 4u);
  std::string error;
  EXPECT_TRUE(decode(back.games[0].start, error)->chess960());
}

TEST(ChainDatagen, SoftNodeLimitEndsAnIterationPastIt) {
  std::uint64_t searched[2] = {0, 0};
  for (std::uint64_t& nodes : searched) {
    engine::Engine engine(search::EngineCallbacks{[](const search::SearchInfo&) {},
                                                  [](Move, Move) {}, [](const std::string&) {}});
    ASSERT_EQ(engine.set_threads(1), "");
    search::SearchLimits limits;
    limits.soft_nodes = 3000;
    limits.nodes = 3000 * datagen::kSoftNodeCap;
    nodes = engine.search_sync(limits);
  }
  EXPECT_GE(searched[0], 3000u);
  EXPECT_LE(searched[0], 3000u * datagen::kSoftNodeCap);
  EXPECT_EQ(searched[0], searched[1]);  // a function of the position and the limit
}

// ----- genfens

using test::genfens;

TEST(Genfens, PrintsPlayablePositionsDeterminedBySeed) {
  const auto lines = genfens({"6", "seed", "42", "book", "None"});
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_EQ(lines, genfens({"6", "seed", "42", "book", "None"}));
  EXPECT_NE(lines, genfens({"6", "seed", "43", "book", "None"}));
  std::set<int> plies;
  for (const std::string& line : lines) {
    ASSERT_EQ(line.rfind("info string genfens ", 0), 0u) << line;
    std::string error;
    const auto pos = Position::from_fen(line.substr(20), false, error);
    ASSERT_TRUE(pos) << line << ": " << error;
    EXPECT_FALSE(MoveList<>(*pos).empty()) << line;
    plies.insert(pos->plies_from_start());
  }
  EXPECT_TRUE(plies.count(8) || plies.count(9));
  for (const int p : plies) EXPECT_TRUE(p == 8 || p == 9) << p;
}

TEST(Genfens, ReadsBooksAndRefusesBadRequests) {
  TempDir dir;
  write_text(dir.file("book.epd"), "4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - c0 \"x\";\n");
  const auto lines = genfens({"3", "seed", "1", "book", dir.file("book.epd"), "plies", "2"});
  ASSERT_EQ(lines.size(), 3u);
  for (const std::string& line : lines) {
    std::string error;
    const auto pos = Position::from_fen(line.substr(20), false, error);
    ASSERT_TRUE(pos) << line;
    EXPECT_EQ(pos->count(WHITE, PAWN) + pos->count(BLACK, PAWN), 8) << line;
  }
  std::string error;
  for (const std::vector<std::string>& bad :
       std::vector<std::vector<std::string>>{{"x", "seed", "1", "book", "None"},
                                             {"3", "seed", "1"},
                                             {"3", "seed", "-1", "book", "None"},
                                             {"3", "seed", "1", "book", "None", "frobnicate"},
                                             {"3", "seed", "1", "book", "None", "plies"}})
    EXPECT_FALSE(datagen::parse_genfens(bad, error)) << bad[0];
  const auto missing =
      datagen::parse_genfens({"3", "seed", "1", "book", dir.file("no.epd")}, error);
  ASSERT_TRUE(missing);
  EXPECT_FALSE(datagen::run_genfens(
      *missing, [](const std::string&) {}, error));
  EXPECT_NE(error.find("no.epd"), std::string::npos) << error;
}

// ----- PGN

TEST(PgnImport, ReadsScoresFromComments) {
  EXPECT_EQ(datagen::comment_score("+0.31/17 0.62s"), 31);
  EXPECT_EQ(datagen::comment_score("-1.05/9 0.1s"), -105);
  EXPECT_EQ(datagen::comment_score("0.00/1 0s"), 0);
  EXPECT_EQ(datagen::comment_score("+M5/20 0.3s"), datagen::kScoreLimit);
  EXPECT_EQ(datagen::comment_score("-M2/4"), -datagen::kScoreLimit);
  EXPECT_EQ(datagen::comment_score("book"), std::nullopt);
  EXPECT_EQ(datagen::comment_score("White mates"), std::nullopt);
  EXPECT_EQ(datagen::comment_score("+0.31 no depth"), std::nullopt);
}

TEST(PgnImport, GamesBecomeChainsFromTheirFirstScoredMove) {
  TempDir dir;
  write_text(dir.file("games.pgn"),
             "[Event \"a\"]\n[Result \"1-0\"]\n\n"
             "1. e4 {book} e5 {book} 2. Nf3 {+0.40/12 0.5s} Nc6 {-0.35/11 0.4s} $1\n"
             "3. Bb5 {+0.50/12} (3. Bc4 Bc5) a6 {-0.45/10} ; a line comment\n"
             "4. Bxc6 {+0.20/9} dxc6 {-0.10/9} 1-0\n\n"
             "[Event \"unfinished\"]\n[Result \"*\"]\n\n1. d4 {+0.1/5} d5 {-0.1/5} *\n\n"
             "[Event \"illegal\"]\n[Result \"0-1\"]\n\n1. e4 {+0.1/5} Ke2 {-0.1/5} 0-1\n\n"
             "[Event \"set up\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 40\"]\n"
             "[Result \"1/2-1/2\"]\n\n40. e4 {+1.00/20} Kd7 {-0.90/20} 1/2-1/2\n");
  std::vector<GameChain> games;
  std::vector<std::string> skipped;
  datagen::PgnImportStats stats;
  std::string error;
  ASSERT_TRUE(datagen::import_pgn(
      dir.file("games.pgn"), [&](const GameChain& g) { games.push_back(g); },
      [&](const std::string& why) { skipped.push_back(why); }, stats, error))
      << error;
  EXPECT_EQ(stats.games, 4u);
  EXPECT_EQ(stats.converted, 2u);
  EXPECT_EQ(stats.skipped, 2u);
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_NE(skipped[1].find("Ke2"), std::string::npos) << skipped[1];
  ASSERT_EQ(games.size(), 2u);
  // Game 1 starts after 1. e4 e5 with white to move; scores turn to white's view.
  const auto records = games[0].to_records(error);
  ASSERT_TRUE(records) << error;
  ASSERT_EQ(records->size(), 6u);
  Position after_e5 = Position::startpos();
  for (const char* san : {"e4", "e5"}) after_e5.make_move(move_from_san(after_e5, san));
  EXPECT_EQ(games[0].start, encode(after_e5));
  EXPECT_EQ(games[0].ply, 2);
  const int white_view[] = {40, 35, 50, 45, 20, 10};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ((*records)[i].score_white, white_view[i]) << i;
  EXPECT_EQ(games[0].result, GameResult::WhiteWins);
  EXPECT_FALSE((*records)[4].quiet());  // Bxc6
  EXPECT_EQ(games[1].result, GameResult::Draw);
  EXPECT_EQ(games[1].ply, 78);
  EXPECT_EQ(games[1].plies.size(), 2u);
}

}  // namespace
}  // namespace tessera
#endif
