# diffsched fn's example pairs state their own ctests (kshim/examples/README.md).
# The first line of every kshim/examples/fn/pairs/<pair>/<file>.c is
#
#   // fn-expect: FUNCTION VERDICT [LEVEL]
#
# and becomes one ctest fn.pair.<pair>.<file> running `diffsched fn --old
# <pair>/old.c --new <pair>/<file>.c --function FUNCTION` (old.c against
# itself), with --spec <pair>/spec.fnspec when the pair has one, through
# properties/fn/fn-expect.sh, which checks the exit status and one line:
#
#   equivalent          0  verdict: equivalent (
#   finding             1  verdict: finding:   (and the replay command exits 1)
#   sorted-only LEVEL   0  verdict: equivalent at `LEVEL`, divergent at `exact` (run at --level LEVEL)
#   hidden-global       2  hidden global(s): FUNCTION() reads the global(s) `
#   fault               1  verdict: finding: new faults where old does not
#   perf                1  verdict: finding: perf: new makes ... (run with --max-cost-ratio 2:
#                          on some input, new makes more than twice old's callback calls)
#   intended            0  verdict: intended: the sides differ only in what the spec declares
#                          intended (the pair's spec has `intended ROW` lines)
#
# A header that does not parse is a configure-time FATAL_ERROR naming the file.
# The PENDING pairs (none today) would be ones whose inputs diffsched fn
# cannot generate yet: they get no test either (listed at configure time). Not a disabled test: the suite's summary must
# say "none not run" (scripts/check-fresh-machine.sh).
#
#   diffsched_fn_pair_tests(DIR dir DIFFSCHED exe RUNNER script LABELS labels...
#                           PENDING pair...)
function(diffsched_fn_pair_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "DIR;DIFFSCHED;RUNNER" "LABELS;PENDING")
  file(GLOB pairs LIST_DIRECTORIES true "${arg_DIR}/*")
  list(SORT pairs)
  set(pending "")
  foreach(pair IN LISTS pairs)
    if(NOT IS_DIRECTORY "${pair}")
      continue()
    endif()
    get_filename_component(pair_name "${pair}" NAME)
    file(GLOB files CONFIGURE_DEPENDS "${pair}/*.c")
    list(SORT files)
    set(spec "")
    if(EXISTS "${pair}/spec.fnspec")
      set(spec --spec "${pair}/spec.fnspec")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${pair}/spec.fnspec")
    endif()
    foreach(file IN LISTS files)
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${file}")
      get_filename_component(side "${file}" NAME_WE)
      file(STRINGS "${file}" first LIMIT_COUNT 1)
      if(NOT first MATCHES "^// fn-expect: ([A-Za-z_][A-Za-z0-9_]*) ([a-z-]+)( ([a-z]+))?$")
        message(FATAL_ERROR " ${file}:1: bad fn-expect line: the form is "
                            "// fn-expect: FUNCTION VERDICT [LEVEL] (kshim/examples/README.md)")
      endif()
      set(fn "${CMAKE_MATCH_1}")
      set(verdict "${CMAKE_MATCH_2}")
      set(level "${CMAKE_MATCH_4}")
      set(args --old "${pair}/old.c" --new "${file}" --function ${fn} ${spec})
      if(verdict STREQUAL "equivalent")
        set(status 0)
        set(pattern "^verdict: equivalent \\(")
      elseif(verdict STREQUAL "finding")
        set(status 1)
        set(pattern "^verdict: finding: ")
      elseif(verdict STREQUAL "sorted-only")
        if(NOT level MATCHES "^(sorted|multiset)$")
          message(FATAL_ERROR " ${file}:1: sorted-only needs LEVEL sorted or multiset")
        endif()
        set(status 0)
        set(pattern "^verdict: equivalent at `${level}`, divergent at `exact`")
        list(APPEND args --level ${level})
      elseif(verdict STREQUAL "hidden-global")
        set(status 2)
        set(pattern "hidden globals?: ${fn}\\(\\) reads the globals? `")
      elseif(verdict STREQUAL "fault")
        set(status 1)
        set(pattern "^verdict: finding: new faults where old does not")
      elseif(verdict STREQUAL "perf")
        set(status 1)
        set(pattern "^verdict: finding: perf: new makes ")
        list(APPEND args --max-cost-ratio 2)
      elseif(verdict STREQUAL "intended")
        set(status 0)
        set(pattern "^verdict: intended: the sides differ only in what the spec declares intended")
      else()
        message(FATAL_ERROR " ${file}:1: unknown fn-expect VERDICT `${verdict}`")
      endif()
      set(name "fn.pair.${pair_name}.${side}")
      if(pair_name IN_LIST arg_PENDING)
        list(APPEND pending "${name}")
        continue()
      endif()
      add_test(NAME ${name} COMMAND ${arg_RUNNER} ${arg_DIFFSCHED} ${status} "${pattern}" -- ${args})
      set_tests_properties(${name} PROPERTIES LABELS "${arg_LABELS}" TIMEOUT 120)
    endforeach()
  endforeach()
  if(pending)
    list(JOIN pending ", " shown)
    message(STATUS "diffsched fn: no ctest until their inputs can be generated: ${shown}")
  endif()
endfunction()
