// The accumulator functions, written once over a kernel (kernels.h) and instantiated for the
// build's best kernel and for the scalar reference, each at every width of kHiddenSizes. Every
// half is computed in its king view; a rebuild through the accumulator cache adds and subtracts
// the rows of the pieces that differ from the cached board, which gives a full refresh's values
// because the lanes wrap.
//
// Width dispatch. Each public function reads the network's width once and calls the Ops of that
// width (dispatch() below), so every loop inside has a compile-time trip count and every row
// offset is a shift, as when the engine had one width. The embedded network's width is tested
// first and its code is inline; the other widths' code is called out of line, so that the
// public functions stay small enough for the search to inline. The branch is the same at every
// call of a search, so it is predicted.
#include "eval/nnue/accumulator.h"

#include <algorithm>
#include <cstring>

#include "core/bitboard.h"
#include "eval/nnue/kernels.h"

namespace tessera::eval::nnue {

namespace {

using kernels::Row;

// The accumulator functions over kernel template Kernel at width H.
template <template <int> class Kernel, int H>
struct Ops {
  using K = Kernel<H>;

  [[nodiscard]] static Row row(const Network& net, Color perspective, KingView view,
                               PieceSquare ps) {
    return net.row<H>(feature_index(perspective, view, ps.piece, ps.square));
  }
  [[nodiscard]] static std::int16_t* half(Accumulator& acc, Color p) {
    return acc.values.data() + std::ptrdiff_t(p) * H;
  }
  [[nodiscard]] static const std::int16_t* half(const Accumulator& acc, Color p) {
    return acc.values.data() + std::ptrdiff_t(p) * H;
  }

  static void refresh(const Network& net, const Position& pos, Accumulator& acc) {
    acc.pieces = popcount(pos.pieces());
    acc.hidden = H;
    for (const Color p : {WHITE, BLACK}) {
      const KingView view = net.king_view(p, pos.king_square(p));
      acc.views[p] = view;
      // Rows go in 32 at a time: all of them at once in any legal position.
      Row src = net.weights().ft_bias.data();
      Bitboard b = pos.pieces();
      do {
        std::array<Row, 32> rows{};
        int n = 0;
        for (; b && n < int(rows.size()); ++n) {
          const Square s = pop_lsb(b);
          rows[std::size_t(n)] = row(net, p, view, {pos.piece_on(s), s});
        }
        K::accumulate(src, half(acc, p), rows.data(), n, nullptr, 0);
        src = half(acc, p);
      } while (b);
    }
  }

  // Perspective p's half of `acc` through the cache: the cached half of p's king view, plus
  // the pieces `pos` has and its board lacks, minus those it has and `pos` lacks. Out of line:
  // a king move across views is rare, and apply_move() stays small enough to inline.
  [[gnu::noinline]] static void refresh_half(const Network& net, const Position& pos,
                                             Accumulator& acc, Color p, AccumulatorCache& cache) {
    const KingView view = net.king_view(p, pos.king_square(p));
    AccumulatorCache::Entry& e = cache.entry(p, view);
    std::array<Row, 32> adds{}, subs{};
    int na = 0, ns = 0;
    const auto flush = [&] {
      K::accumulate(e.values.data(), e.values.data(), adds.data(), na, subs.data(), ns);
      na = ns = 0;
    };
    for (int pc = 0; pc < kPieceCount; ++pc) {
      const Piece piece = Piece::from_index(pc);
      const Bitboard now = pos.pieces(piece.color(), piece.type());
      Bitboard& cached = e.pieces[std::size_t(pc)];
      for (Bitboard b = now & ~cached; b;) {
        if (na == int(adds.size())) flush();
        adds[std::size_t(na++)] = row(net, p, view, {piece, pop_lsb(b)});
      }
      for (Bitboard b = cached & ~now; b;) {
        if (ns == int(subs.size())) flush();
        subs[std::size_t(ns++)] = row(net, p, view, {piece, pop_lsb(b)});
      }
      cached = now;
    }
    if (na + ns > 0) flush();
    std::memcpy(half(acc, p), e.values.data(), sizeof(std::int16_t) * H);  // a fixed-size copy
    acc.views[p] = view;
  }

  static void refresh(const Network& net, const Position& pos, Accumulator& acc,
                      AccumulatorCache& cache) {
    cache.prepare(net);
    acc.pieces = popcount(pos.pieces());
    acc.hidden = H;
    for (const Color p : {WHITE, BLACK}) refresh_half(net, pos, acc, p, cache);
  }

  template <std::size_t A, std::size_t S>
  static void apply_half(const Network& net, const Accumulator& parent, Accumulator& child, Color p,
                         const std::array<PieceSquare, A>& adds,
                         const std::array<PieceSquare, S>& subs) {
    const KingView view = parent.views[p];
    std::array<Row, A> add_rows{};
    std::array<Row, S> sub_rows{};
    for (std::size_t i = 0; i < A; ++i) add_rows[i] = row(net, p, view, adds[i]);
    for (std::size_t i = 0; i < S; ++i) sub_rows[i] = row(net, p, view, subs[i]);
    K::update(half(parent, p), half(child, p), add_rows, sub_rows);
    child.views[p] = view;
  }

  template <std::size_t A, std::size_t S>
  static void apply(const Network& net, const Accumulator& parent, Accumulator& child,
                    const std::array<PieceSquare, A>& adds,
                    const std::array<PieceSquare, S>& subs) {
    child.pieces = parent.pieces + int(A) - int(S);
    child.hidden = H;
    for (const Color p : {WHITE, BLACK}) apply_half(net, parent, child, p, adds, subs);
  }

  static void apply_move(const Network& net, const Position& pos, const Accumulator& parent,
                         Accumulator& child, std::span<const PieceSquare> added,
                         std::span<const PieceSquare> removed, AccumulatorCache& cache) {
    // Only a king's own move can change its side's view: find the halves that must be rebuilt.
    std::array<bool, kColorCount> rebuild{};
    for (const PieceSquare& a : added)
      if (a.piece.type() == KING) {
        const Color c = a.piece.color();
        rebuild[c] = net.king_view(c, a.square) != parent.views[c];
      }
    if (rebuild[WHITE] || rebuild[BLACK]) cache.prepare(net);
    child.pieces = parent.pieces + int(added.size()) - int(removed.size());
    child.hidden = H;
    for (const Color p : {WHITE, BLACK}) {
      if (rebuild[p])
        refresh_half(net, pos, child, p, cache);
      else if (added.size() == 2)
        apply_half<2, 2>(net, parent, child, p, {{added[0], added[1]}}, {{removed[0], removed[1]}});
      else if (removed.size() == 2)
        apply_half<1, 2>(net, parent, child, p, {{added[0]}}, {{removed[0], removed[1]}});
      else
        apply_half<1, 1>(net, parent, child, p, {{added[0]}}, {{removed[0]}});
    }
  }

  [[nodiscard]] static int evaluate(const Network& net, const Accumulator& acc, Color stm) {
    const NetworkWeights& w = net.weights();
    const auto bucket = std::size_t(output_bucket(acc.pieces));
    const std::int16_t* out = w.out_weights.data() + bucket * 2 * H;
    const std::int64_t sum =
        K::screlu_dot(half(acc, stm), out) + K::screlu_dot(half(acc, ~stm), out + H);
    // sum is in units of QA^2 * QB; one QA off it, the bias (QA * QB) on, then to centipawns.
    const std::int64_t value = std::int64_t(sum / kQA) + w.out_bias[bucket];
    const std::int64_t cp = value * w.scale / (kQA * kQB);
    return int(std::clamp<std::int64_t>(cp, -kMaxEvalCp, kMaxEvalCp));
  }
};

// f.operator()<Ops<Kernel, H>>() for a width H other than the embedded network's, out of line:
// their code stays out of the public functions below, which then stay small enough for the
// search to inline at the embedded width (with all four widths inline they were calls, and
// bench ran slower).
template <template <int> class Kernel, class F>
[[gnu::noinline]] decltype(auto) dispatch_other(int hidden, F& f) {
  static_assert(kHiddenSizes == std::array<int, 4>{kHidden, 256, 384, 512}, "one case per width");
  switch (hidden) {
    case 256:
      return f.template operator()<Ops<Kernel, 256>>();
    case 384:
      return f.template operator()<Ops<Kernel, 384>>();
    default:  // a Network has one of kHiddenSizes
      return f.template operator()<Ops<Kernel, 512>>();
  }
}

// f.operator()<Ops<Kernel, H>>() for the network's width H: the embedded network's inline.
template <template <int> class Kernel, class F>
[[gnu::always_inline]] inline decltype(auto) dispatch(const Network& net, F&& f) {
  if (net.hidden() == kHidden) [[likely]]
    return f.template operator()<Ops<Kernel, kHidden>>();
  return dispatch_other<Kernel>(net.hidden(), f);
}

// evaluate() at a width other than the embedded network's, out of line as dispatch_other(); its
// arguments by value, so that evaluate() stays as small as it was with one width.
template <template <int> class Kernel>
[[gnu::noinline]] int evaluate_other(const Network& net, const Accumulator& acc, Color stm) {
  auto f = [&]<class O>() { return O::evaluate(net, acc, stm); };
  return dispatch_other<Kernel>(net.hidden(), f);
}

// evaluate() at the network's width. Declared inline, as Ops' members are, so that the public
// evaluate() stays a forwarder that the search inlines, and this with it (as with one width).
template <template <int> class Kernel>
inline int evaluate_at_width(const Network& net, const Accumulator& acc, Color stm) {
  if (net.hidden() == kHidden) [[likely]]
    return Ops<Kernel, kHidden>::evaluate(net, acc, stm);
  return evaluate_other<Kernel>(net, acc, stm);
}

}  // namespace

void AccumulatorCache::reset(const Network& net) {
  const auto& bias = net.weights().ft_bias;
  for (auto& by_view : entries_)
    for (auto& by_bucket : by_view)
      for (Entry& e : by_bucket) {
        std::copy_n(bias.begin(), net.hidden(), e.values.begin());
        e.pieces.fill(0);
      }
  fingerprint_ = net.fingerprint();
  ready_ = true;
}

// Each namespace forwards to Ops over its kernel at the network's width.
#define TESSERA_NNUE_DEFINE_API(KERNEL)                                                            \
  void refresh(const Network& net, const Position& pos, Accumulator& acc) {                        \
    dispatch<KERNEL>(net, [&]<class O>() { O::refresh(net, pos, acc); });                          \
  }                                                                                                \
  void refresh(const Network& net, const Position& pos, Accumulator& acc,                          \
               AccumulatorCache& cache) {                                                          \
    dispatch<KERNEL>(net, [&]<class O>() { O::refresh(net, pos, acc, cache); });                   \
  }                                                                                                \
  void apply_move(const Network& net, const Position& pos, const Accumulator& parent,              \
                  Accumulator& child, std::span<const PieceSquare> added,                          \
                  std::span<const PieceSquare> removed, AccumulatorCache& cache) {                 \
    dispatch<KERNEL>(                                                                              \
        net, [&]<class O>() { O::apply_move(net, pos, parent, child, added, removed, cache); });   \
  }                                                                                                \
  void add_piece(const Network& net, Accumulator& acc, PieceSquare add) {                          \
    dispatch<KERNEL>(net,                                                                          \
                     [&]<class O>() { O::template apply<1, 0>(net, acc, acc, {{add}}, {}); });     \
  }                                                                                                \
  void remove_piece(const Network& net, Accumulator& acc, PieceSquare sub) {                       \
    dispatch<KERNEL>(net,                                                                          \
                     [&]<class O>() { O::template apply<0, 1>(net, acc, acc, {}, {{sub}}); });     \
  }                                                                                                \
  void add_sub(const Network& net, const Accumulator& parent, Accumulator& child, PieceSquare add, \
               PieceSquare sub) {                                                                  \
    dispatch<KERNEL>(                                                                              \
        net, [&]<class O>() { O::template apply<1, 1>(net, parent, child, {{add}}, {{sub}}); });   \
  }                                                                                                \
  void add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,              \
                   PieceSquare add, PieceSquare sub1, PieceSquare sub2) {                          \
    dispatch<KERNEL>(net, [&]<class O>() {                                                         \
      O::template apply<1, 2>(net, parent, child, {{add}}, {{sub1, sub2}});                        \
    });                                                                                            \
  }                                                                                                \
  void add_add_sub_sub(const Network& net, const Accumulator& parent, Accumulator& child,          \
                       PieceSquare add1, PieceSquare add2, PieceSquare sub1, PieceSquare sub2) {   \
    dispatch<KERNEL>(net, [&]<class O>() {                                                         \
      O::template apply<2, 2>(net, parent, child, {{add1, add2}}, {{sub1, sub2}});                 \
    });                                                                                            \
  }                                                                                                \
  int evaluate(const Network& net, const Accumulator& acc, Color side_to_move) {                   \
    return evaluate_at_width<KERNEL>(net, acc, side_to_move);                                      \
  }

TESSERA_NNUE_DEFINE_API(kernels::BestKernel)

std::string_view simd_kernel_name() { return kernels::BestKernel<kHidden>::kName; }

namespace scalar {
TESSERA_NNUE_DEFINE_API(kernels::ScalarKernel)
}  // namespace scalar

#undef TESSERA_NNUE_DEFINE_API

}  // namespace tessera::eval::nnue
