// tessera-wdl-fit: fits the win-draw-loss model of UCI_ShowWDL (src/uci/wdl.h) to self-play.
//
//   tessera-wdl-fit --data games.bin.zst [--data more.bin.zst] [--max-score 3000]
//
// Reads the record files written by `tessera datagen` and turns every position not in check
// whose score lies within --max-score (beyond it lie mates, tablebase results and decided
// endings, which say nothing about the curve) into a score for the side to move, its material
// as wdl.h counts it, and the game's result for the side to move. Positions with the same score
// and material are pooled, which keeps the likelihood exact and the fit fast. The six constants
// are then fitted by maximum likelihood (Adam on the full data, until the loss stops falling)
// and printed as the initialiser of kWdlModel, with the mean log loss beside that of a model
// that ignores the score, and the observed and predicted rates at a few scores.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cxxopts.hpp>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "datagen/record_file.h"
#include "uci/wdl.h"

namespace {

using namespace tessera;
using uci::WdlModel;

// The games' outcomes from one (score, material) pair, for the side to move.
struct Bin {
  int score = 0;
  int material = 0;
  std::array<double, 3> count{};  // win, draw, loss
};

struct Data {
  std::vector<Bin> bins;
  double positions = 0;
  std::uint64_t records = 0;
  std::uint64_t skipped = 0;  // in check, or the score beyond --max-score
};

bool load(const std::string& path, int max_score, std::map<std::pair<int, int>, Bin>& pooled,
          Data& data) {
  datagen::RecordReader reader;
  std::string error;
  if (!reader.open(path, error)) {
    std::cerr << "error: " << error << "\n";
    return false;
  }
  datagen::TrainingRecord r;
  while (reader.next(r)) {
    ++data.records;
    if (r.in_check() || std::abs(int(r.score_white)) > max_score) {
      ++data.skipped;
      continue;
    }
    const std::optional<Position> pos = decode(r.position, error);
    if (!pos) {
      std::cerr << "error: " << path << ": " << error << "\n";
      return false;
    }
    const bool white = pos->side_to_move() == WHITE;
    const int score = white ? r.score_white : -r.score_white;
    int outcome = r.result == datagen::GameResult::Draw ? 1 : 0;
    if (r.result != datagen::GameResult::Draw)
      outcome = (r.result == datagen::GameResult::WhiteWins) == white ? 0 : 2;
    const int material = std::min(uci::wdl_material(*pos), uci::kWdlMaxMaterial);
    Bin& bin = pooled[{score, material}];
    bin.score = score;
    bin.material = material;
    bin.count[std::size_t(outcome)] += 1;
    data.positions += 1;
  }
  if (!reader.error().empty() && !reader.truncated()) {
    std::cerr << "error: " << reader.error() << "\n";
    return false;
  }
  if (reader.truncated()) std::cerr << "warning: " << reader.error() << "\n";
  return true;
}

constexpr double kFloor = 1e-12;  // keeps log() finite where the model rounds a rate to zero

// Mean negative log-likelihood of the data; `gradient` (a0..a2, b0..b2) when not null.
double loss(const WdlModel& m, const Data& data, std::array<double, 6>* gradient) {
  double total = 0;
  std::array<double, 6> g{};
  for (const Bin& bin : data.bins) {
    const double x = double(bin.material) / uci::kWdlMaxMaterial;
    const std::array<double, 3> powers = {1, x, x * x};
    const double a = m.a[0] + m.a[1] * x + m.a[2] * x * x;
    const double b = std::max(m.b[0] + m.b[1] * x + m.b[2] * x * x, 1.0);
    const double s = bin.score;
    const double pw = 1 / (1 + std::exp((a - s) / b));
    const double pl = 1 / (1 + std::exp((a + s) / b));
    const double pd = std::max(1 - pw - pl, kFloor);
    const auto [nw, nd, nl] = bin.count;
    total -= nw * std::log(std::max(pw, kFloor)) + nd * std::log(pd) +
             nl * std::log(std::max(pl, kFloor));
    if (gradient == nullptr) continue;
    // d(-log L)/dp for each outcome, then the chain rule through p = logistic(u).
    const double dw = -nw / std::max(pw, kFloor) + nd / pd;
    const double dl = -nl / std::max(pl, kFloor) + nd / pd;
    const double sw = pw * (1 - pw);
    const double sl = pl * (1 - pl);
    const double d_a = (dw * sw + dl * sl) * (-1 / b);
    const double d_b = dw * sw * (-(s - a) / (b * b)) + dl * sl * (-(-s - a) / (b * b));
    for (std::size_t k = 0; k < 3; ++k) {
      g[k] += d_a * powers[k];
      g[3 + k] += d_b * powers[k];
    }
  }
  if (gradient != nullptr)
    for (std::size_t k = 0; k < 6; ++k) (*gradient)[k] = g[k] / data.positions;
  return total / data.positions;
}

WdlModel fit(const Data& data, int max_steps) {
  WdlModel m{{150, 0, 0}, {100, 0, 0}};  // a plausible start: even odds at 1.5 pawns
  std::array<double, 6> first{}, second{};
  const double rate = 1.0, beta1 = 0.9, beta2 = 0.999;
  double previous = loss(m, data, nullptr);
  for (int step = 1; step <= max_steps; ++step) {
    std::array<double, 6> g{};
    const double current = loss(m, data, &g);
    for (std::size_t k = 0; k < 6; ++k) {
      first[k] = beta1 * first[k] + (1 - beta1) * g[k];
      second[k] = beta2 * second[k] + (1 - beta2) * g[k] * g[k];
      const double mh = first[k] / (1 - std::pow(beta1, step));
      const double vh = second[k] / (1 - std::pow(beta2, step));
      double& p = k < 3 ? m.a[k] : m.b[k - 3];
      p -= rate * mh / (std::sqrt(vh) + 1e-12);
    }
    if (step % 500 == 0) {
      std::cout << fmt::format("step {:5}: loss {:.6f}\n", step, current);
      if (previous - current < 1e-7) break;
      previous = current;
    }
  }
  return m;
}

// The loss of the best model that ignores the score: each outcome at its overall rate.
double baseline_loss(const Data& data) {
  std::array<double, 3> total{};
  for (const Bin& bin : data.bins)
    for (std::size_t k = 0; k < 3; ++k) total[k] += bin.count[k];
  double l = 0;
  for (std::size_t k = 0; k < 3; ++k)
    if (total[k] > 0) l -= total[k] * std::log(total[k] / data.positions);
  return l / data.positions;
}

void print_check(const WdlModel& m, const Data& data) {
  std::cout << "score   material   positions   observed W/D/L (per mille)   model W/D/L\n";
  for (const auto& [lo_material, hi_material] : {std::pair{60, 78}, {30, 59}, {0, 29}}) {
    for (const int centre : {-300, -150, -50, 0, 50, 150, 300}) {
      std::array<double, 3> count{};
      double n = 0;
      double model_w = 0, model_l = 0;
      for (const Bin& bin : data.bins) {
        if (bin.material < lo_material || bin.material > hi_material ||
            std::abs(bin.score - centre) > 15)
          continue;
        const double k = bin.count[0] + bin.count[1] + bin.count[2];
        for (std::size_t i = 0; i < 3; ++i) count[i] += bin.count[i];
        n += k;
        model_w += k * uci::wdl_win_probability(m, bin.score, bin.material);
        model_l += k * uci::wdl_loss_probability(m, bin.score, bin.material);
      }
      if (n < 1) continue;
      std::cout << fmt::format(
          "{:5}   {:2}..{:2}   {:9.0f}   {:4.0f} {:4.0f} {:4.0f}{:17}{:4.0f} {:4.0f} {:4.0f}\n",
          centre, lo_material, hi_material, n, 1000 * count[0] / n, 1000 * count[1] / n,
          1000 * count[2] / n, "", 1000 * model_w / n, 1000 * (n - model_w - model_l) / n,
          1000 * model_l / n);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  cxxopts::Options options("tessera-wdl-fit",
                           "Fit the UCI_ShowWDL win-draw-loss model to datagen records");
  options.add_options()("data", "record file (repeatable)",
                        cxxopts::value<std::vector<std::string>>())(
      "max-score", "ignore positions scored beyond this many centipawns",
      cxxopts::value<int>()->default_value("3000"))(
      "steps", "most optimiser steps", cxxopts::value<int>()->default_value("20000"))("h,help",
                                                                                      "this help");
  cxxopts::ParseResult parsed;
  try {
    parsed = options.parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  if (parsed.count("help")) {
    std::cout << options.help() << "\n";
    return 0;
  }
  if (!parsed.count("data")) {
    std::cerr << "error: --data FILE is required\n";
    return 2;
  }
  const int max_score = parsed["max-score"].as<int>();
  const int steps = parsed["steps"].as<int>();
  if (max_score < 1 || steps < 1) {
    std::cerr << "error: --max-score and --steps must be positive\n";
    return 2;
  }
  Data data;
  std::map<std::pair<int, int>, Bin> pooled;
  for (const std::string& path : parsed["data"].as<std::vector<std::string>>())
    if (!load(path, max_score, pooled, data)) return 1;
  if (data.positions < 1) {
    std::cerr << "error: no usable positions\n";
    return 1;
  }
  for (const auto& [key, bin] : pooled) data.bins.push_back(bin);
  std::cout << fmt::format("{} records, {} used ({} skipped), {} distinct (score, material)\n",
                           data.records, std::uint64_t(data.positions), data.skipped,
                           data.bins.size());
  const WdlModel m = fit(data, steps);
  std::cout << fmt::format("mean log loss {:.5f} (score ignored: {:.5f})\n", loss(m, data, nullptr),
                           baseline_loss(data));
  print_check(m, data);
  std::cout << fmt::format(
      "kWdlModel = {{{{{:.2f}, {:.2f}, {:.2f}}}, {{{:.2f}, {:.2f}, {:.2f}}}}};\n", m.a[0], m.a[1],
      m.a[2], m.b[0], m.b[1], m.b[2]);
  return 0;
}
