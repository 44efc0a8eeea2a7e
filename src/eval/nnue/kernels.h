// The arithmetic of the network's hot loops, once per instruction set: the scalar reference,
// AVX-512 (BW), AVX2, SSE2 and NEON. Internal to eval/nnue; the compiler's target macros choose
// BestKernel, and TESSERA_NNUE_SCALAR (CMake TESSERA_SIMD=scalar) forces the reference.
//
// Every kernel computes the same integers. Accumulator lanes are int16 and wrap on overflow
// (modular arithmetic, so the order of additions never matters); the output sum is exact in
// int32 within each block of kOutputSumBlock lanes and in int64 across blocks (architecture.h
// bounds it). So the kernels agree bit for bit, which the tests check.
//
// A kernel is a class template over the first-layer width H (one of kHiddenSizes), so that
// every loop's trip count is a constant; its static members:
//   accumulate(src, dst, adds, na, subs, ns)
//                                        dst = src + adds[0..na) - subs[0..ns)  (any counts)
//   update<A, S>(src, dst, adds, subs)   dst = src + adds... - subs...
//   screlu_dot(acc, weights)             sum over i of clamp(acc[i], 0, QA)^2 * weights[i]
// over H lanes; every pointer is 64-byte aligned, and dst may equal src.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "eval/nnue/architecture.h"

#if !defined(TESSERA_NNUE_SCALAR) && \
    (defined(__AVX512BW__) || defined(__AVX2__) || defined(__SSE2__))
#include <immintrin.h>
#elif !defined(TESSERA_NNUE_SCALAR) && defined(__ARM_NEON) && defined(__aarch64__)
#include <arm_neon.h>
#endif

namespace tessera::eval::nnue::kernels {

using Row = const std::int16_t*;

// The number of registers a kernel keeps live at once out of `regs` for one half: the largest
// divisor of `regs` up to 16 (every x86 and NEON register file has at least 16), so that a wide
// half is accumulated in equal tiles instead of spilling.
[[nodiscard]] constexpr int tile_registers(int regs) {
  int tile = regs < 16 ? regs : 16;
  while (regs % tile != 0) --tile;
  return tile;
}
static_assert(tile_registers(8) == 8 && tile_registers(24) == 12 && tile_registers(64) == 16);

template <int H>
struct ScalarKernel {
  static_assert(supported_hidden(H));
  static constexpr const char* kName = "scalar";

  static void accumulate(Row src, std::int16_t* dst, const Row* adds, int na, const Row* subs,
                         int ns) {
    std::array<std::int16_t, H> acc;
    std::copy(src, src + H, acc.begin());
    for (int r = 0; r < na; ++r)
      for (int i = 0; i < H; ++i)
        acc[std::size_t(i)] = std::int16_t(acc[std::size_t(i)] + adds[r][i]);  // modular
    for (int r = 0; r < ns; ++r)
      for (int i = 0; i < H; ++i)
        acc[std::size_t(i)] = std::int16_t(acc[std::size_t(i)] - subs[r][i]);
    std::copy(acc.begin(), acc.end(), dst);
  }

  template <std::size_t A, std::size_t S>
  static void update(Row src, std::int16_t* dst, const std::array<Row, A>& adds,
                     const std::array<Row, S>& subs) {
    for (int i = 0; i < H; ++i) {
      int v = src[i];
      for (const Row r : adds) v += r[i];
      for (const Row r : subs) v -= r[i];
      dst[i] = std::int16_t(v);
    }
  }

  // In int64 throughout: exact in any order, so equal to the SIMD kernels' blockwise sums.
  [[nodiscard]] static std::int64_t screlu_dot(Row acc, Row weights) {
    std::int64_t sum = 0;
    for (int i = 0; i < H; ++i) {
      const int c = std::clamp(int(acc[i]), 0, kQA);
      sum += std::int32_t(std::int16_t(c * weights[i]) * c);
    }
    return sum;
  }
};

#if !defined(TESSERA_NNUE_SCALAR) && \
    (defined(__AVX512BW__) || defined(__AVX2__) || defined(__SSE2__))

// AVX-512, AVX2 and SSE2 (every x86-64 CPU: the portable build) differ only in register width:
// one template over a small traits class.
#if defined(__AVX512BW__)
struct X86Vec {
  static constexpr const char* kName = "avx512";
  using V = __m512i;
  static constexpr int kLanes = 32;
  static V load(const std::int16_t* p) { return _mm512_load_si512(p); }
  static void store(std::int16_t* p, V v) { _mm512_store_si512(p, v); }
  static V add16(V a, V b) { return _mm512_add_epi16(a, b); }
  static V sub16(V a, V b) { return _mm512_sub_epi16(a, b); }
  static V clamp16(V v) {
    return _mm512_min_epi16(_mm512_max_epi16(v, _mm512_setzero_si512()),
                            _mm512_set1_epi16(std::int16_t(kQA)));
  }
  static V mullo16(V a, V b) { return _mm512_mullo_epi16(a, b); }
  static V madd(V a, V b) { return _mm512_madd_epi16(a, b); }
  static V add32(V a, V b) { return _mm512_add_epi32(a, b); }
  static V zero() { return _mm512_setzero_si512(); }
  static std::int32_t hsum32(V v) {
    // Zero-masking extracts: the plain ones (and the cast) trip GCC 12's -Wuninitialized.
    const __m256i h = _mm256_add_epi32(_mm512_maskz_extracti64x4_epi64(0xff, v, 0),
                                       _mm512_maskz_extracti64x4_epi64(0xff, v, 1));
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
  }
};
#elif defined(__AVX2__)
struct X86Vec {
  static constexpr const char* kName = "avx2";
  using V = __m256i;
  static constexpr int kLanes = 16;
  static V load(const std::int16_t* p) { return _mm256_load_si256(reinterpret_cast<const V*>(p)); }
  static void store(std::int16_t* p, V v) { _mm256_store_si256(reinterpret_cast<V*>(p), v); }
  static V add16(V a, V b) { return _mm256_add_epi16(a, b); }
  static V sub16(V a, V b) { return _mm256_sub_epi16(a, b); }
  static V clamp16(V v) {
    return _mm256_min_epi16(_mm256_max_epi16(v, _mm256_setzero_si256()),
                            _mm256_set1_epi16(std::int16_t(kQA)));
  }
  static V mullo16(V a, V b) { return _mm256_mullo_epi16(a, b); }
  static V madd(V a, V b) { return _mm256_madd_epi16(a, b); }
  static V add32(V a, V b) { return _mm256_add_epi32(a, b); }
  static V zero() { return _mm256_setzero_si256(); }
  static std::int32_t hsum32(V v) {
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
  }
};
#else
struct X86Vec {
  static constexpr const char* kName = "sse2";
  using V = __m128i;
  static constexpr int kLanes = 8;
  static V load(const std::int16_t* p) { return _mm_load_si128(reinterpret_cast<const V*>(p)); }
  static void store(std::int16_t* p, V v) { _mm_store_si128(reinterpret_cast<V*>(p), v); }
  static V add16(V a, V b) { return _mm_add_epi16(a, b); }
  static V sub16(V a, V b) { return _mm_sub_epi16(a, b); }
  static V clamp16(V v) {
    return _mm_min_epi16(_mm_max_epi16(v, _mm_setzero_si128()), _mm_set1_epi16(std::int16_t(kQA)));
  }
  static V mullo16(V a, V b) { return _mm_mullo_epi16(a, b); }
  static V madd(V a, V b) { return _mm_madd_epi16(a, b); }
  static V add32(V a, V b) { return _mm_add_epi32(a, b); }
  static V zero() { return _mm_setzero_si128(); }
  static std::int32_t hsum32(V v) {
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0x4e));
    v = _mm_add_epi32(v, _mm_shuffle_epi32(v, 0xb1));
    return _mm_cvtsi128_si32(v);
  }
};
#endif

template <class T, int H>
struct X86Kernel {
  static_assert(supported_hidden(H));
  static constexpr const char* kName = T::kName;
  using V = typename T::V;
  static constexpr int kRegs = H / T::kLanes;
  static_assert(H % T::kLanes == 0);
  // A tile of the half stays in registers while the rows are added: the whole half up to 16
  // registers (H = 128 on every instruction set: one tile, as before the widths were added).
  static constexpr int kTile = tile_registers(kRegs);

  static void accumulate(Row src, std::int16_t* dst, const Row* adds, int na, const Row* subs,
                         int ns) {
    for (int t = 0; t < kRegs; t += kTile) {
      const int o = t * T::kLanes;
      V acc[kTile];
      for (int k = 0; k < kTile; ++k) acc[k] = T::load(src + o + k * T::kLanes);
      for (int r = 0; r < na; ++r)
        for (int k = 0; k < kTile; ++k)
          acc[k] = T::add16(acc[k], T::load(adds[r] + o + k * T::kLanes));
      for (int r = 0; r < ns; ++r)
        for (int k = 0; k < kTile; ++k)
          acc[k] = T::sub16(acc[k], T::load(subs[r] + o + k * T::kLanes));
      for (int k = 0; k < kTile; ++k) T::store(dst + o + k * T::kLanes, acc[k]);
    }
  }

  template <std::size_t A, std::size_t S>
  static void update(Row src, std::int16_t* dst, const std::array<Row, A>& adds,
                     const std::array<Row, S>& subs) {
    for (int k = 0; k < kRegs; ++k) {
      const int o = k * T::kLanes;
      V v = T::load(src + o);
      for (const Row r : adds) v = T::add16(v, T::load(r + o));
      for (const Row r : subs) v = T::sub16(v, T::load(r + o));
      T::store(dst + o, v);
    }
  }

  [[nodiscard]] static std::int64_t screlu_dot(Row acc, Row weights) {
    // One int32 sum per block of kOutputSumBlock lanes (exact, architecture.h), added in int64.
    constexpr int kBlockRegs = std::min(H, kOutputSumBlock) / T::kLanes;
    std::int64_t total = 0;
    for (int b = 0; b < kRegs; b += kBlockRegs) {
      V sum = T::zero();
      const int end = std::min(b + kBlockRegs, kRegs);  // 384: a block of 256, one of 128
      for (int k = b; k < end; ++k) {
        const int o = k * T::kLanes;
        const V c = T::clamp16(T::load(acc + o));
        // c * w fits an int16 (|w| <= kMaxOutputWeight); madd then widens (c*w)*c into int32.
        sum = T::add32(sum, T::madd(T::mullo16(c, T::load(weights + o)), c));
      }
      total += T::hsum32(sum);
    }
    return total;
  }
};

template <int H>
using BestKernel = X86Kernel<X86Vec, H>;

#elif !defined(TESSERA_NNUE_SCALAR) && defined(__ARM_NEON) && defined(__aarch64__)

template <int H>
struct NeonKernel {
  static_assert(supported_hidden(H));
  static constexpr const char* kName = "neon";
  static constexpr int kLanes = 8;
  static constexpr int kRegs = H / kLanes;
  static_assert(H % kLanes == 0);
  static constexpr int kTile = tile_registers(kRegs);  // as X86Kernel

  static void accumulate(Row src, std::int16_t* dst, const Row* adds, int na, const Row* subs,
                         int ns) {
    for (int t = 0; t < kRegs; t += kTile) {
      const int o = t * kLanes;
      int16x8_t acc[kTile];
      for (int k = 0; k < kTile; ++k) acc[k] = vld1q_s16(src + o + k * kLanes);
      for (int r = 0; r < na; ++r)
        for (int k = 0; k < kTile; ++k)
          acc[k] = vaddq_s16(acc[k], vld1q_s16(adds[r] + o + k * kLanes));
      for (int r = 0; r < ns; ++r)
        for (int k = 0; k < kTile; ++k)
          acc[k] = vsubq_s16(acc[k], vld1q_s16(subs[r] + o + k * kLanes));
      for (int k = 0; k < kTile; ++k) vst1q_s16(dst + o + k * kLanes, acc[k]);
    }
  }

  template <std::size_t A, std::size_t S>
  static void update(Row src, std::int16_t* dst, const std::array<Row, A>& adds,
                     const std::array<Row, S>& subs) {
    for (int k = 0; k < kRegs; ++k) {
      const int o = k * kLanes;
      int16x8_t v = vld1q_s16(src + o);
      for (const Row r : adds) v = vaddq_s16(v, vld1q_s16(r + o));
      for (const Row r : subs) v = vsubq_s16(v, vld1q_s16(r + o));
      vst1q_s16(dst + o, v);
    }
  }

  [[nodiscard]] static std::int64_t screlu_dot(Row acc, Row weights) {
    const int16x8_t zero = vdupq_n_s16(0);
    const int16x8_t qa = vdupq_n_s16(std::int16_t(kQA));
    // One int32 sum per block of kOutputSumBlock lanes (exact, architecture.h), added in int64.
    constexpr int kBlockRegs = std::min(H, kOutputSumBlock) / kLanes;
    std::int64_t total = 0;
    for (int b = 0; b < kRegs; b += kBlockRegs) {
      int32x4_t sum = vdupq_n_s32(0);
      const int end = std::min(b + kBlockRegs, kRegs);  // 384: a block of 256, one of 128
      for (int k = b; k < end; ++k) {
        const int o = k * kLanes;
        const int16x8_t c = vminq_s16(vmaxq_s16(vld1q_s16(acc + o), zero), qa);
        const int16x8_t cw = vmulq_s16(c, vld1q_s16(weights + o));
        sum = vmlal_s16(sum, vget_low_s16(cw), vget_low_s16(c));
        sum = vmlal_high_s16(sum, cw, c);
      }
      total += vaddvq_s32(sum);
    }
    return total;
  }
};

template <int H>
using BestKernel = NeonKernel<H>;

#else

template <int H>
using BestKernel = ScalarKernel<H>;

#endif

}  // namespace tessera::eval::nnue::kernels
