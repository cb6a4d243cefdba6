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
