#include "datagen/pgn_import.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <vector>

#include "core/movegen.h"
#include "core/position.h"
#include "core/san.h"

namespace tessera::datagen {

namespace {

struct PgnGame {
  std::map<std::string, std::string> tags;
  std::vector<std::string> moves;          // SAN
  std::vector<std::optional<int>> scores;  // per move, the mover's view
  std::string result_token;
  int line = 0;  // where the game starts
};

[[nodiscard]] std::optional<GameResult> result_of(const std::string& text) {
  if (text == "1-0") return GameResult::WhiteWins;
  if (text == "0-1") return GameResult::BlackWins;
  if (text == "1/2-1/2") return GameResult::Draw;
  return std::nullopt;
}

[[nodiscard]] bool is_chess960(const PgnGame& game) {
  const auto it = game.tags.find("Variant");
  if (it == game.tags.end()) return false;
  std::string v = it->second;
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return std::tolower(c); });
  return v.find("960") != std::string::npos || v.find("fischerandom") != std::string::npos ||
         v == "frc";
}

// The game's chain, or nullopt and the reason it is skipped.
[[nodiscard]] std::optional<GameChain> chain_of(const PgnGame& game, std::string& why) {
  const auto tag = game.tags.find("Result");
  const std::optional<GameResult> result =
      result_of(tag != game.tags.end() ? tag->second : game.result_token);
  if (!result) {
    why = "no result";
    return std::nullopt;
  }
  const auto fen_tag = game.tags.find("FEN");
  const std::string fen =
      fen_tag != game.tags.end() ? fen_tag->second : std::string(Position::kStartFen);
  std::optional<Position> pos = Position::from_fen(fen, is_chess960(game), why);
  if (!pos) {
    why = "bad FEN tag: " + why;
    return std::nullopt;
  }
  // The chain starts after the last unscored move.
  std::size_t first = game.moves.size();
  while (first > 0 && game.scores[first - 1]) --first;
  if (first == game.moves.size()) {
    why = "no scored move";
    return std::nullopt;
  }
  if (game.moves.size() - first > GameChain::kMaxPlies) {
    why = fmt::format("over {} scored plies", GameChain::kMaxPlies);
    return std::nullopt;
  }
  GameChain chain;
  chain.result = *result;
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const Move m = move_from_san(*pos, game.moves[i]);
    if (m.is_none()) {
      why = fmt::format("move {} '{}' is not a legal move in {}", i + 1, game.moves[i], pos->fen());
      return std::nullopt;
    }
    if (i == first) {
      chain.start = encode(*pos);
      chain.ply = std::uint16_t(std::clamp(pos->plies_from_start(), 0, 0xFFFF));
      chain.rule50 = std::uint8_t(std::clamp(pos->rule50(), 0, 0xFF));
    }
    if (i >= first) {
      const int mover = std::clamp(*game.scores[i], -kScoreLimit, kScoreLimit);
      chain.plies.push_back({m, std::int16_t(pos->side_to_move() == WHITE ? mover : -mover)});
    }
    pos->make_move(m);
  }
  return chain;
}

// The position after the game's moves, or nullopt and the reason it is skipped.
[[nodiscard]] std::optional<Position> end_position_of(const PgnGame& game, bool chess960,
                                                      std::string& why) {
  const auto fen_tag = game.tags.find("FEN");
  const std::string fen =
      fen_tag != game.tags.end() ? fen_tag->second : std::string(Position::kStartFen);
  std::optional<Position> pos = Position::from_fen(fen, chess960, why);
  if (!pos) {
    why = "bad FEN tag: " + why;
    return std::nullopt;
  }
  for (std::size_t i = 0; i < game.moves.size(); ++i) {
    const Move m = move_from_san(*pos, game.moves[i]);
    if (m.is_none()) {
      why = fmt::format("move {} '{}' is not a legal move in {}", i + 1, game.moves[i], pos->fen());
      return std::nullopt;
    }
    pos->make_move(m);
  }
  if (!has_legal_move(*pos)) {
    why = pos->in_check() ? "it ends in checkmate" : "it ends in stalemate";
    return std::nullopt;
  }
  return pos;
}

// Splits PGN text into games and hands each finished one to `done`.
class PgnScanner {
 public:
  PgnScanner(const std::string& text, const std::function<void(const PgnGame&)>& done)
      : text_(text), done_(done) {}

  void run() {
    while (skip_space()) {
      const char c = text_[pos_];
      if (c == '[') {
        if (!game_.moves.empty()) finish();
        tag();
      } else if (c == '{') {
        comment();
      } else if (c == ';' || (c == '%' && at_line_start())) {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == '(') {
        variation();
      } else {
        token();
      }
    }
    if (!game_.moves.empty() || !game_.tags.empty()) finish();
  }

 private:
  bool skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) {
      if (text_[pos_] == '\n') ++line_;
      ++pos_;
    }
    return pos_ < text_.size();
  }
  [[nodiscard]] bool at_line_start() const { return pos_ == 0 || text_[pos_ - 1] == '\n'; }

  void begin_if_new() {
    if (game_.tags.empty() && game_.moves.empty()) game_.line = line_;
  }

  void tag() {
    begin_if_new();
    const std::size_t end = text_.find('\n', pos_);
    const std::string body =
        text_.substr(pos_ + 1, (end == std::string::npos ? text_.size() : end) - pos_ - 1);
    pos_ = end == std::string::npos ? text_.size() : end;
    const std::size_t space = body.find(' ');
    const std::size_t open = body.find('"');
    const std::size_t close = body.rfind('"');
    if (space == std::string::npos || open == std::string::npos || close <= open) return;
    std::string value;
    for (std::size_t i = open + 1; i < close; ++i) {
      if (body[i] == '\\' && i + 1 < close) ++i;
      value += body[i];
    }
    game_.tags[body.substr(0, space)] = value;
  }

  void comment() {
    const std::size_t end = text_.find('}', pos_);
    const std::size_t stop = end == std::string::npos ? text_.size() : end;
    const std::string body = text_.substr(pos_ + 1, stop - pos_ - 1);
    line_ += int(std::count(body.begin(), body.end(), '\n'));
    pos_ = std::min(stop + 1, text_.size());
    if (!game_.scores.empty() && !game_.scores.back()) game_.scores.back() = comment_score(body);
  }

  void variation() {
    int depth = 0;
    for (; pos_ < text_.size(); ++pos_) {
      const char c = text_[pos_];
      if (c == '\n') ++line_;
      if (c == '{') {
        const std::size_t end = text_.find('}', pos_);
        pos_ = end == std::string::npos ? text_.size() - 1 : end;
      } else if (c == '(') {
        ++depth;
      } else if (c == ')' && --depth == 0) {
        ++pos_;
        return;
      }
    }
  }

  void token() {
    begin_if_new();
    const std::size_t start = pos_;
    while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
           std::string_view("{}()[];").find(text_[pos_]) == std::string_view::npos)
      ++pos_;
    if (pos_ == start) {
      ++pos_;  // a stray ')' or ']'
      return;
    }
    std::string t = text_.substr(start, pos_ - start);
    if (t == "1-0" || t == "0-1" || t == "1/2-1/2" || t == "*") {
      game_.result_token = t;
      finish();
      return;
    }
    if (t.front() == '$') return;  // a NAG
    // A move number, possibly glued to its move: "12." "12..." "12.e4".
    std::size_t skip = 0;
    while (skip < t.size() && std::isdigit(static_cast<unsigned char>(t[skip]))) ++skip;
    if (skip > 0 && skip < t.size() && t[skip] == '.') {
      while (skip < t.size() && t[skip] == '.') ++skip;
      t.erase(0, skip);
    } else if (skip == t.size()) {
      return;  // a bare number
    }
    if (t.empty()) return;
    game_.moves.push_back(t);
    game_.scores.emplace_back();
  }

  void finish() {
    done_(game_);
    game_ = PgnGame{};
  }

  const std::string& text_;
  const std::function<void(const PgnGame&)>& done_;
  std::size_t pos_ = 0;
  int line_ = 1;
  PgnGame game_;
};

}  // namespace

std::optional<int> comment_score(std::string_view comment) {
  std::size_t i = 0;
  while (i < comment.size() && std::isspace(static_cast<unsigned char>(comment[i]))) ++i;
  int sign = 1;
  if (i < comment.size() && (comment[i] == '+' || comment[i] == '-')) {
    sign = comment[i] == '-' ? -1 : 1;
    ++i;
  }
  if (i < comment.size() && comment[i] == 'M') {
    const std::size_t digits = i + 1;
    std::size_t j = digits;
    while (j < comment.size() && std::isdigit(static_cast<unsigned char>(comment[j]))) ++j;
    if (j == digits || (j < comment.size() && comment[j] != '/')) return std::nullopt;
    return sign * kScoreLimit;
  }
  std::size_t j = i;
  while (j < comment.size() &&
         (std::isdigit(static_cast<unsigned char>(comment[j])) || comment[j] == '.'))
    ++j;
  // The depth after '/' tells a score from other numbers a comment may hold.
  if (j == i || j >= comment.size() || comment[j] != '/') return std::nullopt;
  const std::string number(comment.substr(i, j - i));
  if (std::count(number.begin(), number.end(), '.') > 1 || number == "." || number.size() > 12)
    return std::nullopt;
  const double pawns = std::stod(number);
  return sign * int(std::lround(std::min(pawns * 100.0, double(kScoreLimit))));
}

void pgn_end_positions(const std::string& text, const std::string& name, bool chess960,
                       const std::function<void(const Position&)>& on_position,
                       const std::function<void(const std::string&)>& on_skip) {
  int games = 0;
  const std::function<void(const PgnGame&)> done = [&](const PgnGame& game) {
    ++games;
    std::string why;
    const std::optional<Position> pos = end_position_of(game, chess960, why);
    if (pos)
      on_position(*pos);
    else
      on_skip(fmt::format("{}:{}: game {} skipped: {}", name, game.line, games, why));
  };
  PgnScanner(text, done).run();
}

bool import_pgn(const std::string& path, const std::function<void(const GameChain&)>& on_game,
                const std::function<void(const std::string&)>& on_skip, PgnImportStats& stats,
                std::string& error) {
  std::string text;
  if (!read_whole_file(path, text, error)) return false;
  import_pgn_text(text, path, on_game, on_skip, stats);
  return true;
}

bool read_whole_file(const std::string& path, std::string& bytes, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  if (in) buffer << in.rdbuf();
  if (!in || in.bad()) {
    error = fmt::format("cannot read '{}'", path);
    return false;
  }
  bytes = std::move(buffer).str();
  return true;
}

void import_pgn_text(const std::string& text, const std::string& name,
                     const std::function<void(const GameChain&)>& on_game,
                     const std::function<void(const std::string&)>& on_skip,
                     PgnImportStats& stats) {
  const std::function<void(const PgnGame&)> done = [&](const PgnGame& game) {
    ++stats.games;
    std::string why;
    const std::optional<GameChain> chain = chain_of(game, why);
    if (!chain) {
      ++stats.skipped;
      on_skip(fmt::format("{}:{}: game {} skipped: {}", name, game.line, stats.games, why));
      return;
    }
    ++stats.converted;
    stats.positions += chain->plies.size();
    on_game(*chain);
  };
  PgnScanner(text, done).run();
}

}  // namespace tessera::datagen
