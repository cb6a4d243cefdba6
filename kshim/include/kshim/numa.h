/* SPDX-License-Identifier: MIT */
/*
 * kshim: NUMA nodes (include/linux/numa.h, nodemask.h, topology.h), written
 * for diffsched. The model is a CONFIG_NUMA=y kernel booted on one node:
 * node 0 holds every possible CPU, nr_node_ids is 1, cpu_to_node() is 0, and
 * the nearest node with CPUs to any node is node 0 (numa_nearest_node()), so
 * a function that indexes a per-node table with a node it was given, after
 * asking for the nearest one, reads node 0's entry. Distances are the
 * ACPI SLIT defaults (10 local, 20 remote).
 */
#ifndef KSHIM_NUMA_H
#define KSHIM_NUMA_H

#define CONFIG_NUMA 1
#define NUMA_NO_NODE (-1)
#define MAX_NUMNODES 1
#define nr_node_ids 1U
#define LOCAL_DISTANCE 10
#define REMOTE_DISTANCE 20

enum node_states {
	N_POSSIBLE, N_ONLINE, N_NORMAL_MEMORY, N_HIGH_MEMORY, N_MEMORY, N_CPU,
	N_GENERIC_INITIATOR, NR_NODE_STATES
};

static inline int cpu_to_node(int cpu) { (void)cpu; return 0; }
static inline bool node_state(int node, enum node_states state) { (void)state; return node == 0; }
static inline int node_distance(int a, int b) { return a == b ? LOCAL_DISTANCE : REMOTE_DISTANCE; }

/* mm/mempolicy.c (v6.7+): the node itself when it has the state (or is
 * NUMA_NO_NODE), else the nearest node that has it: here node 0. */
static inline int numa_nearest_node(int node, unsigned int state)
{
	if (state >= NR_NODE_STATES)
		return -EINVAL;
	if (node == NUMA_NO_NODE || node_state(node, (enum node_states)state))
		return node;
	return 0;
}

#define for_each_node_state(node, state) for ((node) = 0; (node) < (int)nr_node_ids; (node)++)
#define for_each_node(node) for_each_node_state(node, N_POSSIBLE)
#define for_each_online_node(node) for_each_node_state(node, N_ONLINE)
#define cpumask_of_node(node) ((void)(node), cpu_possible_mask)

#endif /* KSHIM_NUMA_H */
