#include "app/commands.hpp"

#include "app/json_values.hpp"
#include "lib/expr.hpp"

namespace cutevis {

Output run_eval(const EvalOptions& options) {
  Value v = evaluate_expression(options.expression);
  Output out;
  out.bytes = options.json ? value_to_json(v).dump() + "\n" : v.to_string() + "\n";
  return out;
}

}  // namespace cutevis
