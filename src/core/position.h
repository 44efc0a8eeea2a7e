// Position: the board, the side to move, castling and en-passant state, and the history of
// states back to the position the game started from.
//
// Moves are made and unmade in place. Each make pushes a StateInfo (keys, clocks, captured
// piece, checkers) onto the position's own history, which is also what repetition detection
// walks; unmake pops it. Three keys are kept incrementally: the full Zobrist key, a pawn key
// (pawns and kings) and a material key (piece counts). The en-passant square is recorded, and
// hashed, only when a pawn of the side to move attacks it (the Polyglot rule), so transpositions
// with and without a useless double push share one key.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/bitboard.h"
#include "core/types.h"
#include "core/zobrist.h"

namespace tessera {

// What make_move tells an observer, in the order it happens: first the exact key of the new
// position (before the board is touched, so a table prefetch overlaps the board update), then
// every piece removed, added or moved. Observers derive from this and hide the calls they use;
// the calls are resolved at compile time, so a caller without an observer pays nothing.
struct MoveObserver {
  void key_known(Key) {}
  void piece_removed(Piece, Square) {}
  void piece_added(Piece, Square) {}
  void piece_moved(Piece, Square /*from*/, Square /*to*/) {}
};

// What deciding whether a move gives check needs, gathered once per node so that each move's
// test is a few bit operations. Valid only for the position it was made from.
struct CheckInfo {
  std::array<Bitboard, 6> squares{};  // per piece type: where it would attack the enemy king
  Bitboard discoverers = 0;           // our pieces that uncover a check by leaving their line
  Square enemy_king = Square::none();
};

struct StateInfo {
  Key key = 0;
  Key pawn_key = 0;
  Key material_key = 0;
  Bitboard checkers = 0;
  Move move = Move::none();  // the move that led to this state
  Piece captured = Piece::none();
  Square ep_square = Square::none();
  std::uint8_t castling = NO_CASTLING;
  int rule50 = 0;           // plies since the last capture or pawn move
  int plies_from_null = 0;  // plies since the last null move (repetitions never cross one)
};

class Position {
 public:
  static constexpr std::string_view kStartFen =
      "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

  // Parses a FEN (standard, without the two counters, X-FEN or Shredder-FEN castling). On
  // failure returns nullopt and sets `error` to a one-line explanation.
  [[nodiscard]] static std::optional<Position> from_fen(std::string_view fen, bool chess960,
                                                        std::string& error);
  [[nodiscard]] static Position startpos();

  [[nodiscard]] std::string fen() const;
  [[nodiscard]] std::string pretty() const;  // ASCII diagram, FEN and key

  // ----- Board queries
  [[nodiscard]] Color side_to_move() const { return side_; }
  [[nodiscard]] Piece piece_on(Square s) const { return board_[s.index()]; }
  [[nodiscard]] bool empty(Square s) const { return board_[s.index()].is_none(); }
  [[nodiscard]] Bitboard pieces() const { return by_color_[WHITE] | by_color_[BLACK]; }
  [[nodiscard]] Bitboard pieces(Color c) const { return by_color_[c]; }
  [[nodiscard]] Bitboard pieces(PieceType t) const { return by_type_[t]; }
  [[nodiscard]] Bitboard pieces(PieceType a, PieceType b) const {
    return by_type_[a] | by_type_[b];
  }
  [[nodiscard]] Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
  [[nodiscard]] Bitboard pieces(Color c, PieceType a, PieceType b) const {
    return by_color_[c] & (by_type_[a] | by_type_[b]);
  }
  [[nodiscard]] int count(Piece p) const { return piece_count_[p.index()]; }
  [[nodiscard]] int count(Color c, PieceType t) const { return piece_count_[Piece(c, t).index()]; }
  [[nodiscard]] Square king_square(Color c) const { return lsb(pieces(c, KING)); }
  // True when `c` has a piece other than pawns and king (null-move pruning needs one).
  [[nodiscard]] bool has_non_pawn_material(Color c) const {
    return (pieces(c) & ~pieces(PAWN, KING)) != 0;
  }

  // ----- State
  [[nodiscard]] const StateInfo& state() const { return states_.back(); }
  [[nodiscard]] Key key() const { return state().key; }
  [[nodiscard]] Key pawn_key() const { return state().pawn_key; }
  [[nodiscard]] Key material_key() const { return state().material_key; }
  // The Zobrist key of colour c's pieces other than pawns (its king included). Not kept by
  // make-move: computed from the board on each call (at most 16 table reads), for the search's
  // correction history, which asks once a node.
  [[nodiscard]] Key non_pawn_key(Color c) const;
  [[nodiscard]] Bitboard checkers() const { return state().checkers; }
  [[nodiscard]] bool in_check() const { return state().checkers != 0; }
  [[nodiscard]] int rule50() const { return state().rule50; }
  [[nodiscard]] Square ep_square() const { return state().ep_square; }
  [[nodiscard]] int castling_rights() const { return state().castling; }
  [[nodiscard]] bool can_castle(CastlingRight r) const { return state().castling & r; }
  [[nodiscard]] Square castling_rook(CastlingRight r) const {
    return castle_rook_[castling_index(r)];
  }
  [[nodiscard]] bool chess960() const { return chess960_; }
  void set_chess960(bool on) { chess960_ = on; }
  // Plies played since the FEN's position (its fullmove counter is kept separately).
  [[nodiscard]] int game_ply() const { return game_ply_; }
  // Plies from the game's start: the FEN's fullmove number and side to move, plus game_ply().
  [[nodiscard]] int plies_from_start() const { return start_ply_ + game_ply_; }
  [[nodiscard]] int history_size() const { return int(states_.size()) - 1; }
  [[nodiscard]] Move last_move() const { return state().move; }

  // ----- Attacks
  [[nodiscard]] Bitboard attackers_to(Square s, Bitboard occupied) const;
  [[nodiscard]] Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
  [[nodiscard]] bool attacked_by(Color attacker, Square s, Bitboard occupied) const;
  // Pieces of either colour that alone stand between `c`'s king and an enemy slider.
  [[nodiscard]] Bitboard king_blockers(Color c) const;

  // ----- Moves
  // True when `m` (any 16-bit value) is a well-formed move of the side to move that the
  // generator could produce, ignoring whether it leaves the own king in check.
  [[nodiscard]] bool pseudo_legal(Move m) const;
  // For a pseudo-legal `m`: true when it does not leave the own king attacked.
  [[nodiscard]] bool legal(Move m) const;
  [[nodiscard]] bool is_legal_move(Move m) const { return pseudo_legal(m) && legal(m); }
  [[nodiscard]] bool gives_check(Move m) const;
  // The same answer from precomputed `info` (this position's `check_info()`): fast for plain
  // moves, the full test for castling, promotions and en passant.
  [[nodiscard]] CheckInfo check_info() const;
  [[nodiscard]] bool gives_check(Move m, const CheckInfo& info) const {
    if (m.kind() != MoveKind::Normal) return gives_check(m);
    if (info.squares[piece_on(m.from()).type()] & m.to().bb()) return true;
    return (info.discoverers & m.from().bb()) && !aligned(m.from(), m.to(), info.enemy_king);
  }
  [[nodiscard]] bool is_capture(Move m) const {
    return (!empty(m.to()) && m.kind() != MoveKind::Castling) || m.kind() == MoveKind::EnPassant;
  }
  // Captures and queen promotions: the moves the quiescence search and the noisy stage try.
  [[nodiscard]] bool is_noisy(Move m) const {
    return m.kind() == MoveKind::Promotion ? m.promotion() == QUEEN : is_capture(m);
  }
  [[nodiscard]] Piece moved_piece(Move m) const { return piece_on(m.from()); }
  [[nodiscard]] Piece captured_piece(Move m) const {
    return m.kind() == MoveKind::EnPassant  ? Piece(~side_, PAWN)
           : m.kind() == MoveKind::Castling ? Piece::none()
                                            : piece_on(m.to());
  }
  // Static exchange evaluation: does `m` win at least `threshold` (centipawns)?
  [[nodiscard]] bool see_ge(Move m, int threshold) const;

  // Makes the pseudo-legal, legal move `m`, reporting the new key and each piece change to
  // `observer` (see MoveObserver).
  template <typename Observer>
  void make_move(Move m, Observer& observer);
  void make_move(Move m) {
    MoveObserver none;
    make_move(m, none);
  }
  void unmake_move(Move m);
  void make_null_move();
  void unmake_null_move();

  // ----- Draws
  // Repetition: a position seen before inside the search (`ply` plies from the root, two-fold),
  // or twice before in the game (three-fold).
  [[nodiscard]] bool is_repetition(int ply) const;
  // Upcoming repetition: the side to move has a reversible move (its path clear) back to a
  // position of the history since the last capture, pawn move or null move, so it can force a
  // draw by repetition. The position it returns to must lie inside the search (`ply` plies from
  // the root), or have been seen twice in the game; seen by the cuckoo table in a few XORs a
  // ply, not by generating moves.
  [[nodiscard]] bool has_upcoming_repetition(int ply) const;
  [[nodiscard]] bool has_insufficient_material() const;
  // Repetition, fifty-move rule (unless the side to move is checkmated) or insufficient material.
  [[nodiscard]] bool is_draw(int ply) const;

  // ----- UCI move notation (king-takes-rook castling when chess960() is on)
  [[nodiscard]] std::string move_to_uci(Move m) const;
  // The legal move written as `text`, or Move::none().
  [[nodiscard]] Move parse_uci_move(std::string_view text) const;

  // ----- From-scratch recomputation, for tests and assertions
  [[nodiscard]] Key compute_key() const;
  [[nodiscard]] Key compute_pawn_key() const;
  [[nodiscard]] Key compute_material_key() const;

  // True when the squares between king and rook for castling with `r` are not all empty.
  [[nodiscard]] bool castling_blocked(CastlingRight r) const {
    return (castle_path_[castling_index(r)] & pieces()) != 0;
  }
  // True when castling with `r` is allowed now: right held, path empty, not in check, no
  // attacked square on the king's way.
  [[nodiscard]] bool can_castle_now(CastlingRight r) const;

 private:
  // The XOR of the Zobrist piece keys of the pieces on `squares`: the shared core of the full,
  // pawn and non-pawn keys computed from the board.
  [[nodiscard]] Key piece_square_keys(Bitboard squares) const;
  Position() = default;
  // Where king and rook land when castling with the rook on `rook_from`.
  struct CastlingSquares {
    Square king_to;
    Square rook_to;
  };
  [[nodiscard]] static constexpr CastlingSquares castling_squares(Square king_from,
                                                                  Square rook_from) {
    const bool king_side = rook_from.file() > king_from.file();
    return {Square(king_side ? 6 : 2, king_from.rank()),
            Square(king_side ? 5 : 3, king_from.rank())};
  }
  void put_piece(Piece p, Square s) {
    board_[s.index()] = p;
    by_type_[p.type()] |= s.bb();
    by_color_[p.color()] |= s.bb();
    ++piece_count_[p.index()];
  }
  void remove_piece(Square s) {
    const Piece p = board_[s.index()];
    by_type_[p.type()] ^= s.bb();
    by_color_[p.color()] ^= s.bb();
    --piece_count_[p.index()];
    board_[s.index()] = Piece::none();
  }
  void move_piece(Square from, Square to) {
    const Piece p = board_[from.index()];
    const Bitboard both = from.bb() | to.bb();
    by_type_[p.type()] ^= both;
    by_color_[p.color()] ^= both;
    board_[from.index()] = Piece::none();
    board_[to.index()] = p;
  }
  // The keys of the position after `m`, from the board before it; fills `st` (already a copy
  // of the previous state) with everything but the checkers.
  void compute_child_state(Move m, StateInfo& st) const;
  void add_castling_right(Color c, Square rook);
  [[nodiscard]] std::string validate() const;
  void init_state();
  [[nodiscard]] Square valid_ep_square(Square candidate) const;
  // Whether the state at `index` of the history repeats an earlier one since its own last
  // irreversible move.
  [[nodiscard]] bool repeats_earlier_state(int index) const;

  std::array<Piece, 64> board_{};
  std::array<Bitboard, kPieceTypeCount> by_type_{};
  std::array<Bitboard, kColorCount> by_color_{};
  std::array<std::uint8_t, kPieceCount> piece_count_{};
  Color side_ = WHITE;
  int game_ply_ = 0;
  int start_ply_ = 0;  // plies from the game's start to the FEN, from its fullmove number
  bool chess960_ = false;

  std::array<Square, 4> castle_rook_{};
  std::array<Bitboard, 4> castle_path_{};
  std::array<std::uint8_t, 64> castle_mask_{};  // rights lost when a move touches the square

  std::vector<StateInfo> states_;
};

// Two passes: the new state (keys, rights, clocks) from the unchanged board, so the observer
// learns the exact key first; then the board, one event per piece change.
template <typename Observer>
void Position::make_move(Move m, Observer& observer) {
  states_.push_back(states_.back());
  StateInfo& st = states_.back();
  compute_child_state(m, st);
  observer.key_known(st.key);

  const Color us = side_;
  const Square from = m.from(), to = m.to();
  const Piece moved = piece_on(from);
  if (m.kind() == MoveKind::Castling) {
    // Remove both before placing either: in Chess960 a king may land where its rook stood.
    const Piece rook = piece_on(to);
    const auto [king_to, rook_to] = castling_squares(from, to);
    remove_piece(from);
    observer.piece_removed(moved, from);
    remove_piece(to);
    observer.piece_removed(rook, to);
    put_piece(moved, king_to);
    observer.piece_added(moved, king_to);
    put_piece(rook, rook_to);
    observer.piece_added(rook, rook_to);
  } else {
    if (!st.captured.is_none()) {
      const Square captured_square =
          m.kind() == MoveKind::EnPassant ? Square(to.file(), from.rank()) : to;
      remove_piece(captured_square);
      observer.piece_removed(st.captured, captured_square);
    }
    if (m.kind() == MoveKind::Promotion) {
      const Piece promoted(us, m.promotion());
      remove_piece(from);
      observer.piece_removed(moved, from);
      put_piece(promoted, to);
      observer.piece_added(promoted, to);
    } else {
      move_piece(from, to);
      observer.piece_moved(moved, from, to);
    }
  }
  side_ = ~us;
  ++game_ply_;
  st.checkers = attackers_to(king_square(~us)) & pieces(us);
}

// Centipawn values used by SEE and move ordering.
inline constexpr std::array<int, 7> kSeeValue = {100, 300, 300, 500, 900, 0, 0};

}  // namespace tessera
