// Record files: TrainingRecords (record.h), 32 bytes each, compressed with zstd.
//
// A file is a sequence of zstd frames, each holding whole records; concatenated frames are a
// valid zstd stream, so `zstd -d` yields the raw records and appending is just starting a new
// frame at the end. Frames carry zstd's content checksum.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "datagen/record.h"

namespace tessera::datagen {

// Writes records into the current zstd frame. flush() ends the frame and hands it to the
// operating system, so everything written before it stays readable if the process dies later;
// records after the last flush() are lost then (a reader reports the cut as truncation). Each
// flush costs about 15 bytes (frame header, block header, checksum) and restarts the
// compression window; records of one self-play game (a hundred or so) compress within a few per
// cent of the whole file as one frame, so a frame per game is cheap, a frame per record is not.
// Not thread-safe: one writer per file.
class RecordWriter {
 public:
  RecordWriter() = default;
  ~RecordWriter();  // close(), ignoring errors
  RecordWriter(const RecordWriter&) = delete;
  RecordWriter& operator=(const RecordWriter&) = delete;

  // Creates (or truncates) `path`, or with `append` adds frames to its end. False and `error`
  // set when the file cannot be opened.
  [[nodiscard]] bool open(const std::string& path, bool append, std::string& error);
  // False (see error()) once a write to the file has failed; later calls then do nothing.
  bool write(const TrainingRecord& record);
  bool flush();
  bool close();
  [[nodiscard]] bool is_open() const { return file_ != nullptr; }
  [[nodiscard]] const std::string& error() const { return error_; }
  // Records written since open(), flushed or not.
  [[nodiscard]] std::uint64_t records() const { return records_; }

 private:
  bool compress(bool end_frame);
  bool fail(std::string message);

  std::FILE* file_ = nullptr;
  void* cctx_ = nullptr;               // ZSTD_CCtx, kept out of this header
  std::vector<std::uint8_t> pending_;  // uncompressed bytes not yet handed to zstd
  std::vector<std::uint8_t> out_;
  bool frame_open_ = false;  // records have gone into a frame that flush() has not ended
  std::uint64_t records_ = 0;
  std::string path_;
  std::string error_;
};

// Reads the records of a file in order. next() returns false at the end; error() then tells
// how it ended: empty for a clean end; with truncated() true when the file stops inside a
// frame (a writer killed before flush(): every whole record before the cut was returned, and
// this is a warning); otherwise the data is unusable from that point (not zstd, a corrupt frame
// or checksum, or a record that from_bytes() refuses, named by its 0-based index).
class RecordReader {
 public:
  RecordReader() = default;
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

 private:
  bool refill();  // decompresses more into buffer_; false at the end of the input or on error
  void close();

  std::FILE* file_ = nullptr;
  void* dctx_ = nullptr;  // ZSTD_DCtx
  std::vector<std::uint8_t> in_;
  std::size_t in_pos_ = 0;
  std::size_t in_size_ = 0;
  std::vector<std::uint8_t> buffer_;  // decompressed bytes
  std::size_t buffer_pos_ = 0;
  std::size_t frame_left_ = 0;  // the last ZSTD_decompressStream hint: 0 at a frame boundary
  bool done_ = false;
  bool truncated_ = false;
  std::uint64_t records_ = 0;
  std::string path_;
  std::string error_;
};

}  // namespace tessera::datagen
