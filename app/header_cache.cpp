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
#include <stdexcept>
#include <string_view>
#include <unordered_map>

namespace cutevis {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'c', 'v', 'h', 'd', 'r', '0', '0', '7'};
constexpr size_t kPayloadAt = sizeof kMagic + 16;  // after the magic, the key and the table's offset

// The unqualified name of a declaration: what a lookup names it by.
std::string_view base_of(std::string_view name) {
  const size_t colon = name.rfind("::");
  return colon == std::string_view::npos ? name : name.substr(colon + 2);
}

// Whether a declaration scoped `template_scope` is a member of a struct template, not an alias
// template (Environment::add's test).
bool is_template_member(std::string_view name, std::string_view scope, std::string_view template_scope) {
  if (template_scope.empty()) return false;
  const bool alias = scope.empty() ? template_scope == name
                                   : template_scope.size() == scope.size() + 2 + name.size() &&
                                         template_scope.substr(0, scope.size()) == scope &&
                                         template_scope.substr(scope.size(), 2) == "::" &&
                                         template_scope.substr(scope.size() + 2) == name;
  return !alias;
}

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
  // A length in bytes, written before what it measures: u64(0) there, then set_length(at).
  void set_length(size_t at) {
    const uint64_t v = out.size() - at - 8;
    for (int i = 0; i < 8; ++i) out[at + i] = static_cast<char>((v >> (8 * i)) & 0xff);
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
  // Declarations, their count and length first (a deferred load steps over them); `at`
  // receives where each starts in the entry.
  void decls(const std::vector<Declaration>& ds, std::vector<uint64_t>& at) {
    u64(ds.size());
    const size_t length_at = out.size();
    u64(0);
    for (const Declaration& d : ds) at.push_back(kPayloadAt + out.size()), decl(d);
    set_length(length_at);
  }
  void decl(const Declaration& d) {  // (its name first: IndexedList::numbers_named reads it alone)
    str(d.name), str(d.text);
    interned(d.scope), interned(d.file), interned(d.template_scope);
    u64(static_cast<uint64_t>(d.line)), u64(static_cast<uint64_t>(d.column));
    u64((d.language == SourceLanguage::kPython ? 1U : 0U) | (d.using_declaration ? 2U : 0U));
    u64(d.template_params.size());
    for (const auto& p : d.template_params) interned(p);
    u64(d.template_defaults.size());
    for (const auto& p : d.template_defaults) interned(p);
  }
  // What a deferred load needs of a list of declarations written at `offsets` (in the entry),
  // so that loading reads it in place instead of walking the declarations: the offsets; the
  // declarations by hash of their name (`base`: unqualified), sorted, so that a lookup is a
  // binary search; the names in order of appearance, each once; and, with `base`, the files and
  // the first member of each struct template (Environment::add_deferred).
  void index(const std::vector<Declaration>& ds, const std::vector<uint64_t>& offsets, bool base) {
    u64(ds.size());
    for (uint64_t o : offsets) u64(o);
    std::vector<std::pair<uint64_t, uint64_t>> by_hash;
    std::vector<std::string_view> names;
    std::unordered_map<std::string_view, bool> seen, files, templates;
    for (size_t i = 0; i < ds.size(); ++i) {
      const std::string_view name = base ? base_of(ds[i].name) : std::string_view(ds[i].name);
      by_hash.emplace_back(fnv1a(name.data(), name.size()), i);
      if (seen.emplace(name, true).second) names.push_back(name);
    }
    std::sort(by_hash.begin(), by_hash.end());
    for (const auto& [hash, number] : by_hash) u64(hash), u64(number);
    u64(names.size());
    for (std::string_view n : names) interned(std::string(n));
    if (!base) return;
    std::vector<const std::string*> file_list;
    std::vector<std::pair<const Declaration*, size_t>> members;
    for (size_t i = 0; i < ds.size(); ++i) {
      const Declaration& d = ds[i];
      if (files.emplace(d.file, true).second) file_list.push_back(&d.file);
      if (is_template_member(d.name, d.scope, d.template_scope) && templates.emplace(d.template_scope, true).second)
        members.emplace_back(&d, i);
    }
    u64(file_list.size());
    for (const std::string* f : file_list) interned(*f);
    u64(members.size());
    for (const auto& [d, number] : members)
      interned(d->template_scope), u64(number), interned(std::string(base_of(d->name)));
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
  static uint64_t u64_at(std::string_view bytes, size_t at) {  // (the caller checked the bounds)
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
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

// A list of an entry's declarations (or parameters) read in place through the index the entry
// keeps (Writer::index): nothing decoded or hashed as the entry loads.
class IndexedList {
 public:
  // Reads the index `r` is at; `base`: by unqualified name (declarations) or as written (parameters).
  bool read(Reader& r, bool base) {
    base_ = base;
    bytes_ = r.in;
    count_ = r.u64();
    if (!r.ok || count_ > (r.end - r.at) / 24) return false;  // (an offset and a hash entry each)
    offsets_at_ = r.at;
    hashes_at_ = offsets_at_ + 8 * count_;
    r.at = hashes_at_ + 16 * count_;
    for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) names_.push_back(r.interned());
    return r.ok;
  }
  size_t size() const { return count_; }
  const std::vector<std::string_view>& names() const { return names_; }
  size_t offset(size_t i) const {
    if (i >= count_) throw std::out_of_range("no declaration " + std::to_string(i) + " in a header cache entry");
    return Reader::u64_at(bytes_, offsets_at_ + 8 * i);
  }
  // The numbers of those named `name`, in order: a binary search of the hashes, each candidate's
  // name compared (two names may share a hash).
  std::vector<size_t> numbers_named(std::string_view name) const {
    const uint64_t hash = fnv1a(name.data(), name.size());
    size_t lo = 0, hi = count_;
    while (lo < hi) {
      const size_t mid = lo + (hi - lo) / 2;
      if (Reader::u64_at(bytes_, hashes_at_ + 16 * mid) < hash) lo = mid + 1;
      else hi = mid;
    }
    std::vector<size_t> out;
    for (size_t i = lo; i < count_ && Reader::u64_at(bytes_, hashes_at_ + 16 * i) == hash; ++i) {
      const size_t number = Reader::u64_at(bytes_, hashes_at_ + 16 * i + 8);
      Reader r{bytes_, offset(number)};
      const std::string_view written = r.view();  // (a declaration starts with its name)
      if (r.ok && (base_ ? base_of(written) : written) == name) out.push_back(number);
    }
    return out;
  }

 private:
  std::string_view bytes_;
  bool base_ = true;
  size_t count_ = 0, offsets_at_ = 0, hashes_at_ = 0;
  std::vector<std::string_view> names_;  // each once, in order
};

// An entry's declarations left in its bytes, each decoded when a lookup names it.
class DeferredEntryDeclarations : public DeferredDeclarations {
 public:
  explicit DeferredEntryDeclarations(std::shared_ptr<const MappedEntry> entry) : entry_(std::move(entry)) {}

  // Reads the index (Writer::index) `r` is at.
  bool read_index(Reader& r) {
    if (!declarations_.read(r, true)) return false;
    for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) files_.emplace_back(r.interned());
    for (uint64_t n = r.u64(), i = 0; r.ok && i < n; ++i) {
      TemplateMember m;
      m.template_scope = r.interned(), m.number = r.u64(), m.name = r.interned();
      members_.push_back(m);
    }
    return r.ok && parameters_.read(r, false);
  }
  std::vector<std::string_view>& table() { return table_; }

  size_t size() const override { return declarations_.size(); }
  std::vector<std::string_view> names() const override { return declarations_.names(); }
  std::vector<size_t> numbers_named(std::string_view base) const override { return declarations_.numbers_named(base); }
  Declaration declaration(size_t i) const override { return decode(declarations_.offset(i)); }
  std::vector<std::string> files() const override { return files_; }
  std::vector<TemplateMember> class_template_members() const override { return members_; }

  size_t parameter_count() const override { return parameters_.size(); }
  std::vector<std::string_view> parameter_names() const override { return parameters_.names(); }
  std::vector<size_t> parameter_numbers_named(std::string_view name) const override {
    return parameters_.numbers_named(name);
  }
  Declaration parameter(size_t i) const override { return decode(parameters_.offset(i)); }

 private:
  Declaration decode(size_t offset) const {
    Reader r{entry_->bytes(), offset};
    r.table = &table_;
    return r.decl();
  }
  std::shared_ptr<const MappedEntry> entry_;
  std::vector<std::string_view> table_;  // the entry's interned strings
  IndexedList declarations_, parameters_;
  std::vector<std::string> files_;
  std::vector<TemplateMember> members_;
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
  // the declarations and parameters: stepped over (deferred: read through the index) or decoded
  auto declarations = [&](std::vector<Declaration>& out) {
    const uint64_t n = r.u64(), length = r.u64();
    if (!r.ok || length > r.end - r.at) return void(r.ok = false);
    const size_t after = r.at + length;
    if (deferred) r.at = after;
    for (uint64_t i = 0; !deferred && r.ok && i < n; ++i) out.push_back(r.decl());
    if (r.at != after) r.ok = false;
  };
  declarations(e.declarations);
  declarations(e.parameters);
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
  const uint64_t index_length = r.u64();  // the index, for a deferred load only
  if (!r.ok || index_length != r.end - r.at) return std::nullopt;
  if (deferred && !deferred->read_index(r)) return std::nullopt;
  if (deferred) e.deferred = deferred;
  else r.at = r.end;
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
  std::vector<uint64_t> declarations_at, parameters_at;
  w.decls(e.declarations, declarations_at);
  w.decls(e.parameters, parameters_at);
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
  const size_t index_at = w.out.size();
  w.u64(0);
  w.index(e.declarations, declarations_at, true);
  w.index(e.parameters, parameters_at, false);
  w.set_length(index_at);
  Writer all;
  all.out.assign(kMagic, sizeof kMagic);
  all.u64(key);
  all.u64(kPayloadAt + w.out.size());  // where the table starts
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
