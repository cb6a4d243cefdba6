# Shared build settings and small helpers for diffsched targets.

# diffsched_warnings(target): the project's warning set on a target.
function(diffsched_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wshadow
                         -Wno-missing-field-initializers)
  if(DIFFSCHED_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

# diffsched_add_property(name SOURCES ... [LABELS ...]): a GoogleTest +
# RapidCheck binary registered with ctest, one ctest test per gtest case.
function(diffsched_add_property name)
  cmake_parse_arguments(ARG "" "" "SOURCES;LABELS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE diffsched_core GTest::gtest GTest::gtest_main
                                        rapidcheck rapidcheck_gtest)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/properties)
  diffsched_warnings(${name})
  gtest_discover_tests(${name} TEST_PREFIX "${name}." PROPERTIES LABELS "${ARG_LABELS}"
                       DISCOVERY_TIMEOUT 60)
endfunction()

# diffsched_add_fuzzer(name source): a libFuzzer target, written to
# <build>/fuzz/<source name without .cpp>. Needs clang and the fuzz presets'
# -fsanitize=fuzzer-no-link on everything else.
function(diffsched_add_fuzzer name source)
  get_filename_component(stem ${source} NAME_WE)
  add_executable(${name} ${source})
  target_link_libraries(${name} PRIVATE diffsched_core)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer)
  set_target_properties(${name} PROPERTIES OUTPUT_NAME ${stem}
                                           RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
  diffsched_warnings(${name})
endfunction()
