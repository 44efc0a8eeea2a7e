#include "trainer.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <numeric>
#include <random>
#include <thread>

namespace tessera::trainer {

namespace {

// Runs fn(first, last, thread) over [0, count) split into `threads` contiguous parts, the
// calling thread taking part 0.
template <class Fn>
void parallel_for(std::size_t count, int threads, Fn fn) {
  const auto n = std::size_t(std::max(threads, 1));
  std::vector<std::thread> pool;
  for (std::size_t t = 1; t < n; ++t)
    pool.emplace_back(fn, count * t / n, count * (t + 1) / n, int(t));
  fn(std::size_t(0), count / n, 0);
  for (auto& th : pool) th.join();
}

std::uint64_t epoch_seed(std::uint64_t seed, int epoch) {
  std::uint64_t x = seed * 0x9E3779B97F4A7C15ull + std::uint64_t(epoch);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// The checkpoint's header; the floats (weights, then Adam's m and v) and an FNV-1a checksum of
// everything before it follow.
struct CheckpointHeader {
  std::array<char, 8> magic{};
  std::uint32_t version = 1;
  std::uint32_t hidden = 0;
  std::uint32_t epoch = 0;
  std::uint32_t buckets = 0;  // 0 in checkpoints from before output buckets: one
  std::uint64_t adam_step = 0;
  std::uint64_t train_positions = 0;
  std::uint64_t seed = 0;
};
static_assert(sizeof(CheckpointHeader) == 48);
constexpr std::array<char, 8> kCheckpointMagic = {'T', 'E', 'S', 'S', 'C', 'K', 'P', 'T'};

// Version 2 (king buckets or a factoriser) follows the header with the layout; a one-bucket
// run without a factoriser writes version 1, byte for byte the checkpoint of before.
struct CheckpointLayout {
  std::uint32_t king_buckets = 1;
  std::uint32_t mirrored = 0;
  std::uint32_t factoriser = 0;
  std::uint32_t reserved = 0;
  std::array<std::uint8_t, eval::nnue::kKingMapSize> map{};
};
static_assert(sizeof(CheckpointLayout) == 48);

CheckpointLayout layout_of(const KingBuckets& layout, bool factoriser) {
  CheckpointLayout c;
  c.king_buckets = std::uint32_t(layout.count);
  c.mirrored = layout.mirrored ? 1 : 0;
  c.factoriser = factoriser ? 1 : 0;
  c.map = layout.map;
  return c;
}

// The flags of a king-bucket layout, for messages.
std::string describe(const KingBuckets& layout, bool factoriser) {
  if (layout == eval::nnue::kSingleKingBucket && !factoriser) return "--king-buckets 1";
  // The flags reach the default map only; mirroring is a flag of its own.
  KingBuckets same_mirroring = eval::nnue::kDefaultKingBuckets;
  same_mirroring.mirrored = layout.mirrored;
  std::string name = layout == same_mirroring
                         ? fmt::format("--king-buckets {}{}", layout.count,
                                       layout.mirrored ? "" : " --no-king-mirror")
                         : fmt::format("{} king buckets (another map)", layout.count);
  return factoriser ? name : name + " --no-factoriser";
}

std::uint64_t fnv1a(const void* data, std::size_t size, std::uint64_t h) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  for (std::size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 0x100000001B3ull;
  return h;
}
constexpr std::uint64_t kFnvBasis = 0xCBF29CE484222325ull;

// The number of pairs of king views (bucket and mirror half, for each side) in `layout`.
int view_key_count(const KingBuckets& layout) {
  const int views = 2 * layout.count;
  return views * views;
}

// The pair of king views of `s`: below view_key_count(layout).
std::uint16_t view_key(const KingBuckets& layout, const Sample& s) {
  const auto w = eval::nnue::king_view(layout, WHITE, Square(s.kings[WHITE]));
  const auto b = eval::nnue::king_view(layout, BLACK, Square(s.kings[BLACK]));
  return std::uint16_t((w.bucket * 2 + int(w.mirrored)) * 2 * layout.count + b.bucket * 2 +
                       int(b.mirrored));
}

}  // namespace

void Adam::update(Network& net, const Gradient& grad, float lr, float weight_decay,
                  bool frozen_output) {
  const std::size_t n = net.params.size();
  if (m.size() != n) {
    m.assign(n, 0.0f);
    v.assign(n, 0.0f);
  }
  ++step;
  const float c1 = 1.0f / (1.0f - std::pow(beta1, float(step)));
  const float c2 = 1.0f / (1.0f - std::pow(beta2, float(step)));
  const std::size_t bias1 = net.bias1_offset(), weight2 = net.weight2_offset(),
                    bias2 = net.bias2_offset();
  float* __restrict w = net.params.data();
  float* __restrict mm = m.data();
  float* __restrict vv = v.data();
  const float* __restrict g = grad.values.data();
  const auto range = [&](std::size_t first, std::size_t last, float decay) {
    for (std::size_t i = first; i < last; ++i) {
      mm[i] = beta1 * mm[i] + (1.0f - beta1) * g[i];
      vv[i] = beta2 * vv[i] + (1.0f - beta2) * g[i] * g[i];
      w[i] -= lr * (mm[i] * c1 / (std::sqrt(vv[i] * c2) + epsilon) + decay * w[i]);
    }
  };
  range(0, bias1, weight_decay);
  range(bias1, weight2, 0.0f);
  if (!frozen_output) range(weight2, bias2, weight_decay);
  range(bias2, net.factoriser_offset(), 0.0f);
  range(net.factoriser_offset(), n, weight_decay);
  clip(net);
}

double mean_loss(const Network& net, const std::vector<Sample>& samples, float lambda, float scale,
                 int threads) {
  if (samples.empty()) return 0.0;
  std::vector<double> partial(std::size_t(std::max(threads, 1)), 0.0);
  parallel_for(samples.size(), threads, [&](std::size_t first, std::size_t last, int t) {
    Scratch scratch(net.hidden);
    double sum = 0;
    for (std::size_t i = first; i < last; ++i) {
      const float err =
          sigmoid(evaluate(net, samples[i], scratch)) - target(samples[i], lambda, scale);
      sum += double(err) * double(err);
    }
    partial[std::size_t(t)] = sum;
  });
  return std::accumulate(partial.begin(), partial.end(), 0.0) / double(samples.size());
}

Trainer::Trainer(const TrainOptions& options, const std::vector<Sample>& train)
    : options_(options),
      train_(train),
      net_(random_network(options.hidden, options.seed, options.buckets, options.king_buckets,
                          options.factoriser)) {
  for (int t = 0; t < std::max(options_.threads, 1); ++t) {
    grads_.emplace_back(net_);
    scratch_.emplace_back(options_.hidden);
  }
  if (options_.king_buckets.count > 1) {
    view_keys_.reserve(train_.size());
    for (const Sample& s : train_) view_keys_.push_back(view_key(options_.king_buckets, s));
  }
}

bool Trainer::set_initial_network(const Network& given, std::string& error) {
  // A narrower network may seed a wider run: its lanes as they were, the new ones fresh.
  const Network net =
      given.hidden < options_.hidden ? widen(given, options_.hidden, options_.seed) : given;
  // A one-bucket network may seed a king-bucketed run: every bucket starts from it.
  const bool grows =
      net.king_buckets == eval::nnue::kSingleKingBucket && options_.king_buckets.count > 1;
  if (net.hidden != options_.hidden || net.buckets != options_.buckets ||
      (net.king_buckets != options_.king_buckets && !grows)) {
    error = fmt::format(
        "the initial network is (768 x {} -> {}) x 2 -> 1 x {} buckets; this run has "
        "--hidden {}, --buckets {} and {}",
        net.king_buckets.count, net.hidden, net.buckets, options_.hidden, options_.buckets,
        describe(options_.king_buckets, options_.factoriser));
    return false;
  }
  if (epoch_ != 0) {
    error = "an initial network is only taken before the first epoch";
    return false;
  }
  net_ = grows ? spread_over_king_buckets(net, options_.king_buckets, options_.factoriser)
               : with_factoriser(net, options_.factoriser);
  clip(net_);
  adam_ = Adam{};
  return true;
}

float Trainer::learning_rate(double progress) const {
  const double epochs = std::max(options_.epochs, 1);
  switch (options_.schedule) {
    case Schedule::Constant:
      return options_.lr;
    case Schedule::Step:
      return float(
          options_.lr *
          std::pow(options_.gamma, std::floor(progress / std::max(options_.step_epochs, 1))));
    case Schedule::Cosine: {
      const double x = std::clamp(progress / epochs, 0.0, 1.0);
      return float(options_.final_lr + (options_.lr - options_.final_lr) * 0.5 *
                                           (1.0 + std::cos(std::numbers::pi * x)));
    }
  }
  return options_.lr;
}

double Trainer::run_epoch(const std::function<void(const Progress&)>& report) {
  const int epoch = epoch_ + 1;
  const bool tuning = epoch > options_.epochs;
  if (tuning) round_output_weights(net_);
  // The batches run the folded network; it follows every step.
  const bool factorised = net_.factoriser;
  // With king buckets, each thread visits its part of a batch grouped by the two king views
  // (a counting sort on view_keys_, stable), so that consecutive positions read and write the
  // same blocks of rows: the gradient is the same sum in another order.
  const bool group = !view_keys_.empty();
  const auto group_by_views = [&](std::uint32_t* part, std::size_t count) {
    const std::size_t keys = std::size_t(view_key_count(options_.king_buckets));
    std::vector<std::uint32_t> start(keys + 1, 0), sorted(count);
    for (std::size_t i = 0; i < count; ++i) ++start[view_keys_[part[i]] + 1];
    for (std::size_t k = 0; k < keys; ++k) start[k + 1] += start[k];
    for (std::size_t i = 0; i < count; ++i) sorted[start[view_keys_[part[i]]]++] = part[i];
    std::copy(sorted.begin(), sorted.end(), part);
  };
  if (factorised) fold(net_, folded_);
  const Network& run = factorised ? folded_ : net_;
  std::vector<std::uint32_t> order(train_.size());
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937_64 rng(epoch_seed(options_.seed, epoch));
  std::shuffle(order.begin(), order.end(), rng);
  const std::uint64_t flip_seed = epoch_seed(~options_.seed, epoch);

  const auto start = std::chrono::steady_clock::now();
  const auto batch = std::size_t(std::max(options_.batch, 1));
  double loss_sum = 0;
  std::vector<double> partial(grads_.size());
  for (std::size_t first = 0; first < order.size(); first += batch) {
    const std::size_t n = std::min(batch, order.size() - first);
    const float weight = 1.0f / float(n);
    parallel_for(n, int(grads_.size()), [&](std::size_t a, std::size_t b, int t) {
      Gradient& g = grads_[std::size_t(t)];
      Scratch& s = scratch_[std::size_t(t)];
      const float lambda = options_.lambda, scale = options_.scale;
      const bool mirror = options_.mirror && !options_.king_buckets.mirrored;
      if (group) group_by_views(order.data() + first + a, b - a);
      double sum = 0;
      for (std::size_t i = first + a; i < first + b; ++i) {
        if (i + 4 < first + b) __builtin_prefetch(&train_[order[i + 4]]);
        const Sample& sample = train_[order[i]];
        const float t_value = target(sample, lambda, scale);
        if (mirror && (sample.flags & Sample::kNoCastling) &&
            (epoch_seed(flip_seed, int(order[i])) & 1))
          sum += add_gradient(run, mirrored(sample), t_value, weight, g, s);
        else
          sum += add_gradient(run, sample, t_value, weight, g, s);
      }
      partial[std::size_t(t)] = sum;
    });
    for (std::size_t t = 1; t < grads_.size(); ++t) grads_[0].add(grads_[t]);
    add_factoriser_gradient(net_, grads_[0]);
    const double done = double(first + n) / double(order.size());
    const float lr = tuning ? options_.tune_lr : learning_rate(double(epoch_) + done);
    adam_.update(net_, grads_[0], lr, options_.weight_decay, tuning);
    if (factorised) fold(net_, folded_);
    last_lr_ = lr;
    for (Gradient& g : grads_) g.clear();
    loss_sum += std::accumulate(partial.begin(), partial.end(), 0.0);

    if (report) {
      Progress p;
      p.epoch = epoch;
      p.done = first + n;
      p.total = order.size();
      p.loss = loss_sum / double(p.done);
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      p.positions_per_second = seconds > 0 ? double(p.done) / seconds : 0;
      const double left =
          double(p.total - p.done) + double(std::max(options_.epochs - epoch, 0)) * double(p.total);
      p.eta_seconds = p.positions_per_second > 0 ? left / p.positions_per_second : 0;
      p.lr = lr;
      report(p);
    }
  }
  epoch_ = epoch;
  return order.empty() ? 0.0 : loss_sum / double(order.size());
}

bool Trainer::save_checkpoint(const std::string& path, std::string& error) const {
  CheckpointHeader header;
  header.magic = kCheckpointMagic;
  header.hidden = std::uint32_t(options_.hidden);
  header.buckets = std::uint32_t(options_.buckets);
  header.epoch = std::uint32_t(epoch_);
  header.adam_step = adam_.step;
  header.train_positions = train_.size();
  header.seed = options_.seed;
  const bool layout = options_.king_buckets != eval::nnue::kSingleKingBucket || options_.factoriser;
  header.version = layout ? 2 : 1;
  const CheckpointLayout block = layout_of(options_.king_buckets, options_.factoriser);
  const std::size_t n = net_.params.size();
  const std::vector<float> zeros(adam_.m.empty() ? n : 0, 0.0f);
  const std::vector<float>& m = adam_.m.empty() ? zeros : adam_.m;
  const std::vector<float>& v = adam_.v.empty() ? zeros : adam_.v;
  std::uint64_t sum = fnv1a(&header, sizeof header, kFnvBasis);
  if (layout) sum = fnv1a(&block, sizeof block, sum);
  for (const auto* values : {&net_.params, &m, &v})
    sum = fnv1a(values->data(), values->size() * sizeof(float), sum);

  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(&header), sizeof header);
    if (layout) out.write(reinterpret_cast<const char*>(&block), sizeof block);
    for (const auto* values : {&net_.params, &m, &v})
      out.write(reinterpret_cast<const char*>(values->data()),
                std::streamsize(values->size() * sizeof(float)));
    out.write(reinterpret_cast<const char*>(&sum), sizeof sum);
    if (!out) {
      error = fmt::format("cannot write the checkpoint '{}'", tmp);
      return false;
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    error = fmt::format("cannot rename '{}' to '{}': {}", tmp, path, ec.message());
    return false;
  }
  return true;
}

bool Trainer::load_checkpoint(const std::string& path, std::string& error) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = fmt::format("cannot open the checkpoint '{}'", path);
    return false;
  }
  CheckpointHeader header;
  in.read(reinterpret_cast<char*>(&header), sizeof header);
  if (!in || header.magic != kCheckpointMagic || (header.version != 1 && header.version != 2)) {
    error = fmt::format("'{}' is not a tessera-train checkpoint", path);
    return false;
  }
  CheckpointLayout block = layout_of(eval::nnue::kSingleKingBucket, false);
  if (header.version == 2) in.read(reinterpret_cast<char*>(&block), sizeof block);
  KingBuckets layout;
  layout.count = int(std::min<std::uint32_t>(block.king_buckets, eval::nnue::kMaxKingBuckets));
  layout.mirrored = block.mirrored != 0;
  layout.map = block.map;
  const bool factoriser = block.factoriser != 0;
  const int buckets = header.buckets == 0 ? 1 : int(header.buckets);
  if (!in) {
    error = fmt::format("the checkpoint '{}' is truncated or damaged", path);
    return false;
  }
  if (int(header.hidden) != options_.hidden || buckets != options_.buckets ||
      layout != options_.king_buckets || factoriser != options_.factoriser ||
      header.train_positions != train_.size() || header.seed != options_.seed) {
    error = fmt::format(
        "the checkpoint '{}' was made with --hidden {}, --buckets {}, {}, {} training positions "
        "and --seed {}; this run has {}, {}, {}, {} and {}",
        path, header.hidden, buckets, describe(layout, factoriser), header.train_positions,
        header.seed, options_.hidden, options_.buckets,
        describe(options_.king_buckets, options_.factoriser), train_.size(), options_.seed);
    return false;
  }
  const std::size_t n = net_.params.size();
  std::vector<float> params(n), m(n), v(n);
  std::uint64_t stored = 0;
  for (auto* values : {&params, &m, &v})
    in.read(reinterpret_cast<char*>(values->data()), std::streamsize(n * sizeof(float)));
  in.read(reinterpret_cast<char*>(&stored), sizeof stored);
  std::uint64_t sum = fnv1a(&header, sizeof header, kFnvBasis);
  if (header.version == 2) sum = fnv1a(&block, sizeof block, sum);
  for (const auto* values : {&params, &m, &v})
    sum = fnv1a(values->data(), values->size() * sizeof(float), sum);
  if (!in || in.peek() != std::ifstream::traits_type::eof() || stored != sum) {
    error = fmt::format("the checkpoint '{}' is truncated or damaged", path);
    return false;
  }
  net_.params = std::move(params);
  adam_.m = std::move(m);
  adam_.v = std::move(v);
  adam_.step = header.adam_step;
  epoch_ = int(header.epoch);
  return true;
}

}  // namespace tessera::trainer
