// Byte streams in zstd frames, the container of every data file (record_file.h, chain_file.h).
//
// A file is a sequence of zstd frames; concatenated frames are a valid zstd stream, so `zstd -d`
// yields the raw bytes, and appending is starting a new frame at the end of the file. Frames
// carry zstd's content checksum. A file may begin with a skippable frame that names its format
// (zstd itself skips it); the reader hands those first bytes to its caller before anything else.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

namespace tessera::datagen {

// Whether `bytes` (the first 4 are looked at) can begin a zstd frame or a skippable frame.
[[nodiscard]] bool starts_like_zstd(std::span<const std::uint8_t> bytes);

// Writes bytes into the current zstd frame. end_frame() ends it and hands it to the operating
// system, so everything before it stays readable if the process dies later; bytes after the
// last end_frame() are lost then (a reader reports the cut as truncation). Each frame costs
// about 15 bytes (frame header, block header, checksum) and restarts the compression window, so
// a frame per game is cheap and a frame per position is not. Not thread-safe: one per file.
class ZstdWriter {
 public:
  ZstdWriter() = default;
  ~ZstdWriter();  // close(), ignoring errors
  ZstdWriter(const ZstdWriter&) = delete;
  ZstdWriter& operator=(const ZstdWriter&) = delete;

  // Creates (or truncates) `path`, or with `append` adds frames to its end. False and `error`
  // set when the file cannot be opened.
  [[nodiscard]] bool open(const std::string& path, bool append, std::string& error);
  // False (see error()) once a write to the file has failed; later calls then do nothing.
  bool write(std::span<const std::uint8_t> bytes);
  bool end_frame();
  // Writes `bytes` uncompressed, outside any frame (a skippable frame, built by the caller).
  bool write_raw(std::span<const std::uint8_t> bytes);
  bool close();
  [[nodiscard]] bool is_open() const { return file_ != nullptr; }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  bool compress(bool end_frame);
  bool fail(std::string message);

  std::FILE* file_ = nullptr;
  void* cctx_ = nullptr;               // ZSTD_CCtx, kept out of this header
  std::vector<std::uint8_t> pending_;  // uncompressed bytes not yet handed to zstd
  std::vector<std::uint8_t> out_;
  bool frame_open_ = false;  // bytes have gone into a frame that end_frame() has not ended
  std::string path_;
  std::string error_;
};

// Reads the decompressed bytes of a file in order. read() hands out exactly the bytes asked
// for or fails; end() then tells why: the clean end of the data (leftover() bytes, fewer than
// asked, remain), a cut inside a frame (a writer killed before end_frame(); a warning: every
// byte before the cut was handed out), corrupt data, or a read error (detail() says more).
class ZstdReader {
 public:
  enum class End { None, Clean, Truncated, Corrupt, ReadError };
  static constexpr std::size_t kPrefixSize = 24;

  ZstdReader() = default;
  ~ZstdReader();
  ZstdReader(const ZstdReader&) = delete;
  ZstdReader& operator=(const ZstdReader&) = delete;

  // False and `error` set when the file cannot be read or does not start like a zstd stream
  // (a zstd frame or a skippable frame; an empty file is a valid stream of no bytes).
  // `what` names the kind of file in that message.
  [[nodiscard]] bool open(const std::string& path, const std::string& what, std::string& error);
  // The first kPrefixSize raw bytes of the file (fewer for a shorter file), as they are on disk.
  [[nodiscard]] std::span<const std::uint8_t> prefix() const {
    return {prefix_.data(), prefix_size_};
  }
  [[nodiscard]] bool read(std::span<std::uint8_t> out);
  [[nodiscard]] End end() const { return end_; }
  [[nodiscard]] std::size_t leftover() const { return buffer_.size() - buffer_pos_; }
  [[nodiscard]] const std::string& detail() const { return detail_; }
  // How the data ended, for the reader's error(): "" for a clean end on a whole `unit`;
  // otherwise the cut (`truncated` set), the partial `unit` at the end, the read error or the
  // corruption, with `whole` units handed out before it. `partial` is the bytes read of the
  // unit that did not complete.
  [[nodiscard]] std::string end_message(const char* unit, std::uint64_t whole, std::size_t partial,
                                        bool& truncated) const;
  [[nodiscard]] const std::string& path() const { return path_; }
  // Marks the data unusable from here (the caller found a bad value in it).
  void poison() {
    poisoned_ = true;
    end_ = End::Corrupt;
  }

 private:
  bool refill();  // decompresses more into buffer_; false at the end of the input or on error
  void close();

  std::FILE* file_ = nullptr;
  void* dctx_ = nullptr;  // ZSTD_DCtx
  std::array<std::uint8_t, kPrefixSize> prefix_{};
  std::size_t prefix_size_ = 0;
  std::vector<std::uint8_t> in_;
  std::size_t in_pos_ = 0;
  std::size_t in_size_ = 0;
  std::vector<std::uint8_t> buffer_;  // decompressed bytes
  std::size_t buffer_pos_ = 0;
  std::size_t frame_left_ = 0;  // the last ZSTD_decompressStream hint: 0 at a frame boundary
  End end_ = End::None;
  bool poisoned_ = false;
  std::string path_;
  std::string detail_;
};

}  // namespace tessera::datagen
