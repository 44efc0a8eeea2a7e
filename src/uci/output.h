// One line-oriented output channel shared by the reading thread and the search threads.
//
// Each line is written whole under one mutex and flushed at once: GUIs read line by line and
// an unflushed `readyok` or `bestmove` is, to them, an engine that hangs.
#pragma once

#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::uci {

class Output {
 public:
  explicit Output(std::ostream& out) : out_(out) {}

  void line(std::string_view text) {
    const std::lock_guard lock(mutex_);
    out_ << text << '\n' << std::flush;
  }

  // Several lines with no other output between them (the `uci` reply, `d`).
  void lines(const std::vector<std::string>& texts) {
    const std::lock_guard lock(mutex_);
    for (const std::string& text : texts) out_ << text << '\n';
    out_ << std::flush;
  }

  // For long synchronous reports (perft, bench) that stream to the raw stream themselves.
  template <typename F>
  void with_stream(F&& write) {
    const std::lock_guard lock(mutex_);
    write(out_);
    out_ << std::flush;
  }

 private:
  std::ostream& out_;
  std::mutex mutex_;
};

}  // namespace tessera::uci
