// lib/json_lite: the same values built with nlohmann_json and with json_lite dump to the same
// bytes (the web page writes its JSON with json_lite, the CLI with nlohmann).
#include "lib/json_lite.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

namespace {

namespace lite = cutevis::json_lite;

// Every layout nlohmann writes: compact, indented by 0, 2 and 4 spaces, by tabs.
template <typename N, typename L>
void check_dumps(const N& n, const L& l) {
  CHECK(l.dump() == n.dump());
  CHECK(l.dump(0) == n.dump(0));
  CHECK(l.dump(2) == n.dump(2));
  CHECK(l.dump(4, '\t') == n.dump(4, '\t'));
}

std::string dump_or_error(const auto& j, int indent, bool ascii, auto handler) {
  try {
    return j.dump(indent, ' ', ascii, handler);
  } catch (const std::exception& e) {
    return std::string("error: ") + e.what();
  }
}

// A random tree of every kind of value, the same for either library (SEED decides it).
template <typename J>
J random_tree(std::mt19937_64& rng, int depth) {
  const uint64_t pick = rng() % (depth > 3 ? 9 : 12);
  auto word = [&rng] {
    static const char* const kWords[] = {"a", "b", "kind", "text", "", "z", "thr", "a\"b", "\xC3\xA9t\xC3\xA9", "B"};
    return std::string(kWords[rng() % 10]);
  };
  switch (pick) {
    case 0: return J();
    case 1: return J(rng() % 2 == 0);
    case 2: return J(static_cast<int64_t>(rng()));
    case 3: return J(static_cast<uint64_t>(rng()));
    case 4: return J(static_cast<int>(rng() % 2000) - 1000);
    case 5: {
      uint64_t bits = rng();
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return J(d);
    }
    case 6: return J(static_cast<double>(static_cast<int64_t>(rng() % 20001) - 10000) / 64);
    case 7: return J(word());
    case 8: return J(word() + "\n\t" + word());
    case 9:
    case 10: {
      J a = J::array();
      for (uint64_t i = rng() % 5; i > 0; --i) a.push_back(random_tree<J>(rng, depth + 1));
      return a;
    }
    default: {
      J o = J::object();
      for (uint64_t i = rng() % 6; i > 0; --i) o[word()] = random_tree<J>(rng, depth + 1);
      return o;
    }
  }
}

double from_bits(uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}

// Doubles whose shortest digits are few: nlohmann's Grisu2 finds them.
std::vector<double> short_doubles() {
  std::vector<double> v = {0.0,
                           -0.0,
                           1.0,
                           -1.0,
                           0.5,
                           0.1,
                           0.2,
                           0.3,
                           1.0 / 3,
                           2.0 / 3,
                           1e15,
                           1e16,
                           1e17,
                           123456789012345.0,
                           1234567890123456.0,
                           0.0001,
                           0.00001,
                           1.5e-5,
                           1e20,
                           1e21,
                           1e22,
                           5e-324,
                           2.2250738585072009e-308,
                           2.2250738585072014e-308,
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::lowest(),
                           std::numeric_limits<double>::min(),
                           std::numeric_limits<double>::epsilon(),
                           9007199254740992.0,
                           std::nan(""),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity()};
  for (int e = -20; e <= 53; ++e) v.push_back(std::ldexp(1.0, e));
  for (int i = 0; i <= 40000; ++i) v.push_back(i / 1000.0 - 20.0);
  for (int i = 0; i <= 4000; ++i) v.push_back(i * 0.1);
  for (int64_t i = 1; i < (int64_t(1) << 53); i = i * 3 + 1) v.push_back(-static_cast<double>(i));
  return v;
}

// Any doubles: bit patterns (subnormals among them), powers of ten, tenths.
std::vector<double> any_doubles() {
  std::vector<double> v;
  for (int e = -325; e <= 308; ++e) v.push_back(std::pow(10.0, e));
  for (int i = 0; i <= 100000; ++i) v.push_back(i * 0.1);
  std::mt19937_64 rng(25);
  for (int i = 0; i < 20000; ++i) v.push_back(from_bits(rng() & ((uint64_t(1) << 52) - 1)));  // subnormal
  for (int i = 0; i < 200000; ++i) v.push_back(from_bits(rng()));
  return v;
}

}  // namespace

TEST_CASE("json_lite: doubles as nlohmann writes them") {
  for (double d : short_doubles()) {
    CAPTURE(d);
    CHECK(lite::json(d).dump() == nlohmann::json(d).dump());
  }
  CHECK(lite::json(1.0).dump() == "1.0");
  CHECK(lite::json(1.5e-5).dump() == "1.5e-05");
  CHECK(lite::json(1e20).dump() == "1e+20");
  CHECK(lite::json(-0.0).dump() == "-0.0");
  CHECK(lite::json(std::nan("")).dump() == "null");

  // Elsewhere json_lite's digits are the shortest that read back, nlohmann's Grisu2 digits are
  // sometimes one longer or end in another digit (lib/json_lite.hpp): the same format, the same
  // double read back, never longer, and rarely different.
  const std::vector<double> doubles = any_doubles();
  size_t differences = 0;
  for (double d : doubles) {
    const std::string n = nlohmann::json(d).dump(), l = lite::json(d).dump();
    if (n == l) continue;
    ++differences;
    CAPTURE(n);
    CAPTURE(l);
    REQUIRE(l.size() <= n.size());
    REQUIRE(std::strtod(l.c_str(), nullptr) == d);
    REQUIRE(std::strtod(n.c_str(), nullptr) == d);
    REQUIRE((l.find('e') == std::string::npos) == (n.find('e') == std::string::npos));
  }
  MESSAGE(differences << " of " << doubles.size() << " doubles written with other digits than nlohmann's");
  CHECK(differences * 20 < doubles.size());  // 8,504 of 320,635 (2.7%): tenths past 4096 make most
  CHECK(lite::json(1e23).dump() == "1e+23");
  CHECK(nlohmann::json(1e23).dump() == "9.999999999999999e+22");
}

TEST_CASE("json_lite: integers and other scalars") {
  check_dumps(nlohmann::json(), lite::json());
  check_dumps(nlohmann::json(nullptr), lite::json(nullptr));
  check_dumps(nlohmann::json(true), lite::json(true));
  check_dumps(nlohmann::json(false), lite::json(false));
  for (int64_t v :
       {int64_t(0), int64_t(-1), int64_t(7), std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()})
    check_dumps(nlohmann::json(v), lite::json(v));
  check_dumps(nlohmann::json(std::numeric_limits<uint64_t>::max()), lite::json(std::numeric_limits<uint64_t>::max()));
  check_dumps(nlohmann::json(size_t(12)), lite::json(size_t(12)));
  check_dumps(nlohmann::json(4000000000u), lite::json(4000000000u));
  check_dumps(nlohmann::json(-5), lite::json(-5));
  check_dumps(nlohmann::json("text"), lite::json("text"));
  check_dumps(nlohmann::json(std::string("s")), lite::json(std::string("s")));
  check_dumps(nlohmann::json(std::vector<int64_t>{1, -2, 3}), lite::json(std::vector<int64_t>{1, -2, 3}));
  check_dumps(nlohmann::json(std::vector<std::string>{"a", "b"}), lite::json(std::vector<std::string>{"a", "b"}));
  check_dumps(nlohmann::json(std::vector<double>{}), lite::json(std::vector<double>{}));
  check_dumps(nlohmann::json::array(), lite::json::array());
  check_dumps(nlohmann::json::object(), lite::json::object());
  CHECK(lite::json::array().dump(2) == "[]");
}

TEST_CASE("json_lite: every byte, and invalid UTF-8, in each error mode") {
  using NH = nlohmann::json::error_handler_t;
  using LH = lite::error_handler_t;
  const std::pair<NH, LH> modes[] = {{NH::strict, LH::strict}, {NH::replace, LH::replace}, {NH::ignore, LH::ignore}};
  std::vector<std::string> strings;
  for (int b = 0; b < 256; ++b) strings.push_back(std::string(1, static_cast<char>(b)) + "x");
  for (int b = 0; b < 256; ++b) strings.push_back("ab" + std::string(1, static_cast<char>(b)));
  // Random strings over the bytes that matter: ASCII, escapes, every lead and continuation class.
  const unsigned char alphabet[] = {'a',  '"',  '\\', '\n', 0x01, 0x1F, 0x7F, 0x80, 0x8F, 0x90, 0x9F,
                                    0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEE, 0xEF,
                                    0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF, 0x08, 0x0C, 0x0D, 0x09};
  std::mt19937_64 rng(316);
  for (int i = 0; i < 30000; ++i) {
    std::string s;
    for (uint64_t n = rng() % 9; n > 0; --n) s += static_cast<char>(alphabet[rng() % sizeof alphabet]);
    strings.push_back(s);
  }
  strings.push_back("\xF0\x9F\x98\x80 \xE2\x82\xAC \xC3\xA9");  // valid 4-, 3- and 2-byte sequences
  strings.push_back(std::string(600, 'x') + "\xE2\x82");        // past nlohmann's 512-byte buffer, incomplete
  size_t checked = 0;
  for (const std::string& s : strings)
    for (const auto& [nh, lh] : modes)
      for (bool ascii : {false, true}) {
        const nlohmann::json n = {{s, s}};
        const lite::json l = {{s, s}};
        REQUIRE(dump_or_error(l, -1, ascii, lh) == dump_or_error(n, -1, ascii, nh));
        ++checked;
      }
  CHECK(checked == strings.size() * 6);
  try {
    (void)lite::json("ab\xFF").dump();
    FAIL("no exception");
  } catch (const lite::json::type_error& e) {
    CHECK(std::string(e.what()) == "[json.exception.type_error.316] invalid UTF-8 byte at index 2: 0xFF");
  }
  CHECK(lite::json("a\xFF"
                   "b")
            .dump(-1, ' ', false, LH::replace) ==
        "\"a\xEF\xBF\xBD"
        "b\"");
}

TEST_CASE("json_lite: random trees, sorted and in insertion order") {
  for (uint64_t seed = 0; seed < 3000; ++seed) {
    std::mt19937_64 a(seed), b(seed), c(seed), d(seed);
    const auto n = random_tree<nlohmann::json>(a, 0);
    const auto l = random_tree<lite::json>(b, 0);
    check_dumps(n, l);
    const auto no = random_tree<nlohmann::ordered_json>(c, 0);
    const auto lo = random_tree<lite::ordered_json>(d, 0);
    check_dumps(no, lo);
  }
}

TEST_CASE("json_lite: keys, braced lists, erase, update") {
  nlohmann::json n;
  lite::json l;
  nlohmann::ordered_json no;
  lite::ordered_json lo;
  for (const char* key : {"zeta", "alpha", "mid", "alpha", "beta", "zeta"}) {
    n[key] = n.size();
    l[key] = l.size();
    no[key] = no.size();
    lo[key] = lo.size();
  }
  CHECK(l.dump() == R"({"alpha":3,"beta":3,"mid":2,"zeta":4})");
  CHECK(l.dump() == n.dump());
  CHECK(lo.dump() == R"({"zeta":4,"alpha":3,"mid":2,"beta":3})");
  CHECK(lo.dump() == no.dump());
  CHECK(l.erase("mid") == n.erase("mid"));
  CHECK(l.erase("absent") == 0);
  CHECK(lo.erase("zeta") == no.erase("zeta"));
  check_dumps(n, l);
  check_dumps(no, lo);
  n.update(nlohmann::json{{"beta", "b"}, {"new", nullptr}});
  l.update(lite::json{{"beta", "b"}, {"new", nullptr}});
  no.update(nlohmann::ordered_json{{"beta", "b"}, {"new", nullptr}});
  lo.update(lite::ordered_json{{"beta", "b"}, {"new", nullptr}});
  check_dumps(n, l);
  check_dumps(no, lo);

  // A braced list is an object only when every element is a pair with a string first.
  check_dumps(nlohmann::json{{"k", 1}, {"j", {1, 2}}}, lite::json{{"k", 1}, {"j", {1, 2}}});
  check_dumps(nlohmann::json{{"k", 1}, {2, 1}}, lite::json{{"k", 1}, {2, 1}});
  check_dumps(nlohmann::json{{"k", 1, 2}}, lite::json{{"k", 1, 2}});
  check_dumps(nlohmann::json{"k", 1}, lite::json{"k", 1});
  check_dumps(nlohmann::ordered_json{{"z", 1}, {"a", {{"y", 1}, {"b", 2}}}},
              lite::ordered_json{{"z", 1}, {"a", {{"y", 1}, {"b", 2}}}});
  check_dumps(nlohmann::json{{"z", 1}, {"z", 2}}, lite::json{{"z", 1}, {"z", 2}});
  nlohmann::json na = nlohmann::json::array();
  lite::json la = lite::json::array();
  na.push_back({3, 4});
  la.push_back({3, 4});
  na.push_back({"x", 4});
  la.push_back({"x", 4});
  na.emplace_back(5);
  la.emplace_back(5);
  check_dumps(na, la);
  nlohmann::json nobj = nlohmann::json::object();
  lite::json lobj = lite::json::object();
  nobj.push_back({"x", 4});
  lobj.push_back({"x", 4});
  check_dumps(nobj, lobj);
  CHECK(l["beta"].get<std::string>() == "b");
  CHECK(l.size() == 4);
  CHECK(lite::json().empty());
  CHECK(!lite::json(0).empty());
  CHECK(lite::json(0).size() == 1);
  CHECK(lite::json::array().empty());
  lite::json grown;
  grown[2] = true;
  CHECK(grown.dump() == "[null,null,true]");

  // Misuse throws nlohmann's type_error.
  try {
    lite::json number = 1;
    number.push_back(2);
    FAIL("no exception");
  } catch (const lite::json::type_error& e) {
    CHECK(e.id == 308);
    CHECK(std::string(e.what()) == "[json.exception.type_error.308] cannot use push_back() with number");
  }
  CHECK_THROWS_AS((void)lite::json(1).get<std::string>(), lite::json::type_error);
}
