// The search's and the time manager's tunable constants: every number that SPSA may change,
// declared once with its default, range and step.
//
// Policy. A normal build compiles each as an `inline constexpr int`, so the search reads
// constants exactly as before and pays nothing. A tune build (CMake TESSERA_TUNE=ON, `make
// TUNE=ON`, the `tune` preset) makes each an `inline int` instead: the UCI layer lists them as
// spin options, sets them with setoption between searches, and prints OpenBench's SPSA input
// (`spsa`). These are the program's only mutable globals, and only in that build, since being
// changed from outside is their whole purpose; the searches read them but never write them.
//
// Each entry: X(name, default, min, max, step). The step is OpenBench's c_end, the size of the
// perturbation at the end of a tuning run; a twentieth of the range or so. Fractions are in
// the unit their name says (Pct: hundredths, X10: tenths, In16: sixteenths).
#pragma once

#include <span>
#include <string>
#include <string_view>

// clang-format off
#define TESSERA_SEARCH_TUNABLES(X)                                                            \
  /* Late-move reductions: base + ln(depth) ln(moves) / divisor, and the history's share */  \
  X(LmrBasePct, 87, 0, 200, 10)                                                               \
  X(LmrDivisorPct, 218, 150, 400, 12)                                                         \
  X(LmrHistoryDivisor, 8159, 3000, 16000, 600)                                                \
  X(LmrDeeperMargin, 40, 10, 100, 5)                                                          \
  X(LmrShallowerMargin, 8, 0, 40, 2)                                                          \
  X(LmrCaptureHistoryDivisor, 3996, 1500, 12000, 400)                                         \
  /* Move order (movepick.cpp): each history's weight in its order, in hundredths */          \
  X(OrderCaptureHistoryPct, 50, 0, 150, 8)                                                    \
  X(OrderButterflyPct, 50, 0, 150, 8)                                                         \
  X(OrderContinuation4Pct, 50, 0, 150, 8)                                                     \
  /* Node pruning */                                                                          \
  X(RazorMargin, 274, 100, 500, 20)                                                           \
  X(RfpMaxDepth, 7, 4, 14, 1)                                                                 \
  X(RfpMargin, 85, 40, 160, 6)                                                                \
  X(RfpMarginImproving, 60, 20, 140, 6)                                                       \
  X(NmpBase, 4, 2, 6, 1)                                                                      \
  X(NmpDepthDivisor, 4, 2, 8, 1)                                                              \
  X(NmpEvalDivisor, 208, 80, 400, 15)                                                         \
  X(NmpVerifyDepth, 14, 8, 24, 1)                                                             \
  X(ProbcutMargin, 202, 80, 350, 12)                                                          \
  X(ProbcutImproving, 48, 0, 120, 6)                                                          \
  X(ProbcutMinDepth, 5, 3, 8, 1)                                                              \
  X(IirMinDepth, 3, 2, 8, 1)                                                                  \
  /* Move-loop pruning */                                                                     \
  X(LmpBase, 5, 1, 8, 1)                                                                      \
  X(FutCaptureBase, 195, 50, 400, 15)                                                         \
  X(FutCapturePerDepth, 149, 60, 300, 12)                                                     \
  X(SeeCaptureMargin, 95, 40, 200, 8)                                                         \
  X(SeeCaptureHistoryDivisor, 66, 16, 256, 8)                                                 \
  X(HistoryPruneMargin, 3485, 1000, 8000, 300)                                                \
  X(FutQuietBase, 98, 30, 250, 10)                                                            \
  X(FutQuietPerDepth, 106, 50, 200, 8)                                                        \
  X(SeeQuietMargin, 28, 10, 80, 4)                                                            \
  /* Extensions */                                                                            \
  X(SingularMinDepth, 9, 5, 12, 1)                                                            \
  X(SingularMarginX10, 20, 5, 50, 3)                                                          \
  X(SingularTtPvX10, 11, 0, 30, 2)                                                            \
  X(DoubleExtMargin, 22, 0, 60, 4)                                                            \
  /* Root and quiescence */                                                                   \
  X(AspirationDelta, 16, 5, 40, 2)                                                            \
  X(QsFutilityMargin, 157, 50, 300, 12)                                                       \
  /* Histories */                                                                             \
  X(HistoryBonusQuad, 17, 4, 32, 2)                                                           \
  X(HistoryBonusLinear, 33, 0, 96, 6)                                                         \
  X(HistoryBonusMax, 1591, 800, 3000, 100)                                                    \
  /* Static evaluation: the material scale (eval/material_scale.h), the corrections */        \
  X(EvalMaterialBase, 160, 40, 600, 30)                                                       \
  X(CorrPawnIn16, 8, 0, 16, 1)                                                                \
  X(CorrMaterialIn16, 4, 0, 16, 1)                                                            \
  X(CorrContinuationIn16, 4, 0, 16, 1)                                                        \
  X(CorrNonPawnIn16, 4, 0, 16, 1)                                                             \
  /* Time management (timeman.cpp) */                                                         \
  X(TmHorizon, 50, 25, 80, 3)                                                                 \
  X(TmMaxSharePct, 60, 40, 85, 3)                                                             \
  X(TmIterationStopPct, 65, 30, 100, 4)                                                       \
  X(TmStabilityBasePct, 130, 100, 170, 4)                                                     \
  X(TmStabilityStepPct, 6, 0, 15, 1)                                                          \
  X(TmStabilityFloorPct, 85, 50, 100, 3)                                                      \
  X(TmNodeSharePivotPct, 85, 60, 100, 3)                                                      \
  X(TmNodeShareSlopePct, 200, 0, 400, 20)                                                     \
  X(TmInstabilityPct, 120, 40, 250, 10)                                                       \
  X(TmFallingDivisor, 150, 50, 400, 15)
// clang-format on

namespace tessera::search::tune {

#ifdef TESSERA_TUNE
inline constexpr bool kEnabled = true;
#define TESSERA_DECLARE_TUNABLE(name, value, min, max, step) inline int name = value;
#else
inline constexpr bool kEnabled = false;
#define TESSERA_DECLARE_TUNABLE(name, value, min, max, step) inline constexpr int name = value;
#endif
TESSERA_SEARCH_TUNABLES(TESSERA_DECLARE_TUNABLE)
#undef TESSERA_DECLARE_TUNABLE

// The largest value each may take in either build, for bounds checked at compile time.
namespace max {
#define TESSERA_DECLARE_TUNABLE_MAX(name, value, min, max, step) inline constexpr int name = max;
TESSERA_SEARCH_TUNABLES(TESSERA_DECLARE_TUNABLE_MAX)
#undef TESSERA_DECLARE_TUNABLE_MAX
}  // namespace max

struct Tunable {
  std::string_view name;
  int default_value;
  int min;
  int max;
  int step;
  int* value;  // the live value in a tune build; null in a normal build
};

// Every tunable in declaration order (in either build: a normal build lists the defaults).
[[nodiscard]] std::span<const Tunable> tunables();
// Case-sensitive lookup by name (OpenBench sends the names exactly); nullptr when none.
[[nodiscard]] const Tunable* find_tunable(std::string_view name);
// OpenBench's SPSA input line: "name, int, value, min, max, c_end, r_end".
[[nodiscard]] std::string spsa_line(const Tunable& t);
// OpenBench's default r_end (the learning rate at the end of a run), as the spec writes it.
inline constexpr std::string_view kSpsaREnd = "0.002";

}  // namespace tessera::search::tune
