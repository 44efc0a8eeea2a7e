#include "cli.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <cxxopts.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "dataset.h"
#include "quantise.h"
#include "trainer.h"

namespace tessera::trainer {

namespace {

// A flag's value as a number within [min, max]; false with `error` set otherwise. A flag that
// is not given leaves `value` as it is.
template <typename T>
bool read_number(const cxxopts::ParseResult& args, const char* name, T min, T max, T& value,
                 std::string& error) {
  if (args.count(name) == 0) return true;
  const std::string text = args[name].as<std::string>();
  T parsed{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (ec == std::errc() && end == text.data() + text.size() && !text.empty() && parsed >= min &&
      parsed <= max) {
    value = parsed;
    return true;
  }
  error = fmt::format("--{} wants a number from {} to {}, got '{}'", name, min, max, text);
  return false;
}

struct Config {
  TrainOptions train;
  LoadOptions load;
  std::vector<std::string> data;
  std::string output;
  std::string checkpoint;
  std::string resume;
  std::string init;
  double progress_seconds = 10;
};

bool read_config(const cxxopts::ParseResult& args, Config& c, std::string& error) {
  if (!args.count("data")) {
    error = "need at least one --data FILE";
    return false;
  }
  c.data = args["data"].as<std::vector<std::string>>();
  TrainOptions& t = c.train;
  LoadOptions& l = c.load;
  double wdl = t.lambda, lr = t.lr, tune_lr = t.tune_lr, final_lr = t.final_lr, gamma = t.gamma,
         decay = t.weight_decay;
  int scale = int(t.scale);
  int king_buckets = 1;
  if (!read_number(args, "hidden", 1, 4096, t.hidden, error) ||
      !read_number(args, "king-buckets", 1, eval::nnue::kMaxKingBuckets, king_buckets, error) ||
      !read_number(args, "buckets", 1, 64, t.buckets, error) ||
      !read_number(args, "epochs", 0, 100000, t.epochs, error) ||
      !read_number(args, "batch", 1, 1 << 24, t.batch, error) ||
      !read_number(args, "threads", 1, 256, t.threads, error) ||
      !read_number(args, "lr", 1e-9, 10.0, lr, error) ||
      !read_number(args, "final-lr", 0.0, 10.0, final_lr, error) ||
      !read_number(args, "lr-step", 1, 100000, t.step_epochs, error) ||
      !read_number(args, "tune-epochs", 0, 100000, t.tune_epochs, error) ||
      !read_number(args, "tune-lr", 0.0, 10.0, tune_lr, error) ||
      !read_number(args, "lr-gamma", 0.0, 1.0, gamma, error) ||
      !read_number(args, "weight-decay", 0.0, 1.0, decay, error) ||
      !read_number(args, "wdl", 0.0, 1.0, wdl, error) ||
      !read_number(args, "scale", 1, 10000, scale, error) ||
      !read_number(args, "seed", std::uint64_t(0), ~std::uint64_t(0), t.seed, error) ||
      !read_number(args, "validation", 0.0, 0.9, l.validation, error) ||
      !read_number(args, "min-ply", 0, 10000, l.min_ply, error) ||
      !read_number(args, "max-score", 0, 32000, l.max_score, error) ||
      !read_number(args, "limit", std::uint64_t(0), ~std::uint64_t(0), l.limit, error) ||
      !read_number(args, "progress", 0.0, 1e6, c.progress_seconds, error))
    return false;
  if (!eval::nnue::valid_bucket_count(std::uint32_t(t.buckets))) {
    error = fmt::format("--buckets wants 1 or {}, got {}", eval::nnue::kOutputBuckets, t.buckets);
    return false;
  }
  // The layouts on offer: none, and the engine's default one.
  if (king_buckets == 1) {
    t.king_buckets = eval::nnue::kSingleKingBucket;
  } else if (king_buckets == eval::nnue::kDefaultKingBuckets.count) {
    t.king_buckets = eval::nnue::kDefaultKingBuckets;
    // Unmirrored, the buckets of a one-bucket network it grows from compute that network's
    // function exactly: both perspectives keep seeing the board as it trained on it.
    t.king_buckets.mirrored = !args.count("no-king-mirror");
  } else {
    error = fmt::format("--king-buckets wants 1 or {}, got {}",
                        eval::nnue::kDefaultKingBuckets.count, king_buckets);
    return false;
  }
  // The factoriser by default wherever there are buckets to share it (network.h).
  t.factoriser = king_buckets > 1 && !args.count("no-factoriser");
  t.lambda = float(wdl);
  t.lr = float(lr);
  t.tune_lr = float(tune_lr);
  t.final_lr = float(final_lr);
  t.gamma = float(gamma);
  t.weight_decay = float(decay);
  t.scale = float(scale);
  l.seed = t.seed;
  l.quiet_only = !args.count("noisy");
  t.mirror = args.count("mirror") > 0;
  const std::string schedule = args["lr-schedule"].as<std::string>();
  if (schedule == "cosine") {
    t.schedule = Schedule::Cosine;
  } else if (schedule == "step") {
    t.schedule = Schedule::Step;
  } else if (schedule == "constant") {
    t.schedule = Schedule::Constant;
  } else {
    error = fmt::format("--lr-schedule wants cosine, step or constant, got '{}'", schedule);
    return false;
  }
  if (!args.count("output")) {
    error = "need --output FILE for the network";
    return false;
  }
  c.output = args["output"].as<std::string>();
  c.checkpoint =
      args.count("checkpoint") ? args["checkpoint"].as<std::string>() : c.output + ".ckpt";
  if (args.count("resume")) c.resume = args["resume"].as<std::string>();
  if (args.count("init")) c.init = args["init"].as<std::string>();
  if (!c.resume.empty() && !c.init.empty()) {
    error = "--init and --resume exclude each other (a checkpoint holds its own weights)";
    return false;
  }
  return true;
}

std::string duration(double seconds) {
  const auto s = static_cast<long>(seconds + 0.5);
  return s >= 3600 ? fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
                   : fmt::format("{}:{:02}", s / 60, s % 60);
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The weights of the network file `path` as the run's starting point (--init).
bool start_from_file(Trainer& trainer, const std::string& path, std::string& error) {
  const std::optional<QuantisedNetwork> q = eval::nnue::read_network_file(path, error);
  if (!q) return false;
  if (float(q->scale) != trainer.options().scale) {
    error = fmt::format("{} has scale {}; this run has --scale {}", path, q->scale,
                        trainer.options().scale);
    return false;
  }
  if (!trainer.set_initial_network(dequantise(*q), error)) {
    error = path + ": " + error;
    return false;
  }
  fmt::print("initial weights from {}\n", path);
  return true;
}

int train(const Config& c) {
  const auto t0 = std::chrono::steady_clock::now();
  Dataset data;
  LoadStats stats;
  std::string error;
  for (const std::string& path : c.data) {
    if (!load_file(path, c.load, data, stats, error)) {
      std::cerr << "error: " << error << "\n";
      return 1;
    }
  }
  for (const std::string& w : stats.warnings) std::cerr << "warning: " << w << "\n";
  const double load_s = since(t0);
  fmt::print(
      "records {} from {} games, kept {} (training {}, validation {}); skipped {} in check, {} "
      "not quiet, {} before ply {}, {} beyond {} cp; {:.1f} s ({:.2f} M records/s)\n",
      stats.records, stats.games, stats.kept, data.train.size(), data.validation.size(),
      stats.in_check, stats.not_quiet, stats.early, c.load.min_ply, stats.extreme, c.load.max_score,
      load_s, load_s > 0 ? double(stats.records) / load_s / 1e6 : 0.0);
  if (data.train.empty()) {
    std::cerr << "error: no training positions are left after filtering\n";
    return 1;
  }
  const std::vector<Sample>& check = data.validation.empty() ? data.train : data.validation;
  if (data.validation.empty())
    fmt::print("no game was held out: the validation figures are on the training set\n");
  const TrainOptions& o = c.train;

  Trainer trainer(o, data.train);
  if (!c.resume.empty()) {
    if (!trainer.load_checkpoint(c.resume, error)) {
      std::cerr << "error: " << error << "\n";
      return 1;
    }
    fmt::print("resumed from {} after epoch {}\n", c.resume, trainer.epochs_done());
  } else if (!c.init.empty() && !start_from_file(trainer, c.init, error)) {
    std::cerr << "error: " << error << "\n";
    return 1;
  }
  const std::string inputs =
      eval::nnue::describe_inputs(o.king_buckets) + (o.factoriser ? ", factorised" : "");
  fmt::print(
      "network ({} -> {}) x 2 -> 1 x {} buckets, {} threads, batch {}; validation loss "
      "{:.6f}\n",
      inputs, o.hidden, o.buckets, o.threads, o.batch,
      mean_loss(trainer.network(), check, o.lambda, o.scale, o.threads));
  if (o.mirror && o.king_buckets.mirrored)
    fmt::print("--mirror: ignored, the mirrored king buckets see a reflected position as is\n");
  std::fflush(stdout);

  auto last_report = std::chrono::steady_clock::now();
  const auto report = [&](const Progress& p) {
    if (c.progress_seconds <= 0 || since(last_report) < c.progress_seconds) return;
    last_report = std::chrono::steady_clock::now();
    fmt::print("  epoch {}/{} {:5.1f}%  {:.2f} M pos/s  loss {:.6f}  lr {:.6f}  ETA {}\n", p.epoch,
               trainer.total_epochs(), 100.0 * double(p.done) / double(p.total),
               p.positions_per_second / 1e6, p.loss, p.lr, duration(p.eta_seconds));
    std::fflush(stdout);
  };
  const auto train_start = std::chrono::steady_clock::now();
  const std::clock_t cpu_start = std::clock();
  std::uint64_t trained = 0;
  while (trainer.epochs_done() < trainer.total_epochs()) {
    const auto epoch_start = std::chrono::steady_clock::now();
    const double train_loss = trainer.run_epoch(report);
    const double seconds = since(epoch_start);
    trained += data.train.size();
    const double validation_loss =
        mean_loss(trainer.network(), check, o.lambda, o.scale, o.threads);
    if (!trainer.save_checkpoint(c.checkpoint, error)) {
      std::cerr << "error: " << error << "\n";
      return 1;
    }
    fmt::print(
        "epoch {:>3}: training {:.6f}, validation {:.6f}, lr {:.6f}, {:.2f} M pos/s, "
        "{:.1f} s{}\n",
        trainer.epochs_done(), train_loss, validation_loss, trainer.last_learning_rate(),
        seconds > 0 ? double(data.train.size()) / seconds / 1e6 : 0.0, seconds,
        trainer.epochs_done() > o.epochs ? " (output weights quantised)" : "");
    std::fflush(stdout);
  }
  if (trained > 0) {
    const double wall = since(train_start);
    const double cpu = double(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    fmt::print(
        "trained {} positions in {:.1f} s ({:.1f} s of CPU): {:.2f} M pos/s, {:.2f} M pos per "
        "CPU second; {:.2f} M pos/s including loading and validation\n",
        trained, wall, cpu, double(trained) / wall / 1e6, double(trained) / cpu / 1e6,
        double(trained) / since(t0) / 1e6);
  }
  const QuantisedNetwork q = quantise(trainer.network(), int(o.scale));
  fmt::print("validation loss: float {:.6f}, quantised {:.6f}\n",
             mean_loss(trainer.network(), check, o.lambda, o.scale, o.threads),
             quantised_loss(q, check, o.lambda, o.threads));
  if (!write_network(q, c.output, error)) {
    std::cerr << "error: " << error << "\n";
    return 1;
  }
  fmt::print("wrote {}\n", c.output);
  return 0;
}

}  // namespace

int run_cli(int argc, const char* const* argv) {
  cxxopts::Options options("tessera-train", "Trains Tessera's evaluation network");
  const auto text = [] { return cxxopts::value<std::string>(); };
  options.add_options()("data", "record file from `tessera datagen` (repeatable)",
                        cxxopts::value<std::vector<std::string>>())(
      "output", "the quantised network file to write", text())(
      "hidden", "first-layer width (the engine evaluates 128, 256, 384 and 512)",
      text()->default_value("128"))("buckets", "output buckets by material: 1 or 8",
                                    text()->default_value("1"))(
      "king-buckets",
      "input king buckets: 1, or 4 (the engine's layout: by the king's rank, mirrored)",
      text()->default_value("1"))(
      "no-factoriser", "with king buckets: no shared first-layer block (folded into the file)")(
      "no-king-mirror", "with king buckets: do not mirror a king on files a-d onto e-h")(
      "epochs", "passes over the training set", text()->default_value("30"))(
      "batch", "positions per optimiser step", text()->default_value("16384"))(
      "threads", "threads", text()->default_value("2"))("lr", "AdamW learning rate",
                                                        text()->default_value("0.001"))(
      "lr-schedule", "cosine, step or constant", text()->default_value("cosine"))(
      "final-lr", "cosine: learning rate at the end", text()->default_value("0.00002"))(
      "lr-step", "step: epochs between reductions", text()->default_value("10"))(
      "lr-gamma", "step: factor per reduction", text()->default_value("0.3"))(
      "tune-epochs", "epochs after --epochs with the output weights quantised and frozen",
      text()->default_value("2"))("tune-lr", "learning rate of those epochs",
                                  text()->default_value("0.0001"))(
      "weight-decay", "AdamW weight decay (weights, not biases)", text()->default_value("0.0001"))(
      "wdl", "weight of the game result in the target (the rest: the search score)",
      text()->default_value("0.3"))("scale", "centipawns per unit of the network's output",
                                    text()->default_value("400"))(
      "seed", "initial weights, shuffling and the validation split", text()->default_value("1"))(
      "validation", "fraction of the games held out", text()->default_value("0.05"))(
      "min-ply", "skip positions before this ply", text()->default_value("0"))(
      "max-score", "skip positions whose |score| is beyond this (cp)",
      text()->default_value("3000"))("noisy", "keep positions whose best move is a capture")(
      "mirror", "reflect positions without castling rights a-h at random")(
      "limit", "use at most this many positions (0: all)", text()->default_value("0"))(
      "checkpoint", "checkpoint written after every epoch (default: OUTPUT.ckpt)", text())(
      "resume", "continue from this checkpoint", text())(
      "init",
      "start from the weights of this network file (fine-tuning; a narrower one is widened)",
      text())("progress", "seconds between progress lines (0: none)", text()->default_value("10"))(
      "h,help", "print this help");
  cxxopts::ParseResult args;
  try {
    args = options.parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  if (args.count("help")) {
    std::cout << options.help() << "\n";
    return 0;
  }
  if (!args.unmatched().empty()) {
    std::cerr << "error: unexpected argument '" << args.unmatched().front() << "'\n";
    return 2;
  }
  Config config;
  std::string error;
  if (!read_config(args, config, error)) {
    std::cerr << "error: " << error << " (see --help)\n";
    return 2;
  }
  return train(config);
}

}  // namespace tessera::trainer
