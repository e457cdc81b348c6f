# One ctest entry per doctest test case, discovered after each build of the test
# executable (cmake/DoctestAddTests.cmake writes the add_test calls).
# Why not doctest's own doctest_discover_tests (doctest-dev's /usr/lib/cmake/doctest):
# tried with 2.4.9, it splits a name holding ';' into two tests (the second runs no case
# and passes), drops the space after TEST_PREFIX ("gpu:name"), and the GPU machine has
# doctest's header without its CMake package (cmake/Dependencies.cmake).  Ours keeps one
# entry per case under its own name, [ ] ; shown as ( ) , so that CMake's lists survive.
# A cross build (emscripten) lists and runs the cases through CMAKE_CROSSCOMPILING_EMULATOR.
#   cutevis_discover_tests(target [TEST_PREFIX prefix] [PROPERTIES name value ...])
function(cutevis_discover_tests target)
  cmake_parse_arguments(D "" "TEST_PREFIX" "PROPERTIES" ${ARGN})
  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_ctest.cmake")
  # Quote each property value for the generated file.
  set(quoted "")
  foreach(p IN LISTS D_PROPERTIES)
    string(APPEND quoted " [==[${p}]==]")
  endforeach()
  string(REPLACE ";" "<sc>" props "${D_PROPERTIES}")
  if(NOT EXISTS "${ctest_file}")
    file(WRITE "${ctest_file}" "add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n")
  endif()
  add_custom_command(TARGET ${target} POST_BUILD
    COMMAND "${CMAKE_COMMAND}"
            "-DTEST_EXECUTABLE=$<TARGET_FILE:${target}>"
            "-DTEST_PREFIX=${D_TEST_PREFIX}"
            "-DCTEST_FILE=${ctest_file}"
            "-DTEST_PROPERTIES=${props}"
            "-DTEST_PROPERTIES_QUOTED=${quoted}"
            "-DTEST_EMULATOR=${CMAKE_CROSSCOMPILING_EMULATOR}"
            -P "${PROJECT_SOURCE_DIR}/cmake/DoctestAddTests.cmake"
    VERBATIM)
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${ctest_file}")
endfunction()
