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
  target_link_libraries(${name} PRIVATE diffsched_kcheck GTest::gtest GTest::gtest_main
                                        rapidcheck rapidcheck_gtest)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/properties)
  diffsched_warnings(${name})
  gtest_discover_tests(${name} TEST_PREFIX "${name}." PROPERTIES LABELS "${ARG_LABELS}"
                       DISCOVERY_TIMEOUT 60)
endfunction()

# The fuzz engine the fuzz targets link (the LLVMFuzzerTestOneInput harness
# is the same for all three):
#   libfuzzer  -fsanitize=fuzzer (clang; presets fuzz, fuzz-nosan)
#   afl        AFL++'s libFuzzer-compatible driver DIFFSCHED_AFL_DRIVER; the
#              compiler must be afl-clang-fast++ (preset afl), which adds
#              AFL's instrumentation; no -fsanitize=fuzzer anywhere
#   external   whatever DIFFSCHED_LIB_FUZZING_ENGINE says (default: the
#              environment's $LIB_FUZZING_ENGINE, as OSS-Fuzz and
#              ClusterFuzzLite set it; .clusterfuzzlite/build.sh)
set(DIFFSCHED_FUZZ_ENGINE "libfuzzer" CACHE STRING "Fuzz engine: libfuzzer, afl or external")
set_property(CACHE DIFFSCHED_FUZZ_ENGINE PROPERTY STRINGS libfuzzer afl external)
set(DIFFSCHED_AFL_DRIVER "/usr/lib/afl/libAFLDriver.a" CACHE FILEPATH
    "AFL++'s libFuzzer driver (engine afl)")
set(DIFFSCHED_LIB_FUZZING_ENGINE "$ENV{LIB_FUZZING_ENGINE}" CACHE STRING
    "Link flags of the fuzzing engine (engine external)")

# diffsched_fuzz_engine_check(): fails the configure step with one line if
# the selected engine cannot be used.
function(diffsched_fuzz_engine_check)
  if(DIFFSCHED_FUZZ_ENGINE STREQUAL "afl")
    if(NOT CMAKE_CXX_COMPILER MATCHES "afl-")
      message(FATAL_ERROR "DIFFSCHED_FUZZ_ENGINE=afl needs CMAKE_CXX_COMPILER=afl-clang-fast++ "
                          "(got ${CMAKE_CXX_COMPILER}); use the afl preset")
    endif()
    if(NOT EXISTS "${DIFFSCHED_AFL_DRIVER}")
      message(FATAL_ERROR "DIFFSCHED_FUZZ_ENGINE=afl: ${DIFFSCHED_AFL_DRIVER} not found "
                          "(apt-get install afl++, or set DIFFSCHED_AFL_DRIVER)")
    endif()
  elseif(DIFFSCHED_FUZZ_ENGINE STREQUAL "external")
    if(DIFFSCHED_LIB_FUZZING_ENGINE STREQUAL "")
      message(FATAL_ERROR "DIFFSCHED_FUZZ_ENGINE=external needs $LIB_FUZZING_ENGINE "
                          "(or -DDIFFSCHED_LIB_FUZZING_ENGINE=...)")
    endif()
  elseif(NOT DIFFSCHED_FUZZ_ENGINE STREQUAL "libfuzzer")
    message(FATAL_ERROR "DIFFSCHED_FUZZ_ENGINE must be libfuzzer, afl or external "
                        "(got '${DIFFSCHED_FUZZ_ENGINE}')")
  endif()
endfunction()

# diffsched_add_fuzzer(name target source): the fuzz target `target` of the
# registry for DIFFSCHED_FUZZ_ENGINE, written to <build>/fuzz/<target>. With
# libfuzzer, the fuzz presets put -fsanitize=fuzzer-no-link on everything else.
function(diffsched_add_fuzzer name target source)
  add_executable(${name} ${source})
  target_compile_definitions(${name} PRIVATE DIFFSCHED_FUZZ_TARGET="${target}")
  target_link_libraries(${name} PRIVATE diffsched_engine)
  if(DIFFSCHED_FUZZ_ENGINE STREQUAL "afl")
    target_link_libraries(${name} PRIVATE ${DIFFSCHED_AFL_DRIVER})
  elseif(DIFFSCHED_FUZZ_ENGINE STREQUAL "external")
    separate_arguments(engine UNIX_COMMAND "${DIFFSCHED_LIB_FUZZING_ENGINE}")
    # --as-needed: the targets never call Z3 (diffsched verify), so the
    # runner image needs no libz3.
    target_link_options(${name} PRIVATE ${engine} -Wl,--as-needed)
  else()
    target_link_options(${name} PRIVATE -fsanitize=fuzzer)
    # The op-level mutator calls libFuzzer's LLVMFuzzerMutate (src/mutator/mutator.h).
    target_compile_definitions(${name} PRIVATE DIFFSCHED_CUSTOM_MUTATOR=1)
  endif()
  set_target_properties(${name} PROPERTIES OUTPUT_NAME ${target}
                                           RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/fuzz)
  diffsched_warnings(${name})
endfunction()

# The registry (src/registry.def), read line by line: one DIFFSCHED_TARGET(...)
# per line. Re-configures when it changes.
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             ${PROJECT_SOURCE_DIR}/src/registry.def)
set(DIFFSCHED_REGISTRY_TARGET_RE
    "^DIFFSCHED_TARGET\\(([a-z0-9_]+), \"([a-z0-9_]*)\", ([A-Za-z]+), ([a-z_]+), \"([a-z0-9_]*)\",")

# diffsched_registry_targets(out [ROLES role...]): the targets' names, in the
# registry's order; with ROLES, only those of these roles.
function(diffsched_registry_targets out)
  cmake_parse_arguments(arg "" "" "ROLES" ${ARGN})
  file(STRINGS ${PROJECT_SOURCE_DIR}/src/registry.def lines REGEX "^DIFFSCHED_TARGET\\(")
  set(names "")
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "${DIFFSCHED_REGISTRY_TARGET_RE}")
      message(FATAL_ERROR "src/registry.def: cannot read: ${line}")
    endif()
    if(NOT arg_ROLES OR CMAKE_MATCH_4 IN_LIST arg_ROLES)
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

# diffsched_registry_field(target field out): subject, level, role or dict of
# a target.
function(diffsched_registry_field target field out)
  file(STRINGS ${PROJECT_SOURCE_DIR}/src/registry.def lines REGEX "^DIFFSCHED_TARGET\\(${target},")
  if(NOT lines MATCHES "${DIFFSCHED_REGISTRY_TARGET_RE}")
    message(FATAL_ERROR "src/registry.def: no target ${target}")
  endif()
  set(index_subject 2)
  set(index_level 3)
  set(index_role 4)
  set(index_dict 5)
  set(${out} "${CMAKE_MATCH_${index_${field}}}" PARENT_SCOPE)
endfunction()

# diffsched_require(<find_package arguments> DEBIAN <package>): find_package,
# and when the package is missing, one error naming the Debian package that
# provides it (scripts/install-deps.sh installs them all), not CMake's
# paragraph about package configuration files.
macro(diffsched_require name)
  cmake_parse_arguments(_req "" "DEBIAN" "" ${ARGN})
  find_package(${name} ${_req_UNPARSED_ARGUMENTS} QUIET)
  if(NOT ${name}_FOUND)
    # Short enough that CMake prints it on one line (scripts/install-deps.sh installs it).
    message(FATAL_ERROR "diffsched: error: missing ${name} (Debian package ${_req_DEBIAN})")
  endif()
endmacro()

# Unity batches never mix two subject packages. A new subject starts as a
# copy of a package (docs/extending.md, "Add a subject"), so its file-local
# helpers have the names of the package it came from; batched together the
# two would clash. Each package's units (src/subjects/<name>/) are batched
# with units of the same package only, every other unit of the target with
# the rest, CMAKE_UNITY_BUILD_BATCH_SIZE to a batch as before. Called after
# the target's last target_sources(); a unity file holds one package at most
# (ctest contract.unity-by-package).
function(diffsched_unity_by_package target)
  if(NOT CMAKE_UNITY_BUILD)
    return()
  endif()
  get_target_property(sources ${target} SOURCES)
  foreach(src IN LISTS sources)
    if(NOT src MATCHES "\\.cpp$")
      continue()
    endif()
    set(key core)
    if(src MATCHES "/subjects/([A-Za-z0-9_]+)/[^/]+$")
      set(key pkg_${CMAKE_MATCH_1})
    endif()
    if(NOT DEFINED count_${key})
      set(count_${key} 0)
    endif()
    math(EXPR batch "${count_${key}} / ${CMAKE_UNITY_BUILD_BATCH_SIZE}")
    math(EXPR count_${key} "${count_${key}} + 1")
    set_source_files_properties(${src} TARGET_DIRECTORY ${target}
                                PROPERTIES UNITY_GROUP "${key}_${batch}")
  endforeach()
  set_target_properties(${target} PROPERTIES UNITY_BUILD_MODE GROUP)
endfunction()
