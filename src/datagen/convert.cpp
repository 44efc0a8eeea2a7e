#include "datagen/convert.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>

#include "datagen/pgn_import.h"

namespace tessera::datagen {

namespace {

enum class InputKind { Data, Pgn, Unknown };

[[nodiscard]] InputKind input_kind(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::string head(64, '\0');
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(std::size_t(in.gcount()));
  if (head.empty()) return InputKind::Data;  // an empty file is an empty data file
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(head[i]); };
  if (head.size() >= 4 &&
      starts_like_zstd(std::span(reinterpret_cast<const std::uint8_t*>(head.data()), 4)))
    return InputKind::Data;
  std::size_t i = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;  // a UTF-8 byte order mark
  while (i < head.size() && std::isspace(byte(i))) ++i;
  if (i < head.size() && (head[i] == '[' || head[i] == '{' || std::isdigit(byte(i))))
    return InputKind::Pgn;
  return InputKind::Unknown;
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

[[nodiscard]] bool convert_pgn(const std::string& path, DataWriter& writer, std::uint64_t& skipped,
                               std::ostream& err) {
  PgnImportStats stats;
  std::string error;
  bool written = true;
  const bool read = import_pgn(
      path,
      [&](const GameChain& chain) {
        std::string why;
        const auto records = chain.to_records(why);
        if (!records) {
          fmt::print(err, "warning: {}: a game skipped: {}\n", path, why);
          ++skipped;
          return;
        }
        written = written && writer.write(chain, *records);
      },
      [&](const std::string& why) { fmt::print(err, "warning: {}\n", why); }, stats, error);
  skipped += stats.skipped;
  if (!read) fmt::print(err, "error: {}\n", error);
  return read && written;
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
      fmt::print(err, "error: '{}' is not a record, chain or PGN file\n", input);
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
    ok = input_kind(input) == InputKind::Pgn ? convert_pgn(input, writer, skipped, err)
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
