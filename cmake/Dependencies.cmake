# Header-only dependencies from Debian's packages (libcli11-dev, nlohmann-json3-dev,
# doctest-dev).  Prefer their CMake packages; fall back to the bare headers, which is
# all some machines (the GPU machine) have.
function(cutevis_header_dep target package header)
  if(TARGET ${target})
    return()
  endif()
  find_package(${package} CONFIG QUIET)
  if(TARGET ${target})
    return()
  endif()
  find_path(${package}_INCLUDE_DIR ${header})
  if(NOT ${package}_INCLUDE_DIR)
    message(FATAL_ERROR "cutevis needs ${header} (${package}); run scripts/setup.sh")
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${${package}_INCLUDE_DIR}")
endfunction()

cutevis_header_dep(CLI11::CLI11 CLI11 CLI/CLI.hpp)
cutevis_header_dep(nlohmann_json::nlohmann_json nlohmann_json nlohmann/json.hpp)
