#include "uci_child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace tessera::test {

namespace {

using Clock = std::chrono::steady_clock;

[[nodiscard]] int remaining_ms(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now()).count();
  return left > 0 ? int(left) : 0;
}

}  // namespace

ChildProcess::ChildProcess(const std::string& path, const std::vector<std::string>& args) {
  // A write to an engine that already exited must fail the test, not kill the test binary.
  ::signal(SIGPIPE, SIG_IGN);
  int in_pipe[2];
  int out_pipe[2];
  // O_CLOEXEC keeps every pipe end out of the child except the two dup2'ed onto 0 and 1.
  if (::pipe2(in_pipe, O_CLOEXEC) != 0 || ::pipe2(out_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe2 failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);

  std::vector<std::string> argv_strings = {path};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_strings) argv.push_back(s.data());
  argv.push_back(nullptr);

  const int rc = ::posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  to_child_ = in_pipe[1];
  from_child_ = out_pipe[0];
  if (rc != 0) throw std::runtime_error("posix_spawn failed for " + path);
}

ChildProcess::~ChildProcess() {
  if (to_child_ >= 0) ::close(to_child_);
  if (from_child_ >= 0) ::close(from_child_);
  if (pid_ > 0 && !exit_status_) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
  }
}

bool ChildProcess::send(std::string_view line) {
  if (to_child_ < 0) return false;
  std::string data(line);
  data += '\n';
  std::size_t written = 0;
  while (written < data.size()) {
    const ssize_t n = ::write(to_child_, data.data() + written, data.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    written += std::size_t(n);
  }
  return true;
}

void ChildProcess::close_input() {
  if (to_child_ >= 0) ::close(to_child_);
  to_child_ = -1;
}

std::optional<std::string> ChildProcess::take_line() {
  const std::size_t newline = buffer_.find('\n');
  if (newline == std::string::npos) {
    if (!eof_ || buffer_.empty()) return std::nullopt;
    std::string last = std::move(buffer_);  // a final line without '\n'
    buffer_.clear();
    return last;
  }
  std::string line = buffer_.substr(0, newline);
  buffer_.erase(0, newline + 1);
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return line;
}

std::optional<std::string> ChildProcess::read_line(Millis timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  while (true) {
    if (auto line = take_line()) return line;
    if (eof_) return std::nullopt;
    pollfd fd{from_child_, POLLIN, 0};
    const int ready = ::poll(&fd, 1, remaining_ms(deadline));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) return std::nullopt;  // timeout
    char chunk[4096];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      eof_ = true;
    else
      buffer_.append(chunk, std::size_t(n));
  }
}

ChildProcess::Lines ChildProcess::read_until(const std::function<bool(const std::string&)>& done,
                                             Millis timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  Lines result;
  while (auto line = read_line(Millis(remaining_ms(deadline)))) {
    result.lines.push_back(*line);
    if (done(*line)) {
      result.found = true;
      break;
    }
  }
  return result;
}

std::vector<std::string> ChildProcess::read_for(Millis duration) {
  return read_until([](const std::string&) { return false; }, duration).lines;
}

void ChildProcess::drain() {
  while (!eof_) {
    pollfd fd{from_child_, POLLIN, 0};
    if (::poll(&fd, 1, 0) <= 0) return;
    char chunk[4096];
    const ssize_t n = ::read(from_child_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      eof_ = true;
    else
      buffer_.append(chunk, std::size_t(n));
  }
}

std::optional<int> ChildProcess::wait_exit(Millis timeout) {
  const Clock::time_point deadline = Clock::now() + timeout;
  while (!exit_status_) {
    drain();  // a child blocked on a full stdout pipe could never exit
    int status = 0;
    const pid_t done = ::waitpid(pid_, &status, WNOHANG);
    if (done == pid_) {
      exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      break;
    }
    if (Clock::now() >= deadline) return std::nullopt;
    std::this_thread::sleep_for(5ms);
  }
  return exit_status_;
}

}  // namespace tessera::test
