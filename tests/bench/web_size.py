"""The web site's size: see web_size.sh (which runs this).  Not a test.

Reads SITE/cutevis.js (SINGLE_FILE: the .wasm as base64 inside it) and, if present,
SITE/cutevis.wasm; prints bytes and `gzip -9` bytes, the .wasm's sections, and with
--funcs WASM (a module linked with --profiling-funcs) the code section by group of
functions: bytes, and each group's share of the code's gzipped size (each group's
bodies gzipped alone, scaled to the whole: an estimate, gzip's window spans groups).
"""
import argparse
import base64
import gzip
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

SECTION_NAMES = {0: "custom", 1: "type", 2: "import", 3: "function", 4: "table", 5: "memory",
                 6: "global", 7: "export", 8: "start", 9: "elem", 10: "code", 11: "data",
                 12: "datacount", 13: "tag"}


def gz(data: bytes) -> int:
    return len(gzip.compress(data, compresslevel=9, mtime=0))


def leb(buf: bytes, i: int):
    result = shift = 0
    while True:
        b = buf[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return result, i


def sections(wasm: bytes):
    assert wasm[:4] == b"\0asm", "not a wasm module"
    i = 8
    while i < len(wasm):
        sid = wasm[i]
        size, j = leb(wasm, i + 1)
        name = SECTION_NAMES.get(sid, str(sid))
        if sid == 0:
            n, k = leb(wasm, j)
            name = "custom:" + wasm[k:k + n].decode(errors="replace")
        yield sid, name, wasm[j:j + size]
        i = j + size


def wasm_from_js(js: bytes) -> bytes:
    m = re.search(rb"data:application/octet-stream;base64,([A-Za-z0-9+/=]+)", js)
    if not m:
        sys.exit("web_size: no base64 .wasm inside cutevis.js (not a SINGLE_FILE build?)")
    return base64.b64decode(m.group(1))


def function_names(wasm: bytes):
    names = {}
    imported = 0
    for sid, name, body in sections(wasm):
        if sid == 2:
            count, i = leb(body, 0)
            for _ in range(count):
                for _ in range(2):
                    n, i = leb(body, i)
                    i += n
                kind = body[i]
                i += 1
                if kind == 0:
                    _, i = leb(body, i)
                    imported += 1
                elif kind == 1:
                    i += 1
                    flags, i = leb(body, i)
                    _, i = leb(body, i)
                    if flags & 1:
                        _, i = leb(body, i)
                elif kind == 2:
                    flags, i = leb(body, i)
                    _, i = leb(body, i)
                    if flags & 1:
                        _, i = leb(body, i)
                elif kind == 3:
                    i += 2
                elif kind == 4:
                    i += 1
                    _, i = leb(body, i)
        if name == "custom:name":
            n, i = leb(body, 0)
            i += n
            while i < len(body):
                sub = body[i]
                size, i = leb(body, i + 1)
                end = i + size
                if sub == 1:
                    count, i = leb(body, i)
                    for _ in range(count):
                        idx, i = leb(body, i)
                        n, i = leb(body, i)
                        names[idx] = body[i:i + n].decode(errors="replace")
                        i += n
                i = end
    return names, imported


def code_bodies(wasm: bytes):
    for sid, _, body in sections(wasm):
        if sid == 10:
            count, i = leb(body, 0)
            for _ in range(count):
                size, j = leb(body, i)
                yield body[j:j + size]
                i = j + size


def demangle(names):
    mangled = [n for n in names if n.startswith("_Z")]
    if not mangled:
        return {n: n for n in names}
    out = subprocess.run(["c++filt"], input="\n".join(mangled), capture_output=True, text=True).stdout
    table = dict(zip(mangled, out.split("\n")))
    return {n: table.get(n, n) for n in names}


# First match wins: the third-party parts by name, then the engine by namespace or name.
GROUPS = [
    ("CLI11", r"\bCLI::"),
    ("nlohmann_json", r"nlohmann::"),
    ("std::regex", r"std::__2::(basic_regex|__match|__owns|__bracket|__loop|__state|regex_|__node|sub_match|match_results|__r_anchor|__l_anchor|__end_state|__empty|__alternate|__repeat|__back_ref|__word_boundary|__lookahead|__match_char|__match_any|__begin_marked|__end_marked)"),
    ("iostream/locale/stdio (libc++, libc)", r"std::__2::(basic_(i|o|io)stream|basic_(string|file)buf|basic_streambuf|basic_ios|ios_base|locale|ctype|codecvt|num_(put|get)|money|time_(get|put)|__time|collate|messages|numpunct|moneypunct|__num_|__money|__stdinbuf|__stdoutbuf|__do_str|use_facet|has_facet|__iom|setw|setprecision|__put_character|__pad_and_output|istreambuf|ostreambuf|__scan_keyword|__check_grouping|__get_|__widen|__narrow|wbuffer_convert|wstring_convert|__codecvt|__libcpp_|__cloc|__xlocale|.*locale)|^(vfprintf|printf_core|fmt_|pop_arg|__strto|strto|__floatscan|__intscan|scanf|vfscanf|snprintf|vsnprintf|sprintf|fprintf|__fwrite|fwrite|__stdio|__towrite|__overflow|fputs|__lockfile|wcs|mbr|mbs|wcr|__mbr|__uflow|__shlim|__shgetc|decfloat|hexfloat|scanexp|frexp|fmt_fp|wctomb|wcrtomb|mbtowc|btowc|wctob|__ctype|isw|tow|__newlocale|newlocale|freelocale|uselocale|__get_locale|__nl_langinfo|strcoll|strxfrm|wcscoll|wcsxfrm|strftime|__strftime|wcsftime|__lctrans|__loc_|__tolower|__toupper|__isw|catopen|catgets)"),
    ("std::string/containers/other libc++", r"^std::__2::"),
    ("libc/libc++abi/runtime", r"^(__cxa|__cxxabiv1|__dynamic_cast|__gxx|_Unwind|__cxx|abort_message|dlmalloc|dlfree|dlrealloc|sbrk|malloc|free|memcpy|memmove|memset|memcmp|strlen|str|__memcpy|__stdio|__lock|__unlock|emscripten|__wasm|__syscall|__errno|__emscripten|operator new|operator delete|demangling_|\(anonymous namespace\)::itanium_demangle|is_equal|__fp|__ashl|__lshr|__mul|__div|__ext|__trunc|__float|__fix|__unord|__eq|__ne|__lt|__gt|__le|__ge|__addtf|__subtf|__multf|__divtf|fmod|pow|log|exp|scalbn|copysign|__sin|__cos|sin|cos|ceil|floor|round|sqrt|__rem|dummy|abort|exit|_start|__original_main|__main_argc|stackAlloc|stackSave|stackRestore|dynCall|__funcs_on_exit|__ofl|__wasi|fflush|fclose|__stdout|__towrite|isdigit|isspace|isalpha|isxdigit|toupper|tolower|qsort|sift|trinkle|shr|shl|pntz|cycle|wmem|__pthread|pthread|__emutls|atoi|atol|getenv|__env|__init|__set_|sn_write|__memrchr|memchr|memrchr|__small|__string_read|__strchrnul|__stpcpy|__stpncpy|__lctrans|fmt_u|out|pad|getint|vsniprintf|\$)"),
    ("cutevis lang (expression/C++/DSL readers)", r"cutevis::lang|cutevis::(cpp|dsl|snippet|python|paste)|\bParser\b|lex|Lexer|Tokenizer"),
    ("cutevis verify (host side)", r"cutevis::verify|verify_"),
    ("cutevis renderers", r"cutevis::(render|svg|html|tikz|latex|text_|draw|palette|Svg|Html|Tikz|Latex|Text|Picture|Canvas|Grid|Cell)|svg_|html_|tikz_|latex_|_svg|_html|_tikz"),
    ("cutevis atoms catalogue", r"cutevis::(mma|copy|atom|Mma|Copy|Atom|gmma|umma|smem|tiled|Tiled|blockscaled|dsl_|tma|Tma|tmem|sf_)|atom|catalogue|_names|mma_|copy_"),
    ("cutevis app (commands, JSON, output)", r"cutevis::(app|command|cmd|run_|json|Json|output|inspect|diagnos|input|sources|includes|header|paths|batch|docs|check)|main|commands|json"),
    ("cutevis lib (layout algebra and the rest)", r"cutevis::"),
]


def group_of(name: str) -> str:
    for group, pattern in GROUPS:
        if re.search(pattern, name):
            return group
    return "other (unnamed or unmatched)"


def defining_files(objects):
    """Demangled name -> 'library/source' of the object file whose strong definition it is
    (llvm-nm over the objects and static libraries the site links)."""
    where = {}
    for obj in objects:
        out = subprocess.run(["llvm-nm", "-C", "--defined-only", "-A", str(obj)],
                             capture_output=True, text=True).stdout
        lib = obj.stem.replace("libcutevis_", "")
        for line in out.splitlines():
            head, _, rest = line.partition(": ")
            parts = rest.split(" ", 2)
            if len(parts) < 3 or parts[1] not in ("T", "t"):
                continue
            member = head.rsplit(":", 1)[-1] if obj.suffix == ".a" else obj.name
            where.setdefault(parts[2], f"{lib}/{member.removesuffix('.o').removesuffix('.cpp')}")
    return where


def report_funcs(path: Path, top: int, objects):
    wasm = path.read_bytes()
    names, imported = function_names(wasm)
    bodies = list(code_bodies(wasm))
    if not names:
        sys.exit(f"web_size: {path} has no name section (link with --profiling-funcs)")
    pretty = demangle(list(names.values()))
    groups = defaultdict(lambda: [0, 0, bytearray()])
    where = defining_files(objects) if objects else {}
    largest = []
    for k, body in enumerate(bodies):
        raw = names.get(imported + k, "")
        name = pretty.get(raw, raw)
        key = group_of(name)
        if where and key.startswith("cutevis"):
            # the engine by the file that defines it (templates and inline functions: by name)
            key = "cutevis " + where.get(name, "(inline or template) " + key.removeprefix("cutevis "))
        g = groups[key]
        g[0] += len(body)
        g[1] += 1
        g[2] += body
        largest.append((len(body), name))
    total = sum(g[0] for g in groups.values())
    gz_parts = {k: gz(bytes(g[2])) for k, g in groups.items()}
    gz_sum = sum(gz_parts.values())
    print(f"\ncode by group ({path.name}: {len(bodies)} functions, {total:,} bytes of bodies):")
    print(f"{'group':60} {'functions':>9} {'bytes':>11} {'share':>6} {'gz share':>8}")
    for k, g in sorted(groups.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"{k[:60]:60} {g[1]:9,} {g[0]:11,} {100 * g[0] / total:5.1f}% {100 * gz_parts[k] / gz_sum:7.1f}%")
    print(f"\nlargest {top} functions:")
    for size, name in sorted(largest, reverse=True)[:top]:
        print(f"{size:9,}  {name[:150]}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site", type=Path)
    ap.add_argument("--funcs", type=Path)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--objects", type=Path, nargs="*", help="the objects and .a linked: group the engine by file")
    args = ap.parse_args()
    js = (args.site / "cutevis.js").read_bytes()
    wasm = wasm_from_js(js)
    print(f"{'file':40} {'bytes':>11} {'gzip -9':>11}")
    print(f"{'.wasm (inside cutevis.js)':40} {len(wasm):11,} {gz(wasm):11,}")
    print(f"{'cutevis.js (SINGLE_FILE)':40} {len(js):11,} {gz(js):11,}")
    plain = args.site / "cutevis.wasm"
    if plain.exists():
        p = plain.read_bytes()
        same = "same as inside" if p == wasm else "DIFFERS from the one inside cutevis.js"
        print(f"{'cutevis.wasm (beside, ' + same + ')':40} {len(p):11,} {gz(p):11,}")
    print(f"\nsections of the .wasm:\n{'section':24} {'bytes':>11} {'gzip -9':>11}")
    for _, name, body in sections(wasm):
        print(f"{name:24} {len(body):11,} {gz(body):11,}")
    if args.funcs:
        report_funcs(args.funcs, args.top, args.objects)


if __name__ == "__main__":
    main()
