#include "datagen/chain_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

namespace tessera::datagen {

bool is_chain_file_mark(std::span<const std::uint8_t> prefix) {
  return prefix.size() == kChainFileMark.size() &&
         std::equal(prefix.begin(), prefix.end(), kChainFileMark.begin());
}

// ----- ChainWriter

bool ChainWriter::open(const std::string& path, bool append, std::string& error) {
  games_ = positions_ = 0;
  error_.clear();
  bool write_mark = true;
  if (append) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec && size > 0) {
      std::array<std::uint8_t, kChainFileMark.size()> head{};
      std::FILE* f = std::fopen(path.c_str(), "rb");
      const std::size_t got = f ? std::fread(head.data(), 1, head.size(), f) : 0;
      if (f) std::fclose(f);
      if (!is_chain_file_mark(std::span(head.data(), got))) {
        error = fmt::format("cannot append to '{}': it is not a chain file", path);
        return false;
      }
      write_mark = false;
    }
  }
  if (!zstd_.open(path, append, error)) return false;
  if (write_mark && (!zstd_.write_raw(kChainFileMark) || !zstd_.end_frame())) {
    error = zstd_.error();
    return false;
  }
  return true;
}

bool ChainWriter::write(const GameChain& game) {
  if (!error_.empty()) return false;
  std::string why;
  if (!game.to_records(why)) {
    error_ = fmt::format("game {} is not a game: {}", games_, why);
    return false;
  }
  bytes_.clear();
  game.append_bytes(bytes_);
  if (!zstd_.write(bytes_) || !zstd_.end_frame()) return false;
  ++games_;
  positions_ += game.plies.size();
  return true;
}

// ----- ChainReader

bool ChainReader::open(const std::string& path, std::string& error) {
  games_ = 0;
  truncated_ = false;
  error_.clear();
  if (!zstd_.open(path, "chain file", error)) return false;
  if (!zstd_.prefix().empty() && !is_chain_file_mark(zstd_.prefix())) {
    error = fmt::format("'{}' is not a chain file (it does not start with the chain mark)", path);
    return false;
  }
  return true;
}

bool ChainReader::fail(std::string message) {
  truncated_ = false;
  error_ = std::move(message);
  zstd_.poison();
  return false;
}

bool ChainReader::fail_at_end(std::size_t partial) {
  bool truncated = false;
  std::string message = zstd_.end_message("game", games_, partial, truncated);
  if (message.empty()) return false;  // the clean end
  if (!truncated) return fail(std::move(message));
  truncated_ = true;
  error_ = std::move(message);
  return false;
}

bool ChainReader::next(GameChain& game, std::vector<TrainingRecord>& records) {
  if (!error_.empty()) return false;
  std::array<std::uint8_t, GameChain::kHeaderSize> header{};
  if (!zstd_.read(header)) return fail_at_end(zstd_.leftover());
  std::string why;
  std::optional<GameChain> parsed = chain_header_from_bytes(header, why);
  if (!parsed)
    return fail(fmt::format("game {} of '{}' is corrupt: {}", games_, zstd_.path(), why));
  for (;;) {
    std::array<std::uint8_t, GameChain::kEntrySize> entry{};
    if (!zstd_.read(entry))
      return fail_at_end(header.size() + parsed->plies.size() * entry.size() + zstd_.leftover());
    const Move move(std::uint16_t(entry[0] | (entry[1] << 8)));
    const auto value = std::uint16_t(entry[2] | (entry[3] << 8));
    if (move.is_none()) {
      if (value > std::uint16_t(GameResult::WhiteWins))
        return fail(fmt::format("game {} of '{}' is corrupt: result {} (0, 1 or 2 expected)",
                                games_, zstd_.path(), value));
      parsed->result = GameResult(value);
      break;
    }
    if (parsed->plies.size() == GameChain::kMaxPlies)
      return fail(fmt::format("game {} of '{}' is corrupt: no end mark within {} plies", games_,
                              zstd_.path(), GameChain::kMaxPlies));
    parsed->plies.push_back({move, std::int16_t(value)});
  }
  std::optional<std::vector<TrainingRecord>> replayed = parsed->to_records(why);
  if (!replayed)
    return fail(fmt::format("game {} of '{}' is corrupt: {}", games_, zstd_.path(), why));
  ++games_;
  game = std::move(*parsed);
  records = std::move(*replayed);
  return true;
}

}  // namespace tessera::datagen
