// cutevis — the conditional part of the C preprocessor, so that a kernel file is read as one
// compile would read it:
//
//   #if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800     (--arch sm80 or -D __CUDA_ARCH__=800)
//   using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, ...>;
//   #else
//   using TiledMma = TiledMMA<MMA_Atom<UniversalFMA<float>>, ...>;
//   #endif
//
// #if/#ifdef/#ifndef/#elif/#else/#endif are evaluated with the given values (-D, --arch) and the
// file's own object-like #define/#undef; a macro nothing defines is 0, as in C, so without a value
// the branch a host compile takes is read — and a note names the condition, its line and the -D or
// --arch that chooses.  Include guards (#ifndef X followed by #define X) need no note.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cutevis {

struct PreprocessorNote {
  int line = 0;  // 1-based, in the file
  std::string message;
  // For a condition decided without a value: which branch was read, short enough for a
  // picture's legend ("#if __CUDA_ARCH__ >= 800 is false"); "" for other notes.
  std::string branch;
};

// What a condition's value is made of: its integer, and the macros it read that nothing defines.
struct ConditionValue {
  int64_t value = 0;
  std::vector<std::string> undefined;  // in order of first use
  bool readable = true;                // false: not an expression of the preprocessor (then 0)
};

// `expression` as #if reads it: defined(X), integers, macros (their values read in turn; a
// macro nothing defines is 0), ! ~ - + * / % << >> < <= > >= == != & ^ | && || ?: and parentheses.
// `expansions_left`: macro expansions this condition may still make, shared by a file's
// conditions (nullptr: only the per-condition bound, 10,000); past it the condition is unreadable.
ConditionValue evaluate_condition(std::string_view expression, const std::map<std::string, std::string>& macros,
                                  size_t* expansions_left = nullptr);

// `#include "x.hpp"` / `#include <x.hpp>`: the directive's text after `#` -> the name and whether it
// is in angle brackets; false for any other directive (or a computed #include MACRO).
bool include_directive(std::string_view directive, std::string& name, bool& angled);

// The `--arch smXX` value as the macros it defines: __CUDA_ARCH__ = XX*10 and __CUDACC__.
// Throws Error for a spelling that is not an architecture.
std::map<std::string, std::string> arch_macros(const std::string& arch);

// The state of #if groups while a file is read line by line.
class Conditionals {
 public:
  // `given`: -D and --arch values; they win over the file's #define of the same name.
  explicit Conditionals(std::map<std::string, std::string> given = {});

  // One directive (the text after `#`, continuation lines joined) at a 1-based line.
  // #define NAME VALUE and #undef in an active part change the macros; the rest are ignored.
  void directive(std::string_view text, int line);
  // Whether the lines after the last directive are read.
  bool active() const { return inactive_depth_ == 0; }
  // Notes for the conditions decided without a value (one per set of macros, naming every line),
  // and for unbalanced groups; the end of the file should have been reached.
  std::vector<PreprocessorNote> notes() const;
  const std::map<std::string, std::string>& macros() const { return macros_; }
  // The macros after an #include read the header (its #define/#undef); -D values still win.
  void set_macros(std::map<std::string, std::string> macros);

 private:
  struct Group {
    bool taken = false;  // a branch of this group was read (no later one is)
    bool parent_active = true;
    bool active = false;  // the current branch is read
    bool saw_else = false;
    int line = 0;
  };
  struct Unasked {  // conditions decided without a value for some macros
    std::vector<std::string> macros;
    std::vector<int> lines;
    std::string first_condition;  // as written: "#if X >= 800", "#ifdef X"
    bool first_value = false;
    std::optional<int64_t> compared;  // a number the condition compares with (an architecture hint)
  };
  bool condition(std::string_view word, std::string_view expression, int line);
  void open(bool value, int line);
  void note_unasked(const ConditionValue& v, std::string_view expression, int line);

  std::map<std::string, std::string> given_, macros_;
  std::vector<Group> groups_;
  int inactive_depth_ = 0;
  std::vector<Unasked> unasked_;
  std::map<std::string, size_t> unasked_index_;
  size_t expansions_left_ = 200000;  // macro expansions for the whole file (#define M1 (M0+M0), ...)  // sorted macro
                                     // names, joined by '\n' -> index in unasked_
  std::vector<PreprocessorNote> problems_;
  std::string pending_guard_;  // #ifndef X not yet followed by a directive: an include guard if #define X
  int pending_guard_line_ = 0;
  ConditionValue pending_guard_value_;
};

}  // namespace cutevis
