# Issue 22, included by properties/CMakeLists.txt (label kernel, the harness
# fixture): hostile candidates (kshim/examples/cpudl/hostile/, pick/hostile/) and harnesses that do
# nothing. Each test checks the exit status and the key message, and that no
# EQUIVALENT verdict comes with it (scripts/kernel-check-hostile.sh).
# Hand-written, not `// expect:` lines in the candidates (properties/examples.cmake):
# another runner (a pattern that must not appear too), environments (HOSTILE_*),
# harnesses that are not kcheck_harness, and loops over several candidates.
set(khostile ${PROJECT_SOURCE_DIR}/scripts/kernel-check-hostile.sh $<TARGET_FILE:diffsched>)
set(khc ${kexamples}/cpudl/hostile)
set(khp ${kexamples}/pick/hostile)
set(kended "the candidate ended the harness process \\(status")
set(kbroken ${kexamples}/cpudl/broken/v4.9-swap-stale-idx.c)

# ---- 1. A verdict only for checks that ran ---------------------------------
# A candidate that ends the harness process inside an input: a finding on that
# input (exit 1), with the status, never EQUIVALENT.
foreach(entry init clear set find)
  add_test(NAME kernel.hostile.cpudl.exit-in-${entry}
           COMMAND ${khostile} 1 "${kended} 0\\) before the checks completed, in the property run" - --
                   cpudl --candidate ${khc}/exit-in-${entry}.c --time 2 ${kfast})
endforeach()
add_test(NAME kernel.hostile.cpudl.exit-in-clear.by-fuzzing
         COMMAND ${khostile} 1 "${kended} 0\\) before the checks completed, in the fuzzing" - --
                 cpudl --candidate ${khc}/exit-in-clear.c --no-properties --time 5 ${kfast})
add_test(NAME kernel.hostile.pick.exit0-first-call
         COMMAND ${khostile} 1 "${kended} 0\\) before the checks completed" - --
                 pick --candidate ${khp}/exit0-first-call.c --time 2 ${kfast})
add_test(NAME kernel.hostile.pick.exit0-first-call.by-fuzzing
         COMMAND ${khostile} 1 "${kended} 0\\) before the checks completed, in the fuzzing" - --
                 pick --candidate ${khp}/exit0-first-call.c --no-properties --time 5 ${kfast})
# The harness's own statuses, from the candidate: never read as a finding of
# a check, a sanitizer or a hang, and no reproducer named that was not written.
foreach(code 1 77 79)
  add_test(NAME kernel.hostile.pick.exit${code}
           COMMAND ${khostile} 1 "${kended} ${code}\\) before the checks completed"
                   "sanitizer|a hang|minimised reproducer" --
                   pick --candidate ${khp}/exit${code}.c --time 2 ${kfast})
  add_test(NAME kernel.hostile.pick.exit${code}.replay
           COMMAND ${khostile} 1 "${kended} ${code}\\) before the checks completed, in the replay"
                   "sanitizer|a hang" --
                   pick --candidate ${khp}/exit${code}.c --no-build
                        --replay ${PROJECT_SOURCE_DIR}/corpus/seeds/pick/word-boundaries.ops)
endforeach()
add_test(NAME kernel.hostile.pick.exit-libc.time-0
         COMMAND ${khostile} 1 "${kended} 0\\) before the checks completed, in the property run" - --
                 pick --candidate ${khp}/exit-libc.c --time 0 ${kfast})
add_test(NAME kernel.hostile.pick.exit-libc.by-fuzzing
         COMMAND ${khostile} 1 "verdict: FINDING" - --
                 pick --candidate ${khp}/exit-libc.c --no-properties --time 5 ${kfast})
add_test(NAME kernel.hostile.pick.sigkill
         COMMAND ${khostile} 1 "${kended} 137\\) before the checks completed" - --
                 pick --candidate ${khp}/sigkill.c --time 2 ${kfast})
add_test(NAME kernel.hostile.pick.segv-handler
         COMMAND ${khostile} 1 "verdict: FINDING" - --
                 pick --candidate ${khp}/segv-handler.c --time 2 ${kfast})
add_test(NAME kernel.hostile.pick.fake-kcheck-lines
         COMMAND ${khostile} 1 "${kended} 2\\) before the checks completed" - --
                 pick --candidate ${khp}/fake-kcheck-lines.c --time 2 ${kfast})
# A harness that does nothing: no record, exit 2 (also with --replay, which
# otherwise printed nothing and exited 0).
foreach(prog true false)
  if(prog STREQUAL "true")
    set(code 0)
  else()
    set(code 1)
  endif()
  add_test(NAME kernel.hostile.harness-${prog}
           COMMAND sh -c "exec ${PROJECT_SOURCE_DIR}/scripts/kernel-check-hostile.sh $<TARGET_FILE:diffsched> 2 '${kended} ${code}\\) before the checks completed' - -- cpudl --candidate ${kbroken} --harness \"$(command -v ${prog})\" --runs 50")
  add_test(NAME kernel.hostile.harness-${prog}.replay
           COMMAND sh -c "exec ${PROJECT_SOURCE_DIR}/scripts/kernel-check-hostile.sh $<TARGET_FILE:diffsched> 2 '${kended} ${code}\\) before the checks completed' - -- cpudl --candidate ${kbroken} --harness \"$(command -v ${prog})\" --replay ${PROJECT_SOURCE_DIR}/corpus/seeds/cpudl/full-heap.ops")
endforeach()

# ---- 2. The sandbox ----------------------------------------------------------
# Writes to the tree, the corpus and the harness fail (read-only); the network
# is not there. The candidates answer wrongly if they got out.
add_test(NAME kernel.hostile.pick.write-tree
         COMMAND ${CMAKE_COMMAND} -E env
                 "HOSTILE_ABSENT=${PROJECT_SOURCE_DIR}/corpus/pick/hostile-write-tree ${PROJECT_SOURCE_DIR}/kshim/hostile-write-tree ${PROJECT_SOURCE_DIR}/build-fuzz/kshim/hostile-write-tree"
                 ${khostile} 0 "verdict: EQUIVALENT" - --
                 pick --candidate ${khp}/write-tree.c --time 2 ${kfast})
add_test(NAME kernel.hostile.pick.socket
         COMMAND ${khostile} 0 "verdict: EQUIVALENT" - --
                 pick --candidate ${khp}/socket.c --time 2 ${kfast})
# Without bubblewrap nothing runs: one error line, exit 2.
add_test(NAME kernel.hostile.no-bwrap
         COMMAND ${CMAKE_COMMAND} -E env HOSTILE_PATH=/nonexistent
                 ${khostile} 2 "^diffsched: error: bubblewrap \\(bwrap\\) is not on PATH" - --
                 pick --candidate ${kexamples}/pick/reference.c ${kfast})
# A harness that does not match the hash recorded when it was built is
# refused (--no-build); a copy of it with a wrong .sha256 next to it too.
add_test(NAME kernel.hostile.harness-hash-mismatch
         COMMAND sh -c "d=$(mktemp -d) && cp ${PROJECT_SOURCE_DIR}/build-fuzz/kshim/kcheck_harness $d/h && echo 0000 >$d/h.sha256 && ${PROJECT_SOURCE_DIR}/scripts/kernel-check-hostile.sh $<TARGET_FILE:diffsched> 2 'refusing the harness .*its SHA-256 .* is not the one recorded' - -- pick --candidate ${kexamples}/pick/reference.c --harness $d/h --runs 50; rc=$?; rm -rf $d; exit $rc")

# ---- 5. Bounded builds, signals ---------------------------------------------
add_test(NAME kernel.hostile.pick.include-fifo
         COMMAND ${CMAKE_COMMAND} -E env HOSTILE_MKFIFO=/var/tmp/diffsched-hostile-include.fifo
                 ${khostile} 2 "include-fifo.c cannot be read as C \\(it #includes .*, which is not a regular file\\)" - --
                 pick --candidate ${khp}/include-fifo.c --build-seconds 5 ${kfast})
add_test(NAME kernel.hostile.pick.include-stdin
         COMMAND ${CMAKE_COMMAND} -E env HOSTILE_STDIN_PIPE=1
                 ${khostile} 2 "include-stdin.c cannot be read as C \\(it #includes /dev/stdin, which is not a regular file\\)" - --
                 pick --candidate ${khp}/include-stdin.c --build-seconds 60 --time 1 ${kfast})
foreach(sig INT TERM)
  add_test(NAME kernel.hostile.stop-on-sig${sig}
           COMMAND ${PROJECT_SOURCE_DIR}/scripts/kernel-check-stop.sh $<TARGET_FILE:diffsched> ${sig} --
                   pick --candidate ${kexamples}/pick/broken/next-stalls.c --hang-seconds 120
                        --no-build --runs 500)
endforeach()
