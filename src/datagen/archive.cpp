#include "datagen/archive.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <system_error>

extern char** environ;

namespace tessera::datagen {

namespace {

constexpr std::size_t kBlock = 512;

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  Fd() = default;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }
  [[nodiscard]] int get() const { return fd_; }

 private:
  int fd_ = -1;
};

// A pipe whose two ends close on exec; the child gets copies through dup2.
[[nodiscard]] bool make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  return true;
}

// SIGPIPE blocked in this thread while it lives (a write to a child that has exited then fails
// with EPIPE instead of ending the process); a SIGPIPE raised meanwhile is taken off before the
// old mask comes back.
class SigpipeBlock {
 public:
  SigpipeBlock() {
    sigemptyset(&pipe_);
    sigaddset(&pipe_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_, &old_);
  }
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;
  ~SigpipeBlock() {
    const timespec zero{0, 0};
    while (sigtimedwait(&pipe_, nullptr, &zero) == SIGPIPE) {
    }
    pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  }

 private:
  sigset_t pipe_{};
  sigset_t old_{};
};

// The first line of text that is not blank, without "bzip2: " and the trailing ';'.
[[nodiscard]] std::string first_line(const std::string& text) {
  std::size_t at = text.find_first_not_of(" \t\r\n");
  if (at == std::string::npos) return "";
  std::string line = text.substr(at, text.find('\n', at) - at);
  if (line.rfind("bzip2: ", 0) == 0) line.erase(0, 7);
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == ';'))
    line.pop_back();
  return line;
}

// ----- tar

[[nodiscard]] bool all_zero(const char* block) {
  return std::all_of(block, block + kBlock, [](char c) { return c == 0; });
}

// A numeric header field: octal digits (spaces and NULs around them), or base-256 when the
// first byte has its high bit set. nullopt when it is neither.
[[nodiscard]] std::optional<std::uint64_t> tar_number(const char* field, std::size_t size) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(field[i]); };
  if (byte(0) & 0x80) {
    std::uint64_t value = byte(0) & 0x3F;
    for (std::size_t i = 1; i < size; ++i) {
      if (value >> 56) return std::nullopt;
      value = (value << 8) | byte(i);
    }
    return (byte(0) & 0x40) ? std::nullopt : std::optional(value);  // negative
  }
  std::size_t i = 0;
  while (i < size && (field[i] == ' ' || field[i] == 0)) ++i;
  std::uint64_t value = 0;
  bool digits = false;
  for (; i < size && field[i] >= '0' && field[i] <= '7'; ++i) {
    if (value >> 60) return std::nullopt;
    value = value * 8 + std::uint64_t(field[i] - '0');
    digits = true;
  }
  for (; i < size; ++i)
    if (field[i] != ' ' && field[i] != 0) return std::nullopt;
  return digits ? std::optional(value) : std::nullopt;
}

// The checksum of a header is the sum of its bytes with the checksum field read as spaces
// (some old writers summed signed chars; either is accepted).
[[nodiscard]] bool tar_checksum_ok(const char* header) {
  const std::optional<std::uint64_t> stored = tar_number(header + 148, 8);
  if (!stored) return false;
  std::uint64_t unsigned_sum = 0;
  std::int64_t signed_sum = 0;
  for (std::size_t i = 0; i < kBlock; ++i) {
    const char c = i >= 148 && i < 156 ? ' ' : header[i];
    unsigned_sum += static_cast<unsigned char>(c);
    signed_sum += static_cast<signed char>(c);
  }
  return *stored == unsigned_sum || std::int64_t(*stored) == signed_sum;
}

// A NUL-terminated header field.
[[nodiscard]] std::string tar_text(const char* field, std::size_t size) {
  return std::string(field, std::find(field, field + size, '\0'));
}

// The `path` of a pax extended header's records ("LEN path=VALUE\n" each), or "".
[[nodiscard]] std::string pax_path(const std::string& records) {
  std::size_t at = 0;
  std::string path;
  while (at < records.size()) {
    const std::size_t space = records.find(' ', at);
    if (space == std::string::npos) break;
    std::size_t length = 0;
    for (std::size_t i = at; i < space; ++i) {
      if (records[i] < '0' || records[i] > '9') return path;
      length = length * 10 + std::size_t(records[i] - '0');
    }
    if (length <= space - at || at + length > records.size()) break;
    const std::string record = records.substr(space + 1, at + length - space - 2);  // no '\n'
    if (record.rfind("path=", 0) == 0) path = record.substr(5);
    at += length;
  }
  return path;
}

}  // namespace

bool starts_like_bzip2(std::string_view head) {
  return head.size() >= 4 && head.substr(0, 3) == "BZh" && head[3] >= '1' && head[3] <= '9';
}

bool starts_like_tar(std::string_view head) {
  return head.size() >= kBlock && head.substr(257, 5) == "ustar" && tar_checksum_ok(head.data());
}

bool bunzip2(std::string_view compressed, const std::string& name, std::string& text,
             std::string& error) {
  text.clear();
  Fd in_read, in_write, out_read, out_write, err_read, err_write;
  if (!make_pipe(in_read, in_write) || !make_pipe(out_read, out_write) ||
      !make_pipe(err_read, err_write)) {
    error = fmt::format("cannot decompress '{}': {}", name, std::strerror(errno));
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_read.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), 2);
  std::array<char*, 3> argv = {const_cast<char*>("bzip2"), const_cast<char*>("-dc"), nullptr};
  pid_t pid = 0;
  const int spawned = ::posix_spawnp(&pid, "bzip2", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  in_read.reset();
  out_write.reset();
  err_write.reset();
  if (spawned != 0) {
    error = spawned == ENOENT
                ? fmt::format(
                      "cannot decompress '{}': the program bzip2 is not installed (it "
                      "reads .bz2 files; Debian package bzip2)",
                      name)
                : fmt::format("cannot decompress '{}': running bzip2 failed: {}", name,
                              std::strerror(spawned));
    return false;
  }

  // Feed the compressed bytes and drain both outputs at once, so that neither side waits on a
  // full pipe.
  SigpipeBlock no_sigpipe;
  ::fcntl(in_write.get(), F_SETFL, ::fcntl(in_write.get(), F_GETFL) | O_NONBLOCK);
  if (compressed.empty()) in_write.reset();
  std::string messages;
  std::size_t fed = 0;
  std::array<char, 1 << 16> buffer;
  bool io_failed = false;
  while (out_read.get() >= 0 || err_read.get() >= 0) {
    std::array<pollfd, 3> watch = {pollfd{in_write.get(), POLLOUT, 0},
                                   pollfd{out_read.get(), POLLIN, 0},
                                   pollfd{err_read.get(), POLLIN, 0}};
    if (::poll(watch.data(), watch.size(), -1) < 0) {
      if (errno == EINTR) continue;
      io_failed = true;
      break;
    }
    if (watch[0].revents) {
      const ssize_t n = ::write(in_write.get(), compressed.data() + fed,
                                std::min<std::size_t>(compressed.size() - fed, 1 << 16));
      if (n > 0) fed += std::size_t(n);
      if ((n < 0 && errno != EAGAIN && errno != EINTR) || fed == compressed.size())
        in_write.reset();  // done, or bzip2 stopped reading
    }
    for (const std::size_t i : {std::size_t(1), std::size_t(2)}) {
      if (!watch[i].revents) continue;
      Fd& fd = i == 1 ? out_read : err_read;
      const ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
      if (n > 0) {
        (i == 1 ? text : messages).append(buffer.data(), std::size_t(n));
      } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
        fd.reset();
      }
    }
  }
  in_write.reset();
  out_read.reset();  // after a failure: a child still writing then stops on a broken pipe
  err_read.reset();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (io_failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    const std::string why = first_line(messages);
    error = fmt::format("cannot decompress '{}': bzip2 failed{}", name,
                        why.empty() ? std::string() : ": " + why);
    text.clear();
    return false;
  }
  return true;
}

bool read_tar(
    const std::string& path,
    const std::function<bool(const std::string& name, const std::string& bytes)>& on_member,
    std::string& error) {
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const std::uint64_t file_size = std::filesystem::file_size(path, ec);
  if (!in || ec) {
    error = fmt::format("cannot read '{}'", path);
    return false;
  }
  std::array<char, kBlock> header;
  std::string long_name;  // from a GNU 'L' member or a pax 'x' header, for the next member
  std::uint64_t offset = 0;
  for (bool first = true;; first = false) {
    in.read(header.data(), header.size());
    if (std::size_t(in.gcount()) != kBlock) {
      error = first ? fmt::format("'{}' is not a tar archive", path)
                    : fmt::format("'{}' is cut short at byte {} (no end-of-archive block)", path,
                                  offset);
      return false;
    }
    if (all_zero(header.data())) return true;
    if (!tar_checksum_ok(header.data())) {
      error = first ? fmt::format("'{}' is not a tar archive", path)
                    : fmt::format("'{}': the tar header at byte {} is damaged", path, offset);
      return false;
    }
    offset += kBlock;
    const std::optional<std::uint64_t> size = tar_number(header.data() + 124, 12);
    const std::uint64_t left = file_size - std::min(file_size, offset);
    if (!size || *size > left || (*size + kBlock - 1) / kBlock * kBlock > left) {
      error = fmt::format("'{}': the tar member at byte {} is cut short or damaged", path,
                          offset - kBlock);
      return false;
    }
    const char type = header[156];
    const std::uint64_t padded = (*size + kBlock - 1) / kBlock * kBlock;
    const bool wanted = type == '0' || type == '\0' || type == '7' || type == 'L' || type == 'x';
    if (!wanted) {
      in.seekg(std::streamoff(padded), std::ios::cur);
      offset += padded;
      long_name.clear();
      continue;
    }
    std::string bytes(std::size_t(*size), '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    if (std::uint64_t(in.gcount()) != *size) {
      error = fmt::format("'{}': the tar member at byte {} is cut short", path, offset - kBlock);
      return false;
    }
    in.seekg(std::streamoff(padded - *size), std::ios::cur);
    offset += padded;
    if (type == 'L') {
      long_name = tar_text(bytes.data(), bytes.size());
      continue;
    }
    if (type == 'x') {
      long_name = pax_path(bytes);
      continue;
    }
    std::string name = long_name;
    long_name.clear();
    if (name.empty()) {
      name = tar_text(header.data(), 100);
      const bool posix = std::memcmp(header.data() + 257, "ustar\0", 6) == 0;
      const std::string prefix = posix ? tar_text(header.data() + 345, 155) : std::string();
      if (!prefix.empty()) name = prefix + "/" + name;
    }
    if (!on_member(name, bytes)) return true;
  }
}

}  // namespace tessera::datagen
