#include "datagen/zstd_stream.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace tessera::datagen {

namespace {

// Level 3, zstd's default: about as fast as the data is produced, within a few per cent of the
// ratio of much slower levels on these files.
constexpr int kCompressionLevel = 3;
constexpr std::size_t kPendingLimit = std::size_t(1) << 17;  // compress in 128 KiB steps
constexpr std::array<std::uint8_t, 4> kZstdMagic = {0x28, 0xB5, 0x2F, 0xFD};

ZSTD_CCtx* cctx_of(void* p) { return static_cast<ZSTD_CCtx*>(p); }
ZSTD_DCtx* dctx_of(void* p) { return static_cast<ZSTD_DCtx*>(p); }

}  // namespace

// A skippable frame's magic is 0x184D2A50 to 0x184D2A5F, little-endian. Fewer than 4 bytes
// match when they are a prefix of either magic (a file cut inside its first header).
bool starts_like_zstd(std::span<const std::uint8_t> bytes) {
  const std::size_t n = std::min<std::size_t>(bytes.size(), 4);
  if (std::equal(bytes.begin(), bytes.begin() + std::ptrdiff_t(n), kZstdMagic.begin())) return true;
  constexpr std::array<std::uint8_t, 4> skippable = {0x50, 0x2A, 0x4D, 0x18};
  for (std::size_t i = 0; i < n; ++i) {
    const bool ok = i == 0 ? (bytes[0] & 0xF0) == 0x50 : bytes[i] == skippable[i];
    if (!ok) return false;
  }
  return true;
}

// ----- ZstdWriter

ZstdWriter::~ZstdWriter() { close(); }

bool ZstdWriter::open(const std::string& path, bool append, std::string& error) {
  close();
  error_.clear();
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

bool ZstdWriter::fail(std::string message) {
  if (error_.empty()) error_ = std::move(message);
  return false;
}

bool ZstdWriter::write(std::span<const std::uint8_t> bytes) {
  if (!file_ || !error_.empty()) return false;
  pending_.insert(pending_.end(), bytes.begin(), bytes.end());
  frame_open_ = true;
  return pending_.size() < kPendingLimit || compress(false);
}

bool ZstdWriter::write_raw(std::span<const std::uint8_t> bytes) {
  if (!file_ || !error_.empty()) return false;
  if (frame_open_ && !end_frame()) return false;
  if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
    return fail(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
  return true;
}

bool ZstdWriter::compress(bool end_frame) {
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

bool ZstdWriter::end_frame() {
  if (!file_ || !error_.empty()) return false;
  if (frame_open_) {
    if (!compress(true)) return false;
    frame_open_ = false;
  }
  if (std::fflush(file_) != 0)
    return fail(fmt::format("cannot write '{}': {}", path_, std::strerror(errno)));
  return true;
}

bool ZstdWriter::close() {
  if (!file_) return error_.empty();
  end_frame();
  if (std::fclose(file_) != 0)
    fail(fmt::format("cannot close '{}': {}", path_, std::strerror(errno)));
  file_ = nullptr;
  ZSTD_freeCCtx(cctx_of(cctx_));
  cctx_ = nullptr;
  pending_.clear();
  frame_open_ = false;
  return error_.empty();
}

// ----- ZstdReader

ZstdReader::~ZstdReader() { close(); }

void ZstdReader::close() {
  if (file_) std::fclose(file_);
  file_ = nullptr;
  ZSTD_freeDCtx(dctx_of(dctx_));
  dctx_ = nullptr;
}

bool ZstdReader::open(const std::string& path, const std::string& what, std::string& error) {
  close();
  in_pos_ = in_size_ = buffer_pos_ = frame_left_ = prefix_size_ = 0;
  buffer_.clear();
  end_ = End::None;
  poisoned_ = false;
  detail_.clear();
  path_ = path;
  file_ = std::fopen(path.c_str(), "rb");
  if (!file_) {
    error = fmt::format("cannot open '{}': {}", path, std::strerror(errno));
    return false;
  }
  dctx_ = ZSTD_createDCtx();
  in_.resize(std::max(ZSTD_DStreamInSize(), kPrefixSize));
  in_size_ = std::fread(in_.data(), 1, kPrefixSize, file_);
  if (std::ferror(file_)) {
    error = fmt::format("cannot read '{}': {}", path, std::strerror(errno));
    close();
    return false;
  }
  prefix_size_ = in_size_;
  std::copy_n(in_.begin(), in_size_, prefix_.begin());
  if (!dctx_ || !starts_like_zstd(std::span(in_.data(), in_size_))) {
    error = fmt::format(
        "'{}' is not a zstd-compressed {} (it does not start with the zstd magic number "
        "28 b5 2f fd{})",
        path, what,
        what == "record file" ? "; a file of raw 32-byte records can be compressed with `zstd`"
                              : "");
    close();
    return false;
  }
  // A file cut inside its first frame header (fewer than 4 bytes) reads as truncated.
  frame_left_ = in_size_ > 0 ? 1 : 0;
  return true;
}

bool ZstdReader::refill() {
  if (in_pos_ == in_size_) {
    in_pos_ = 0;
    in_size_ = file_ ? std::fread(in_.data(), 1, in_.size(), file_) : 0;
    if (in_size_ == 0) {
      if (file_ && std::ferror(file_)) {
        end_ = End::ReadError;
        detail_ = std::strerror(errno);
      } else {
        end_ = frame_left_ != 0 ? End::Truncated : End::Clean;
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
    end_ = End::Corrupt;
    detail_ = ZSTD_getErrorName(hint);
    return false;
  }
  frame_left_ = hint;
  return true;
}

std::string ZstdReader::end_message(const char* unit, std::uint64_t whole, std::size_t partial,
                                    bool& truncated) const {
  truncated = false;
  switch (end_) {
    case End::Clean:
      if (partial == 0) return "";
      return fmt::format("'{}' ends with {} bytes that are not a whole {}", path_, partial, unit);
    case End::Truncated:
      truncated = true;
      return fmt::format(
          "truncated: '{}' ends inside a zstd frame after {} whole {}s (a writer stopped "
          "before it flushed); the {}s before the cut are intact",
          path_, whole, unit, unit);
    case End::ReadError:
      return fmt::format("cannot read '{}': {}", path_, detail_);
    case End::Corrupt:
    case End::None:
      break;
  }
  return fmt::format("corrupt zstd data in '{}' after {} {}: {}", path_, unit, whole, detail_);
}

bool ZstdReader::read(std::span<std::uint8_t> out) {
  if (poisoned_) return false;
  while (buffer_.size() - buffer_pos_ < out.size()) {
    if (end_ != End::None) return false;
    buffer_.erase(buffer_.begin(), buffer_.begin() + std::ptrdiff_t(buffer_pos_));
    buffer_pos_ = 0;
    // Whole reads decoded before an error or a cut are still handed out; only an incomplete
    // tail is dropped.
    if (!refill() && buffer_.size() < out.size()) return false;
  }
  std::copy_n(buffer_.begin() + std::ptrdiff_t(buffer_pos_), out.size(), out.begin());
  buffer_pos_ += out.size();
  return true;
}

}  // namespace tessera::datagen
