# Whole-process timings of the cutevis command (a benchmark, not a test).
add_executable(cutevis_cli_bench ${CMAKE_CURRENT_LIST_DIR}/cli_wall.cpp)
target_compile_definitions(cutevis_cli_bench PRIVATE CUTEVIS_BINARY="$<TARGET_FILE:cutevis>")
target_link_libraries(cutevis_cli_bench PRIVATE cutevis_warnings)
add_dependencies(cutevis_cli_bench cutevis)
