// A child process driven over pipes, the way a chess GUI drives an engine: lines to its stdin,
// lines from its stdout, every read bounded by a timeout so a hung engine fails the test
// instead of blocking it. The destructor kills and reaps the child if it is still running.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::test {

using namespace std::chrono_literals;
using Millis = std::chrono::milliseconds;

class ChildProcess {
 public:
  explicit ChildProcess(const std::string& path, const std::vector<std::string>& args = {});
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Writes `line` and '\n'; false when the child no longer reads.
  bool send(std::string_view line);
  // Closes the child's stdin: end of input.
  void close_input();

  // The next line (without '\n' or '\r'), or nullopt on timeout or end of output.
  [[nodiscard]] std::optional<std::string> read_line(Millis timeout);

  // Reads until a line satisfies `done` (it is included) or `timeout` passes; `found` says
  // which. All lines read are returned.
  struct Lines {
    std::vector<std::string> lines;
    bool found = false;
  };
  [[nodiscard]] Lines read_until(const std::function<bool(const std::string&)>& done,
                                 Millis timeout);
  // Every line that arrives within `duration`.
  [[nodiscard]] std::vector<std::string> read_for(Millis duration);

  // The exit status if the child exits within `timeout`. Output read meanwhile stays
  // available to read_line.
  [[nodiscard]] std::optional<int> wait_exit(Millis timeout);
  [[nodiscard]] bool output_closed() const { return eof_; }

 private:
  [[nodiscard]] std::optional<std::string> take_line();
  void drain();  // buffers whatever output is ready, without waiting

  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  bool eof_ = false;
  std::optional<int> exit_status_;
  std::string buffer_;
};

}  // namespace tessera::test
