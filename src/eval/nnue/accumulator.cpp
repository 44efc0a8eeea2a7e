// The accumulator functions, written once over a kernel (kernels.h) and instantiated for the
// build's best kernel and for the scalar reference.
#include "eval/nnue/accumulator.h"

#include <algorithm>

#include "core/bitboard.h"
#include "eval/nnue/kernels.h"

namespace tessera::eval::nnue {

namespace {

using kernels::Row;

[[nodiscard]] Row row(const Network& net, Color perspective, PieceSquare ps) {
  return net.row(feature_index(perspective, ps.piece, ps.square));
}

template <class K>
struct Ops {
  static void refresh(const Network& net, const Position& pos, Accumulator& acc) {
    acc.pieces = popcount(pos.pieces());
    for (const Color p : {WHITE, BLACK}) {
      // Rows go in 32 at a time: all of them at once in any legal position.
      Row src = net.weights().ft_bias.data();
      Bitboard b = pos.pieces();
      do {
        std::array<Row, 32> rows{};
        int n = 0;
        for (; b && n < int(rows.size()); ++n) {
          const Square s = pop_lsb(b);
          rows[std::size_t(n)] = row(net, p, {pos.piece_on(s), s});
        }
        K::accumulate(src, acc.values[p].data(), rows.data(), n);
        src = acc.values[p].data();
      } while (b);
    }
  }

  template <std::size_t A, std::size_t S>
  static void apply(const Network& net, const Accumulator& parent, Accumulator& child,
                    const std::array<PieceSquare, A>& adds,
                    const std::array<PieceSquare, S>& subs) {
    child.pieces = parent.pieces + int(A) - int(S);
    for (const Color p : {WHITE, BLACK}) {
      std::array<Row, A> add_rows{};
      std::array<Row, S> sub_rows{};
      for (std::size_t i = 0; i < A; ++i) add_rows[i] = row(net, p, adds[i]);
      for (std::size_t i = 0; i < S; ++i) sub_rows[i] = row(net, p, subs[i]);
      K::update(parent.values[p].data(), child.values[p].data(), add_rows, sub_rows);
    }
  }

  [[nodiscard]] static int evaluate(const Network& net, const Accumulator& acc, Color stm) {
    const NetworkWeights& w = net.weights();
    const auto bucket = std::size_t(output_bucket(acc.pieces));
    const std::int16_t* out = w.out_weights.data() + bucket * 2 * kHidden;
    const std::int64_t sum = std::int64_t(K::screlu_dot(acc.values[stm].data(), out)) +
                             K::screlu_dot(acc.values[~stm].data(), out + kHidden);
    // sum is in units of QA^2 * QB; one QA off it, the bias (QA * QB) on, then to centipawns.
    const std::int64_t value = std::int64_t(sum / kQA) + w.out_bias[bucket];
    const std::int64_t cp = value * w.scale / (kQA * kQB);
    return int(std::clamp<std::int64_t>(cp, -kMaxEvalCp, kMaxEvalCp));
  }
};

}  // namespace

// Each namespace forwards to Ops over its kernel.
#define TESSERA_NNUE_DEFINE_API(KERNEL)                                                            \
  void refresh(const Network& net, const Position& pos, Accumulator& acc) {                        \
    Ops<KERNEL>::refresh(net, pos, acc);                                                           \
  }                                                                                                \
  void add_piece(const Network& net, Accumulator& acc, PieceSquare add) {                          \
    Ops<KERNEL>::apply<1, 0>(net, acc, acc, {{add}}, {});                                          \
  }                                                                                                \
  void remove_piece(const Network& net, Accumulator& acc, PieceSquare sub) {                       \
    Ops<KERNEL>::apply<0, 1>(net, acc, acc, {}, {{sub}});                                          \
  }                                                                                                \
  void add_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add, \
               PieceSquare sub) {                                                                  \
    Ops<KERNEL>::apply<1, 1>(net, parent, child, {{add}}, {{sub}});                                \
  }                                                                                                \
  void add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,              \
                   PieceSquare add, PieceSquare sub1, PieceSquare sub2) {                          \
    Ops<KERNEL>::apply<1, 2>(net, parent, child, {{add}}, {{sub1, sub2}});                         \
  }                                                                                                \
  void add_add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,          \
                       PieceSquare add1, PieceSquare add2, PieceSquare sub1, PieceSquare sub2) {   \
    Ops<KERNEL>::apply<2, 2>(net, parent, child, {{add1, add2}}, {{sub1, sub2}});                  \
  }                                                                                                \
  int evaluate(const Network& net, const Accumulator& acc, Color side_to_move) {                   \
    return Ops<KERNEL>::evaluate(net, acc, side_to_move);                                          \
  }

TESSERA_NNUE_DEFINE_API(kernels::BestKernel)

std::string_view simd_kernel_name() { return kernels::BestKernel::kName; }

namespace scalar {
TESSERA_NNUE_DEFINE_API(kernels::ScalarKernel)
}  // namespace scalar

#undef TESSERA_NNUE_DEFINE_API

}  // namespace tessera::eval::nnue
