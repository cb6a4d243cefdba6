// fn-expect: nearest_nth_cpu equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "numa-bsearch", the fixed side: as new.c, but
 * a NULL from bsearch() (no level has more than n of cpus' CPUs) is "none",
 * nr_cpu_ids, as the old side says. Written for this project; not kernel
 * code.
 */
#include <linux/bsearch.h>
#include <linux/topology.h>

static int nr_hop_levels;
static struct cpumask ***hop_table;

struct nth_key {
	const struct cpumask *cpus;
	struct cpumask ***table;
	int node;
	unsigned int n;
	unsigned int before;
};

static int level_cmp(const void *a, const void *b)
{
	struct nth_key *key = (struct nth_key *)a;
	struct cpumask **here = *(struct cpumask ***)b;

	if (cpumask_weight_and(key->cpus, here[key->node]) <= key->n)
		return 1;
	if (b == (const void *)key->table) {
		key->before = 0;
		return 0;
	}
	key->before = cpumask_weight_and(key->cpus, (*((struct cpumask ***)b - 1))[key->node]);
	return key->before <= key->n ? 0 : -1;
}

unsigned int nearest_nth_cpu(const struct cpumask *cpus, unsigned int n, int node)
{
	struct nth_key key = { .cpus = cpus, .n = n };
	struct cpumask ***found;
	unsigned int ret = nr_cpu_ids;
	long level;

	if (node == NUMA_NO_NODE)
		return cpumask_nth_and(n, cpus, cpu_online_mask);

	rcu_read_lock();
	key.node = numa_nearest_node(node, N_CPU);
	key.table = rcu_dereference(hop_table);
	if (!key.table)
		goto out;
	found = bsearch(&key, key.table, nr_hop_levels, sizeof(key.table[0]), level_cmp);
	if (!found)
		goto out;
	level = found - key.table;
	ret = level ? cpumask_nth_and_andnot(n - key.before, cpus, key.table[level][key.node],
					     key.table[level - 1][key.node]) :
		      cpumask_nth_and(n, cpus, key.table[0][key.node]);
out:
	rcu_read_unlock();
	return ret;
}
