# Included from properties/CMakeLists.txt: the install scripts' tests (issue 21).
# The install scripts on a fake machine (fake apt-get, apt-cache, dpkg-query,
# dpkg, npm, node first on a PATH of core utilities only): nothing installed,
# everything installed (nothing runs), and each failure (the registry, a
# package, npm, the headers' version, the image download) is one error line
# naming the step and the reason (properties/scripts/check-install-scripts.sh).
foreach(case nothing-installed everything-installed registry-fails package-missing npm-fails
             headers-unresolvable download-fails fetch-no-headers)
  add_test(NAME install.${case}
           COMMAND ${PROJECT_SOURCE_DIR}/properties/scripts/check-install-scripts.sh ${PROJECT_SOURCE_DIR} ${case})
  set_tests_properties(install.${case} PROPERTIES LABELS unit)
endforeach()
# The fresh-machine check reads exactly README's two Quick start commands, the
# main job first (the check itself runs in .ci/run, as root).
add_test(NAME install.fresh-machine-reads-readme
         COMMAND sh -c "out=$(${PROJECT_SOURCE_DIR}/scripts/check-fresh-machine.sh --list) || exit 1; echo \"$out\"; echo \"$out\" | grep -qx 'check-fresh-machine: main job: bash scripts/main.sh' && echo \"$out\" | grep -qx 'check-fresh-machine: tests:    bash scripts/test.sh'")
set_tests_properties(install.fresh-machine-reads-readme PROPERTIES LABELS unit)
# fetch-kernel.sh's PVH kernel (scripts/lib/unpack-pvh.py), on made-up images.
add_test(NAME install.unpack-pvh
         COMMAND ${PROJECT_SOURCE_DIR}/properties/scripts/check-unpack-pvh.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(install.unpack-pvh PROPERTIES LABELS unit)
