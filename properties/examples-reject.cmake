# ctest examples.expect-lines.bad-rejected (properties/examples.cmake): each
# planted bad `// expect:` line must stop the configure with one message
# naming FILE:LINE and the fault, and a good file must pass, or the check
# proves nothing.
#
#   cmake -DEXAMPLES_CMAKE=properties/examples.cmake -DWORK=dir -P examples-reject.cmake
# (internally, with -DCHECK_DIR=dir: read that one directory, as configure would.)
cmake_minimum_required(VERSION 3.25)
if(DEFINED CHECK_DIR)
  include(${EXAMPLES_CMAKE})
  set(kfast --no-build --runs 500)
  diffsched_example_tests(DIRS ${CHECK_DIR} VARS kfast CHECK_ONLY)
  return()
endif()

set(good [[// expect: kernel.x.good 1 4 "signature cpudl:.*\(x\); y" -- cpudl --time 1 ${kfast}]])
# Each case: the bad line, and a regex its one message must match.
set(cases
  "// expect: kernel.x 0 - \"verdict\"|a field is missing"
  "// expect: kernel.x 0 - verdict -- cpudl|a field is missing or PATTERN"
  "// expect: shim.x 0 - \"verdict\" -- cpudl|unknown test kind in NAME 'shim.x'"
  "// expect: kernel.x 9 - \"verdict\" -- cpudl|bad STATUS '9'"
  "// expect: kernel.x ok - \"verdict\" -- cpudl|bad STATUS 'ok'"
  "// expect: kernel.x 1 0 \"verdict\" -- cpudl|bad MAX_OPS '0'"
  "// expect: kernel.x 0 - \"\" -- cpudl|empty PATTERN"
  "// expect: kernel.x 0 - \"verdict\" -- cpudl --time 1 \${kfsat}|unknown variable [^ ]*kfsat[^ ]* in ARGS"
  "// expect: kernel.x 0 - \"verdict\" -- cpudl --candidate other.c|--candidate in ARGS"
  "// expects: kernel.x 0 - \"verdict\" -- cpudl|it must start with exactly '// expect: '"
  "//expect: kernel.x 0 - \"verdict\" -- cpudl|it must start with exactly '// expect: '"
  "// expect: kernel.x.good 0 - \"verdict\" -- cpudl|test kernel.x.good is already defined")
set(failed 0)
set(dir ${WORK}/expect-lines)
foreach(case IN LISTS cases)
  string(FIND "${case}" "|" bar REVERSE)
  string(SUBSTRING "${case}" 0 ${bar} bad)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${case}" ${bar} -1 want)
  file(REMOVE_RECURSE ${dir})
  # The bad line on line 4, after the good one: the message must say :4:.
  file(WRITE ${dir}/x.c "// SPDX-License-Identifier: MIT\n/* planted */\n${good}\n${bad}\nint x;\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -DCHECK_DIR=${dir} -DEXAMPLES_CMAKE=${EXAMPLES_CMAKE}
                          -P ${CMAKE_CURRENT_LIST_FILE}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(REGEX MATCHALL "bad expect line" messages "${err}")
  list(LENGTH messages n)
  if(rc EQUAL 0 OR NOT n EQUAL 1 OR NOT err MATCHES "x\\.c:4: bad expect line: ${want}")
    message(SEND_ERROR "not rejected as /x.c:4: ${want}/ (exit ${rc}): ${bad}\n${err}")
    math(EXPR failed "${failed} + 1")
  else()
    message(STATUS "rejected: ${bad}")
  endif()
endforeach()
file(REMOVE_RECURSE ${dir})
file(WRITE ${dir}/x.c "// SPDX-License-Identifier: MIT\n${good}\nint x;\n")
execute_process(COMMAND ${CMAKE_COMMAND} -DCHECK_DIR=${dir} -DEXAMPLES_CMAKE=${EXAMPLES_CMAKE}
                        -P ${CMAKE_CURRENT_LIST_FILE}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(SEND_ERROR "a good expect line was refused (exit ${rc}):\n${err}")
  math(EXPR failed "${failed} + 1")
endif()
file(REMOVE_RECURSE ${dir})
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} expect-line check(s) failed")
endif()
message(STATUS "every planted bad expect line was rejected; the good one passes")
