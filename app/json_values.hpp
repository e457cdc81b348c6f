// cutevis — the JSON contract of `cutevis eval --json` (documented in README.md):
// one object {"kind": "layout"|"composed_layout"|"int"|"tuple"|..., "text": <CuTe
// notation>, ...}; layouts add "size", "cosize" and "values" (the layout at every
// index 0..size-1), integers add "value".
#pragma once

#include "atoms/analysis/json.hpp"
#include "lib/lang/expr.hpp"

namespace cutevis {

// Layouts larger than this list no "values" (they say "values_omitted": true).
constexpr int64_t kMaxJsonValues = int64_t{1} << 22;
// Coordinate values (identity layouts) are arrays, ~200 bytes each in memory: fewer of
// them, so no single command needs more than ~100 MB (2^22 took 0.9 GB and 9 s).
constexpr int64_t kMaxJsonCoordinates = int64_t{1} << 18;

Json int_tuple_to_json(const IntTuple& t);
Json value_to_json(const Value& v);

}  // namespace cutevis
