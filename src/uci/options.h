// The UCI options Tessera advertises, and the text side of `setoption`: finding an option by
// name and checking a value. Applying a value to the Engine is the session's job (uci.cpp).
//
// Every spin's default lies within min..max and all three fit a signed 32-bit integer, since
// cutechess and fastchess drop or reject options that break either rule.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "engine/engine.h"
#include "uci/tokens.h"

namespace tessera::uci {

enum class OptionId {
  Threads,
  Hash,
  ClearHash,
  MultiPV,
  Ponder,
  MoveOverhead,
  Chess960,
  OwnBook,
  BookFile,
  BookBestMove,
  BookDepth,
  SyzygyPath,
  SyzygyProbeDepth,
  Syzygy50MoveRule,
  SyzygyProbeLimit,
  LimitStrength,
  Elo,
  HashFile,
  SaveHashFile,
  LoadHashFile,
  NeverClearHash,
  ShowWDL,
  AnalyseMode,
  UseNNUE,
  EvalFile,
};
enum class OptionType { Spin, Check, Button, String };

struct OptionSpec {
  OptionId id;
  std::string_view name;
  OptionType type;
  long long default_value = 0;  // a check stores false / true as 0 / 1
  long long min = 0;
  long long max = 0;
  std::string_view default_text = {};  // a string option's default
};

inline constexpr long long kMaxHashMb = 1 << 20;  // 1 TiB: more than any machine we run on

// Threads first: fastchess resends options in this order before each game, and a thread
// change is the one that may reallocate per-thread tables.
inline constexpr std::array<OptionSpec, 25> kOptions = {{
    {OptionId::Threads, "Threads", OptionType::Spin, 1, 1, 256},
    {OptionId::Hash, "Hash", OptionType::Spin, 16, 1, kMaxHashMb},
    {OptionId::ClearHash, "Clear Hash", OptionType::Button},
    {OptionId::MultiPV, "MultiPV", OptionType::Spin, 1, 1, 256},
    {OptionId::Ponder, "Ponder", OptionType::Check, 0},
    {OptionId::MoveOverhead, "Move Overhead", OptionType::Spin, 10, 0, 5000},
    {OptionId::Chess960, "UCI_Chess960", OptionType::Check, 0},
    {OptionId::OwnBook, "OwnBook", OptionType::Check, 0},
    // "<empty>" is the UCI convention for an unset string (a GUI cannot send an empty value).
    {OptionId::BookFile, "BookFile", OptionType::String, 0, 0, 0, "<empty>"},
    {OptionId::BookBestMove, "BookBestMove", OptionType::Check, 0},
    {OptionId::BookDepth, "BookDepth", OptionType::Spin, 100, 1, 1000},
    // Directories joined by ':' (';' on Windows), as Fathom splits them.
    {OptionId::SyzygyPath, "SyzygyPath", OptionType::String, 0, 0, 0, "<empty>"},
    {OptionId::SyzygyProbeDepth, "SyzygyProbeDepth", OptionType::Spin, 1, 1, 100},
    {OptionId::Syzygy50MoveRule, "Syzygy50MoveRule", OptionType::Check, 1, 0, 1},
    {OptionId::SyzygyProbeLimit, "SyzygyProbeLimit", OptionType::Spin, 7, 0, 7},
    {OptionId::LimitStrength, "UCI_LimitStrength", OptionType::Check, 0, 0, 1},
    // The default is the top of the range, which is full strength even with the limit on.
    {OptionId::Elo, "UCI_Elo", OptionType::Spin, 3000, 1320, 3000},
    // The persistent hash (search/tt_file.h): the file, the buttons that save the table to it
    // and load it back, and whether ucinewgame keeps the table.
    {OptionId::HashFile, "HashFile", OptionType::String, 0, 0, 0, "<empty>"},
    {OptionId::SaveHashFile, "Save Hash File", OptionType::Button},
    {OptionId::LoadHashFile, "Load Hash File", OptionType::Button},
    {OptionId::NeverClearHash, "Never Clear Hash", OptionType::Check, 0, 0, 1},
    {OptionId::ShowWDL, "UCI_ShowWDL", OptionType::Check, 0, 0, 1},
    // GUIs send it before an analysis; Tessera searches alike either way.
    {OptionId::AnalyseMode, "UCI_AnalyseMode", OptionType::Check, 0, 0, 1},
    // The evaluation network (eval/nnue/); EvalFile "<default>" is the network embedded in the
    // binary.
    {OptionId::UseNNUE, "Use NNUE", OptionType::Check, engine::kNetworkByDefault ? 1 : 0, 0, 1},
    {OptionId::EvalFile, "EvalFile", OptionType::String, 0, 0, 0, "<default>"},
}};

// Whether the option may change while a search runs. These touch nothing the running search
// depends on, or only what it reads afresh each iteration (MultiPV); the others (table sizes,
// threads, files, variants, strength, tablebase probing, the evaluation) are refused until the
// search ends. Saving and loading the hash file are let through to the Engine, which refuses
// them itself while the search has not reported its best move.
[[nodiscard]] constexpr bool changes_during_search(OptionId id) {
  switch (id) {
    case OptionId::MultiPV:
    case OptionId::Ponder:
    case OptionId::MoveOverhead:
    case OptionId::OwnBook:
    case OptionId::BookBestMove:
    case OptionId::BookDepth:
    case OptionId::ShowWDL:
    case OptionId::AnalyseMode:
    case OptionId::HashFile:
    case OptionId::SaveHashFile:
    case OptionId::LoadHashFile:
      return true;
    default:
      return false;
  }
}

// The position of the option `id` in kOptions.
[[nodiscard]] constexpr std::size_t option_index(OptionId id) {
  std::size_t i = 0;
  while (i < kOptions.size() && kOptions[i].id != id) ++i;
  return i;
}

// "option name Hash type spin default 16 min 1 max 1048576"
[[nodiscard]] std::string option_line(const OptionSpec& spec);

// Case-insensitive lookup; nullptr when no option has that name.
[[nodiscard]] const OptionSpec* find_option(std::string_view name);

// A parsed `setoption` line: the name as written and the value, absent when no `value` word
// was given. `error` is set when the line is malformed (no `name`).
struct SetOption {
  std::string name;
  std::optional<std::string> value;
  std::string error;
};
[[nodiscard]] SetOption parse_setoption(const Words& words);

// A value checked against its option: spins must be whole integers in range (never clamped,
// so a GUI's mistake is visible), checks `true` or `false` in any case. A button ignores it.
// A string takes the rest of the line as written (runs of spaces read as one).
struct OptionValue {
  long long value = 0;
  std::string error;  // "" when valid
  std::string text;   // a string option's value ("" for "<empty>" or no value)
};
[[nodiscard]] OptionValue check_option_value(const OptionSpec& spec,
                                             const std::optional<std::string>& text);

}  // namespace tessera::uci
