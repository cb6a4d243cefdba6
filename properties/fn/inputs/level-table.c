/* diffsched fn ctest input (fn.table.*), written for this project: a table
 * of levels walked until its terminator, as for_each_sd_topology() walks
 * sched_domain_topology. The boot-time table's callback is plain; the
 * table that replaces it (level_table_init(), as sched_init_numa() does)
 * holds levels whose callback reads the hidden global level_table_curr,
 * the level being built, not the one walked: topology_span_sane()'s
 * mistake in v6.16-rc1. level-table-new.c walks CPU by CPU instead, and
 * level-table-broken.c tests only the map's first CPU at each level. */
#include <linux/cpumask.h>

struct level_entry {
	const struct cpumask *(*mask)(int cpu);
	int flags;
};

static int level_table_curr;
static struct cpumask *level_table_masks[4];

static const struct cpumask *level_cpu_mask(int cpu)
{
	return cpumask_of(cpu);
}

static const struct cpumask *level_node_mask(int cpu)
{
	return level_table_masks[level_table_curr];
}

static struct level_entry level_default[] = {
	{ level_cpu_mask, 0 },
	{ NULL, },
};

static struct level_entry level_built[] = {
	{ level_node_mask, 0 },
	{ level_node_mask, 0 },
	{ NULL, },
};

static struct level_entry *level_table = level_default;

#define for_each_level_entry(l) for (l = level_table; (l)->mask; (l)++)

void level_table_init(void)
{
	level_table = level_built;
}

bool level_table_covers(const struct cpumask *map)
{
	struct level_entry *l;
	int cpu;

	for_each_level_entry(l) {
		for_each_cpu(cpu, map) {
			if (!cpumask_test_cpu(cpu, l->mask(cpu)))
				return false;
		}
	}
	return true;
}
