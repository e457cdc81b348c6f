// A user's C++ file read into an Environment, and an expression evaluated in it as CuTe prints
// it: the setup the language's tests share.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lib/lang/cpp_scanner.hpp"
#include "lib/lang/environment.hpp"
#include "lib/lang/kernel_body.hpp"
#include "lib/lang/launch_binding.hpp"

namespace cutevis::test {

// The declarations, parameters, functions and classes of `src`, read as the file k.cu.
inline std::unique_ptr<Environment> load(const std::string& src) {
  auto env = std::make_unique<Environment>();
  CppScan scan = scan_cpp(src, "k.cu");
  for (auto& d : scan.declarations) env->add(std::move(d));
  for (auto& p : scan.parameters) env->add_parameter(std::move(p));
  for (auto& f : scan.functions) env->add_function(std::move(f));
  for (auto& c : scan.classes) env->add_class(std::move(c));
  return env;
}

// `src` read as the kernel file k.cu as `cutevis names` reads it: its locals' later writes marked
// (mark_changed_locals), and each (name, text) of `defines` given as -D name=text.
inline std::unique_ptr<Environment> load_kernel(const std::string& src,
                                                const std::vector<std::pair<std::string, std::string>>& defines) {
  auto env = std::make_unique<Environment>();
  CppScan scan = scan_cpp(src, "k.cu");
  const KernelFile functions = read_kernels(src, "k.cu");
  mark_changed_locals(scan.declarations, functions, "k.cu");
  for (auto& d : scan.declarations) env->add(std::move(d));
  for (auto& p : scan.parameters) env->add_parameter(std::move(p));
  for (const auto& [name, text] : defines) {
    Declaration d;
    d.name = name;
    d.text = text;
    env->define(d);
  }
  return env;
}

// The declaration `name` resolved: its value's print, or "error: " and why it has none.
inline std::string resolved(Environment& env, const std::string& name) {
  const Declaration* d = env.find(name, "");
  if (!d) return "(no declaration) " + name;
  Value v;
  const LocatedError* e = env.resolve(*d, default_registry(), v);
  return e ? std::string("error: ") + e->what() : v.to_string();
}

inline std::string eval_in(Environment& env, const std::string& text) {
  return env.evaluate(parse_expression(text), text, default_registry()).to_cute_string();
}

// The error evaluating `text`, with its FILE:LINE when located ("(no error)" when it evaluates).
inline std::string error_of(Environment& env, const std::string& text) {
  try {
    eval_in(env, text);
  } catch (const LocatedError& e) {
    return e.spot().file + ":" + std::to_string(e.spot().line) + ": " + e.what();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace cutevis::test
