/* diffsched fn ctest input (fn.stub.file-fn.*), written for this project:
 * node-walk.c with the allowed-CPU test dropped: the helper is asked
 * about CPUs the task does not allow (a bug). */
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
		env->dst_cpu = cpu;
		if (node_cpu_better(env, imp))
			break;
	}
}
#endif
