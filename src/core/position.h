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

namespace tessera {

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

  // An estimate of the child's key for a pseudo-legal move: exact for ordinary moves and
  // captures, but it ignores the en-passant and castling-rights terms, the promoted piece and the
  // castling rook. Cheap enough to prefetch the transposition table before the move is made.
  [[nodiscard]] Key key_after(Move m) const;

  void make_move(Move m);
  void unmake_move(Move m);
  void make_null_move();
  void unmake_null_move();

  // ----- Draws
  // Repetition: a position seen before inside the search (`ply` plies from the root, two-fold),
  // or twice before in the game (three-fold).
  [[nodiscard]] bool is_repetition(int ply) const;
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

  // Rook squares and empty-path masks for castling; exposed for the move generator.
  [[nodiscard]] Bitboard castling_path(CastlingRight r) const {
    return castle_path_[castling_index(r)];
  }
  [[nodiscard]] bool castling_blocked(CastlingRight r) const {
    return (castle_path_[castling_index(r)] & pieces()) != 0;
  }
  // True when castling with `r` is allowed now: right held, path empty, not in check, no
  // attacked square on the king's way.
  [[nodiscard]] bool can_castle_now(CastlingRight r) const;

 private:
  Position() = default;
  void put_piece(Piece p, Square s);
  void remove_piece(Square s);
  void move_piece(Square from, Square to);
  void add_castling_right(Color c, Square rook);
  [[nodiscard]] std::string validate() const;
  void init_state();
  [[nodiscard]] Square valid_ep_square(Square candidate) const;

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

// Centipawn values used by SEE and move ordering.
inline constexpr std::array<int, 7> kSeeValue = {100, 300, 300, 500, 900, 0, 0};

}  // namespace tessera
