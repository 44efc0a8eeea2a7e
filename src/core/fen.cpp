// FEN input and output, with the validation that keeps impossible positions out of the engine.
#include <fmt/format.h>

#include <array>
#include <sstream>
#include <string>
#include <vector>

#include "core/parse.h"
#include "core/position.h"
#include "core/zobrist.h"

namespace tessera {

std::string Square::to_string() const {
  if (is_none()) return "-";
  return {char('a' + file()), char('1' + rank())};
}

Square parse_square(std::string_view text) {
  if (text.size() != 2 || text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
    return Square::none();
  return Square(text[0] - 'a', text[1] - '1');
}

namespace {

std::vector<std::string_view> split_fields(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() &&
           (text[i] == ' ' || text[i] == '\t' || text[i] == '\r' || text[i] == '\n'))
      ++i;
    std::size_t j = i;
    while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' &&
           text[j] != '\n')
      ++j;
    if (j > i) fields.push_back(text.substr(i, j - i));
    i = j;
  }
  return fields;
}

int piece_index_from_char(char c) {
  constexpr std::string_view kLetters = "PNBRQKpnbrqk";
  const auto pos = kLetters.find(c);
  return pos == std::string_view::npos ? -1 : int(pos);
}

// Parses a whole decimal field into `value`; false on anything else.
bool parse_int(std::string_view text, long long& value) {
  if (text.size() > 12) return false;
  const std::optional<long long> n = parse_integer<long long>(text);
  if (n) value = *n;
  return n.has_value();
}

}  // namespace

void Position::add_castling_right(Color c, Square rook) {
  const Square king = king_square(c);
  const bool king_side = rook.file() > king.file();
  const CastlingRight right =
      c == WHITE ? (king_side ? WHITE_OO : WHITE_OOO) : (king_side ? BLACK_OO : BLACK_OOO);
  const int idx = castling_index(right);
  const Square king_to = Square(king_side ? 6 : 2, king.rank());
  const Square rook_to = Square(king_side ? 5 : 3, king.rank());
  castle_rook_[idx] = rook;
  castle_mask_[king.index()] |= right;
  castle_mask_[rook.index()] |= right;
  castle_path_[idx] =
      (between_bb(king, king_to) | between_bb(rook, rook_to)) & ~(king.bb() | rook.bb());
  states_.back().castling |= right;
}

Key Position::piece_square_keys(Bitboard squares) const {
  Key k = 0;
  while (squares) {
    const Square s = pop_lsb(squares);
    k ^= kZobrist.piece[piece_on(s).index()][s.index()];
  }
  return k;
}

Key Position::compute_key() const {
  Key k = side_ == BLACK ? kZobrist.side : 0;
  k ^= piece_square_keys(pieces());
  k ^= kZobrist.castle[state().castling];
  if (!state().ep_square.is_none()) k ^= kZobrist.ep_file[state().ep_square.file()];
  return k;
}

Key Position::compute_pawn_key() const { return piece_square_keys(pieces(PAWN, KING)); }

Key Position::non_pawn_key(Color c) const { return piece_square_keys(pieces(c) & ~pieces(PAWN)); }

Key Position::compute_material_key() const {
  Key k = 0;
  for (int p = 0; p < kPieceCount; ++p)
    for (int n = 0; n < piece_count_[p]; ++n) k ^= kZobrist.material[p][n];
  return k;
}

Square Position::valid_ep_square(Square candidate) const {
  // Hashed and kept only when a pawn of the side to move attacks it (the Polyglot rule).
  return (pawn_attacks(~side_, candidate) & pieces(side_, PAWN)) ? candidate : Square::none();
}

void Position::init_state() {
  StateInfo& st = states_.back();
  st.key = compute_key();
  st.pawn_key = compute_pawn_key();
  st.material_key = compute_material_key();
  st.checkers = attackers_to(king_square(side_)) & pieces(~side_);
}

std::string Position::validate() const {
  for (const Color c : {WHITE, BLACK}) {
    const char* name = c == WHITE ? "white" : "black";
    if (count(c, KING) != 1)
      return fmt::format("{} must have exactly one king (found {})", name, count(c, KING));
    if (popcount(pieces(c)) > 16) return fmt::format("{} has more than 16 pieces", name);
    const int pawns = count(c, PAWN);
    const int extra = std::max(0, count(c, KNIGHT) - 2) + std::max(0, count(c, BISHOP) - 2) +
                      std::max(0, count(c, ROOK) - 2) + std::max(0, count(c, QUEEN) - 1);
    if (pawns + extra > 8)
      return fmt::format("{} has more promoted pieces than missing pawns", name);
  }
  if (pieces(PAWN) & (kRank1 | kRank8)) return "pawns on the first or last rank";
  if (attackers_to(king_square(~side_)) & pieces(side_)) return "the side not to move is in check";
  if (popcount(attackers_to(king_square(side_)) & pieces(~side_)) > 2)
    return "the side to move is attacked by more than two pieces";
  return "";
}

std::optional<Position> Position::from_fen(std::string_view fen, bool chess960,
                                           std::string& error) {
  const auto fields = split_fields(fen);
  if (fields.size() < 4 || fields.size() > 6) {
    error = fmt::format("FEN needs 4 to 6 fields, found {}", fields.size());
    return std::nullopt;
  }
  Position pos;
  pos.chess960_ = chess960;
  pos.states_.reserve(1024);
  pos.states_.emplace_back();

  // Field 1: piece placement, rank 8 first.
  int rank = 7, file = 0;
  for (const char c : fields[0]) {
    if (c == '/') {
      if (file != 8) {
        error = fmt::format("rank {} has {} squares, expected 8", rank + 1, file);
        return std::nullopt;
      }
      if (--rank < 0) {
        error = "more than 8 ranks";
        return std::nullopt;
      }
      file = 0;
    } else if (c >= '1' && c <= '8') {
      file += c - '0';
      if (file > 8) {
        error = fmt::format("rank {} has more than 8 squares", rank + 1);
        return std::nullopt;
      }
    } else {
      const int p = piece_index_from_char(c);
      if (p < 0) {
        error = fmt::format("bad piece letter '{}'", c);
        return std::nullopt;
      }
      if (file >= 8) {
        error = fmt::format("rank {} has more than 8 squares", rank + 1);
        return std::nullopt;
      }
      pos.put_piece(Piece::from_index(p), Square(file++, rank));
    }
  }
  if (rank != 0 || file != 8) {
    error = rank != 0 ? fmt::format("expected 8 ranks, found {}", 8 - rank)
                      : fmt::format("rank 1 has {} squares, expected 8", file);
    return std::nullopt;
  }

  // Field 2: side to move.
  if (fields[1] != "w" && fields[1] != "b") {
    error = fmt::format("side to move must be 'w' or 'b', not '{}'", fields[1]);
    return std::nullopt;
  }
  pos.side_ = fields[1] == "w" ? WHITE : BLACK;

  if (std::string e = pos.validate(); !e.empty()) {
    error = e;
    return std::nullopt;
  }

  // Field 3: castling rights, KQkq (X-FEN: the outermost rook) or rook files (Shredder-FEN).
  if (fields[2] != "-") {
    for (const char c : fields[2]) {
      const Color color = (c >= 'a' && c <= 'z') ? BLACK : WHITE;
      const char lower = char(color == WHITE ? c - 'A' + 'a' : c);
      const Square king = pos.king_square(color);
      const int back = color == WHITE ? 0 : 7;
      const Piece rook_piece(color, ROOK);
      Square rook = Square::none();
      if (king.rank() != back) {
        error = fmt::format("castling right '{}' but the king is not on its first rank", c);
        return std::nullopt;
      }
      if (lower == 'k') {
        for (int f = 7; f > king.file() && rook.is_none(); --f)
          if (pos.piece_on(Square(f, back)) == rook_piece) rook = Square(f, back);
      } else if (lower == 'q') {
        for (int f = 0; f < king.file() && rook.is_none(); ++f)
          if (pos.piece_on(Square(f, back)) == rook_piece) rook = Square(f, back);
      } else if (lower >= 'a' && lower <= 'h') {
        if (pos.piece_on(Square(lower - 'a', back)) == rook_piece && lower - 'a' != king.file())
          rook = Square(lower - 'a', back);
      } else {
        error = fmt::format("bad castling letter '{}'", c);
        return std::nullopt;
      }
      if (rook.is_none()) {
        error = fmt::format("castling right '{}' but no rook on its square", c);
        return std::nullopt;
      }
      // Standard chess castles only from the original squares; elsewhere it is Chess960.
      if (!chess960 && (king.file() != 4 || (rook.file() != 0 && rook.file() != 7))) {
        error = fmt::format(
            "castling right '{}' needs the king on the e-file and the rook in the corner "
            "(or Chess960 mode)",
            c);
        return std::nullopt;
      }
      const bool king_side = rook.file() > king.file();
      const CastlingRight right =
          color == WHITE ? (king_side ? WHITE_OO : WHITE_OOO) : (king_side ? BLACK_OO : BLACK_OOO);
      if (pos.states_.back().castling & right) {
        error = fmt::format("castling right '{}' given twice", c);
        return std::nullopt;
      }
      pos.add_castling_right(color, rook);
    }
  }

  // Field 4: en-passant target square, behind a pawn that could just have double-pushed.
  if (fields[3] != "-") {
    const Square ep = parse_square(fields[3]);
    if (ep.is_none()) {
      error = fmt::format("bad en-passant square '{}'", fields[3]);
      return std::nullopt;
    }
    const Color us = pos.side_;
    const int forward = us == WHITE ? -8 : 8;  // from the ep square towards the pushed pawn
    if (ep.relative_rank(us) != 5 || !pos.empty(ep) || !pos.empty(ep.offset(-forward)) ||
        pos.piece_on(ep.offset(forward)) != Piece(~us, PAWN)) {
      error = fmt::format("impossible en-passant square '{}'", fields[3]);
      return std::nullopt;
    }
    pos.states_.back().ep_square = pos.valid_ep_square(ep);
  }

  // Fields 5 and 6: halfmove clock and fullmove number (optional).
  long long halfmove = 0, fullmove = 1;
  if (fields.size() >= 5 && (!parse_int(fields[4], halfmove) || halfmove < 0 || halfmove > 150)) {
    error = fmt::format("halfmove clock '{}' is not a number from 0 to 150", fields[4]);
    return std::nullopt;
  }
  if (fields.size() >= 6 &&
      (!parse_int(fields[5], fullmove) || fullmove < 0 || fullmove > 100000)) {
    error = fmt::format("fullmove number '{}' is not a number from 1 to 100000", fields[5]);
    return std::nullopt;
  }
  pos.states_.back().rule50 = int(halfmove);
  // Fullmove 0, written by some tools, reads as 1.
  pos.start_ply_ = 2 * (int(std::max(1LL, fullmove)) - 1) + (pos.side_ == BLACK ? 1 : 0);
  pos.init_state();
  return pos;
}

Position Position::startpos() {
  std::string error;
  return *from_fen(kStartFen, false, error);
}

std::string Position::fen() const {
  std::string out;
  for (int rank = 7; rank >= 0; --rank) {
    int empty_run = 0;
    for (int file = 0; file < 8; ++file) {
      const Piece p = piece_on(Square(file, rank));
      if (p.is_none()) {
        ++empty_run;
        continue;
      }
      if (empty_run) out += char('0' + empty_run);
      empty_run = 0;
      out += p.to_char();
    }
    if (empty_run) out += char('0' + empty_run);
    if (rank) out += '/';
  }
  out += side_ == WHITE ? " w " : " b ";
  const int rights = castling_rights();
  if (!rights) out += '-';
  constexpr std::array<CastlingRight, 4> kOrder = {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO};
  for (const CastlingRight r : kOrder) {
    if (!(rights & r)) continue;
    const bool white = r == WHITE_OO || r == WHITE_OOO;
    char c = chess960_ ? char('a' + castling_rook(r).file())
                       : ((r == WHITE_OO || r == BLACK_OO) ? 'k' : 'q');
    if (white) c = char(c - 'a' + 'A');
    out += c;
  }
  const int fullmove = 1 + (start_ply_ + game_ply_) / 2;
  out += fmt::format(" {} {} {}", ep_square().to_string(), rule50(), fullmove);
  return out;
}

std::string Position::pretty() const {
  std::ostringstream os;
  os << "\n +---+---+---+---+---+---+---+---+\n";
  for (int rank = 7; rank >= 0; --rank) {
    for (int file = 0; file < 8; ++file) {
      const Piece p = piece_on(Square(file, rank));
      os << " | " << (p.is_none() ? ' ' : p.to_char());
    }
    os << " | " << rank + 1 << "\n +---+---+---+---+---+---+---+---+\n";
  }
  os << "   a   b   c   d   e   f   g   h\n\nFen: " << fen()
     << "\nKey: " << fmt::format("{:016X}", key()) << "\nCheckers:";
  for (Bitboard b = checkers(); b;) os << ' ' << pop_lsb(b).to_string();
  os << '\n';
  return os.str();
}

}  // namespace tessera
