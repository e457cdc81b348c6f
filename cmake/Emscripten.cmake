# WebAssembly (emscripten: `emcmake cmake`, scripts/build-web.sh): the settings the
# engine needs there, then web/ adds the site.  The native build never reads this file.
#
# Header-only dependencies: emscripten's find_path looks only inside its own sysroot,
# and /usr/include as a whole must not be seen (glibc's headers would shadow musl's), so
# a folder of links to just those headers stands in for it.
set(CUTEVIS_HOST_INCLUDE /usr/include CACHE PATH "where CLI/, nlohmann/ and doctest/ are (header-only)")
set(host_headers ${PROJECT_BINARY_DIR}/host-headers)
foreach(dep CLI nlohmann doctest)
  if(EXISTS ${CUTEVIS_HOST_INCLUDE}/${dep} AND NOT EXISTS ${host_headers}/${dep})
    file(MAKE_DIRECTORY ${host_headers})
    file(CREATE_LINK ${CUTEVIS_HOST_INCLUDE}/${dep} ${host_headers}/${dep} SYMBOLIC)
  endif()
endforeach()
set(CLI11_INCLUDE_DIR ${host_headers} CACHE PATH "")
set(nlohmann_json_INCLUDE_DIR ${host_headers} CACHE PATH "")
set(doctest_INCLUDE_DIR ${host_headers} CACHE PATH "")

# No Cairo, no CUDA: the browser draws PNGs from the SVG through its canvas.
set(CUTEVIS_PNG OFF CACHE STRING "" FORCE)
set(CUTEVIS_CUDA OFF CACHE STRING "" FORCE)

# WebAssembly's own exceptions: with -fexceptions (JavaScript trampolines around every
# call that may throw) evaluation is about 5x slower.  Memory grows: `list` needs more
# than the initial 16 MB.
add_compile_options(-fwasm-exceptions)
add_link_options(-fwasm-exceptions -sALLOW_MEMORY_GROWTH=1)

# libc++ without std::function::target()/target_type() and shared_ptr's get_deleter, which
# nothing here calls (_LIBCPP_NO_RTTI: what libc++ sets itself under -fno-rtti, which cutevis
# cannot take: dynamic_cast).  Each lambda held in a std::function otherwise brings its
# type_info, mangled name and target(): 39 KB of the .wasm, 8.8 KB gzipped (README, "In the
# browser").  Only header code changes: the classes libc++ compiled itself declare the same
# virtual functions either way (__shared_weak_count::__get_deleter), so nothing is laid out anew.
add_compile_definitions(_LIBCPP_NO_RTTI)

# Size, measured on the site (.wasm bytes / gzip -9 bytes, tests/bench/web_size.sh; README, "In
# the browser"), each step on top of the one before:
#   -Os (MinSizeRel)                                    1,892,800 / 711,190
#   -Oz for every file                                  1,886,251 / 708,010
#   + the WebAssembly features below, no thread-safe
#     statics, no static destructors                    1,883,953 / 707,036
#   + emmalloc (web/CMakeLists.txt)                     1,875,887 / 704,101
# The engine's CPU time per request under node (eval, atom/mma --html, copy --analyze, list):
# the same within the noise (3%) for the first three; with emmalloc 0-8% more in three sessions
# (at most 1 ms).  -Oz only for MinSizeRel, the site's build.
add_compile_options($<$<CONFIG:MinSizeRel>:-Oz>)
# Features every current browser and node 20 have (Chromium 75, Firefox 79, Safari 15): float to
# int without the guards around each conversion, sign extension and bulk memory in one instruction.
set(cutevis_wasm_features -mbulk-memory -mnontrapping-fptoint -msign-ext -mmutable-globals)
add_compile_options(${cutevis_wasm_features})
add_link_options(${cutevis_wasm_features})
# No threads here, so no guard calls around function-local statics; and static destructors never
# run (EXIT_RUNTIME=0: the page and the tests' node runs end without them), so none is emitted.
add_compile_options(-fno-threadsafe-statics -fno-c++-static-destructors)

# scripts/build-web.sh --lto: link-time optimisation.  It made the .wasm 5% smaller gzipped while
# CLI11 and iostream were in it; without them it is larger (616,056 bytes gzipped against 614,469),
# for twice the CPU time of a clean build: not what is published.
option(CUTEVIS_WEB_LTO "WebAssembly: compile and link with -flto" OFF)
if(CUTEVIS_WEB_LTO)
  add_compile_options(-flto)
  add_link_options(-flto)
endif()

# Tests run under node (ctest prepends the emulator; cmake/DoctestAddTests.cmake too).
# Debian's node 20 has a global fetch, which emscripten 3.1.6's loader would use to
# read the .wasm from a file path.
find_program(CUTEVIS_NODE NAMES node nodejs REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR "${CUTEVIS_NODE};--no-experimental-fetch" CACHE STRING "" FORCE)
# The test executables read tests/data from the real file system.
add_link_options($<$<NOT:$<STREQUAL:$<TARGET_PROPERTY:NAME>,cutevis_web>>:-sNODERAWFS=1>)
