#include "search/tablebase.h"

#include <fmt/format.h>

#include <filesystem>
#include <memory>
#include <set>
#include <string_view>
#include <system_error>

#include "core/bitboard.h"
#include "core/movegen.h"

#if TESSERA_SYZYGY
#include <tbprobe.h>
#endif

namespace tessera::search {

namespace {

// A table file name as Fathom looks for it: "K" plus up to five more white piece letters, "v",
// "K" plus black piece letters, seven pieces at most, then the suffix.
[[nodiscard]] bool is_table_name(std::string_view stem) {
  const std::size_t v = stem.find('v');
  if (v == std::string_view::npos || stem.size() > 8 || stem.size() < 4) return false;
  const auto side_ok = [](std::string_view side) {
    if (side.empty() || side[0] != 'K') return false;
    return side.substr(1).find_first_not_of("QRBNP") == std::string_view::npos;
  };
  return side_ok(stem.substr(0, v)) && side_ok(stem.substr(v + 1));
}

// The directories of a path string, empty entries dropped.
[[nodiscard]] std::vector<std::string> split_path(const std::string& paths) {
  std::vector<std::string> dirs;
  std::size_t start = 0;
  while (start <= paths.size()) {
    std::size_t end = paths.find(Tablebases::kPathSeparator, start);
    if (end == std::string::npos) end = paths.size();
    if (end > start) dirs.push_back(paths.substr(start, end - start));
    start = end + 1;
  }
  return dirs;
}

// Counts the complete table files in `dirs` into `wdl` and `dtz` (by name, so that a table
// present in two directories counts once: Fathom uses the first). A complete Syzygy file is
// 16 bytes longer than a multiple of 64; Fathom skips others too. Returns an error or "".
[[nodiscard]] std::string count_tables(const std::vector<std::string>& dirs,
                                       std::set<std::string>& wdl, std::set<std::string>& dtz) {
  namespace fs = std::filesystem;
  for (const std::string& dir : dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return fmt::format("Syzygy path '{}' is not a directory", dir);
    fs::directory_iterator it(dir, ec);
    if (ec) return fmt::format("cannot read Syzygy directory '{}': {}", dir, ec.message());
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) return fmt::format("cannot read Syzygy directory '{}': {}", dir, ec.message());
      const fs::path& file = it->path();
      const std::string stem = file.stem().string();
      const std::string suffix = file.extension().string();
      if ((suffix != ".rtbw" && suffix != ".rtbz") || !is_table_name(stem)) continue;
      std::error_code size_ec;
      const std::uintmax_t size = fs::file_size(file, size_ec);
      if (size_ec || size % 64 != 16) continue;
      (suffix == ".rtbw" ? wdl : dtz).insert(stem);
    }
  }
  return {};
}

#if TESSERA_SYZYGY

// Fathom's arguments for a position: bitboards with a1 = bit 0 (Tessera's numbering too), the
// en-passant target square or 0 for none (a1 can never be one), and true for white to move.
struct FathomPosition {
  std::uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
  unsigned rule50;
  unsigned ep;
  bool white_to_move;
};

[[nodiscard]] FathomPosition to_fathom(const Position& pos) {
  // Tessera keeps an en-passant square only when a pawn of the side to move attacks it.
  const Square ep = pos.ep_square();
  return {pos.pieces(WHITE),          pos.pieces(BLACK),
          pos.pieces(KING),           pos.pieces(QUEEN),
          pos.pieces(ROOK),           pos.pieces(BISHOP),
          pos.pieces(KNIGHT),         pos.pieces(PAWN),
          unsigned(pos.rule50()),     ep.is_none() ? 0u : unsigned(ep.index()),
          pos.side_to_move() == WHITE};
}

// Fathom's promotion code (TB_PROMOTES_*) for a Tessera move.
[[nodiscard]] unsigned fathom_promotion(Move m) {
  if (m.kind() != MoveKind::Promotion) return TB_PROMOTES_NONE;
  switch (m.promotion()) {
    case QUEEN:
      return TB_PROMOTES_QUEEN;
    case ROOK:
      return TB_PROMOTES_ROOK;
    case BISHOP:
      return TB_PROMOTES_BISHOP;
    default:
      return TB_PROMOTES_KNIGHT;
  }
}

// The legal move of `pos` with Fathom's from, to and promotion code, or Move::none().
[[nodiscard]] Move find_move(const MoveList<GenType::All>& legal, unsigned from, unsigned to,
                             unsigned promotes) {
  for (const Move m : legal)
    if (unsigned(m.from().index()) == from && unsigned(m.to().index()) == to &&
        fathom_promotion(m) == promotes)
      return m;
  return Move::none();
}

#endif

}  // namespace

bool Tablebases::supported() {
#if TESSERA_SYZYGY
  return true;
#else
  return false;
#endif
}

Tablebases::~Tablebases() { unload(); }

void Tablebases::unload() {
#if TESSERA_SYZYGY
  if (loaded_) {
    const std::lock_guard lock(mutex_);
    (void)tb_init("");  // see the header: never tb_free()
  }
#endif
  loaded_ = false;
  files_ = {};
}

std::string Tablebases::load(const std::string& paths) {
  unload();
  if (paths.empty() || paths == "<empty>") return {};
  if (!supported()) return "Syzygy support not built";
  const std::vector<std::string> dirs = split_path(paths);
  if (dirs.empty()) return fmt::format("no directory in Syzygy path '{}'", paths);
  std::set<std::string> wdl;
  std::set<std::string> dtz;
  if (std::string error = count_tables(dirs, wdl, dtz); !error.empty()) return error;
  if (wdl.empty()) return fmt::format("no Syzygy tables (.rtbw files) found in '{}'", paths);
#if TESSERA_SYZYGY
  {
    const std::lock_guard lock(mutex_);
    loaded_ = true;  // whatever tb_init did, it must be undone
    if (!tb_init(paths.c_str())) {
      (void)tb_init("");
      loaded_ = false;
      return fmt::format("Fathom could not load the Syzygy tables in '{}'", paths);
    }
    files_ = {int(wdl.size()), int(dtz.size()), int(TB_LARGEST)};
  }
  if (files_.max_pieces == 0) {
    unload();
    return fmt::format("no usable Syzygy tables found in '{}'", paths);
  }
#endif
  return {};
}

bool Tablebases::probeable(const Position& pos) const {
  return loaded_ && pos.castling_rights() == 0 && popcount(pos.pieces()) <= files_.max_pieces;
}

std::optional<Wdl> Tablebases::probe_wdl(const Position& pos) const {
#if TESSERA_SYZYGY
  if (!probeable(pos) || pos.rule50() != 0) return std::nullopt;
  const FathomPosition f = to_fathom(pos);
  unsigned result = TB_RESULT_FAILED;
  {
    const std::lock_guard lock(mutex_);
    result = tb_probe_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights,
                          f.pawns, 0, 0, f.ep, f.white_to_move);
  }
  if (result == TB_RESULT_FAILED || result > TB_WIN) return std::nullopt;
  return Wdl(int(result) - 2);
#else
  (void)pos;
  return std::nullopt;
#endif
}

std::optional<std::vector<TablebaseRootMove>> Tablebases::probe_root(const Position& pos) const {
#if TESSERA_SYZYGY
  if (!probeable(pos)) return std::nullopt;
  const MoveList<GenType::All> legal(pos);
  if (legal.empty()) return std::nullopt;
  const FathomPosition f = to_fathom(pos);
  std::vector<TablebaseRootMove> moves;

  // The DTZ tables first: every legal move with its WDL (counting the fifty-move counter
  // from the root) and its DTZ. The results end with TB_RESULT_FAILED.
  std::vector<unsigned> results(TB_MAX_MOVES + 1, TB_RESULT_FAILED);
  unsigned root = TB_RESULT_FAILED;
  {
    const std::lock_guard lock(mutex_);
    root = tb_probe_root(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights,
                         f.pawns, f.rule50, 0, f.ep, f.white_to_move, results.data());
  }
  if (root != TB_RESULT_FAILED) {
    for (const unsigned r : results) {
      if (r == TB_RESULT_FAILED) break;
      const Move m = find_move(legal, TB_GET_FROM(r), TB_GET_TO(r), TB_GET_PROMOTES(r));
      if (!m) return std::nullopt;
      moves.push_back({m, Wdl(int(TB_GET_WDL(r)) - 2), int(TB_GET_DTZ(r))});
    }
    if (moves.size() == legal.size()) return moves;
    moves.clear();
  }

  // Without a DTZ table: the WDL tables rank the moves (win, cursed win, draw, ...) but say
  // nothing about progress. Fathom's rank is 1000, 899, 0, -899, -1000 for those five results.
  const auto ranked = std::make_unique<TbRootMoves>();
  int ok = 0;
  {
    const std::lock_guard lock(mutex_);
    ok = tb_probe_root_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights,
                           f.pawns, f.rule50, 0, f.ep, f.white_to_move, true, ranked.get());
  }
  if (ok == 0) return std::nullopt;
  for (unsigned i = 0; i < ranked->size && i < TB_MAX_MOVES; ++i) {
    const TbRootMove& rm = ranked->moves[i];
    const Move m =
        find_move(legal, TB_MOVE_FROM(rm.move), TB_MOVE_TO(rm.move), TB_MOVE_PROMOTES(rm.move));
    if (!m) return std::nullopt;
    const int rank = rm.tbRank;
    const Wdl wdl = rank >= 1000   ? Wdl::Win
                    : rank > 0     ? Wdl::CursedWin
                    : rank == 0    ? Wdl::Draw
                    : rank > -1000 ? Wdl::BlessedLoss
                                   : Wdl::Loss;
    moves.push_back({m, wdl, 0});
  }
  if (moves.size() != legal.size()) return std::nullopt;
  return moves;
#else
  (void)pos;
  return std::nullopt;
#endif
}

}  // namespace tessera::search
