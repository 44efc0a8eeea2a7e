// The quantised network: the float network rounded to the integers the engine evaluates with,
// its integer forward pass (the engine's arithmetic, for the quantised validation loss) and
// the file it is written to (format version 1 with one king bucket, 2 with several).
//
// Policy. Quantisation follows eval/nnue/architecture.h: first layer round(w * QA) in int16,
// output weights round(w * QB) within +-127, output bias round(b * QA * QB) in int32. The
// float weights are clipped during training, so rounding is the only loss here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dataset.h"
#include "eval/nnue/network_file.h"
#include "network.h"

namespace tessera::trainer {

// The engine's form of the parameters (eval/nnue/network_file.h).
using QuantisedNetwork = eval::nnue::NetworkParameters;

// The folded network (fold(): a factoriser is added to every bucket's rows before rounding, so
// the file has none) rounded; its king-bucket layout is the network's.
[[nodiscard]] QuantisedNetwork quantise(const Network& net, int scale);

// The float network that quantises back to `q` exactly: each parameter divided by its factor,
// no factoriser.
// A network file as the starting point of a run (--init), for fine-tuning.
[[nodiscard]] Network dequantise(const QuantisedNetwork& q);

// The quantised network's score of `s` in centipawns, side to move's view.
[[nodiscard]] int quantised_eval(const QuantisedNetwork& q, const Sample& s);

// The mean loss of the quantised network's scores (sigmoid(cp / scale)) against the targets.
[[nodiscard]] double quantised_loss(const QuantisedNetwork& q, const std::vector<Sample>& samples,
                                    float lambda, int threads);

// Writes the network file (eval::nnue::write_network_file); false with `error` set.
[[nodiscard]] bool write_network(const QuantisedNetwork& q, const std::string& path,
                                 std::string& error);

}  // namespace tessera::trainer
