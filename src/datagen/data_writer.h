// DataWriter: games into a data file of either format, a game at a time. Each game ends a zstd
// frame, so a killed process leaves every game written before it.
#pragma once

#include <span>
#include <string>

#include "datagen/chain_file.h"
#include "datagen/record_file.h"

namespace tessera::datagen {

// Game chains (chain_file.h, about 4 bytes a position) or 32-byte records (record_file.h).
// Both hold the same positions, scores, flags and results.
enum class DataFormat { Chains, Records };

class DataWriter {
 public:
  [[nodiscard]] bool open(const std::string& path, bool append, DataFormat format,
                          std::string& error);
  // `chain` and `records` are the same game (records as chain.to_records() gives them, so a
  // chain's last move, not part of the records, is kept in chain files).
  bool write(const GameChain& chain, std::span<const TrainingRecord> records);
  bool close();
  [[nodiscard]] const std::string& error() const;
  [[nodiscard]] std::uint64_t games() const { return games_; }
  [[nodiscard]] std::uint64_t positions() const { return positions_; }

 private:
  DataFormat format_ = DataFormat::Chains;
  ChainWriter chains_;
  RecordWriter records_;
  std::uint64_t games_ = 0;
  std::uint64_t positions_ = 0;
};

}  // namespace tessera::datagen
