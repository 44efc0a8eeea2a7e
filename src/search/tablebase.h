// Syzygy endgame tablebases, probed through Fathom (Debian's libfathom).
//
// Policy. Fathom keeps its tables in process-wide state: tb_init() replaces whatever any caller
// loaded before. The Engine therefore owns the one Tablebases object and alone loads and
// unloads; the search only probes, and never while a load runs (the Engine waits for the
// search first). Two Engines in one process would share, and replace, each other's tables;
// only one of them should set a path. Unloading is tb_init(""), never tb_free(): this Fathom
// version's tb_free() releases its table index without forgetting the pointer, so any later
// tb_init() would write to freed memory (and a second tb_free() free it twice).
//
// Debian's build has no locking of its own (the library imports no pthread functions), yet
// Fathom opens each table lazily on its first probe; every probe therefore holds this object's
// mutex. Probes are rare (see below), so the lock costs little.
//
// Fathom's WDL probe answers only for a position without castling rights whose fifty-move
// counter is 0, right after a capture or pawn move: anywhere else a stored win may already be a
// fifty-move draw. The root probe takes any counter and ranks every legal move by DTZ (distance
// to the next capture or pawn move), which is what converting a won ending needs.
//
// Built without Fathom (TESSERA_SYZYGY off) the class still exists: load() refuses with a
// reason, nothing is ever found, and every probe fails.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"

namespace tessera::search {

// A tablebase result from the side to move's point of view. Cursed wins and blessed losses are
// wins and losses that the fifty-move rule turns into draws.
enum class Wdl : int { Loss = -2, BlessedLoss = -1, Draw = 0, CursedWin = 1, Win = 2 };

// What a load found: tables counted in the directories (distinct names of complete files),
// and the most pieces any of them covers (Fathom's TB_LARGEST).
struct TablebaseFiles {
  int wdl = 0;
  int dtz = 0;
  int max_pieces = 0;
};

// Fathom's verdict on one legal root move: the result for the side to move at the root, and
// the distance in plies to the next capture or pawn move (or mate) once it is played.
struct TablebaseRootMove {
  Move move;
  Wdl wdl = Wdl::Draw;
  int dtz = 0;
};

class Tablebases {
 public:
  static constexpr int kMaxPieces = 7;  // Syzygy tables exist for up to seven pieces

  // True when the build includes Fathom.
  [[nodiscard]] static bool supported();
  // The separator of several directories in one path: ':' (';' on Windows), as Fathom reads it.
  static constexpr char kPathSeparator =
#ifdef _WIN32
      ';';
#else
      ':';
#endif

  Tablebases() = default;
  ~Tablebases();  // unloads what this object loaded
  Tablebases(const Tablebases&) = delete;
  Tablebases& operator=(const Tablebases&) = delete;

  // Loads the tables in `paths` (directories joined by kPathSeparator); "" or "<empty>" only
  // unloads. A directory that does not exist, or a path without any table, is refused with a
  // one-line reason and leaves nothing loaded. Not to be called while a search probes.
  [[nodiscard]] std::string load(const std::string& paths);
  void unload();

  [[nodiscard]] const TablebaseFiles& files() const { return files_; }
  // The most pieces a probe can succeed with; 0 when nothing is loaded.
  [[nodiscard]] int max_pieces() const { return files_.max_pieces; }

  // The WDL value of `pos`; nullopt when the position is not in the tables or not probeable
  // (castling rights, a fifty-move counter other than 0, too many pieces). Thread-safe.
  [[nodiscard]] std::optional<Wdl> probe_wdl(const Position& pos) const;

  // Every legal move of `pos` with its WDL and DTZ; nullopt when the position is not in the
  // tables, has castling rights, or has no legal move. Thread-safe, but slow: for the root.
  [[nodiscard]] std::optional<std::vector<TablebaseRootMove>> probe_root(const Position& pos) const;

 private:
  [[nodiscard]] bool probeable(const Position& pos) const;

  mutable std::mutex mutex_;  // Fathom has no lock of its own (see above)
  TablebaseFiles files_;
  bool loaded_ = false;  // this object called tb_init with a non-empty path
};

}  // namespace tessera::search
