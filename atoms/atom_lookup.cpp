#include "atoms/atom_lookup.hpp"

#include <cctype>

#include "atoms/atom_suggestions.hpp"
#include "atoms/copy_catalogue.hpp"
#include "atoms/mma_catalogue.hpp"
#include "lib/error.hpp"

namespace cutevis {

bool looks_like_copy(const std::string& name) {
  for (const char* k : {"Copy", "LDSM", "STSM", "CP_ASYNC", "TMA", "LDS", "UniversalCopy", "COPY"})
    if (name.find(k) != std::string::npos) return true;
  return false;
}

// The MMA catalogue first, then the copy catalogue; a trailing `{}` and spaces are ignored.
std::variant<MmaAtom, CopyAtom> find_atom(std::string name) {
  while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back()))) name.pop_back();
  if (name.size() > 2 && name.compare(name.size() - 2, 2, "{}") == 0) name.resize(name.size() - 2);
  // one catalogue's message is shown: only that one searches for suggestions (a search lists all
  // its names; the copy catalogue's builds every copy atom: 10-20 ms each)
  const bool copy_like = looks_like_copy(name);
  std::string mma_error;
  try {
    return find_mma_atom(name, !copy_like);
  } catch (const Error& e) {
    mma_error = e.what();
  }
  try {
    return find_copy_atom(name, copy_like);
  } catch (const Error& e) {
    throw Error(copy_like ? e.what() : mma_error);
  }
}

}  // namespace cutevis
