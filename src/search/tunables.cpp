#include "search/tunables.h"

#include <array>
#include <string>

namespace tessera::search::tune {

namespace {
#ifdef TESSERA_TUNE
#define TESSERA_TUNABLE_ENTRY(name, value, min, max, step) \
  Tunable{#name, value, min, max, step, &name},
#else
#define TESSERA_TUNABLE_ENTRY(name, value, min, max, step) \
  Tunable{#name, value, min, max, step, nullptr},
#endif
const std::array kTunables = {TESSERA_SEARCH_TUNABLES(TESSERA_TUNABLE_ENTRY)};
#undef TESSERA_TUNABLE_ENTRY

#define TESSERA_CHECK_TUNABLE(name, value, min, max, step) \
  static_assert((min) <= (value) && (value) <= (max) && (step) > 0, #name);
TESSERA_SEARCH_TUNABLES(TESSERA_CHECK_TUNABLE)
#undef TESSERA_CHECK_TUNABLE
}  // namespace

std::span<const Tunable> tunables() { return kTunables; }

const Tunable* find_tunable(std::string_view name) {
  for (const Tunable& t : kTunables)
    if (t.name == name) return &t;
  return nullptr;
}

std::string spsa_line(const Tunable& t) {
  const int current = t.value != nullptr ? *t.value : t.default_value;
  return std::string(t.name) + ", int, " + std::to_string(current) + ", " + std::to_string(t.min) +
         ", " + std::to_string(t.max) + ", " + std::to_string(t.step) + ", " +
         std::string(kSpsaREnd);
}

}  // namespace tessera::search::tune
