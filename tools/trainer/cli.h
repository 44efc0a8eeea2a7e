// tessera-train: fits Tessera's evaluation network to self-play data.
//
//   tessera-train --data games.bin.zst [--data more.bin.zst] --epochs 30 --output net.tnn
//
// Reads the record files written by `tessera datagen` into feature lists (dropping positions in
// check, not quiet, before --min-ply or with a score beyond --max-score), holds out a fraction
// of the games for validation, then trains the (768 x K -> H) x 2 -> 1 network (--king-buckets
// K, factorised unless --no-factoriser) with AdamW on shuffled mini-batches, from random weights or
// from a network file's (--init). After every epoch it prints the training and validation loss and
// saves a checkpoint (--resume continues from one); at the end it quantises the network, writes it
// to --output and prints the validation loss of the float and of the quantised network.
#pragma once

namespace tessera::trainer {

// The command line: 0 on success, 1 when the data or a file fails, 2 for bad flags; errors go
// to stderr as one "error: ..." line.
[[nodiscard]] int run_cli(int argc, const char* const* argv);

}  // namespace tessera::trainer
