#!/bin/sh
# Builds the kernel-style examples of kshim/examples (cpudl and pick, not
# broken/) under the include styles the two kernel files have had, for ctest
# (label kernel): the example's own #include lines are replaced by the style's
# and the result is built by `diffsched kernel-check ... --replay SEED`, which
# must exit 0 (it built, loaded, and replayed a checked-in seed as equivalent).
#
#   kernel-check-include-styles.sh DIFFSCHED SOURCE_DIR
#
# Which pairs: the first example of each subject under every style, and every
# other example under `none` and under one more style, the five others taken in
# turn. So each style meets every subject and several files of each, in 56
# builds (17 cpudl and 7 pick examples) instead of all 144;
# INCLUDE_STYLES_ALL=1 builds every example under every style.
#
# Styles (what the files really include; one shim serves both subjects):
#   none          cpudeadline.c v5.18+ (built inside build_utility.c)
#   cpudl-v3.14   cpudeadline.c v3.14..v4.15
#   cpudl-v4.16   cpudeadline.c v4.16..v5.17: "sched.h"
#   fair-v4.9     fair.c v4.x before "sched.h" was first
#   fair-v4.16    fair.c v4.16..v5.x: "sched.h", then trace events
#   fair-v6       fair.c v6.x: the <linux/*_api.h> headers, "sched.h", "stats.h", "autogroup.h"
set -u
d=$1 src=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

style() {
  case $1 in
    none) ;;
    cpudl-v3.14) printf '#include <linux/gfp.h>\n#include <linux/kernel.h>\n#include <linux/slab.h>\n#include "cpudeadline.h"\n' ;;
    cpudl-v4.16) printf '#include "sched.h"\n' ;;
    fair-v4.9)
      for h in linux/sched.h linux/latencytop.h linux/cpumask.h linux/cpuidle.h linux/slab.h \
               linux/profile.h linux/interrupt.h linux/mempolicy.h linux/migrate.h \
               linux/task_work.h trace/events/sched.h; do printf '#include <%s>\n' $h; done
      printf '#include "sched.h"\n' ;;
    fair-v4.16) printf '#include "sched.h"\n\n#include <trace/events/sched.h>\n' ;;
    fair-v6)
      for h in linux/energy_model.h linux/mmap_lock.h linux/hugetlb_inline.h linux/jiffies.h \
               linux/mm_api.h linux/highmem.h linux/spinlock_api.h linux/cpumask_api.h \
               linux/lockdep_api.h linux/softirq.h linux/refcount_api.h linux/topology.h \
               linux/sched/clock.h linux/sched/cond_resched.h linux/sched/cputime.h \
               linux/sched/isolation.h linux/sched/nohz.h linux/cpuidle.h linux/interrupt.h \
               linux/memory-tiers.h linux/mempolicy.h linux/mutex_api.h linux/profile.h \
               linux/psi.h linux/ratelimit.h linux/task_work.h linux/rbtree_augmented.h \
               asm/switch_to.h uapi/linux/sched/types.h; do printf '#include <%s>\n' $h; done
      printf '#include "sched.h"\n#include "stats.h"\n#include "autogroup.h"\n' ;;
  esac
}

failed=0 built=0
for dir in "$src"/kshim/examples/*/; do   # each kernel-check subject's examples
  subject=$(basename "$dir")
  # errors/ and fn/ (diffsched fn's pairs) are no kernel-check subject's.
  [ -d "$src/corpus/seeds/$subject" ] || continue
  seed=$(ls "$src/corpus/seeds/$subject/"*.ops | head -n 1)
  n=0
  for file in "$src/kshim/examples/$subject/"*.c; do
    fn=select_dst_cpu
    if [ "$subject" = pick ] && ! grep -q "select_dst_cpu" "$file"; then
      fn=$(grep -Eo '^[a-z_]+ \**([a-z_]+)\(' "$file" | head -n 1 | sed 's/.* \**//; s/($//')
    fi
    if [ "${INCLUDE_STYLES_ALL:-0}" = 1 ] || [ "$n" = 0 ]; then
      picked="none cpudl-v3.14 cpudl-v4.16 fair-v4.9 fair-v4.16 fair-v6"
    else
      picked="none $(echo cpudl-v3.14 cpudl-v4.16 fair-v4.9 fair-v4.16 fair-v6 | cut -d' ' -f$((1 + (n - 1) % 5)))"
    fi
    n=$((n + 1))
    for s in $picked; do
      mkdir -p "$out/$s"
      variant="$out/$s/$(basename "$file")"
      style "$s" >"$out/includes"
      # The style's block where the first #include was, the file's own dropped.
      awk -v inc="$out/includes" '
        /^#include/ { if (!done) { while ((getline l < inc) > 0) print l; done = 1 } next }
        { print }
        END { if (!done) { while ((getline l < inc) > 0) print l } }' "$file" >"$variant"
      args="$subject --candidate $variant --no-build --replay $seed --work-dir $out/work"
      [ "$subject" = pick ] && args="$args --function $fn"
      # shellcheck disable=SC2086
      "$d" kernel-check $args >"$out/log" 2>&1
      rc=$?
      built=$((built + 1))
      if [ "$rc" != 0 ]; then
        echo "FAIL: $(basename "$file") with include style $s: exit $rc"
        grep -E 'error|lacks' "$out/log" | head -n 8
        failed=$((failed + 1))
      else
        echo "ok: $subject $(basename "$file") with include style $s"
      fi
    done
  done
done
echo "$built builds, $failed failed"
[ "$failed" = 0 ]
