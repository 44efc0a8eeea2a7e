#include "datagen/convert.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>
#include <string_view>

#include "datagen/archive.h"
#include "datagen/pgn_import.h"

namespace tessera::datagen {

namespace {

enum class InputKind { Data, Pgn, Bzip2, Tar, Unknown };

// Whether text (its first bytes) reads as PGN: tags, a comment or a move number first.
[[nodiscard]] bool looks_like_pgn(std::string_view head) {
  std::size_t i = head.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a UTF-8 byte order mark
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  return i < head.size() &&
         (head[i] == '[' || head[i] == '{' || std::isdigit(static_cast<unsigned char>(head[i])));
}

[[nodiscard]] InputKind input_kind(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(512, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(std::size_t(in.gcount()));
  if (head.empty()) return InputKind::Data;  // an empty file is an empty data file
  if (head.size() >= 4 &&
      starts_like_zstd(std::span(reinterpret_cast<const std::uint8_t*>(head.data()), 4)))
    return InputKind::Data;
  if (starts_like_bzip2(head)) return InputKind::Bzip2;
  if (starts_like_tar(head)) return InputKind::Tar;
  if (looks_like_pgn(std::string_view(head).substr(0, 64))) return InputKind::Pgn;
  return InputKind::Unknown;
}

[[nodiscard]] bool ends_with(const std::string& text, std::string_view end) {
  return text.size() >= end.size() && text.compare(text.size() - end.size(), end.size(), end) == 0;
}

// Groups a record file's records into games and writes each.
class RecordGrouper {
 public:
  explicit RecordGrouper(DataWriter& writer) : writer_(writer) {}

  bool add(const TrainingRecord& r) {
    if (!game_.empty() && continues(r)) {
      chain_.plies.back().move = move_;
      chain_.plies.push_back({Move::null(), r.score_white});
      game_.push_back(r);
      pos_->make_move(move_);
      return true;
    }
    if (!flush()) return false;
    std::string why;
    pos_ = decode(r.position, why);
    chain_ = GameChain{};
    chain_.start = r.position;
    chain_.ply = r.ply;
    chain_.rule50 = r.rule50;
    chain_.result = r.result;
    chain_.plies.push_back({Move::null(), r.score_white});
    game_.assign(1, r);
    return true;
  }
  bool flush() {
    if (game_.empty()) return true;
    const bool ok = writer_.write(chain_, game_);
    game_.clear();
    return ok;
  }

 private:
  [[nodiscard]] bool continues(const TrainingRecord& r) {
    const TrainingRecord& last = game_.back();
    if (r.ply != last.ply + 1 || r.result != last.result || game_.size() >= GameChain::kMaxPlies)
      return false;
    move_ = connecting_move(*pos_, r.position);
    return !move_.is_none();
  }

  DataWriter& writer_;
  std::vector<TrainingRecord> game_;
  GameChain chain_;
  std::optional<Position> pos_;
  Move move_ = Move::none();
};

[[nodiscard]] bool convert_data(const std::string& path, DataWriter& writer, std::ostream& err) {
  RecordReader reader;
  std::string error;
  if (!reader.open(path, error)) {
    fmt::print(err, "error: {}\n", error);
    return false;
  }
  bool written = true;
  if (reader.chains()) {
    ChainReader chains;
    if (!chains.open(path, error)) {
      fmt::print(err, "error: {}\n", error);
      return false;
    }
    GameChain game;
    std::vector<TrainingRecord> records;
    while (written && chains.next(game, records)) written = writer.write(game, records);
    error = chains.error();
    if (!error.empty() && chains.truncated()) {
      fmt::print(err, "warning: {}\n", error);
      error.clear();
    }
  } else {
    RecordGrouper grouper(writer);
    TrainingRecord r;
    while (written && reader.next(r)) written = grouper.add(r);
    written = written && grouper.flush();
    error = reader.error();
    if (!error.empty() && reader.truncated()) {
      fmt::print(err, "warning: {}\n", error);
      error.clear();
    }
  }
  if (!error.empty()) fmt::print(err, "error: {}\n", error);
  return written && error.empty();
}

// The games of PGN text; `name` stands for its file in messages.
[[nodiscard]] bool convert_pgn_text(const std::string& text, const std::string& name,
                                    DataWriter& writer, std::uint64_t& skipped, std::ostream& err) {
  PgnImportStats stats;
  bool written = true;
  import_pgn_text(
      text, name,
      [&](const GameChain& chain) {
        std::string why;
        const auto records = chain.to_records(why);
        if (!records) {
          fmt::print(err, "warning: {}: a game skipped: {}\n", name, why);
          ++skipped;
          return;
        }
        written = written && writer.write(chain, *records);
      },
      [&](const std::string& why) { fmt::print(err, "warning: {}\n", why); }, stats);
  skipped += stats.skipped;
  return written;
}

// bzip2-compressed PGN (a `.pgn.bz2`), whole or a member of an archive.
[[nodiscard]] bool convert_bzip2_pgn(const std::string& compressed, const std::string& name,
                                     DataWriter& writer, std::uint64_t& skipped,
                                     std::ostream& err) {
  std::string text, error;
  if (!bunzip2(compressed, name, text, error)) {
    fmt::print(err, "error: {}\n", error);
    return false;
  }
  if (!text.empty() && !looks_like_pgn(std::string_view(text).substr(0, 64))) {
    fmt::print(err, "error: '{}' does not hold PGN\n", name);
    return false;
  }
  return convert_pgn_text(text, name, writer, skipped, err);
}

[[nodiscard]] bool convert_pgn(const std::string& path, InputKind kind, DataWriter& writer,
                               std::uint64_t& skipped, std::ostream& err) {
  std::string bytes, error;
  if (!read_whole_file(path, bytes, error)) {
    fmt::print(err, "error: {}\n", error);
    return false;
  }
  return kind == InputKind::Bzip2 ? convert_bzip2_pgn(bytes, path, writer, skipped, err)
                                  : convert_pgn_text(bytes, path, writer, skipped, err);
}

// Each member of a tar archive whose name ends in .pgn or .pgn.bz2, in the archive's order.
[[nodiscard]] bool convert_tar(const std::string& path, DataWriter& writer, std::uint64_t& skipped,
                               std::ostream& err) {
  bool ok = true;
  int members = 0;
  std::string error;
  const bool read = read_tar(
      path,
      [&](const std::string& member, const std::string& bytes) {
        const std::string name = path + ":" + member;
        std::string lower = member;
        std::transform(lower.begin(), lower.end(), lower.begin(),
                       [](unsigned char c) { return char(std::tolower(c)); });
        if (ends_with(lower, ".pgn")) {
          ok = convert_pgn_text(bytes, name, writer, skipped, err);
        } else if (ends_with(lower, ".pgn.bz2")) {
          ok = convert_bzip2_pgn(bytes, name, writer, skipped, err);
        } else {
          fmt::print(err, "warning: {}: not a .pgn or .pgn.bz2 member, passed over\n", name);
          return true;
        }
        ++members;
        return ok;
      },
      error);
  if (!read) fmt::print(err, "error: {}\n", error);
  if (read && ok && members == 0)
    fmt::print(err, "warning: '{}' has no .pgn or .pgn.bz2 member\n", path);
  return read && ok;
}

}  // namespace

int run_convert(const ConvertConfig& config, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  for (const std::string& input : config.inputs)
    if (std::filesystem::equivalent(input, config.output, ec)) {
      fmt::print(err, "error: the output '{}' is also an input\n", config.output);
      return 1;
    }
  for (const std::string& input : config.inputs)
    if (input_kind(input) == InputKind::Unknown || !std::filesystem::is_regular_file(input, ec)) {
      fmt::print(err,
                 "error: '{}' is not a record, chain or PGN file (nor bzip2 or a tar archive)\n",
                 input);
      return 1;
    }
  DataWriter writer;
  std::string error;
  if (!writer.open(config.output, config.append, config.format, error)) {
    fmt::print(err, "error: {}\n", error);
    return 1;
  }
  std::uint64_t skipped = 0;
  bool ok = true;
  for (const std::string& input : config.inputs) {
    const InputKind kind = input_kind(input);
    ok = kind == InputKind::Tar ? convert_tar(input, writer, skipped, err)
         : kind == InputKind::Pgn || kind == InputKind::Bzip2
             ? convert_pgn(input, kind, writer, skipped, err)
             : convert_data(input, writer, err);
    if (!ok) break;
  }
  writer.close();
  if (!writer.error().empty()) {
    fmt::print(err, "error: {}\n", writer.error());
    ok = false;
  }
  fmt::print(out, "datagen-convert: {} games, {} positions into '{}' ({}){}\n", writer.games(),
             writer.positions(), config.output,
             config.format == DataFormat::Chains ? "game chains" : "32-byte records",
             skipped ? fmt::format(", {} PGN games skipped", skipped) : "");
  return ok ? 0 : 1;
}

}  // namespace tessera::datagen
