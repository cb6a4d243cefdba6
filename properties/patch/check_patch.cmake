# ---- diffsched check-patch (issue 25; docs/check-patch.md) -------------------
# The patch reader on every input form and hostile ones, the report formats
# parsed back (nlohmann-json), and the CLI end to end on the project's tree
# (properties/patch/tree, copies of kshim/examples files) and patches
# (properties/patch/inputs): equivalent, broken, a series, a page, a pick,
# bad inputs; the KTAP output checked by the kernel's own parser, kunit.py,
# extracted at test time from Debian's linux-source-6.1 (never committed).
diffsched_add_property(patch_tests SOURCES patch/parse_test.cpp patch/check_test.cpp
                       LABELS "unit;patch")
target_link_libraries(patch_tests PRIVATE diffsched_patch)
target_compile_definitions(patch_tests PRIVATE
                           DIFFSCHED_PATCH_INPUTS="${CMAKE_CURRENT_SOURCE_DIR}/patch/inputs")

set(check_patch_script ${CMAKE_CURRENT_SOURCE_DIR}/patch/check-patch-cli.sh)
set(check_patch_kunit ${CMAKE_BINARY_DIR}/kunit)
# kunit.py parse: only tools/testing/kunit of the installed kernel source.
add_test(NAME patch.kunit-parser
         COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} kunit-parser)
set_tests_properties(patch.kunit-parser PROPERTIES FIXTURES_SETUP kunit_parser LABELS patch
                     TIMEOUT 300)
# Cases that need no harness (bad inputs, nothing checkable).
foreach(case bad-hunk bad-counts no-files empty unknown-flag missing-tree missing-patch
             base-missing base-commit-git nothing-checkable b4 list)
  add_test(NAME patch.cli.${case}
           COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} ${case})
  set_tests_properties(patch.cli.${case} PROPERTIES LABELS "unit;patch" TIMEOUT 120)
endforeach()
set_tests_properties(patch.cli.nothing-checkable PROPERTIES FIXTURES_REQUIRED kunit_parser)
# Cases that run kernel-check (short: --time 1, few programs).
foreach(case equivalent-mbox broken-diff series html pick pick-and-topology ktap-finding)
  add_test(NAME patch.cli.${case}
           COMMAND ${check_patch_script} $<TARGET_FILE:diffsched> ${check_patch_kunit} ${case})
  set_tests_properties(patch.cli.${case} PROPERTIES LABELS "patch;kernel" TIMEOUT 600
                       FIXTURES_REQUIRED "kcheck_harness;kunit_parser")
endforeach()
