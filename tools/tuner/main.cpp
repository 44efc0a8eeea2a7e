// tessera-tune: fits the evaluation's weights to self-play data (Texel's method, with Adam).
//
//   tessera-tune --data games.bin.zst [--data more.bin.zst] --epochs 40 --write src/eval/weights.h
//
// Reads the record files written by `tessera datagen`, keeps the quiet positions (not in check,
// best move not a capture or promotion) that no specialised endgame evaluator decides, fits the
// sigmoid scale K to the game results, then runs Adam on mini-batches, printing the training
// and validation loss after every epoch. The weights with the lowest validation loss are
// written out as the source of src/eval/weights.h.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cxxopts.hpp>
#include <fstream>
#include <iostream>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "datagen/record_file.h"
#include "eval/evaluate.h"
#include "tuner_core.h"

namespace {

using namespace tessera;
using tuner::Dataset;

struct LoadStats {
  std::uint64_t records = 0;
  std::uint64_t kept = 0;
  std::uint64_t not_quiet = 0;
  std::uint64_t specialised = 0;
  std::uint64_t extreme = 0;
};

// Appends the usable positions of `path` to the training and validation sets (every
// `validation_every`-th kept position goes to validation). False with a message on bad data.
bool load(const std::string& path, std::uint64_t limit, int validation_every, Dataset& train,
          Dataset& validation, LoadStats& stats, double max_score) {
  datagen::RecordReader reader;
  std::string error;
  if (!reader.open(path, error)) {
    std::cerr << "error: " << error << "\n";
    return false;
  }
  datagen::TrainingRecord r;
  while ((limit == 0 || stats.kept < limit) && reader.next(r)) {
    ++stats.records;
    if (!r.quiet() || r.in_check()) {
      ++stats.not_quiet;
      continue;
    }
    if (std::abs(double(r.score_white)) > max_score) {
      ++stats.extreme;
      continue;
    }
    auto pos = decode(r.position, error);
    if (!pos) {
      std::cerr << "error: " << path << ": " << error << "\n";
      return false;
    }
    const eval::EvalCoefficients c = eval::evaluate_coefficients(*pos);
    if (c.specialised) {
      ++stats.specialised;
      continue;
    }
    Dataset& d = validation_every > 0 && stats.kept % std::uint64_t(validation_every) == 0
                     ? validation
                     : train;
    ++stats.kept;
    tuner::add_sample(d, c, float(r.result_white()), float(r.score_white));
  }
  if (!reader.error().empty()) {
    if (!reader.truncated()) {
      std::cerr << "error: " << reader.error() << "\n";
      return false;
    }
    std::cerr << "warning: " << reader.error() << "\n";
  }
  return true;
}

// Groups named in `list` (comma-separated) are left as they are.
bool frozen_mask(const std::string& list, std::vector<bool>& frozen) {
  frozen.assign(2 * std::size_t(eval::kWeightCount), false);
  std::stringstream in(list);
  std::string name;
  while (std::getline(in, name, ',')) {
    if (name.empty()) continue;
    bool found = false;
    for (std::size_t g = 0; g < std::size_t(eval::Group::Count); ++g) {
      if (name != eval::kGroups[g].name) continue;
      found = true;
      const int begin = eval::group_offset(eval::Group(g));
      for (int i = begin; i < begin + eval::kGroups[g].size; ++i) {
        frozen[std::size_t(i)] = true;
        frozen[std::size_t(eval::kWeightCount + i)] = true;
      }
    }
    if (!found) {
      std::cerr << "error: no weight group named '" << name << "'\n";
      return false;
    }
  }
  return true;
}

int run(int argc, char** argv) {
  cxxopts::Options options("tessera-tune", "Fits Tessera's evaluation weights to self-play data");
  options.add_options()("data", "record file from `tessera datagen` (repeatable)",
                        cxxopts::value<std::vector<std::string>>())(
      "epochs", "passes over the training set", cxxopts::value<int>()->default_value("30"))(
      "batch", "positions per Adam step", cxxopts::value<int>()->default_value("16384"))(
      "lr", "Adam learning rate (centipawns per step)",
      cxxopts::value<double>()->default_value("1.0"))(
      "lr-decay", "learning rate factor per epoch",
      cxxopts::value<double>()->default_value("0.92"))(
      "lambda", "weight of the game result in the target (the rest: the search score)",
      cxxopts::value<double>()->default_value("0.5"))("k",
                                                      "sigmoid scale (0: fit it to the results)",
                                                      cxxopts::value<double>()->default_value("0"))(
      "limit", "use at most this many positions (0: all)",
      cxxopts::value<std::uint64_t>()->default_value("0"))(
      "validation", "every Nth position is held out for validation (0: none)",
      cxxopts::value<int>()->default_value("20"))(
      "max-score", "skip positions whose search score is beyond this (cp)",
      cxxopts::value<double>()->default_value("3000"))(
      "freeze", "comma-separated weight groups to leave unchanged",
      cxxopts::value<std::string>()->default_value(""))("threads", "threads",
                                                        cxxopts::value<int>()->default_value("2"))(
      "seed", "shuffle seed", cxxopts::value<std::uint64_t>()->default_value("1"))(
      "write", "write the best weights as this header (e.g. src/eval/weights.h)",
      cxxopts::value<std::string>())("h,help", "print this help");
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
  const int epochs = args["epochs"].as<int>();
  const int batch = args["batch"].as<int>();
  const int threads = args["threads"].as<int>();
  const double lambda = args["lambda"].as<double>();
  if (!args.count("data") || epochs < 0 || batch <= 0 || threads <= 0 || lambda < 0 || lambda > 1 ||
      args["lr"].as<double>() <= 0) {
    std::cerr << "error: need --data FILE, epochs >= 0, batch > 0, threads > 0, lr > 0 and "
                 "0 <= lambda <= 1 (see --help)\n";
    return 2;
  }
  std::vector<bool> frozen;
  if (!frozen_mask(args["freeze"].as<std::string>(), frozen)) return 2;

  const auto t0 = std::chrono::steady_clock::now();
  Dataset train, validation;
  LoadStats stats;
  for (const std::string& path : args["data"].as<std::vector<std::string>>())
    if (!load(path, args["limit"].as<std::uint64_t>(), args["validation"].as<int>(), train,
              validation, stats, args["max-score"].as<double>()))
      return 1;
  const double load_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  fmt::print(
      "records {}, kept {} (training {}, validation {}); skipped {} not quiet, {} by "
      "an endgame evaluator, {} beyond --max-score; {:.1f} s\n",
      stats.records, stats.kept, train.samples.size(), validation.samples.size(), stats.not_quiet,
      stats.specialised, stats.extreme, load_s);
  if (train.samples.empty()) {
    std::cerr << "error: no usable positions\n";
    return 1;
  }

  tuner::Weights w = tuner::initial_weights();
  double k = args["k"].as<double>();
  if (k <= 0) k = tuner::fit_k(train, w, threads);
  tuner::set_targets(train, k, lambda);
  tuner::set_targets(validation, k, lambda);
  const Dataset& check = validation.samples.empty() ? train : validation;
  double best_loss = tuner::loss(check, w, k, threads);
  tuner::Weights best = w;
  fmt::print("K = {:.6f}; initial loss: training {:.6f}, validation {:.6f}\n", k,
             tuner::loss(train, w, k, threads), best_loss);
  std::fflush(stdout);

  tuner::Adam adam;
  adam.learning_rate = args["lr"].as<double>();
  std::vector<std::uint32_t> order(train.samples.size());
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(args["seed"].as<std::uint64_t>());
  std::vector<double> grad(w.size());
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    for (std::size_t first = 0; first < order.size(); first += std::size_t(batch)) {
      const std::size_t last = std::min(order.size(), first + std::size_t(batch));
      std::fill(grad.begin(), grad.end(), 0.0);
      tuner::accumulate_gradient(train, order, first, last, w, k, threads, grad);
      adam.update(w, grad, frozen);
    }
    adam.learning_rate *= args["lr-decay"].as<double>();
    const double train_loss = tuner::loss(train, w, k, threads);
    const double check_loss = tuner::loss(check, w, k, threads);
    if (check_loss < best_loss) {
      best_loss = check_loss;
      best = w;
    }
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    fmt::print("epoch {:>3}: training {:.6f}, validation {:.6f}, lr {:.4f}, {:.0f} s\n", epoch,
               train_loss, check_loss, adam.learning_rate, elapsed);
    std::fflush(stdout);
  }
  fmt::print("best validation loss {:.6f}\n", best_loss);

  if (args.count("write")) {
    const std::string path = args["write"].as<std::string>();
    const std::string provenance = fmt::format(
        "Last run: {} positions, K {:.6f}, lambda {}, {} epochs, validation loss {:.6f}.",
        train.samples.size(), k, lambda, epochs, best_loss);
    std::ofstream out(path);
    out << tuner::format_weights_header(tuner::rounded(best), provenance);
    if (!out) {
      std::cerr << "error: cannot write " << path << "\n";
      return 1;
    }
    fmt::print("wrote {}\n", path);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return run(argc, argv); }
