// The header cache (app/header_cache.hpp): what a --from file's #include read is kept on disk;
// a corrupt entry, an entry of a changed file or another key is never used.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "app/header_cache.hpp"
#include "tests/support/run.hpp"

using namespace cutevis;
namespace fs = std::filesystem;

namespace {

fs::path fresh_folder(const std::string& name) {
  fs::path p = fs::temp_directory_path() / ("cutevis_hcache_" + std::to_string(::getpid()) + "_" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p;
}

Declaration member(const std::string& name, const std::string& text) {
  Declaration d;
  d.name = name;
  d.scope = "cutlass::arch::Sm90";
  d.text = text;
  d.file = "/x/cutlass/arch/arch.h";
  d.line = 12, d.column = 5;
  d.template_scope = "cutlass::arch::Cfg";
  d.template_params = {"T", "N"};
  d.template_defaults = {"", "4"};
  d.from_header = true;
  return d;
}

}  // namespace

TEST_CASE("header cache: an entry comes back as stored; a corrupt, stale or other entry does not") {
  const fs::path dir = fresh_folder("unit");
  const fs::path header = dir / "arch.h";
  std::ofstream(header) << "struct Sm90 {};\n";
  HeaderCache cache(dir.string() + "/entries");
  HeaderCacheEntry e;
  e.declarations = {member("kMinComputeCapability", "90"), member("kOther", "Int<4>{}")};
  e.parameters = {member("N", "")};
  e.macros_after = {{"CUTLASS_ARCH_H", ""}, {"__CUDACC__", "1"}};
  CachedFile f;
  f.path = f.canonical = header.string();
  REQUIRE(HeaderCache::stat_file(f.path, f.size, f.mtime_ns));
  e.files = {f};
  e.not_found = {"cuda/std/utility"};
  e.bytes_read = 16;
  cache.store(42, e);

  auto back = cache.load(42);
  REQUIRE(back);
  REQUIRE(back->declarations.size() == 2);
  CHECK(back->declarations[1].name == "kOther");
  CHECK(back->declarations[1].text == "Int<4>{}");
  CHECK(back->declarations[0].scope == "cutlass::arch::Sm90");
  CHECK(back->declarations[0].line == 12);
  CHECK(back->declarations[0].template_defaults == std::vector<std::string>{"", "4"});
  CHECK(back->declarations[0].from_header);
  CHECK(back->parameters.size() == 1);
  CHECK(back->macros_after == e.macros_after);
  CHECK(back->not_found == e.not_found);
  CHECK(back->bytes_read == 16);
  CHECK_FALSE(cache.load(43));  // no such key

  // a byte changed anywhere: ignored (the checksum), never half-read
  fs::path entry;
  for (const auto& p : fs::directory_iterator(dir / "entries")) entry = p.path();
  std::string bytes;
  {
    std::ifstream in(entry, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  std::string corrupt = bytes;
  corrupt[corrupt.size() / 2] ^= 0x20;
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << corrupt;
  CHECK_FALSE(cache.load(42));
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes.substr(0, bytes.size() / 3);  // truncated
  CHECK_FALSE(cache.load(42));
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
  CHECK(cache.load(42));

  // a file the entry read changed since: stale
  std::ofstream(header, std::ios::app) << "struct Sm100 {};\n";
  CHECK_FALSE(cache.load(42));
  fs::remove_all(dir);
}

TEST_CASE("header cache through the CLI: the second run reads the cache and answers the same; an edit is seen") {
  const fs::path dir = fresh_folder("cli");
  fs::create_directories(dir / "inc/proj");
  std::ofstream(dir / "inc/proj/cfg.hpp") << "#pragma once\nnamespace proj { constexpr int kBlock = 64; }\n";
  std::ofstream(dir / "kernel.cu") << "#include \"proj/cfg.hpp\"\nusing L = Layout<Shape<Int<proj::kBlock>>>;\n";
  const std::string env = "CUTEVIS_CACHE_DIR=" + (dir / "cache").string();
  const std::vector<std::string> args{"names", "--from", (dir / "kernel.cu").string(), "-I", (dir / "inc").string()};
  auto first = test::run_cutevis(args, env);
  REQUIRE(first.exit_code == 0);
  CHECK(first.out.find("(64):(1)") != std::string::npos);
  size_t entries = 0;
  for (const auto& p : fs::directory_iterator(dir / "cache")) entries += p.path().extension() == ".cvh";
  CHECK(entries == 1);
  auto second = test::run_cutevis(args, env);
  CHECK(second.out == first.out);
  CHECK(second.err == first.err);
  // the header edited (size changes): read anew
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::ofstream(dir / "inc/proj/cfg.hpp") << "#pragma once\nnamespace proj { constexpr int kBlock = 128; }\n";
  auto third = test::run_cutevis(args, env);
  CHECK(third.out.find("(128):(1)") != std::string::npos);
  // CUTEVIS_CACHE_DIR=off: nothing written
  fs::remove_all(dir / "cache");
  CHECK(test::run_cutevis(args, "CUTEVIS_CACHE_DIR=off").out == third.out);
  CHECK_FALSE(fs::exists(dir / "cache"));
  fs::remove_all(dir);
}

TEST_CASE("header cache: deferred declarations are indexed by name and decoded as the environment looks them up") {
  const fs::path dir = fresh_folder("deferred");
  const fs::path header = dir / "arch.h";
  std::ofstream(header) << "struct Sm90 {};\n";
  HeaderCache cache(dir.string() + "/entries");
  HeaderCacheEntry e;
  Declaration alias = member("Atom", "Layout<Shape<N>>");  // an alias template: not a member
  alias.scope = "cutlass::arch", alias.template_scope = "cutlass::arch::Atom";
  e.declarations = {member("kMinComputeCapability", "90"), member("kOther", "Int<4>{}"), alias,
                    member("kOther", "Int<8>{}")};
  e.parameters = {member("N", ""), member("T", "")};
  CachedFile f;
  f.path = f.canonical = header.string();
  REQUIRE(HeaderCache::stat_file(f.path, f.size, f.mtime_ns));
  e.files = {f};
  cache.store(7, e);

  auto back = cache.load(7, true);
  REQUIRE(back);
  CHECK(back->declarations.empty());
  REQUIRE(back->deferred);
  const DeferredDeclarations& d = *back->deferred;
  CHECK(d.size() == 4);
  CHECK(d.names() == std::vector<std::string_view>{"kMinComputeCapability", "kOther", "Atom"});
  CHECK(d.numbers_named("kOther") == std::vector<size_t>{1, 3});
  CHECK(d.numbers_named("kNone").empty());
  CHECK(d.declaration(3).text == "Int<8>{}");
  CHECK(d.declaration(3).template_defaults == std::vector<std::string>{"", "4"});
  CHECK(d.declaration(3).from_header);
  CHECK(d.files() == std::vector<std::string>{"/x/cutlass/arch/arch.h"});
  REQUIRE(d.class_template_members().size() == 1);  // Cfg's first member; the alias template is not one
  CHECK(d.class_template_members()[0].template_scope == "cutlass::arch::Cfg");
  CHECK(d.class_template_members()[0].number == 0);
  CHECK(back->parameters.empty());
  CHECK(d.parameter_count() == 2);
  CHECK(d.parameter_names() == std::vector<std::string_view>{"N", "T"});
  CHECK(d.parameter_numbers_named("T") == std::vector<size_t>{1});

  // in an environment: found where C++ finds them, the last of a name winning as if added one by one
  Environment env;
  env.add_deferred(back->deferred);
  env.add_deferred_parameters(back->deferred);
  REQUIRE(env.parameter("T", "cutlass::arch::Sm90"));
  CHECK(env.parameter("T", "cutlass::arch::Sm90")->scope == "cutlass::arch::Sm90");
  CHECK(env.is_enclosing_parameter("N", "cutlass::arch::Sm90"));
  CHECK_FALSE(env.is_enclosing_parameter("N", "example"));
  CHECK(env.parameters().empty());  // the files' own only
  Declaration own;
  own.name = "kOther", own.scope = "cutlass::arch::Sm90", own.text = "Int<16>{}", own.file = "kernel.cu";
  const Declaration* header_other = env.find("kOther", "cutlass::arch::Sm90");
  REQUIRE(header_other);
  CHECK(header_other->text == "Int<8>{}");
  CHECK(env.find("kOther", "") == nullptr);  // a header's name, from outside its scope: not found
  env.add(own);                              // after the header's: wins the tie
  CHECK(env.find("kOther", "cutlass::arch::Sm90")->text == "Int<16>{}");
  CHECK(env.find("cutlass::arch::Sm90::kMinComputeCapability", "")->text == "90");
  const Declaration* first_member = env.class_template("Cfg", "cutlass::arch");
  REQUIRE(first_member);
  CHECK(first_member->name == "kMinComputeCapability");
  CHECK(env.read_header("cutlass/arch/arch.h"));
  CHECK(env.declarations().size() == 1);  // the file's own only
}

TEST_CASE(
    "header cache: the index an entry keeps finds qualified names by their last part, in order; a plain load steps "
    "over it") {
  const fs::path dir = fresh_folder("index");
  const fs::path header = dir / "gemm.h";
  std::ofstream(header) << "struct Policy {};\n";
  HeaderCache cache(dir.string() + "/entries");
  HeaderCacheEntry e;
  for (int i = 0; i < 300; ++i)  // many names: the binary search has somewhere to go wrong
    e.declarations.push_back(member("kName" + std::to_string(i), std::to_string(i)));
  e.declarations.push_back(member("Policy::Stages", "3"));  // an out-of-line member: found as Stages
  e.declarations.push_back(member("Stages", "4"));
  e.parameters = {member("Policy::Stages", ""), member("Stages", "")};  // parameters: by the name as written
  CachedFile f;
  f.path = f.canonical = header.string();
  REQUIRE(HeaderCache::stat_file(f.path, f.size, f.mtime_ns));
  e.files = {f};
  cache.store(9, e);

  auto deferred = cache.load(9, true);
  REQUIRE(deferred);
  REQUIRE(deferred->deferred);
  const DeferredDeclarations& d = *deferred->deferred;
  CHECK(d.numbers_named("Stages") == std::vector<size_t>{300, 301});
  CHECK(d.declaration(300).name == "Policy::Stages");
  CHECK(d.numbers_named("Policy::Stages").empty());  // declarations: by their last part only
  for (int i : {0, 1, 150, 299}) {
    REQUIRE(d.numbers_named("kName" + std::to_string(i)) == std::vector<size_t>{static_cast<size_t>(i)});
    CHECK(d.declaration(static_cast<size_t>(i)).text == std::to_string(i));
  }
  CHECK(d.numbers_named("kName300").empty());
  CHECK(d.names().size() == 301);  // Stages once
  CHECK(d.parameter_numbers_named("Policy::Stages") == std::vector<size_t>{0});
  CHECK(d.parameter_numbers_named("Stages") == std::vector<size_t>{1});
  CHECK_THROWS(d.declaration(302));

  auto plain = cache.load(9, false);  // every declaration decoded, the index stepped over
  REQUIRE(plain);
  CHECK_FALSE(plain->deferred);
  REQUIRE(plain->declarations.size() == 302);
  CHECK(plain->declarations[301].text == "4");
  CHECK(plain->parameters.size() == 2);
  fs::remove_all(dir);
}

TEST_CASE("header cache: a struct's data members, alignas and unlaid reason come back (sizeof from a warm cache)") {
  const fs::path dir = fresh_folder("members");
  HeaderCache cache(dir.string() + "/entries");
  HeaderCacheEntry e;
  ClassDef c;
  c.name = "SharedStorage";
  c.scope = c.members_scope = "cutlass::PipelineTmaAsync";
  c.data_members = {{"FullBarrier", {"static_cast<size_t>(Stages)"}, ""}, {"Barrier", {"Stages", "2"}, "16"}};
  c.align = "64";
  ClassDef u = c;
  u.data_members.clear();
  u.unlaid = "a union";
  e.classes = {c, u};
  cache.store(7, e);
  auto back = cache.load(7);
  REQUIRE(back);
  REQUIRE(back->classes.size() == 2);
  const ClassDef& b = back->classes[0];
  REQUIRE(b.data_members.size() == 2);
  CHECK(b.data_members[0].type == "FullBarrier");
  CHECK(b.data_members[0].extents == std::vector<std::string>{"static_cast<size_t>(Stages)"});
  CHECK(b.data_members[0].align.empty());
  CHECK(b.data_members[1].extents == std::vector<std::string>{"Stages", "2"});
  CHECK(b.data_members[1].align == "16");
  CHECK(b.align == "64");
  CHECK(b.unlaid.empty());
  CHECK(back->classes[1].unlaid == "a union");
  fs::remove_all(dir);
}
