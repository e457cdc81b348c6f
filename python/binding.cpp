// cutevis — the Python extension module `cutevis._cutevis` (pybind11).  It calls the same
// functions as the CLI (app/commands.hpp, app/sources.hpp, app/inspect.hpp), so a value's
// text, JSON and pictures are the CLI's for the same value; the Python package
// (python/cutevis/) adds the Pythonic surface and the CuTeDSL runner (cutevis.dsl).
//
//   _cutevis.eval(text, from_files, defines)  -> Value        (cutevis eval / --from / -D)
//   _cutevis.call(name, args, kwargs)         -> Value        (any registered builtin, e.g.
//                                                              "cute.make_layout", with values)
//   Value.text() / json_text() / picture(fmt) (eval, eval --json, layout|mma|copy --svg|--html|--txt)
//   _cutevis.analyze_json(copy, src, dst)     -> str          (copy --analyze --json)
//   _cutevis.owners(value, operand, row, col) -> [(t, v)]     (the ownership views of --json)
//
// Values reach the engine by name: while a call runs, `__cutevis_argN` in its expressions is the
// N-th value handed over (a resolver of the default registry), so every builtin and every
// text-taking CLI function (--src/--dst) takes Python-side values unchanged.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "app/atom_json.hpp"
#include "app/commands.hpp"
#include "app/diagnostics.hpp"
#include "app/inspect.hpp"
#include "app/sources.hpp"
#include "atoms/copy_names.hpp"
#include "atoms/mma_names.hpp"
#include "atoms/tiled_copy.hpp"
#include "atoms/tiled_mma.hpp"
#include "lib/lang/environment.hpp"

namespace py = pybind11;

namespace cutevis {
namespace {

constexpr const char* kArgPrefix = "__cutevis_arg";

constexpr size_t kFastArgs = 16;

// The values of the call in progress (the GIL serialises calls).
std::vector<Value>* g_bound = nullptr;

struct BoundScope {  // hands `values` to the resolver for one call
  std::vector<Value> values;
  std::vector<Value>* saved;
  BoundScope() : saved(g_bound) { g_bound = &values; }
  ~BoundScope() { g_bound = saved; }
  BoundScope(const BoundScope&) = delete;
  BoundScope& operator=(const BoundScope&) = delete;
  std::string bind(const Value& v) {
    values.push_back(v);
    return kArgPrefix + std::to_string(values.size() - 1);
  }
};

void register_value_resolver() {
  static bool done = false;
  if (done) return;
  done = true;
  register_catalogue_names();
  // The first values by builtins of their own (a registry lookup, before every resolver); more by the resolver.
  for (size_t i = 0; i < kFastArgs; ++i)
    default_registry().add(kArgPrefix + std::to_string(i), [i](Evaluator& ev, const Node& n) -> Value {
      if (!g_bound || i >= g_bound->size()) ev.fail(n, "unknown name '" + n.name + "'");
      return (*g_bound)[i];
    });
  default_registry().add_resolver([](Evaluator&, const Node& n, Value& out) {
    if (!g_bound || n.call != Node::Call::kNone || n.has_template_args || n.name.rfind(kArgPrefix, 0) != 0)
      return false;
    const std::string digits = n.name.substr(std::strlen(kArgPrefix));
    if (digits.empty() || digits.size() > 6 || digits.find_first_not_of("0123456789") != std::string::npos)
      return false;
    const size_t i = std::stoul(digits);
    if (i >= g_bound->size()) return false;
    out = (*g_bound)[i];
    return true;
  });
}

py::object& error_type() {
  static py::object t;
  return t;
}

// cutevis.Error (a ValueError) with the CLI's one-line message; `position` (into `source`, or
// None) and `detail` (what the CLI prints on stderr: the message, the text and a caret).
[[noreturn]] void raise_error(const Error& e, const std::string& source) {
  py::object exc = error_type()(std::string(e.what()));
  exc.attr("position") = e.has_position() ? py::object(py::int_(e.position())) : py::none();
  std::string detail = describe_error(e, source);
  exc.attr("detail") = detail;
  PyErr_SetObject(error_type().ptr(), exc.ptr());
  throw py::error_already_set();
}

template <class F>
auto guarded(const std::string& source, F&& f) {
  try {
    return f();
  } catch (const Error& e) {
    raise_error(e, source);
  }
}

struct PyValue {
  Value value;
};

// A Python argument as an expression node: ints, bools, None, tuples/lists of them literally
// (Python ints are static, as in CuTeDSL); a Value, or an object with `_cutevis_value`, by name.
Node to_node(const py::handle& h, BoundScope& scope) {
  Node n;
  if (h.is_none()) {
    n.kind = Node::Kind::kUnderscore;
    n.name = "None";
  } else if (py::isinstance<py::bool_>(h)) {
    n.kind = Node::Kind::kName;
    n.name = h.cast<bool>() ? "True" : "False";
  } else if (py::isinstance<py::int_>(h)) {
    n.kind = Node::Kind::kNumber;
    n.value = h.cast<int64_t>();
  } else if (py::isinstance<py::tuple>(h) || py::isinstance<py::list>(h)) {
    n.kind = Node::Kind::kTuple;
    for (const py::handle& e : h) n.children.push_back(to_node(e, scope));
  } else if (py::isinstance<PyValue>(h)) {
    n.kind = Node::Kind::kName;
    n.name = scope.bind(h.cast<const PyValue&>().value);
  } else if (py::hasattr(h, "_cutevis_value")) {
    return to_node(h.attr("_cutevis_value"), scope);
  } else if (py::isinstance<py::float_>(h) &&
             h.cast<double>() == static_cast<double>(static_cast<int64_t>(h.cast<double>()))) {
    n.kind = Node::Kind::kNumber;  // 2.0: an integral float
    n.value = static_cast<int64_t>(h.cast<double>());
  } else {
    throw Error("cannot pass a Python " + std::string(py::str(py::type::of(h).attr("__name__"))) + " to cutevis (" +
                std::string(py::repr(h)).substr(0, 80) + ")");
  }
  return n;
}

Value call_builtin(const std::string& name, const py::args& args, const py::kwargs& kwargs) {
  BoundScope scope;
  Node n;
  n.kind = Node::Kind::kName;
  n.name = name;
  n.call = Node::Call::kParen;
  for (const py::handle& a : args) n.args.push_back(to_node(a, scope));
  for (const auto& [k, v] : kwargs) {
    const std::string key = py::cast<std::string>(k);
    if (key == "_template") {  // C++ template arguments: make_tma_atom_A_sm100<half_t>(...)
      n.has_template_args = true;
      if (py::isinstance<py::tuple>(v))
        for (const py::handle& t : v) n.template_args.push_back(to_node(t, scope));
      else n.template_args.push_back(to_node(v, scope));
      continue;
    }
    n.args.push_back(to_node(v, scope));
    n.args.back().keyword = key;
  }
  Evaluator ev(default_registry());
  return guarded(name, [&] { return ev.eval(n); });
}

// The value called with a coordinate (CuTe's layout(coord)), as "x(coord...)".
Value call_value(const Value& callee, const py::args& args) {
  BoundScope scope;
  Node c;
  c.kind = Node::Kind::kName;
  c.name = scope.bind(callee);
  Node n;
  n.kind = Node::Kind::kName;
  n.name = "operator()";
  n.call = Node::Call::kParen;
  n.children.push_back(c);
  for (const py::handle& a : args) n.args.push_back(to_node(a, scope));
  Evaluator ev(default_registry());
  return guarded("", [&] { return ev.eval(n); });
}

std::shared_ptr<Environment> environment(const std::vector<std::string>& from, const py::dict& defines) {
  SourceOptions s;
  s.from = from;
  for (const auto& [k, v] : defines) s.defines.push_back(py::cast<std::string>(k) + "=" + std::string(py::str(v)));
  return guarded("", [&] { return load_sources(s); });
}

Value eval_text(const std::string& text, const std::vector<std::string>& from, const py::dict& defines,
                const std::string& syntax) {
  std::shared_ptr<Environment> env = from.empty() && defines.empty() ? nullptr : environment(from, defines);
  Syntax s = syntax == "dsl" ? Syntax::kDsl : syntax == "cpp" ? Syntax::kCpp : Syntax::kAuto;
  std::vector<Warning> warnings;
  Value v = guarded(text, [&] { return evaluate_source(text, env.get(), s, &warnings); });
  for (const Warning& w : warnings) PyErr_WarnEx(PyExc_UserWarning, w.message.c_str(), 1);
  return v;
}

std::string strip(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

// `layout|mma|copy --FORMAT` for the value, by its kind.
py::object picture(const Value& v, const std::string& format, const std::string& title, const std::string& color_by,
                   int element_bits, const std::string& threads) {
  ShowOptions o;
  o.input = title;
  o.picture.color_by = color_by;
  o.picture.bank_element_bits = element_bits;
  o.picture.threads = threads;
  o.picture.format = guarded("", [&] { return parse_format(format); });
  Output out = guarded(title, [&] {
    if (as_tiled_mma(v) || as_mma_atom(v)) return show_mma_value(v, o);
    if (as_tiled_copy(v) || as_copy_atom(v)) return show_copy_value(v, o);
    return show_layout_value(v, o);
  });
  if (out.binary) return py::bytes(out.bytes);
  return py::str(out.bytes);
}

std::string analyze_json(const Value& copy, const py::object& src, const py::object& dst, bool addresses) {
  const TiledCopy* c = as_tiled_copy(copy);
  if (!c) raise_error(Error("analyze needs a TiledCopy, got " + copy.describe()), "");
  BoundScope scope;
  auto tensor = [&](const py::object& t) -> std::string {
    if (t.is_none()) return "";
    if (py::isinstance<py::str>(t)) return t.cast<std::string>();
    if (py::isinstance<py::tuple>(t) && py::len(t) == 2 &&
        py::isinstance<py::str>(py::reinterpret_borrow<py::tuple>(t)[0])) {  // ("smem", layout)
      Node n = to_node(py::reinterpret_borrow<py::tuple>(t)[1], scope);
      return py::reinterpret_borrow<py::tuple>(t)[0].cast<std::string>() + ":" + n.name;
    }
    Node n = to_node(t, scope);
    if (n.kind != Node::Kind::kName) raise_error(Error("a tensor is a layout (a cutevis Value) or its text"), "");
    return n.name;
  };
  InspectOptions io;
  io.src = tensor(src);
  io.dst = tensor(dst);
  io.analyze = true;
  io.addresses = addresses;
  ShowOptions show;
  show.json = true;
  show.inspect = &io;
  return strip(guarded(io.src + " " + io.dst, [&] { return run_copy_inspection(*c, show, io); }).bytes);
}

std::vector<std::pair<int64_t, int64_t>> owners(const Value& v, const std::string& operand, int64_t row, int64_t col) {
  return guarded("", [&] {
    OwnershipView view;
    if (const TiledMma* m = as_tiled_mma(v)) {
      if (operand == "A") view = owners_a(*m);
      else if (operand == "B") view = owners_b(*m);
      else if (operand == "C") view = owners_c(*m);
      else throw Error("a TiledMMA's cells are A(m,k), B(n,k) or C(m,n), got " + operand);
    } else if (const TiledCopy* c = as_tiled_copy(v)) {
      if (operand == "S") view = owners_s(*c);
      else if (operand == "D") view = owners_d(*c);
      else throw Error("a TiledCopy's cells are S(m,n) or D(m,n), got " + operand);
    } else {
      throw Error("who: a TiledMMA or a TiledCopy, got " + v.describe());
    }
    if (row < 0 || col < 0 || row >= view.rows() || col >= view.cols())
      throw Error(operand + "(" + std::to_string(row) + "," + std::to_string(col) + ") is outside the tile " +
                  std::to_string(view.rows()) + "x" + std::to_string(view.cols()));
    std::vector<std::pair<int64_t, int64_t>> out;
    for (const Owner& o : view.owners(row, col)) out.emplace_back(o.thr, o.val);
    return out;
  });
}

// A static integer is a Python int, a tuple of them a tuple, a bool a bool, `_` None; anything
// else stays a Value (what CuTeDSL's Python sees from cute.size, cute.shape, ...).
py::object unwrap(const Value& v) {
  switch (v.kind()) {
    case Value::Kind::kInt:
      if (!v.leaf().is_integer()) break;
      return py::int_(v.as_int());
    case Value::Kind::kBool: return py::bool_(v.as_bool());
    case Value::Kind::kUnderscore: return py::none();
    case Value::Kind::kTuple: {
      py::tuple t(v.elements().size());
      for (size_t i = 0; i < v.elements().size(); ++i) t[i] = unwrap(v.elements()[i]);
      return t;
    }
    default: break;
  }
  return py::cast(PyValue{v});
}

}  // namespace
}  // namespace cutevis

PYBIND11_MODULE(_cutevis, m) {
  using namespace cutevis;
  m.doc() = "cutevis's engine (the package cutevis wraps it)";
  register_value_resolver();
  error_type() = py::reinterpret_borrow<py::object>(PyExc_ValueError);  // until set_error_type
  m.def("set_error_type", [](py::object t) { error_type() = std::move(t); });

  py::class_<PyValue>(m, "Value")
      .def_property_readonly("kind", [](const PyValue& v) { return v.value.kind_name(); })
      .def("text", [](const PyValue& v) { return strip(eval_output(v.value, false).bytes); })
      .def("json_text",
           [](const PyValue& v) { return strip(guarded("", [&] { return eval_output(v.value, true); }).bytes); })
      .def("cute_text", [](const PyValue& v) { return v.value.to_cute_string(); })
      .def("describe", [](const PyValue& v) { return v.value.describe(); })
      .def("has_dynamic", [](const PyValue& v) { return v.value.has_dynamic(); })
      .def(
          "picture",
          [](const PyValue& v, const std::string& format, const std::string& title, const std::string& color_by,
             int element_bits,
             const std::string& threads) { return picture(v.value, format, title, color_by, element_bits, threads); },
          py::arg("format"), py::arg("title") = "", py::arg("color_by") = "auto", py::arg("element_bits") = 16,
          py::arg("threads") = "")
      .def("call", [](const PyValue& v, const py::args& a) { return PyValue{call_value(v.value, a)}; })
      .def("unwrap", [](const PyValue& v) { return unwrap(v.value); });

  m.def(
      "eval",
      [](const std::string& text, const std::vector<std::string>& from, const py::dict& defines,
         const std::string& syntax) { return PyValue{eval_text(text, from, defines, syntax)}; },
      py::arg("text"), py::arg("from_files") = std::vector<std::string>{}, py::arg("defines") = py::dict(),
      py::arg("syntax") = "auto");
  m.def("call", [](const std::string& name, const py::args& a, const py::kwargs& k) {
    return PyValue{call_builtin(name, a, k)};
  });
  m.def("has_builtin", [](const std::string& name) { return default_registry().find(name) != nullptr; });
  m.def("signature", [](const std::string& name) { return default_registry().signature(name); });
  m.def("unwrap", [](const PyValue& v) { return unwrap(v.value); });
  m.def(
      "analyze_json",
      [](const PyValue& copy, const py::object& src, const py::object& dst, bool addresses) {
        return analyze_json(copy.value, src, dst, addresses);
      },
      py::arg("copy"), py::arg("src") = py::none(), py::arg("dst") = py::none(), py::arg("addresses") = false);
  m.def("owners",
        [](const PyValue& v, const std::string& op, int64_t r, int64_t c) { return owners(v.value, op, r, c); });
}
