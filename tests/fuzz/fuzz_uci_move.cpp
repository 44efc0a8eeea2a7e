// libFuzzer target: UCI move parsing and the legality of arbitrary 16-bit moves.
//
// The first byte picks one of a fixed set of positions (standard and Chess960, with castling,
// en passant, promotions, checks and pins). The rest is parsed as move text: whatever
// parse_uci_move returns must be a legal move that prints back as the same text. The first two
// bytes of that text, read as a raw 16-bit Move, must be legal exactly when the generator
// produces them, since moves from the transposition table are checked that way.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"

namespace {

using tessera::Move;
using tessera::MoveList;
using tessera::Position;

void require(bool condition) {
  if (!condition) std::abort();
}

struct Setup {
  std::string_view fen;
  bool chess960;
};

constexpr std::array<Setup, 10> kSetups = {{
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/Pp2P3/2N2Q1p/1PPBBPPP/R3K2R b KQkq a3 0 1", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
    {"r3k2r/8/8/8/8/8/4q3/R3K2R w KQkq - 0 1", false},
    {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"1r2kr2/8/8/8/8/8/8/1R2KR2 w FBfb - 0 1", true},
    {"rk6/8/8/8/8/8/8/RK5R w HAa - 0 1", true},
}};

// Built once: parsing the setups is not what is being fuzzed.
[[nodiscard]] const std::vector<Position>& positions() {
  static const std::vector<Position> all = [] {
    std::vector<Position> v;
    for (const Setup& s : kSetups) {
      std::string error;
      auto pos = Position::from_fen(s.fen, s.chess960, error);
      require(pos.has_value());
      v.push_back(*pos);
    }
    return v;
  }();
  return all;
}

void check_text(Position pos, std::string_view text) {
  const Move m = pos.parse_uci_move(text);
  if (m.is_none()) return;
  require(pos.is_legal_move(m));
  require(MoveList<>(pos).contains(m));
  require(pos.move_to_uci(m) == text);
  const tessera::Key key = pos.key();
  pos.make_move(m);
  require(pos.key() == pos.compute_key());
  pos.unmake_move(m);
  require(pos.key() == key);
}

void check_raw(const Position& pos, std::uint16_t raw) {
  const Move m(raw);
  require(pos.is_legal_move(m) == MoveList<>(pos).contains(m));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const auto& all = positions();
  const Position& pos = all[data[0] % all.size()];
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  check_text(pos, text);
  if (size >= 3) check_raw(pos, std::uint16_t(data[1] | (data[2] << 8)));
  return 0;
}
