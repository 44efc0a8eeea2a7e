// Record files: TrainingRecords (record.h), 32 bytes each, compressed with zstd (zstd_stream.h:
// a sequence of frames, each holding whole records; `zstd -d` yields the raw records).
//
// RecordReader also reads chain files (chain_file.h), telling them apart by their first bytes,
// and yields the records their games replay to, so every reader of training data takes both.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "datagen/record.h"
#include "datagen/zstd_stream.h"

namespace tessera::datagen {

class ChainReader;

// Writes records into the current zstd frame; flush() ends the frame (see ZstdWriter). Records
// of one self-play game (a hundred or so) compress within a few per cent of the whole file as
// one frame, so a frame per game is cheap, a frame per record is not.
class RecordWriter {
 public:
  // Creates (or truncates) `path`, or with `append` adds frames to its end. False and `error`
  // set when the file cannot be opened.
  [[nodiscard]] bool open(const std::string& path, bool append, std::string& error);
  // False (see error()) once a write to the file has failed; later calls then do nothing.
  bool write(const TrainingRecord& record);
  bool flush() { return zstd_.end_frame(); }
  bool close() { return zstd_.close(); }
  [[nodiscard]] bool is_open() const { return zstd_.is_open(); }
  [[nodiscard]] const std::string& error() const { return zstd_.error(); }
  // Records written since open(), flushed or not.
  [[nodiscard]] std::uint64_t records() const { return records_; }

 private:
  ZstdWriter zstd_;
  std::uint64_t records_ = 0;
};

// Reads the records of a record file, or of a chain file's games, in order. next() returns
// false at the end; error() then tells how it ended: empty for a clean end; with truncated()
// true when the file stops inside a frame (a writer killed before flush(): every whole record
// before the cut was returned, and this is a warning); otherwise the data is unusable from that
// point (not zstd, a corrupt frame or checksum, or a record that from_bytes() refuses, named by
// its 0-based index, or a chain's game that does not replay).
class RecordReader {
 public:
  RecordReader();
  ~RecordReader();
  RecordReader(const RecordReader&) = delete;
  RecordReader& operator=(const RecordReader&) = delete;

  // False and `error` set when the file cannot be read or does not start like a zstd stream
  // (an empty file is a valid file of no records).
  [[nodiscard]] bool open(const std::string& path, std::string& error);
  [[nodiscard]] bool next(TrainingRecord& record);
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] bool truncated() const { return truncated_; }
  // Records returned by next() so far.
  [[nodiscard]] std::uint64_t records() const { return records_; }
  // Whether the open file is a chain file.
  [[nodiscard]] bool chains() const { return chain_ != nullptr; }

 private:
  bool end_of_records();
  bool next_from_chain(TrainingRecord& record);

  ZstdReader zstd_;
  std::unique_ptr<ChainReader> chain_;
  std::vector<TrainingRecord> game_;  // the chain game being handed out
  std::size_t game_pos_ = 0;
  bool done_ = false;
  bool truncated_ = false;
  std::uint64_t records_ = 0;
  std::string error_;
};

}  // namespace tessera::datagen
