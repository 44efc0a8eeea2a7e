// The training loop: shuffled mini-batches, gradients over several threads, AdamW, the
// learning-rate schedule, and checkpoints that a later run resumes from.
//
// Policy. A run is a function of its options, its training set and the thread count: epoch e
// visits the positions in a permutation drawn from (seed, e) alone, a batch is split into
// `threads` contiguous parts whose gradients are summed in thread order, and the optimiser's
// state is saved whole, so a run resumed from a checkpoint ends with the same weights as one
// that never stopped. With `mirror`, each epoch reflects about half of the positions without
// castling rights left to right (which half follows from the seed, the epoch and the
// position); with a mirrored king-bucket layout a reflected position activates exactly the
// rows of the original (dataset.h: mirrored()), so `mirror` is then ignored rather than
// spending the time on a copy that trains the same gradient. A factorised network (network.h)
// trains through its fold: each batch runs the folded network, whose gradient gives the
// factoriser's by a sum over the buckets (add_factoriser_gradient()), so that a position costs
// what it costs without a factoriser. With king buckets each thread visits its part of a
// batch grouped by the positions' pairs of king views (stably, so the run stays a function of
// its inputs): consecutive positions then touch the same blocks of rows, which keeps them in
// the cache (ungrouped, the first layer's kernels ran about 1.5 times as long as with one
// bucket at H = 256). After the `epochs` epochs come `tune_epochs` at `tune_lr`
// with the output weights rounded to their quantised values and frozen, so that the first layer
// (whose quantisation step is four times finer) absorbs the output layer's rounding. The training
// loss of an epoch is the mean over its batches, each measured before its step (cheap, and a little
// above the loss at the epoch's end).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dataset.h"
#include "network.h"

namespace tessera::trainer {

enum class Schedule { Constant, Step, Cosine };

struct TrainOptions {
  int hidden = 128;
  int buckets = 1;  // output buckets: 1 or eval::nnue::kOutputBuckets
  KingBuckets king_buckets = eval::nnue::kSingleKingBucket;  // input king buckets
  bool factoriser = false;  // a shared first-layer block (only with more than one king bucket)
  int threads = 2;
  int batch = 16384;
  int epochs = 30;
  float lr = 0.001f;
  Schedule schedule = Schedule::Cosine;
  float final_lr = 0.00002f;  // cosine: the learning rate at the end of the last epoch
  int step_epochs = 10;       // step: epochs between two reductions
  float gamma = 0.3f;         // step: the factor of each reduction
  float weight_decay = 0.0001f;
  bool mirror = false;  // reflect positions without castling rights a-h, at random
  int tune_epochs = 2;  // epochs with the output weights quantised and frozen
  float tune_lr = 0.0001f;
  float lambda = 0.3f;   // weight of the game result in the target
  float scale = 400.0f;  // centipawns per unit of the network's output
  std::uint64_t seed = 1;
};

// AdamW: Adam with the weight decay applied to the weights directly (not to the biases). The
// update is dense: a first-layer row that no position of the batch touched still moves by its
// moments and decays, as in the dense optimiser, so sparsity changes only the gradient's cost.
struct Adam {
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float epsilon = 1e-8f;
  std::vector<float> m, v;
  std::uint64_t step = 0;

  // `frozen_output` leaves the output weights as they are (their moments too).
  void update(Network& net, const Gradient& grad, float lr, float weight_decay, bool frozen_output);
};

struct Progress {
  int epoch = 0;
  std::size_t done = 0;   // positions of this epoch so far
  std::size_t total = 0;  // positions per epoch
  double loss = 0;        // mean over this epoch's batches so far
  double positions_per_second = 0;
  double eta_seconds = 0;  // to the end of the run
  float lr = 0;
};

// The mean loss of `net` over `samples` against their blended targets.
[[nodiscard]] double mean_loss(const Network& net, const std::vector<Sample>& samples, float lambda,
                               float scale, int threads);

class Trainer {
 public:
  Trainer(const TrainOptions& options, const std::vector<Sample>& train);

  // The trained parameters, a factoriser included.
  [[nodiscard]] const Network& network() const { return net_; }
  // Starts from `given` instead of the random weights (before the first epoch; the optimiser's
  // state starts afresh). False with `error` set when its shape is not the options' shape; a
  // network with or without a factoriser fits either way (with_factoriser()), a narrower one is
  // widened (widen()) and a one-bucket one spread over the king buckets.
  [[nodiscard]] bool set_initial_network(const Network& given, std::string& error);
  [[nodiscard]] int epochs_done() const { return epoch_; }
  [[nodiscard]] const TrainOptions& options() const { return options_; }
  [[nodiscard]] int total_epochs() const { return options_.epochs + options_.tune_epochs; }
  // The schedule's learning rate at `progress` epochs from the start of the run (0 .. epochs;
  // the tuning epochs that follow use tune_lr).
  [[nodiscard]] float learning_rate(double progress) const;

  // The learning rate of the last step taken.
  [[nodiscard]] float last_learning_rate() const { return last_lr_; }
  // Runs the next epoch and returns its training loss; `report` is called after every batch.
  double run_epoch(const std::function<void(const Progress&)>& report = {});

  // The weights (a factoriser included), the optimiser's state and the epoch count. Saving
  // writes `path`.tmp and renames it, so an interrupted save leaves the previous checkpoint.
  // Loading refuses a file of another hidden size, bucket count, king-bucket layout, factoriser
  // choice, training-set size or seed, and a damaged file, with `error` set.
  [[nodiscard]] bool save_checkpoint(const std::string& path, std::string& error) const;
  [[nodiscard]] bool load_checkpoint(const std::string& path, std::string& error);

 private:
  TrainOptions options_;
  const std::vector<Sample>& train_;
  Network net_;
  Network folded_;  // fold(net_) when net_ has a factoriser: what the batches run
  Adam adam_;
  int epoch_ = 0;
  float last_lr_ = 0;
  std::vector<Gradient> grads_;  // one per thread
  std::vector<Scratch> scratch_;
  std::vector<std::uint16_t> view_keys_;  // with king buckets: each position's pair of views
};

}  // namespace tessera::trainer
