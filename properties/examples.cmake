# Issue 23: an example file states its own ctests (kshim/examples/README.md).
# Each line of a kernel example file
#
#   // expect: NAME STATUS MAX_OPS "PATTERN" -- SUBJECT [ARGS...]
#
# is one ctest NAME running `diffsched kernel-check SUBJECT --candidate FILE
# ARGS...` through the runner of NAME's first word (kernel.: KERNEL, the
# shim; inkernel.: INKERNEL, the booted kernel), which checks the exit
# STATUS, MAX_OPS (the reproducer's op bound, "-" or "replay") and the grep -E
# PATTERN (scripts/kernel-check-expect.sh). ARGS may name ${VAR} for each VAR
# of VARS (the caller's value, a list such as ${kfast} becoming several
# arguments), nothing else: a path of the tree is spelt the same way in every
# file, and a typo is an error rather than an empty argument.
#
#   diffsched_example_tests(DIRS dir... VARS var... KERNEL cmd... INKERNEL cmd...)
#   diffsched_example_tests(DIRS dir... VARS var... CHECK_ONLY)
#
# A line that starts like one (`//expect`, `// expects:`, ...) but does not
# parse is a configure-time FATAL_ERROR naming FILE:LINE and what is wrong:
# a test is never dropped silently. CHECK_ONLY reads and checks without
# adding tests (cmake -P: properties/examples-reject.cmake plants bad lines).
function(_diffsched_expect_fail file text why)
  # The line number, found only on this path (file(STRINGS) gives none).
  file(READ "${file}" content)
  string(FIND "${content}" "${text}" pos)
  set(line "?")
  if(pos GREATER_EQUAL 0)
    string(SUBSTRING "${content}" 0 ${pos} before)
    string(REGEX MATCHALL "\n" newlines "${before}")
    list(LENGTH newlines line)
    math(EXPR line "${line} + 1")
  endif()
  set(shown "${file}")
  if(DEFINED PROJECT_SOURCE_DIR)
    file(RELATIVE_PATH shown "${PROJECT_SOURCE_DIR}" "${file}")
  endif()
  # The leading space keeps CMake from wrapping it: one line, grep-able.
  message(FATAL_ERROR " ${shown}:${line}: bad expect line: ${why}; "
                      "the form is // expect: NAME STATUS MAX_OPS \"PATTERN\" -- SUBJECT [ARGS...] "
                      "(kshim/examples/README.md)")
endfunction()

function(diffsched_example_tests)
  cmake_parse_arguments(PARSE_ARGV 0 arg "CHECK_ONLY" "" "DIRS;VARS;KERNEL;INKERNEL")
  if(arg_UNPARSED_ARGUMENTS OR NOT arg_DIRS)
    message(FATAL_ERROR "diffsched_example_tests: DIRS dir... [VARS var...] (KERNEL cmd... INKERNEL cmd... | CHECK_ONLY)")
  endif()
  set(files "")
  foreach(dir IN LISTS arg_DIRS)
    if(arg_CHECK_ONLY)  # cmake -P has no build to re-glob at
      file(GLOB_RECURSE found "${dir}/*.c")
    else()
      file(GLOB_RECURSE found CONFIGURE_DEPENDS "${dir}/*.c")
    endif()
    list(APPEND files ${found})
  endforeach()
  list(SORT files)
  if(NOT arg_CHECK_ONLY)
    # A header edited is a test changed: re-configure when a file changes.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${files})
  endif()
  set(names "")
  foreach(file IN LISTS files)
    # Loose on purpose: whatever looks like an expect line must parse.
    file(STRINGS "${file}" headers REGEX "^[ \t]*//[ \t]*[Ee][Xx][Pp][Ee][Cc][Tt]")
    foreach(text IN LISTS headers)
      string(FIND "${text}" ";//" merged)
      if(merged GREATER_EQUAL 0)  # a CMake list keeps an unbalanced [ with the next line
        string(REGEX REPLACE ";//.*" "" text "${text}")
        _diffsched_expect_fail("${file}" "${text}" "unbalanced [ or ] (escape it in PATTERN: \\[ \\])")
      endif()
      if(NOT text MATCHES "^// expect: ")
        _diffsched_expect_fail("${file}" "${text}" "it must start with exactly '// expect: '")
      endif()
      if(NOT text MATCHES "^// expect: ([^ ]+) ([^ ]+) ([^ ]+) \"([^\"]*)\" -- ([^ ]+)(( +[^ ]+)*) *$")
        _diffsched_expect_fail("${file}" "${text}" "a field is missing or PATTERN is not in \"...\"")
      endif()
      set(name "${CMAKE_MATCH_1}")
      set(status "${CMAKE_MATCH_2}")
      set(max_ops "${CMAKE_MATCH_3}")
      set(pattern "${CMAKE_MATCH_4}")
      set(subject "${CMAKE_MATCH_5}")
      string(STRIP "${CMAKE_MATCH_6}" argtext)
      if(name MATCHES "^kernel\\.[A-Za-z0-9._-]+$")
        set(runner ${arg_KERNEL})
      elseif(name MATCHES "^inkernel\\.[A-Za-z0-9._-]+$")
        set(runner ${arg_INKERNEL})
      else()
        _diffsched_expect_fail("${file}" "${text}"
          "unknown test kind in NAME '${name}' (kernel.* through the shim, inkernel.* in the booted kernel)")
      endif()
      if(NOT status MATCHES "^[0-3]$")
        _diffsched_expect_fail("${file}" "${text}" "bad STATUS '${status}' (0, 1, 2 or 3)")
      endif()
      if(NOT max_ops MATCHES "^(-|replay|[1-9][0-9]*)$")
        _diffsched_expect_fail("${file}" "${text}" "bad MAX_OPS '${max_ops}' (a number of ops, - or replay)")
      endif()
      if(pattern STREQUAL "")
        _diffsched_expect_fail("${file}" "${text}" "empty PATTERN (\"-\" checks no output)")
      endif()
      if(NOT subject MATCHES "^[a-z][a-z0-9_]*$")
        _diffsched_expect_fail("${file}" "${text}" "bad SUBJECT '${subject}' (a kernel-check subject: cpudl, pick)")
      endif()
      if(name IN_LIST names OR (NOT arg_CHECK_ONLY AND TEST "${name}"))  # or add_test's own error
        _diffsched_expect_fail("${file}" "${text}" "test ${name} is already defined")
      endif()
      list(APPEND names "${name}")
      set(argv "")
      string(REGEX MATCHALL "[^ ]+" tokens "${argtext}")
      foreach(token IN LISTS tokens)
        string(FIND "${token}" "\"" quote)
        string(FIND "${token}" "\\" backslash)
        if(quote GREATER_EQUAL 0 OR backslash GREATER_EQUAL 0)
          _diffsched_expect_fail("${file}" "${text}" "a quote or a backslash in ARGS: '${token}'")
        endif()
        if(token STREQUAL "--candidate" OR token MATCHES "^--candidate=")
          _diffsched_expect_fail("${file}" "${text}" "--candidate in ARGS (the candidate is the file itself)")
        endif()
        while(token MATCHES "\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}")
          set(var "${CMAKE_MATCH_1}")
          if(NOT var IN_LIST arg_VARS)
            string(REPLACE ";" " " known "${arg_VARS}")
            _diffsched_expect_fail("${file}" "${text}" "unknown variable \${${var}} in ARGS (known: ${known})")
          endif()
          string(REPLACE "\${${var}}" "${${var}}" token "${token}")
        endwhile()
        if(token MATCHES "\\$")
          _diffsched_expect_fail("${file}" "${text}" "a '$' in ARGS that is not \${VAR}")
        endif()
        list(APPEND argv ${token})  # unquoted: a list value (${kfast}) is several arguments
      endforeach()
      if(NOT arg_CHECK_ONLY)
        # Each field its own argument: PATTERN stays one, even with a ';'.
        add_test(NAME ${name}
                 COMMAND ${runner} ${status} ${max_ops} "${pattern}" -- ${subject} --candidate ${file} ${argv})
      endif()
    endforeach()
  endforeach()
endfunction()
