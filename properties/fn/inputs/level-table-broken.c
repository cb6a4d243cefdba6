/* diffsched fn ctest input (fn.table.*), written for this project:
 * level-table.c's walk testing only the map's first CPU at each level (a
 * shortcut that misses a CPU the level's mask does not hold). */
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
		cpu = cpumask_first(map);
		if (cpu < nr_cpu_ids && !cpumask_test_cpu(cpu, l->mask(cpu)))
			return false;
	}
	return true;
}
