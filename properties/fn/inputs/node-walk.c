/* diffsched fn ctest input (fn.stub.file-fn.*, fn.config.*), written for
 * this project: a walk over the possible CPUs that skips those the task does
 * not allow and asks a helper of the same file about each, in the shape of
 * fair.c's task_numa_find_cpu(). The helper reads a table no spec covers:
 * `stub node_cpu_better input` makes it a stub, so the walk is compared on
 * the calls it makes. The walk exists only with CONFIG_DIFFSCHED_NODE_WALK
 * (a `config` line), as task_numa_find_cpu() only with NUMA balancing. */
#include <linux/cpumask.h>

struct walk_env {
	int dst_cpu;
	int best_cpu;
	long imp;
};

static long node_cpu_cost[64];

static bool node_cpu_better(struct walk_env *env, long imp)
{
	if (node_cpu_cost[env->dst_cpu & 63] > imp)
		return false;
	env->best_cpu = env->dst_cpu;
	return true;
}

#ifdef CONFIG_DIFFSCHED_NODE_WALK
void node_walk(struct walk_env *env, const struct cpumask *allowed, long imp)
{
	int cpu;

	for_each_cpu(cpu, cpu_possible_mask) {
		if (!cpumask_test_cpu(cpu, allowed))
			continue;

		env->dst_cpu = cpu;
		if (node_cpu_better(env, imp))
			break;
	}
}
#endif
