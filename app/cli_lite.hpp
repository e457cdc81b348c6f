// The part of CLI11's interface that app/main.cpp uses, written small: the page (web/) parses
// the CLI's flags with it instead of CLI11, whose templates, streams and locale were about 60 KB
// of the page's 600 KB gzipped .wasm.  The native cutevis keeps CLI11.
//
// The same declarations in app/main.cpp build either parser (`namespace CLI = cutevis::cli_lite`
// where CUTEVIS_CLI_LITE is defined), and this one answers as CLI11 2.1 does: the same parse
// (options and their values, `--name=value`, `-Dvalue`, `--` and negative numbers as values,
// repeated or missing values), errors in CLI11's own words (app/diagnostics.cpp rewords both),
// checked in the same order, and help laid out as CLI11 lays it out.
// tests/app/cli_lite_test.cpp runs command lines through both and compares every byte.
//
// Not here: what main.cpp does not use (option groups, config files, environment variables,
// aliases, needs / excludes, windows-style options, fallthrough, callbacks).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace cutevis::cli_lite {

// Errors, as CLI11 names and words them.  A Success (--help, --version) is caught too.
class Error : public std::runtime_error {
 public:
  Error(std::string name, const std::string& message, int exit_code)
      : std::runtime_error(message), name_(std::move(name)), exit_code_(exit_code) {}
  const std::string& get_name() const { return name_; }
  int get_exit_code() const { return exit_code_; }

 private:
  std::string name_;
  int exit_code_;
};
class ParseError : public Error {
 public:
  using Error::Error;
  ParseError(const std::string& message, int exit_code) : Error("ParseError", message, exit_code) {}
};
class Success : public ParseError {
 public:
  Success(std::string name, const std::string& message) : ParseError(std::move(name), message, 0) {}
};
class CallForHelp : public Success {
 public:
  CallForHelp() : Success("CallForHelp", "This should be caught in your main function, see examples") {}
};
class CallForVersion : public Success {
 public:
  explicit CallForVersion(const std::string& version) : Success("CallForVersion", version) {}
};
class ExtrasError : public ParseError {
 public:
  explicit ExtrasError(const std::vector<std::string>& args);
};

enum class MultiOptionPolicy { Throw, TakeLast, TakeAll };

// A check of an option's text before it is converted: "" or the error.
class Validator {
 public:
  Validator(std::function<std::string(std::string&)> check, std::string description, std::string name = "")
      : check_(std::move(check)), description_(std::move(description)), name_(std::move(name)) {}
  std::string operator()(std::string& text) const { return check_(text); }
  const std::string& get_description() const { return description_; }

 private:
  std::function<std::string(std::string&)> check_;
  std::string description_, name_;
};

class App;

class Option {
 public:
  Option* required(bool value = true) {
    required_ = value;
    return this;
  }
  Option* multi_option_policy(MultiOptionPolicy policy) {
    policy_ = policy;
    return this;
  }
  // Whether one occurrence takes every value up to the next option (a list's default).
  Option* allow_extra_args(bool value = true) {
    allow_extra_args_ = value;
    return this;
  }
  Option* capture_default_str() {
    default_str_ = show_(target_);
    return this;
  }
  Option* check(Validator validator) {
    validators_.push_back(std::move(validator));
    return this;
  }
  const std::vector<std::string>& get_lnames() const { return lnames_; }
  const std::vector<std::string>& get_snames() const { return snames_; }
  std::size_t count() const { return results_.size(); }

 private:
  friend class App;
  static constexpr int kUnlimited = 1 << 29;  // CLI11's expected_max_vector_size

  bool is_flag() const { return expected_max_ == 0; }
  bool positional() const { return !pname_.empty(); }
  bool matches(const std::string& name) const;  // "--from", "-D" or a positional's name
  std::string name() const;                     // in errors: the first long name, else short, else positional
  std::string all_names() const;                // in help: "-o,--output"
  std::string type_name() const;                // "TEXT", "INT:INT" (a validator's description added)
  std::string help_line(bool as_positional) const;
  void add_result(std::string text);
  void store();  // validate, apply the policy, convert: CLI11's run_callback

  std::vector<std::string> snames_, lnames_;
  std::string pname_, description_, type_name_, default_str_;
  int expected_min_ = 1, expected_max_ = 1;
  bool required_ = false, allow_extra_args_ = false;
  MultiOptionPolicy policy_ = MultiOptionPolicy::Throw;
  std::vector<Validator> validators_;
  std::vector<std::string> results_;
  // The variable the values go to: plain function pointers, not std::function (each of those is
  // code of its own in the page's .wasm, for every option declared).
  void* target_ = nullptr;
  bool (*assign_)(void* target, const std::vector<std::string>& values) = nullptr;  // false: does not convert
  std::string (*show_)(const void* target) = nullptr;                               // its value as text
  std::string version_;  // --version's answer, thrown (CallForVersion) when it is given
};

// Conversions as CLI11 2.1 makes them (integers in any base strtoll reads, whole text consumed).
bool convert(const std::string& text, std::string& out);
bool convert(const std::string& text, bool& out);
bool convert(const std::string& text, double& out);
bool convert(const std::string& text, int64_t& out);
bool convert(const std::string& text, int& out);
bool convert(const std::string& text, unsigned& out);
bool convert(const std::string& text, std::vector<std::string>& out);  // (one value of a list)
template <class T>
const char* type_name_of() {
  if constexpr (std::is_same_v<T, std::string> || std::is_same_v<T, std::vector<std::string>>) return "TEXT";
  else if constexpr (std::is_floating_point_v<T>) return "FLOAT";
  else if constexpr (std::is_unsigned_v<T>) return "UINT";
  else return "INT";
}
std::string value_text(const std::string& v);
std::string value_text(double v);
std::string value_text(int64_t v);
std::string value_text(int v);
std::string value_text(unsigned v);
std::string value_text(const std::vector<std::string>& v);
std::string value_text(bool v);

// An option's variable, typed: the values given (the last, or all for a list) converted into it.
template <class T>
bool assign_values(void* target, const std::vector<std::string>& values) {
  T& variable = *static_cast<T*>(target);
  if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    variable = values;
    return true;
  } else if (values.empty() || values.back().empty()) {  // CLI11: an empty value is the type's default
    if (!values.empty()) variable = T{};
    return true;
  } else {
    return convert(values.back(), variable);
  }
}
template <class T>
std::string show_value(const void* target) {
  return value_text(*static_cast<const T*>(target));
}
class App {
 public:
  explicit App(std::string description = "", std::string name = "", App* parent = nullptr);
  App(const App&) = delete;
  App& operator=(const App&) = delete;

  App* description(std::string text) {
    description_ = std::move(text);
    return this;
  }
  App* footer(std::string text) {
    footer_ = std::move(text);
    return this;
  }
  App* require_subcommand(int n) {
    require_subcommand_ = n;
    return this;
  }
  App* allow_extras(bool value = true) {
    allow_extras_ = value;
    return this;
  }
  Option* set_version_flag(const char* names, const std::string& version);
  const std::string& version() const { return version_; }

  App* add_subcommand(const char* name, const char* description);

  template <class T>
  Option* add_option(const char* names, T& variable, const char* description = "") {
    Option* o = new_option(names, description, &variable, &assign_values<T>, &show_value<T>);
    o->type_name_ = type_name_of<T>();
    if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      o->expected_max_ = Option::kUnlimited;
      o->allow_extra_args_ = true;
    }
    return o;
  }
  Option* add_flag(const char* names, bool& variable, const char* description = "");

  void parse(int argc, const char* const* argv);
  void clear();
  int exit(const Error& e) const;  // prints --help's or --version's answer (stdout); its exit code
  std::string help(std::string prev = "") const;

  const std::string& get_name() const { return name_; }
  bool parsed() const { return parsed_ > 0; }
  std::size_t count(const std::string& option_name) const;
  Option* get_option(const std::string& name) const;  // a name the program declared (else std::logic_error)
  Option* get_option_no_throw(const std::string& name) const;
  std::vector<const Option*> get_options() const;
  std::vector<std::string> remaining(bool recurse = false) const;  // what no option or positional took

  // The commands parsed (CLI11: get_subcommands()), or every command that FILTER takes.
  std::vector<App*> get_subcommands() const { return parsed_subcommands_; }
  template <class F>
  std::vector<App*> get_subcommands(F filter) const {
    std::vector<App*> out;
    for (const auto& sub : subcommands_)
      if (filter(sub.get())) out.push_back(sub.get());
    return out;
  }

 private:
  struct Missing {
    std::string text;
    bool positional_mark;  // "--": kept in the list, never counted as an extra
  };
  enum class Kind { kPositionalMark, kSubcommand, kLong, kShort, kNone };

  Option* new_option(const char* names, const char* description, void* target,
                     bool (*assign)(void*, const std::vector<std::string>&), std::string (*show)(const void*));
  Kind classify(const std::string& word) const;
  bool is_command_name(const std::string& word) const;
  void parse_words(std::vector<std::string>& words);  // reversed: the next word is words.back()
  bool parse_one(std::vector<std::string>& words, bool& positional_only);
  bool parse_positional(std::vector<std::string>& words);
  bool parse_option(std::vector<std::string>& words, Kind kind);
  size_t required_positionals_left() const;
  bool positionals_left() const;
  void store_values();
  bool help_asked() const;
  void check_requirements();
  void check_extras() const;
  std::string make_help(const std::string& name) const;

  std::string name_, description_, footer_, version_;
  App* parent_;
  std::vector<std::unique_ptr<Option>> options_;
  std::vector<std::unique_ptr<App>> subcommands_;
  std::vector<App*> parsed_subcommands_;
  std::vector<Missing> missing_;
  Option* help_ = nullptr;
  int require_subcommand_ = 0;
  bool allow_extras_ = false, automatic_name_ = false;
  int parsed_ = 0;
};

}  // namespace cutevis::cli_lite
