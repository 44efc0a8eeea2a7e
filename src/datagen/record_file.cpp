#include "datagen/record_file.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tessera::datagen {

namespace {

// Level 3, zstd's default: about as fast as the data is produced, within a few per cent of the
// ratio of much slower levels on these records.
constexpr int kCompressionLevel = 3;
constexpr std::size_t kPendingLimit = std::size_t(1) << 17;  // compress in 128 KiB steps
constexpr std::array<std::uint8_t, 4> kZstdMagic = {0x28, 0xB5, 0x2F, 0xFD};

ZSTD_CCtx* cctx_of(void* p) { return static_cast<ZSTD_CCtx*>(p); }
ZSTD_DCtx* dctx_of(void* p) { return static_cast<ZSTD_DCtx*>(p); }

}  // namespace

// ----- RecordWriter

RecordWriter::~RecordWriter() { close(); }

bool RecordWriter::open(const std::string& path, bool append, std::string& error) {
  close();
  error_.clear();
  records_ = 0;
  path_ = path;
  file_ = std::fopen(path.c_str(), append ? "ab" : "wb");
  if (!file_) {
    error = fmt::format("cannot open '{}' for writing: {}", path, std::strerror(errno));
    return false;
  }
  ZSTD_CCtx* cctx = ZSTD_createCCtx();
  if (!cctx ||
      ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, kCompressionLevel)) ||
      ZSTD_isError(ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1))) {
    ZSTD_freeCCtx(cctx);
    std::fclose(file_);
    file_ = nullptr;
    error = "cannot set up the zstd compressor";
    return false;
  }
  cctx_ = cctx;
  out_.resize(ZSTD_CStreamOutSize());
  return true;
}

bool RecordWriter::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
  return false;
}

bool RecordWriter::write(const TrainingRecord& record) {
  if (!file_ || !error_.empty()) return false;
  const auto bytes = record.to_bytes();
  pending_.insert(pending_.end(), bytes.begin(), bytes.end());
  ++records_;
  frame_open_ = true;
  return pending_.size() < kPendingLimit || compress(false);
}

bool RecordWriter::compress(bool end_frame) {
  ZSTD_inBuffer in{pending_.data(), pending_.size(), 0};
  const ZSTD_EndDirective mode = end_frame ? ZSTD_e_end : ZSTD_e_continue;
  for (;;) {
    ZSTD_outBuffer out{out_.data(), out_.size(), 0};
    const std::size_t left = ZSTD_compressStream2(cctx_of(cctx_), &out, &in, mode);
    if (ZSTD_isError(left))
      return fail(fmt::format("zstd compression failed: {}", ZSTD_getErrorName(left)));
    if (out.pos > 0 && std::fwrite(out_.data(), 1, out.pos, file_) != out.pos)
      return fail(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
    if (end_frame ? left == 0 : in.pos == in.size) break;
  }
  pending_.clear();
  return true;
}

bool RecordWriter::flush() {
  if (!file_ || !error_.empty()) return false;
  if (frame_open_) {
    if (!compress(true)) return false;
    frame_open_ = false;
  }
  if (std::fflush(file_) != 0)
    return fail(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
  return true;
}

bool RecordWriter::close() {
  if (!file_) return error_.empty();
  flush();
  if (std::fclose(file_) != 0)
    fail(fmt::format("cannot close '{}': {}", path_, std::strerror(errno)));
  file_ = nullptr;
  ZSTD_freeCCtx(cctx_of(cctx_));
  cctx_ = nullptr;
  pending_.clear();
  frame_open_ = false;
  return error_.empty();
}

// ----- RecordReader

RecordReader::~RecordReader() { close(); }

void RecordReader::close() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  ZSTD_freeDCtx(dctx_of(dctx_));
  dctx_ = nullptr;
}

bool RecordReader::open(const std::string& path, std::string& error) {
  close();
  in_pos_ = in_size_ = buffer_pos_ = frame_left_ = 0;
  buffer_.clear();
  done_ = truncated_ = false;
  records_ = 0;
  error_.clear();
  path_ = path;
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) {
    error = fmt::format("cannot open '{}': {}", path, std::strerror(errno));
    return false;
  }
  dctx_ = ZSTD_createDCtx();
  in_.resize(std::max(ZSTD_DStreamInSize(), kZstdMagic.size()));
  in_size_ = std::fread(in_.data(), 1, kZstdMagic.size(), file_);
  if (std::ferror(file_)) {
    error = fmt::format("cannot read '{}': {}", path, std::strerror(errno));
    close();
    return false;
  }
  if (!dctx_ ||
      !std::equal(in_.begin(), in_.begin() + std::ptrdiff_t(in_size_), kZstdMagic.begin())) {
    error = fmt::format(
        "'{}' is not a zstd-compressed record file (it does not start with the zstd magic "
        "number 28 b5 2f fd; a file of raw 32-byte records can be compressed with `zstd`)",
        path);
    close();
    return false;
  }
  // A file cut inside its first frame header (fewer than 4 bytes) reads as truncated.
  frame_left_ = in_size_ > 0 ? 1 : 0;
  return true;
}

bool RecordReader::refill() {
  if (in_pos_ == in_size_) {
    in_pos_ = 0;
    in_size_ = std::fread(in_.data(), 1, in_.size(), file_);
    if (in_size_ == 0) {
      done_ = true;
      if (std::ferror(file_)) {
        error_ = fmt::format("cannot read '{}': {}", path_, std::strerror(errno));
      } else if (frame_left_ != 0) {
        truncated_ = true;
        error_ = fmt::format(
            "truncated: '{}' ends inside a zstd frame after {} whole records (a writer stopped "
            "before it flushed); the records before the cut are intact",
            path_, records_ + (buffer_.size() - buffer_pos_) / TrainingRecord::kSize);
      } else if (buffer_.size() > buffer_pos_) {
        error_ = fmt::format("'{}' ends with {} bytes that are not a whole record", path_,
                             buffer_.size() - buffer_pos_);
      }
      return false;
    }
  }
  ZSTD_inBuffer in{in_.data(), in_size_, in_pos_};
  const std::size_t old_size = buffer_.size();
  buffer_.resize(old_size + ZSTD_DStreamOutSize());
  ZSTD_outBuffer out{buffer_.data() + old_size, buffer_.size() - old_size, 0};
  const std::size_t hint = ZSTD_decompressStream(dctx_of(dctx_), &out, &in);
  buffer_.resize(old_size + out.pos);
  in_pos_ = in.pos;
  if (ZSTD_isError(hint)) {
    done_ = true;
    error_ = fmt::format("corrupt zstd data in '{}' after record {}: {}", path_,
                         records_ + (buffer_.size() - buffer_pos_) / TrainingRecord::kSize,
                         ZSTD_getErrorName(hint));
    return false;
  }
  frame_left_ = hint;
  return true;
}

bool RecordReader::next(TrainingRecord& record) {
  if (!file_ && !done_) return false;
  while (buffer_.size() - buffer_pos_ < TrainingRecord::kSize) {
    if (done_) return false;
    buffer_.erase(buffer_.begin(), buffer_.begin() + std::ptrdiff_t(buffer_pos_));
    buffer_pos_ = 0;
    if (!refill()) {
      // Whole records decoded before an error or a cut are still returned; only an incomplete
      // tail is dropped.
      if (buffer_.size() - buffer_pos_ >= TrainingRecord::kSize) break;
      return false;
    }
  }
  std::array<std::uint8_t, TrainingRecord::kSize> bytes{};
  std::copy_n(buffer_.begin() + std::ptrdiff_t(buffer_pos_), bytes.size(), bytes.begin());
  std::string why;
  const auto parsed = TrainingRecord::from_bytes(bytes, why);
  if (!parsed) {
    done_ = true;
    truncated_ = false;
    error_ = fmt::format("record {} of '{}' is corrupt: {}", records_, path_, why);
    buffer_.clear();
    buffer_pos_ = 0;
    return false;
  }
  buffer_pos_ += bytes.size();
  ++records_;
  record = *parsed;
  return true;
}

}  // namespace tessera::datagen
