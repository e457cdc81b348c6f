// cutevis — json_lite: a JSON value to write with, in place of nlohmann_json where the web
// page is built (atoms/analysis/json.hpp picks one or the other by CUTEVIS_JSON_LITE).
//
// The page links nlohmann_json only as a writer, and its two instantiations (json and
// ordered_json) were ~37 KB of the .wasm.  This is the part of nlohmann's interface the
// page-linked code uses, and dump() writes what nlohmann 3.11 writes, byte for byte
// (tests/lib/json_lite_test.cpp compares the two): the same layout (compact and indented),
// the same string escapes and invalid-UTF-8 handling (an exception with nlohmann's message,
// or U+FFFD), integers, and doubles in nlohmann's format.  One known difference: a double's
// digits are its shortest round-trip digits, where nlohmann's Grisu2 sometimes writes one more
// digit or another last digit (1e23: "1e+23", nlohmann "9.999999999999999e+22"; 0.14% of random
// bit patterns, 0.8% of i*0.1, 0.05% of ratios of small integers; never shorter than ours, and
// both read back as the same double).  No parser.
//
//   json j;  j["b"] = 1;  j["a"] = {1, 2.5, "x"};   j.dump() == R"({"a":[1,2.5,"x"],"b":1})"
//   ordered_json o;  o["b"] = 1;  o["a"] = nullptr;  o.dump() == R"({"b":1,"a":null})"
//
// json keeps an object's keys sorted (nlohmann's std::map), ordered_json in the order they
// were first set; in both a key set again keeps its place and takes the new value (in a
// braced list or push_back({key, value}) the first value stays).  A braced list is an object
// when every element is a two-element array whose first element is a string
// ({{"k", 1}, {"l", 2}}), else an array ({1, 2}, {"k", 1}), as nlohmann reads it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cutevis::json_lite {

enum class error_handler_t { strict, replace, ignore };

// nlohmann's exceptions as far as the writer throws them: what() is nlohmann's text,
// "[json.exception.type_error.316] invalid UTF-8 byte at index 3: 0xFF".
class exception : public std::exception {
 public:
  exception(int id, std::string what) : id(id), what_(std::move(what)) {}
  const char* what() const noexcept override { return what_.c_str(); }
  const int id;

 private:
  std::string what_;
};
class type_error : public exception {
  using exception::exception;
};

namespace detail {

enum class Kind : uint8_t { kNull, kObject, kArray, kString, kBool, kInt, kUnsigned, kDouble };

[[noreturn]] void throw_type_error(int id, const std::string& message);
const char* kind_name(Kind k);
[[noreturn]] void throw_cannot_use(int id, const char* use, Kind k);  // "cannot use push_back() with string"
// S as a JSON string, quotes included, escaped as nlohmann escapes it.
void append_string(std::string& out, std::string_view s, bool ensure_ascii, error_handler_t handler);
// D as nlohmann writes a double: "1.0", "0.5", "1e+20", "1.5e-05"; NaN and infinities as null.
void append_double(std::string& out, double d);
void append_indent(std::string& out, int spaces, char c);

}  // namespace detail

template <bool Sorted>
class basic_json {
 public:
  using exception = json_lite::exception;
  using type_error = json_lite::type_error;
  using error_handler_t = json_lite::error_handler_t;
  using size_type = size_t;

  basic_json() = default;
  basic_json(std::nullptr_t) {}
  basic_json(const std::string& s) : kind_(detail::Kind::kString), string_(s) {}
  basic_json(std::string&& s) : kind_(detail::Kind::kString), string_(std::move(s)) {}
  basic_json(std::string_view s) : kind_(detail::Kind::kString), string_(s) {}
  basic_json(const char* s) : kind_(detail::Kind::kString), string_(s) {}
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T>, int> = 0>
  basic_json(T v) {
    if constexpr (std::is_same_v<T, bool>) {
      kind_ = detail::Kind::kBool;
      int_ = v;
    } else if constexpr (std::is_floating_point_v<T>) {
      kind_ = detail::Kind::kDouble;
      double_ = static_cast<double>(v);
    } else if constexpr (std::is_signed_v<T>) {
      kind_ = detail::Kind::kInt;
      int_ = static_cast<int64_t>(v);
    } else {
      kind_ = detail::Kind::kUnsigned;
      int_ = static_cast<int64_t>(static_cast<uint64_t>(v));
    }
  }
  template <typename T>
  basic_json(const std::vector<T>& v) : kind_(detail::Kind::kArray) {
    array_.reserve(v.size());
    for (const T& e : v) array_.emplace_back(e);
  }
  // nlohmann's rule: an object when every element is a two-element array with a string first.
  basic_json(std::initializer_list<basic_json> list) {
    bool object = true;
    for (const basic_json& e : list)
      object = object && e.kind_ == detail::Kind::kArray && e.array_.size() == 2 &&
               e.array_[0].kind_ == detail::Kind::kString;
    if (object) {
      kind_ = detail::Kind::kObject;
      for (const basic_json& e : list) insert(e.array_[0].string_, e.array_[1]);
    } else {
      kind_ = detail::Kind::kArray;
      array_.assign(list.begin(), list.end());
    }
  }

  static basic_json array() { return with_kind(detail::Kind::kArray); }
  static basic_json object() { return with_kind(detail::Kind::kObject); }

  bool is_null() const { return kind_ == detail::Kind::kNull; }
  bool is_object() const { return kind_ == detail::Kind::kObject; }
  bool is_array() const { return kind_ == detail::Kind::kArray; }
  bool is_string() const { return kind_ == detail::Kind::kString; }

  // null and containers: their number of elements (null 0); anything else 1.
  size_t size() const {
    switch (kind_) {
      case detail::Kind::kNull: return 0;
      case detail::Kind::kObject: return object_.size();
      case detail::Kind::kArray: return array_.size();
      default: return 1;
    }
  }
  bool empty() const { return size() == 0; }

  // The member KEY, made (null) if absent; null becomes an empty object first.
  basic_json& operator[](std::string_view key) {
    make(detail::Kind::kObject, 305, "operator[] with a string argument");
    auto [it, found] = locate(key);
    if (!found) it = object_.emplace(it, std::string(key), basic_json());
    return it->second;
  }
  basic_json& operator[](const char* key) { return (*this)[std::string_view(key)]; }
  basic_json& operator[](const std::string& key) { return (*this)[std::string_view(key)]; }
  // Element I of an array, which grows with nulls to hold it; null becomes an empty array first.
  basic_json& operator[](size_t i) {
    make(detail::Kind::kArray, 305, "operator[] with a numeric argument");
    if (i >= array_.size()) array_.resize(i + 1);
    return array_[i];
  }
  const basic_json& operator[](size_t i) const { return array_.at(i); }

  void push_back(basic_json v) {
    make(detail::Kind::kArray, 308, "push_back()");
    array_.push_back(std::move(v));
  }
  // nlohmann's push_back of a braced list: into an object, {"key", value} adds a member.
  void push_back(std::initializer_list<basic_json> list) {
    if (kind_ == detail::Kind::kObject && list.size() == 2 && list.begin()->kind_ == detail::Kind::kString) {
      insert(list.begin()->string_, list.begin()[1]);
      return;
    }
    push_back(basic_json(list));
  }
  template <typename... A>
  basic_json& emplace_back(A&&... a) {
    make(detail::Kind::kArray, 311, "emplace_back()");
    return array_.emplace_back(std::forward<A>(a)...);
  }

  // The members removed (0 or 1); an object only.
  size_t erase(std::string_view key) {
    if (kind_ != detail::Kind::kObject) detail::throw_cannot_use(307, "erase()", kind_);
    auto [it, found] = locate(key);
    if (!found) return 0;
    object_.erase(it);
    return 1;
  }
  // Every member of OTHER (an object) set here, as nlohmann's update().
  void update(const basic_json& other) {
    make(detail::Kind::kObject, 312, "update()");
    if (other.kind_ != detail::Kind::kObject) detail::throw_cannot_use(312, "update()", other.kind_);
    for (const auto& [key, value] : other.object_) (*this)[key] = value;
  }

  template <typename T>
  T get() const {
    static_assert(std::is_same_v<T, std::string>, "json_lite reads strings only");
    if (kind_ != detail::Kind::kString)
      detail::throw_type_error(302, std::string("type must be string, but is ") + detail::kind_name(kind_));
    return string_;
  }

  std::string dump(int indent = -1, char indent_char = ' ', bool ensure_ascii = false,
                   error_handler_t handler = error_handler_t::strict) const {
    std::string out;
    write(out, indent, indent_char, ensure_ascii, handler, 0);
    return out;
  }

 private:
  static basic_json with_kind(detail::Kind k) {
    basic_json j;
    j.kind_ = k;
    return j;
  }
  // KEY: VALUE added unless KEY is there (nlohmann's insert: the first value stays).
  void insert(const std::string& key, const basic_json& value) {
    auto [it, found] = locate(key);
    if (!found) object_.emplace(it, key, value);
  }
  // Null becomes K; anything else not K cannot be used with USE (type_error ID).
  void make(detail::Kind k, int id, const char* use) {
    if (kind_ == detail::Kind::kNull) kind_ = k;
    if (kind_ != k) detail::throw_cannot_use(id, use, kind_);
  }
  // Where KEY is (found) or would go.
  std::pair<typename std::vector<std::pair<std::string, basic_json>>::iterator, bool> locate(std::string_view key) {
    auto it = object_.begin();
    if constexpr (Sorted) {
      size_t lo = 0, hi = object_.size();
      while (lo < hi) {
        const size_t mid = (lo + hi) / 2;
        if (std::string_view(object_[mid].first) < key) lo = mid + 1;
        else hi = mid;
      }
      it += static_cast<std::ptrdiff_t>(lo);
      return {it, it != object_.end() && it->first == key};
    } else {
      for (; it != object_.end(); ++it)
        if (it->first == key) return {it, true};
      return {it, false};
    }
  }
  void write(std::string& out, int indent, char c, bool ascii, error_handler_t handler, int level) const {
    const bool pretty = indent >= 0;
    const int inner = level + (pretty ? indent : 0);
    switch (kind_) {
      case detail::Kind::kNull: out += "null"; return;
      case detail::Kind::kBool: out += int_ ? "true" : "false"; return;
      case detail::Kind::kInt: out += std::to_string(int_); return;
      case detail::Kind::kUnsigned: out += std::to_string(static_cast<uint64_t>(int_)); return;
      case detail::Kind::kDouble: detail::append_double(out, double_); return;
      case detail::Kind::kString: detail::append_string(out, string_, ascii, handler); return;
      case detail::Kind::kArray:
      case detail::Kind::kObject: {
        const bool object = kind_ == detail::Kind::kObject;
        const size_t n = object ? object_.size() : array_.size();
        out += object ? '{' : '[';
        if (n == 0) {
          out += object ? '}' : ']';
          return;
        }
        if (pretty) out += '\n';
        for (size_t i = 0; i < n; ++i) {
          if (i) out += pretty ? ",\n" : ",";
          if (pretty) detail::append_indent(out, inner, c);
          if (object) {
            detail::append_string(out, object_[i].first, ascii, handler);
            out += pretty ? ": " : ":";
          }
          (object ? object_[i].second : array_[i]).write(out, indent, c, ascii, handler, inner);
        }
        if (pretty) {
          out += '\n';
          detail::append_indent(out, level, c);
        }
        out += object ? '}' : ']';
        return;
      }
    }
  }

  detail::Kind kind_ = detail::Kind::kNull;
  int64_t int_ = 0;  // a bool, an int64_t, or a uint64_t's bits
  double double_ = 0;
  std::string string_;
  std::vector<basic_json> array_;
  std::vector<std::pair<std::string, basic_json>> object_;
};

using json = basic_json<true>;
using ordered_json = basic_json<false>;

}  // namespace cutevis::json_lite
