#include "app/header_cache.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <unordered_map>

namespace cutevis {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'c', 'v', 'h', 'd', 'r', '0', '0', '5'};

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
  Reader(std::string_view bytes, size_t from, size_t to) : in(bytes), at(from), end(to) {}
  Reader(std::string_view bytes, size_t from) : Reader(bytes, from, bytes.size()) {}
  std::string_view in;
  size_t at = 0;
  size_t end = 0;
  bool ok = true;
  const std::vector<std::string_view>* table = nullptr;  // the interned strings (views of `in`)
  std::string_view interned() {
    const uint64_t i = u64();
    if (!table || i >= table->size()) return ok = false, std::string_view();
    return (*table)[i];
  }
  std::string_view view() {  // a string, in place
    const uint64_t n = u64();
    if (!ok || n > end - at) return ok = false, std::string_view();
    std::string_view s(in.data() + at, n);
    at += n;
    return s;
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
    std::string s(in.substr(at, n));
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
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) d.template_params.emplace_back(interned());
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) d.template_defaults.emplace_back(interned());
    d.from_header = true;
    return d;
  }
  // What a deferred declaration's index needs of it; the reading moves past it as decl() does.
  struct DeclHead {
    std::string_view name, scope, file, template_scope;
  };
  DeclHead skip_decl() {
    DeclHead h;
    h.name = view(), view();
    h.scope = interned(), h.file = interned(), h.template_scope = interned();
    u64(), u64(), u64();
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) interned();
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) interned();
    return h;
  }
  std::vector<std::string> strings() {
    std::vector<std::string> v;
    for (uint64_t n = u64(), i = 0; ok && i < n && i < 4096; ++i) v.emplace_back(interned());
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

// An entry's bytes, mapped (read-only, private: an entry is replaced by rename, never written in
// place, so the mapping stays whole).
class MappedEntry {
 public:
  explicit MappedEntry(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (p != MAP_FAILED) data_ = static_cast<const char*>(p), size_ = static_cast<size_t>(st.st_size);
    }
    ::close(fd);
  }
  ~MappedEntry() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedEntry(const MappedEntry&) = delete;
  MappedEntry& operator=(const MappedEntry&) = delete;
  std::string_view bytes() const { return {data_, size_}; }

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

// An entry's declarations left in its bytes: indexed by unqualified name as the entry is
// loaded (no string copied), each decoded when a lookup names it.
class DeferredEntryDeclarations : public DeferredDeclarations {
 public:
  explicit DeferredEntryDeclarations(std::shared_ptr<const MappedEntry> entry) : entry_(std::move(entry)) {}

  // Indexes the declarations `r` is at (n of them), moving r past them.
  void index(Reader& r, uint64_t n) {
    std::unordered_map<std::string_view, bool> files, templates;
    for (uint64_t i = 0; r.ok && i < n; ++i) {
      offsets_.push_back(r.at);
      const Reader::DeclHead h = r.skip_decl();
      const size_t colon = h.name.rfind("::");
      const std::string_view base = colon == std::string_view::npos ? h.name : h.name.substr(colon + 2);
      auto [it, added] = by_name_.try_emplace(base);
      if (added) names_.push_back(base);
      it->second.push_back(i);
      if (files.emplace(h.file, true).second) files_.emplace_back(h.file);
      // a member of a struct template, not an alias template (Environment::add's test)
      const bool alias = h.scope.empty() ? h.template_scope == h.name
                                         : h.template_scope.size() == h.scope.size() + 2 + h.name.size() &&
                                               h.template_scope.substr(0, h.scope.size()) == h.scope &&
                                               h.template_scope.substr(h.scope.size(), 2) == "::" &&
                                               h.template_scope.substr(h.scope.size() + 2) == h.name;
      if (!h.template_scope.empty() && !alias && templates.emplace(h.template_scope, true).second)
        members_.push_back({h.template_scope, static_cast<size_t>(i), base});
    }
  }
  // Indexes the parameters `r` is at (n of them), moving r past them.
  void index_parameters(Reader& r, uint64_t n) {
    for (uint64_t i = 0; r.ok && i < n; ++i) {
      parameter_offsets_.push_back(r.at);
      auto [it, added] = parameters_by_name_.try_emplace(r.skip_decl().name);
      if (added) parameter_names_.push_back(it->first);
      it->second.push_back(i);
    }
  }
  std::vector<std::string_view>& table() { return table_; }

  size_t parameter_count() const override { return parameter_offsets_.size(); }
  std::vector<std::string_view> parameter_names() const override { return parameter_names_; }
  std::vector<size_t> parameter_numbers_named(std::string_view name) const override {
    auto it = parameters_by_name_.find(name);
    return it == parameters_by_name_.end() ? std::vector<size_t>{}
                                           : std::vector<size_t>(it->second.begin(), it->second.end());
  }
  Declaration parameter(size_t i) const override {
    Reader r{entry_->bytes(), parameter_offsets_.at(i)};
    r.table = &table_;
    return r.decl();
  }

  size_t size() const override { return offsets_.size(); }
  std::vector<std::string_view> names() const override { return names_; }
  std::vector<size_t> numbers_named(std::string_view base) const override {
    auto it = by_name_.find(base);
    return it == by_name_.end() ? std::vector<size_t>{} : std::vector<size_t>(it->second.begin(), it->second.end());
  }
  Declaration declaration(size_t i) const override {
    Reader r{entry_->bytes(), offsets_.at(i)};
    r.table = &table_;
    return r.decl();
  }
  std::vector<std::string> files() const override { return files_; }
  std::vector<TemplateMember> class_template_members() const override { return members_; }

 private:
  std::shared_ptr<const MappedEntry> entry_;
  std::vector<std::string_view> table_;  // the entry's interned strings
  std::vector<size_t> offsets_;          // of each declaration in the entry
  std::vector<std::string_view> names_;  // unqualified, each once, in order
  std::unordered_map<std::string_view, std::vector<uint32_t>> by_name_;
  std::vector<std::string> files_;
  std::vector<TemplateMember> members_;
  std::vector<size_t> parameter_offsets_;
  std::vector<std::string_view> parameter_names_;
  std::unordered_map<std::string_view, std::vector<uint32_t>> parameters_by_name_;
};

// An entry's checksum: four interleaved multiply-xor chains over 8-byte words (fnv1a's byte at a
// time took 5% of a warm run over a 7 MB entry; this reads ~1 GB/s), then the tail's bytes.
uint64_t entry_checksum(const char* bytes, size_t size) {
  uint64_t lane[4] = {0x9e3779b97f4a7c15ull, 0xc2b2ae3d27d4eb4full, 0x165667b19e3779f9ull, 0x27d4eb2f165667c5ull};
  size_t i = 0;
  for (; i + 32 <= size; i += 32)
    for (int k = 0; k < 4; ++k) {
      uint64_t w;
      std::memcpy(&w, bytes + i + 8 * k, 8);
      lane[k] = (lane[k] ^ w) * 0x100000001b3ull;
      lane[k] ^= lane[k] >> 29;
    }
  uint64_t h = fnv1a(bytes + i, size - i, size);
  for (uint64_t l : lane) h = (h ^ l) * 0x100000001b3ull, h ^= h >> 32;
  return h;
}

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

std::optional<HeaderCacheEntry> HeaderCache::load(uint64_t key, bool defer) const {
  if (!enabled()) return std::nullopt;
  // (mapped: reading 7 MB into a string, zeroed first, cost more than the rest of the load)
  auto stored = std::make_shared<const MappedEntry>(path_of(key));
  const std::string_view bytes = stored->bytes();
  // magic, key, the table's offset, payload, table, checksum of all before it
  if (bytes.size() < sizeof kMagic + 24 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) return std::nullopt;
  Reader tail{bytes, bytes.size() - 8};
  Reader head{bytes, sizeof kMagic};
  if (head.u64() != key || tail.u64() != entry_checksum(bytes.data(), bytes.size() - 8))
    return std::nullopt;  // corrupt
  const uint64_t table_at = head.u64();
  if (table_at < head.at || table_at > bytes.size() - 8) return std::nullopt;
  Reader r{bytes, head.at, static_cast<size_t>(table_at)};
  Reader t{bytes, static_cast<size_t>(table_at), bytes.size() - 8};
  std::shared_ptr<DeferredEntryDeclarations> deferred;
  std::vector<std::string_view> table;
  if (defer) deferred = std::make_shared<DeferredEntryDeclarations>(stored);
  std::vector<std::string_view>& strings = deferred ? deferred->table() : table;
  for (uint64_t n = t.u64(), i = 0; t.ok && i < n; ++i) strings.push_back(t.view());
  if (!t.ok || t.at != t.end) return std::nullopt;
  r.table = &strings;
  HeaderCacheEntry e;
  if (deferred) {
    deferred->index(r, r.u64());
    e.deferred = deferred;
  } else {
    for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) e.declarations.push_back(r.decl());
  }
  if (deferred) deferred->index_parameters(r, r.u64());
  else
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
  all.u64(entry_checksum(all.out.data(), all.out.size()));
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
