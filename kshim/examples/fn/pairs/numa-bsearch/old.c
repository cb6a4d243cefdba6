// fn-expect: nearest_nth_cpu equivalent
// SPDX-License-Identifier: MIT
/*
 * diffsched fn example pair "numa-bsearch", the old side: the n-th (from 0)
 * CPU of cpus in order of NUMA distance from a node, read from a per-level,
 * per-node table of masks published by RCU (hop_table[level][node] holds the
 * CPUs within `level` hops of the node, and the level before's). A linear
 * walk over the levels; nr_cpu_ids when cpus has no n-th CPU in them.
 * Written for this project in the shape of sched_numa_find_nth_cpu() in
 * kernel/sched/topology.c (the NUMA side of the shim: numa_nearest_node(),
 * rcu_dereference(), <linux/bsearch.h>); not kernel code. The spec gives
 * one level (the shim's one node), the table generated per call.
 */
#include <linux/bsearch.h>
#include <linux/topology.h>

static int nr_hop_levels;
static struct cpumask ***hop_table;

unsigned int nearest_nth_cpu(const struct cpumask *cpus, unsigned int n, int node)
{
	struct cpumask ***table;
	unsigned int before = 0, ret = nr_cpu_ids;
	int level;

	if (node == NUMA_NO_NODE)
		return cpumask_nth_and(n, cpus, cpu_online_mask);

	rcu_read_lock();
	node = numa_nearest_node(node, N_CPU);
	table = rcu_dereference(hop_table);
	for (level = 0; table && level < nr_hop_levels; level++) {
		unsigned int w = cpumask_weight_and(cpus, table[level][node]);

		if (n < w) {
			ret = level ? cpumask_nth_and_andnot(n - before, cpus, table[level][node],
							     table[level - 1][node]) :
				      cpumask_nth_and(n, cpus, table[0][node]);
			break;
		}
		before = w;
	}
	rcu_read_unlock();
	return ret;
}
