#include "datagen/record_file.h"

#include <fmt/format.h>

#include "datagen/chain_file.h"

namespace tessera::datagen {

// ----- RecordWriter

bool RecordWriter::open(const std::string& path, bool append, std::string& error) {
  records_ = 0;
  return zstd_.open(path, append, error);
}

bool RecordWriter::write(const TrainingRecord& record) {
  const auto bytes = record.to_bytes();
  if (!zstd_.write(bytes)) return false;
  ++records_;
  return true;
}

// ----- RecordReader

RecordReader::RecordReader() = default;
RecordReader::~RecordReader() = default;

bool RecordReader::open(const std::string& path, std::string& error) {
  chain_.reset();
  game_.clear();
  game_pos_ = 0;
  done_ = true;  // until the file is open
  truncated_ = false;
  records_ = 0;
  error_.clear();
  if (!zstd_.open(path, "record file", error)) return false;
  if (is_chain_file_mark(zstd_.prefix())) {
    chain_ = std::make_unique<ChainReader>();
    if (!chain_->open(path, error)) return false;
  }
  done_ = false;
  return true;
}

bool RecordReader::end_of_records() {
  done_ = true;
  error_ = zstd_.end_message("record", records_, zstd_.leftover(), truncated_);
  return false;
}

bool RecordReader::next_from_chain(TrainingRecord& record) {
  while (game_pos_ == game_.size()) {
    GameChain game;
    game_pos_ = 0;
    if (!chain_->next(game, game_)) {
      game_.clear();
      done_ = true;
      error_ = chain_->error();
      truncated_ = chain_->truncated();
      return false;
    }
  }
  record = game_[game_pos_++];
  ++records_;
  return true;
}

bool RecordReader::next(TrainingRecord& record) {
  if (done_) return false;
  if (chain_) return next_from_chain(record);
  std::array<std::uint8_t, TrainingRecord::kSize> bytes{};
  if (!zstd_.read(bytes)) return end_of_records();
  std::string why;
  const auto parsed = TrainingRecord::from_bytes(bytes, why);
  if (!parsed) {
    done_ = true;
    error_ = fmt::format("record {} of '{}' is corrupt: {}", records_, zstd_.path(), why);
    return false;
  }
  ++records_;
  record = *parsed;
  return true;
}

}  // namespace tessera::datagen
