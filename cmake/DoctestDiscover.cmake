# One ctest entry per doctest test case (doctest's own discovery module when the
# doctest package has it, else one entry for the whole executable).
if(doctest_DIR AND EXISTS "${doctest_DIR}/doctest.cmake")
  include("${doctest_DIR}/doctest.cmake")
endif()

function(cutevis_discover_tests target)
  if(COMMAND doctest_discover_tests)
    doctest_discover_tests(${target} ${ARGN})
  else()
    add_test(NAME ${target} COMMAND ${target})
    cmake_parse_arguments(D "" "TEST_PREFIX" "PROPERTIES" ${ARGN})
    if(D_PROPERTIES)
      set_tests_properties(${target} PROPERTIES ${D_PROPERTIES})
    endif()
  endif()
endfunction()
