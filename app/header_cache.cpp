#include "app/header_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

namespace cutevis {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'c', 'v', 'h', 'd', 'r', '0', '0', '4'};

// --- a plain binary form: little-endian integers, strings with their length -------------------
struct Writer {
  std::string out;
  void u64(uint64_t v) {
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  void str(const std::string& s) {
    u64(s.size());
    out += s;
  }
  void strs(const std::vector<std::string>& v) {
    u64(v.size());
    for (const auto& s : v) str(s);
  }
  // Scopes, files and template parameters repeat for every member of a struct: each distinct
  // string is written once (the table, at the end) and named by its number.
  std::unordered_map<std::string, uint64_t> numbers;
  std::vector<const std::string*> table;
  void interned(const std::string& s) {
    auto [it, added] = numbers.emplace(s, table.size());
    if (added) table.push_back(&it->first);
    u64(it->second);
  }
  void decl(const Declaration& d) {
    str(d.name), str(d.text);
    interned(d.scope), interned(d.file), interned(d.template_scope);
    u64(static_cast<uint64_t>(d.line)), u64(static_cast<uint64_t>(d.column));
    u64((d.language == SourceLanguage::kPython ? 1U : 0U) | (d.using_declaration ? 2U : 0U));
    u64(d.template_params.size());
    for (const auto& p : d.template_params) interned(p);
    u64(d.template_defaults.size());
    for (const auto& p : d.template_defaults) interned(p);
  }
  void strings(const std::vector<std::string>& v) {  // (interned: parameter lists repeat)
    u64(v.size());
    for (const auto& s : v) interned(s);
  }
  void function(const FunctionDef& f) {
    decl(f.decl);
    str(f.raw_body);
    strings(f.tparams), strings(f.tdefaults), strings(f.params), strings(f.param_types), strings(f.param_defaults);
  }
  void klass(const ClassDef& c) {
    interned(c.name), interned(c.scope), interned(c.members_scope), interned(c.specialization), interned(c.file);
    u64(c.is_template), u64(static_cast<uint64_t>(c.line));
    strings(c.tparams), strings(c.tdefaults), strings(c.bases);
    u64(c.data_members.size());  // what sizeof of the struct lays out
    for (const auto& m : c.data_members) interned(m.type), strings(m.extents), interned(m.align);
    interned(c.align), interned(c.unlaid);
  }
};

struct Reader {
  Reader(const std::string& bytes, size_t from, size_t to) : in(bytes), at(from), end(to) {}
  Reader(const std::string& bytes, size_t from) : Reader(bytes, from, bytes.size()) {}
  const std::string& in;
  size_t at = 0;
  size_t end = 0;
  bool ok = true;
  std::vector<std::string> table;  // the interned strings
  const std::string& interned() {
    static const std::string none;
    const uint64_t i = u64();
    if (i >= table.size()) return ok = false, none;
    return table[i];
  }
  uint64_t u64() {
    if (at + 8 > end) return ok = false, 0;
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(in[at + i])) << (8 * i);
    at += 8;
    return v;
  }
  std::string str() {
    const uint64_t n = u64();
    if (!ok || n > end - at) return ok = false, std::string();
    std::string s = in.substr(at, n);
    at += n;
    return s;
  }
  std::vector<std::string> strs() {
    const uint64_t n = u64();
    std::vector<std::string> v;
    for (uint64_t i = 0; ok && i < n; ++i) v.push_back(str());
    return v;
  }
  Declaration decl() {
    Declaration d;
    d.name = str(), d.text = str();
    d.scope = interned(), d.file = interned(), d.template_scope = interned();
    d.line = static_cast<int>(u64()), d.column = static_cast<int>(u64());
    const uint64_t flags = u64();
    d.language = (flags & 1U) ? SourceLanguage::kPython : SourceLanguage::kCpp;
    d.using_declaration = (flags & 2U) != 0;
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) d.template_params.push_back(interned());
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) d.template_defaults.push_back(interned());
    d.from_header = true;
    return d;
  }
  std::vector<std::string> strings() {
    std::vector<std::string> v;
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) v.push_back(interned());
    return v;
  }
  FunctionDef function() {
    FunctionDef f;
    f.decl = decl();
    f.raw_body = str();
    f.tparams = strings(), f.tdefaults = strings(), f.params = strings(), f.param_types = strings();
    f.param_defaults = strings();
    return f;
  }
  ClassDef klass() {
    ClassDef c;
    c.name = interned(), c.scope = interned(), c.members_scope = interned(), c.specialization = interned();
    c.file = interned();
    c.is_template = u64() != 0, c.line = static_cast<int>(u64());
    c.tparams = strings(), c.tdefaults = strings(), c.bases = strings();
    uint64_t members = u64();
    if (members > (end - at) / 24) members = 0, ok = false;  // (24 bytes each at least: a corrupt count)
    c.data_members.resize(members);
    for (auto& m : c.data_members) m.type = interned(), m.extents = strings(), m.align = interned();
    c.align = interned(), c.unlaid = interned();
    return c;
  }
};

}  // namespace

uint64_t fnv1a(const std::string& bytes, uint64_t seed) { return fnv1a(bytes.data(), bytes.size(), seed); }

uint64_t fnv1a(const char* bytes, size_t size, uint64_t seed) {
  uint64_t h = seed;
  for (size_t i = 0; i < size; ++i) h = (h ^ static_cast<unsigned char>(bytes[i])) * 1099511628211ull;
  return h;
}

HeaderCache::HeaderCache() {
  const char* dir = std::getenv("CUTEVIS_CACHE_DIR");
  if (dir && *dir) {
    if (std::string(dir) != "off") folder_ = dir;
    return;
  }
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) folder_ = std::string(xdg) + "/cutevis/headers";
  else if (const char* home = std::getenv("HOME"); home && *home)
    folder_ = std::string(home) + "/.cache/cutevis/headers";
}

bool HeaderCache::stat_file(const std::string& path, uint64_t& size, int64_t& mtime_ns) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  size = static_cast<uint64_t>(st.st_size);
  mtime_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
  return true;
}

uint64_t HeaderCache::binary_stamp() {
  static const uint64_t stamp = [] {
    uint64_t size = 0;
    int64_t mtime = 0;
    stat_file("/proc/self/exe", size, mtime);
    return fnv1a(std::to_string(size) + ":" + std::to_string(mtime) + ":" + std::to_string(sizeof(Declaration)));
  }();
  return stamp;
}

std::string HeaderCache::path_of(uint64_t key) const {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.cvh", static_cast<unsigned long long>(key));
  return folder_ + "/" + name;
}

std::optional<HeaderCacheEntry> HeaderCache::load(uint64_t key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(path_of(key), std::ios::binary);
  if (!in) return std::nullopt;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // magic, key, the table's offset, payload, table, checksum of all before it
  if (bytes.size() < sizeof kMagic + 24 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  Reader tail{bytes, bytes.size() - 8};
  Reader head{bytes, sizeof kMagic};
  if (head.u64() != key || tail.u64() != fnv1a(bytes.data(), bytes.size() - 8)) return std::nullopt;  // corrupt
  const uint64_t table_at = head.u64();
  if (table_at < head.at || table_at > bytes.size() - 8) return std::nullopt;
  Reader r{bytes, head.at, static_cast<size_t>(table_at)};
  Reader t{bytes, static_cast<size_t>(table_at), bytes.size() - 8};
  for (uint64_t n = t.u64(), i = 0; t.ok && i < n; ++i) r.table.push_back(t.str());
  if (!t.ok || t.at != t.end) return std::nullopt;
  HeaderCacheEntry e;
  for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) e.declarations.push_back(r.decl());
  for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) e.parameters.push_back(r.decl());
  for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) e.functions.push_back(r.function());
  for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) e.classes.push_back(r.klass());
  for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) {
    std::string name = r.str();
    e.macros_after[name] = r.str();
  }
  for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) {
    CachedFile f;
    f.path = r.str(), f.canonical = r.str(), f.size = r.u64(), f.mtime_ns = static_cast<int64_t>(r.u64());
    e.files.push_back(std::move(f));
  }
  e.not_found = r.strs();
  e.bytes_read = r.u64(), e.cute_skipped = r.u64(), e.system_skipped = r.u64(), e.repeated = r.u64();
  if (!r.ok || r.at != r.end) return std::nullopt;
  for (const CachedFile& f : e.files) {  // stale if any file it read changed
    uint64_t size = 0;
    int64_t mtime = 0;
    if (!stat_file(f.path, size, mtime) || size != f.size || mtime != f.mtime_ns) return std::nullopt;
  }
  return e;
}

void HeaderCache::store(uint64_t key, const HeaderCacheEntry& e) const {
  if (!enabled()) return;
  Writer w;
  w.u64(e.declarations.size());
  for (const auto& d : e.declarations) w.decl(d);
  w.u64(e.parameters.size());
  for (const auto& d : e.parameters) w.decl(d);
  w.u64(e.functions.size());
  for (const auto& f : e.functions) w.function(f);
  w.u64(e.classes.size());
  for (const auto& c : e.classes) w.klass(c);
  w.u64(e.macros_after.size());
  for (const auto& [name, value] : e.macros_after) w.str(name), w.str(value);
  w.u64(e.files.size());
  for (const auto& f : e.files)
    w.str(f.path), w.str(f.canonical), w.u64(f.size), w.u64(static_cast<uint64_t>(f.mtime_ns));
  w.strs(e.not_found);
  w.u64(e.bytes_read), w.u64(e.cute_skipped), w.u64(e.system_skipped), w.u64(e.repeated);
  Writer all;
  all.out.assign(kMagic, sizeof kMagic);
  all.u64(key);
  all.u64(all.out.size() + 8 + w.out.size());  // where the table starts
  all.out += w.out;
  all.u64(w.table.size());
  for (const std::string* s : w.table) all.str(*s);
  all.u64(fnv1a(all.out));
  std::error_code ec;
  fs::create_directories(folder_, ec);
  std::string temp = folder_ + "/.tmp-XXXXXX";
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return;
  size_t written = 0;
  while (written < all.out.size()) {
    const ssize_t n = ::write(fd, all.out.data() + written, all.out.size() - written);
    if (n <= 0) break;
    written += static_cast<size_t>(n);
  }
  const bool whole = written == all.out.size() && ::fsync(fd) == 0;
  ::close(fd);
  if (!whole || std::rename(temp.c_str(), path_of(key).c_str()) != 0) {
    std::remove(temp.c_str());
    return;
  }
  trim();
}

void HeaderCache::trim() const {
  struct Item {
    fs::path path;
    uint64_t size;
    fs::file_time_type time;
  };
  std::vector<Item> items;
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder_, ec)) {
    if (e.path().extension() != ".cvh") continue;
    std::error_code ec2;
    const uint64_t size = e.file_size(ec2);
    const auto time = e.last_write_time(ec2);
    if (ec2) continue;
    items.push_back({e.path(), size, time});
    total += size;
  }
  if (total <= kMaxCacheBytes) return;
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.time < b.time; });
  for (const Item& i : items) {  // the oldest first, until under the bound
    if (total <= kMaxCacheBytes) break;
    fs::remove(i.path, ec);
    total -= i.size;
  }
}

}  // namespace cutevis
