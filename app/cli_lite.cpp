// A small command-line parser with CLI11's interface and answers (app/cli_lite.hpp says which).
// The steps and their order are CLI11 2.1's App::_parse and App::_process: words are read one by
// one (an option takes its values, a plain word the next positional slot, anything else is kept
// as an extra), then values are checked and converted option by option, then --help, then what is
// required, then the extras.
#include "app/cli_lite.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "lib/float_text.hpp"

namespace cutevis::cli_lite {

namespace {

constexpr size_t kColumn = 30;  // CLI11's help column

// CLI11's detail::valid_first_char: what may start an option's name.
bool valid_first_char(char c) { return c != '-' && c != '!' && c != ' ' && c != '\n'; }

std::string join(const std::vector<std::string>& words, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i) out += (i ? separator : "") + words[i];
  return out;
}

// "  NAME" padded to the column, then the description (continued lines indented to the column).
std::string help_row(const std::string& name, const std::string& description) {
  std::string out = "  " + name;
  const bool too_long = out.size() >= kColumn;
  if (!too_long) out.resize(kColumn, ' ');
  if (!description.empty()) {
    if (too_long) out += "\n" + std::string(kColumn, ' ');
    for (char c : description) {
      out += c;
      if (c == '\n') out += std::string(kColumn, ' ');
    }
  }
  return out + "\n";
}

// CLI11's detail::to_flag_value: true/false, on/off, yes/no, enable/disable, a digit or a number.
bool flag_value(std::string text, int64_t& out) {
  if (text == "true") return out = 1, true;
  if (text == "false") return out = -1, true;
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text.size() == 1) {
    const char c = text[0];
    if (c >= '1' && c <= '9') return out = c - '0', true;
    if (c == '0' || c == 'f' || c == 'n' || c == '-') return out = -1, true;
    if (c == 't' || c == 'y' || c == '+') return out = 1, true;
    return false;
  }
  if (text == "on" || text == "yes" || text == "enable") return out = 1, true;
  if (text == "off" || text == "no" || text == "disable") return out = -1, true;
  // std::stoll: leading blanks and trailing text allowed, out of range is still a sign
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str()) return false;
  out = errno == ERANGE ? (text.find('-') == std::string::npos ? 1 : -1) : v;
  return true;
}

}  // namespace

ExtrasError::ExtrasError(const std::vector<std::string>& args)
    : ParseError("ExtrasError",
                 std::string(args.size() > 1 ? "The following arguments were not expected: "
                                             : "The following argument was not expected: ") +
                     join(std::vector<std::string>(args.rbegin(), args.rend()), " "),  // CLI11's rjoin
                 109) {}

bool convert(const std::string& text, std::string& out) {
  out = text;
  return true;
}
bool convert(const std::string& text, bool& out) {
  int64_t v = 0;
  if (!flag_value(text, v)) return false;
  out = v > 0;
  return true;
}
bool convert(const std::string& text, std::vector<std::string>& out) {
  out.push_back(text);
  return true;
}
bool convert(const std::string& text, double& out) {
  if (text.empty()) return false;
  return parse_double(text, out) == text.size();
}
bool convert(const std::string& text, int64_t& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 0);
  out = v;
  return end == text.c_str() + text.size();
}
bool convert(const std::string& text, int& out) {
  int64_t v = 0;
  const bool whole = convert(text, v);
  out = static_cast<int>(v);
  return whole && out == v;
}
bool convert(const std::string& text, unsigned& out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  out = static_cast<unsigned>(v);
  return end == text.c_str() + text.size() && out == v;
}

std::string value_text(const std::string& v) { return v; }
std::string value_text(double v) { return general_text(v); }  // as a default-formatted stream writes it
std::string value_text(int64_t v) { return std::to_string(v); }
std::string value_text(int v) { return std::to_string(v); }
std::string value_text(unsigned v) { return std::to_string(v); }
std::string value_text(bool v) { return v ? "true" : "false"; }
std::string value_text(const std::vector<std::string>& v) {
  return v.empty() ? "" : v.size() == 1 ? v[0] : "[" + join(v, ",") + "]";
}

// --- Option ---------------------------------------------------------------------------------

bool Option::matches(const std::string& name) const {
  if (name.size() > 2 && name.compare(0, 2, "--") == 0)
    return std::find(lnames_.begin(), lnames_.end(), name.substr(2)) != lnames_.end();
  if (name.size() > 1 && name[0] == '-')
    return std::find(snames_.begin(), snames_.end(), name.substr(1)) != snames_.end();
  return !pname_.empty() && name == pname_;
}

std::string Option::name() const {
  if (!lnames_.empty()) return "--" + lnames_.front();
  if (!snames_.empty()) return "-" + snames_.front();
  return pname_;
}

std::string Option::all_names() const {
  if (snames_.empty() && lnames_.empty()) return pname_;
  std::vector<std::string> names;
  for (const std::string& s : snames_) names.push_back("-" + s);
  for (const std::string& l : lnames_) names.push_back("--" + l);
  return join(names, ",");
}

std::string Option::type_name() const {
  std::string out = type_name_;
  for (const Validator& v : validators_)
    if (!v.get_description().empty()) out += ":" + v.get_description();
  return out;
}

std::string Option::help_line(bool as_positional) const {
  std::string name = as_positional ? pname_ : all_names();
  if (!is_flag()) {
    if (!type_name().empty()) name += " " + type_name();
    if (!default_str_.empty()) name += "=" + default_str_;
    if (expected_max_ == kUnlimited) name += " ...";
    if (required_) name += " REQUIRED";
  }
  return help_row(name, description_);
}

// One value given, as CLI11's _add_result: "[a,b]" is two values of a list.
void Option::add_result(std::string text) {
  if (allow_extra_args_ && text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    const std::string inner = text.substr(1, text.size() - 2);
    for (size_t from = 0; from <= inner.size();) {
      size_t comma = inner.find(',', from);
      if (comma == std::string::npos) comma = inner.size();
      if (comma > from) add_result(inner.substr(from, comma - from));
      from = comma + 1;
    }
    return;
  }
  results_.push_back(std::move(text));
}

void Option::store() {
  for (std::string& text : results_)
    for (const Validator& v : validators_)
      if (std::string error = v(text); !error.empty()) throw ParseError("ValidationError", name() + ": " + error, 105);
  std::vector<std::string> values = results_;
  if (policy_ == MultiOptionPolicy::TakeLast && values.size() > 1) {
    values.erase(values.begin(), values.end() - 1);
  } else if (policy_ == MultiOptionPolicy::Throw) {
    const size_t most = static_cast<size_t>(std::max(expected_max_, 1));
    if (values.size() > most)
      throw ParseError(
          "ArgumentMismatch",
          name() + ": At Most " + std::to_string(most) + " required but received " + std::to_string(values.size()),
          114);
  }
  if (!version_.empty()) throw CallForVersion(version_);
  if (assign_ && !assign_(target_, values))
    throw ParseError("ConversionError", "Could not convert: " + name() + " = " + join(results_, ","), 101);
}

// --- App: declarations -----------------------------------------------------------------------

App::App(std::string description, std::string name, App* parent)
    : name_(std::move(name)), description_(std::move(description)), parent_(parent) {
  if (parent_) footer_ = parent_->footer_;  // a command inherits its parent's footer, as CLI11's do
  {
    help_ = new_option("-h,--help", "Print this help message and exit", nullptr, nullptr, nullptr);
    help_->expected_min_ = help_->expected_max_ = 0;
    help_->policy_ = MultiOptionPolicy::TakeLast;
  }
}

Option* App::new_option(const char* names_text, const char* description, void* target,
                        bool (*assign)(void*, const std::vector<std::string>&), std::string (*show)(const void*)) {
  auto o = std::make_unique<Option>();
  o->description_ = description;
  o->target_ = target;
  o->assign_ = assign;
  o->show_ = show;
  const std::string names = names_text;
  for (size_t from = 0; from <= names.size();) {
    size_t comma = names.find(',', from);
    if (comma == std::string::npos) comma = names.size();
    const std::string n = names.substr(from, comma - from);
    if (n.size() > 2 && n.compare(0, 2, "--") == 0) o->lnames_.push_back(n.substr(2));
    else if (n.size() > 1 && n[0] == '-') o->snames_.push_back(n.substr(1));
    else if (!n.empty()) o->pname_ = n;
    from = comma + 1;
  }
  options_.push_back(std::move(o));
  return options_.back().get();
}

Option* App::add_flag(const char* names, bool& variable, const char* description) {
  Option* o = new_option(names, description, &variable, &assign_values<bool>, &show_value<bool>);
  o->expected_min_ = o->expected_max_ = 0;
  o->policy_ = MultiOptionPolicy::TakeLast;
  return o;
}

Option* App::set_version_flag(const char* names, const std::string& version) {
  version_ = version;
  Option* o = new_option(names, "Display program version information and exit", nullptr, nullptr, nullptr);
  o->expected_min_ = o->expected_max_ = 0;
  o->policy_ = MultiOptionPolicy::TakeLast;
  o->version_ = version;
  return o;
}

App* App::add_subcommand(const char* name, const char* description) {
  subcommands_.push_back(std::make_unique<App>(description, name, this));
  return subcommands_.back().get();
}

// --- App: lookups ----------------------------------------------------------------------------

Option* App::get_option_no_throw(const std::string& name) const {
  for (const auto& o : options_)
    if (o->matches(name)) return o.get();
  return nullptr;
}

Option* App::get_option(const std::string& name) const {
  if (Option* o = get_option_no_throw(name)) return o;
  throw std::logic_error("cli_lite: no option " + name);
}

std::size_t App::count(const std::string& option_name) const { return get_option(option_name)->count(); }

std::vector<const Option*> App::get_options() const {
  std::vector<const Option*> out;
  for (const auto& o : options_) out.push_back(o.get());
  return out;
}

std::vector<std::string> App::remaining(bool recurse) const {
  std::vector<std::string> out;
  for (const Missing& m : missing_) out.push_back(m.text);
  if (recurse)
    for (const App* sub : parsed_subcommands_)
      for (std::string& w : sub->remaining(true)) out.push_back(std::move(w));
  return out;
}

void App::clear() {
  parsed_ = 0;
  missing_.clear();
  parsed_subcommands_.clear();
  for (auto& o : options_) o->results_.clear();
  for (auto& sub : subcommands_) sub->clear();
}

// --- App: parsing ----------------------------------------------------------------------------

bool App::is_command_name(const std::string& word) const {
  // CLI11's _valid_subcommand: a command of this app while it may take another, or of a parent.
  if (require_subcommand_ == 0 || parsed_subcommands_.size() < static_cast<size_t>(require_subcommand_))
    for (const auto& sub : subcommands_)
      if (sub->name_ == word && !sub->parsed()) return true;
  return parent_ && parent_->is_command_name(word);
}

App::Kind App::classify(const std::string& word) const {
  if (word == "--") return Kind::kPositionalMark;
  if (is_command_name(word)) return Kind::kSubcommand;
  if (word.size() > 2 && word.compare(0, 2, "--") == 0 && valid_first_char(word[2])) return Kind::kLong;
  if (word.size() > 1 && word[0] == '-' && valid_first_char(word[1])) {
    // -5 is a value unless an option is named -5
    if (std::isdigit(static_cast<unsigned char>(word[1])) && !get_option_no_throw(word.substr(0, 2)))
      return Kind::kNone;
    return Kind::kShort;
  }
  return Kind::kNone;
}

size_t App::required_positionals_left() const {
  size_t n = 0;
  for (const auto& o : options_)
    if (o->positional() && o->required_ && static_cast<int>(o->count()) < o->expected_min_)
      n += static_cast<size_t>(o->expected_min_) - o->count();
  return n;
}

bool App::positionals_left() const {
  for (const auto& o : options_)
    if (o->positional() && static_cast<int>(o->count()) < o->expected_min_) return true;
  return false;
}

void App::parse(int argc, const char* const* argv) {
  if (parsed_ > 0) clear();
  if ((name_.empty() || automatic_name_) && argc > 0) {  // the program's name as it was started
    automatic_name_ = true;
    name_ = argv[0];
  }
  std::vector<std::string> words;
  for (int i = argc - 1; i >= 1; --i) words.emplace_back(argv[i]);
  parse_words(words);
  // CLI11's _process: values, then --help, then requirements; then the extras
  store_values();
  if (help_asked()) throw CallForHelp();
  check_requirements();
  check_extras();
}

void App::parse_words(std::vector<std::string>& words) {
  ++parsed_;
  bool positional_only = false;
  while (!words.empty())
    if (!parse_one(words, positional_only)) break;
}

// One word (and the values it takes); false: this command is done, its parent reads on.
bool App::parse_one(std::vector<std::string>& words, bool& positional_only) {
  switch (positional_only ? Kind::kNone : classify(words.back())) {
    case Kind::kPositionalMark:
      words.pop_back();
      positional_only = true;
      if (!positionals_left() && parent_) return false;
      missing_.push_back({"--", true});
      return true;
    case Kind::kSubcommand: {
      if (required_positionals_left() > 0) return parse_positional(words);
      for (auto& sub : subcommands_)
        if (sub->name_ == words.back() && !sub->parsed()) {
          words.pop_back();
          parsed_subcommands_.push_back(sub.get());
          sub->parse_words(words);
          return true;
        }
      return false;  // a parent's command
    }
    case Kind::kLong:
    case Kind::kShort: parse_option(words, classify(words.back())); return true;
    case Kind::kNone: return parse_positional(words);
  }
  return true;
}

bool App::parse_positional(std::vector<std::string>& words) {
  for (auto& o : options_)
    if (o->positional() && (static_cast<int>(o->count()) < o->expected_min_ || o->allow_extra_args_)) {
      o->add_result(words.back());
      words.pop_back();
      return true;
    }
  // Not taken: an extra.
  missing_.push_back({words.back(), false});
  words.pop_back();
  return true;
}

bool App::parse_option(std::vector<std::string>& words, Kind kind) {
  const std::string word = words.back();
  std::string name, value, rest;
  if (kind == Kind::kLong) {
    const size_t eq = word.find('=');
    name = word.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (eq != std::string::npos) value = word.substr(eq + 1);
  } else {
    name = word.substr(1, 1);
    rest = word.substr(2);
  }
  Option* o = nullptr;
  for (auto& candidate : options_)
    if (kind == Kind::kLong ? std::count(candidate->lnames_.begin(), candidate->lnames_.end(), name) > 0
                            : std::count(candidate->snames_.begin(), candidate->snames_.end(), name) > 0)
      o = candidate.get();
  if (!o) {
    missing_.push_back({word, false});
    words.pop_back();
    return true;
  }
  words.pop_back();
  // A list takes one value per occurrence unless it allows more (CLI11's max_num).
  const int most = o->expected_max_ >= Option::kUnlimited / 16 && !o->allow_extra_args_ ? 1 : o->expected_max_;
  int taken = 0;
  if (o->is_flag()) {
    o->add_result(value.empty() || value == "{}" ? "true" : value);
  } else if (!value.empty()) {
    o->add_result(value), ++taken;
  } else if (!rest.empty()) {
    o->add_result(rest), ++taken;
    rest.clear();
  }
  const int least = std::min(o->is_flag() ? 0 : 1, o->expected_min_);
  while (taken < least && !words.empty()) {
    o->add_result(words.back()), ++taken;
    words.pop_back();
  }
  if (taken < least)
    throw ParseError("ArgumentMismatch",
                     o->name() + ": " + std::to_string(least) + " required " + o->type_name() + " missing", 114);
  if (most > taken || o->allow_extra_args_) {
    const size_t reserved = required_positionals_left();
    while ((taken < most || o->allow_extra_args_) && !words.empty() && classify(words.back()) == Kind::kNone &&
           reserved < words.size()) {
      o->add_result(words.back()), ++taken;
      words.pop_back();
    }
    if (!words.empty() && words.back() == "--") words.pop_back();  // -- ends a list, and is eaten
  }
  if (!rest.empty()) words.push_back("-" + rest);  // -hx: -h, then -x
  return true;
}

// --- App: after the words --------------------------------------------------------------------

void App::store_values() {
  for (auto& o : options_)
    if (o->count() > 0) o->store();
  for (auto& sub : subcommands_) sub->store_values();
}

bool App::help_asked() const {
  if (help_ && help_->count() > 0) return true;
  for (const App* sub : parsed_subcommands_)
    if (sub->help_asked()) return true;
  return false;
}

void App::check_requirements() {
  for (const auto& o : options_)
    if (o->required_ && o->count() == 0) throw ParseError("RequiredError", o->name() + " is required", 106);
  if (require_subcommand_ > 0 && parsed_subcommands_.size() < static_cast<size_t>(require_subcommand_))
    throw ParseError("RequiredError", "A subcommand is required", 106);
  for (const auto& sub : subcommands_)
    if (sub->parsed()) sub->check_requirements();
}

void App::check_extras() const {
  if (!allow_extras_) {
    std::vector<std::string> extras;
    bool any = false;
    for (const Missing& m : missing_) {
      extras.push_back(m.text);
      any = any || !m.positional_mark;
    }
    if (any) throw ExtrasError(extras);
  }
  for (const auto& sub : subcommands_)
    if (sub->parsed()) sub->check_extras();
}

int App::exit(const Error& e) const {
  if (e.get_name() == "CallForHelp") std::fputs(help().c_str(), stdout);
  if (e.get_name() == "CallForVersion") {
    std::fputs(e.what(), stdout);
    std::fputs("\n", stdout);
  }
  return e.get_exit_code();
}

// --- App: help, laid out as CLI11's Formatter lays it out ---------------------------------

std::string App::help(std::string prev) const {
  prev = prev.empty() ? name_ : prev + " " + name_;
  if (!parsed_subcommands_.empty()) return parsed_subcommands_.front()->help(prev);
  return make_help(prev);
}

std::string App::make_help(const std::string& name) const {
  std::string out = description_.empty() ? "" : description_ + "\n";
  out += "Usage:" + std::string(name.empty() ? "" : " ") + name;
  std::string positionals;
  bool any_option = false;
  for (const auto& o : options_) {
    if (!o->positional()) {
      any_option = true;
      continue;
    }
    std::string usage = o->pname_ + (o->expected_max_ == Option::kUnlimited ? "..." : "");
    positionals += " " + (o->required_ ? usage : "[" + usage + "]");
  }
  if (any_option) out += " [OPTIONS]";
  out += positionals;
  const bool any_command = !subcommands_.empty();
  if (any_command) out += require_subcommand_ == 0 ? " [SUBCOMMAND]" : " SUBCOMMAND";
  out += "\n";
  if (!positionals.empty()) {
    out += "\nPositionals:\n";
    for (const auto& o : options_)
      if (o->positional()) out += o->help_line(true);
  }
  if (any_option) {
    out += "\nOptions:\n";
    for (const auto& o : options_)
      if (!o->positional()) out += o->help_line(false);
  }
  if (any_command) {
    out += "\nSubcommands:\n";
    for (const auto& sub : subcommands_) out += help_row(sub->name_, sub->description_);
  }
  return out + "\n" + (footer_.empty() ? "" : footer_ + "\n");
}

}  // namespace cutevis::cli_lite
