# ---- diffsched fn --patch / --git / --print-spec (docs/fn.md) ---------------
# Included after properties/patch/check_patch.cmake: the patches are check-patch's
# (properties/patch/inputs) against its project-written tree (check_patch_tree).
# Short runs (--runs 60/80): each fn run builds two small harnesses.
set(fn_patch_script ${CMAKE_CURRENT_SOURCE_DIR}/fn/fn-patch.sh $<TARGET_FILE:diffsched>
                    ${PROJECT_SOURCE_DIR} ${check_patch_tree})
foreach(case format-patch mbox plain-diff bad-hunk nothing-checkable stubbed git
             print-spec-hidden verdict-json-error fuzz config era)
  add_test(NAME fn.patch.${case} COMMAND ${fn_patch_script} ${case})
  set_tests_properties(fn.patch.${case} PROPERTIES LABELS "fn;patch" TIMEOUT 300)
endforeach()
# --print-spec's round trip on two pairs: one without a spec (struct fields,
# masks, a finding), one with a spec (an array of 16, a heap, a callback).
add_test(NAME fn.print-spec.first-and-and
         COMMAND ${fn_patch_script} print-spec-first-and-and find_new_dst_cpu broken.c)
add_test(NAME fn.print-spec.min-heap-sift
         COMMAND ${fn_patch_script} print-spec-min-heap-sift int_heap_sift_down new.c spec.fnspec)
set_tests_properties(fn.print-spec.first-and-and fn.print-spec.min-heap-sift
                     PROPERTIES LABELS fn TIMEOUT 300)
