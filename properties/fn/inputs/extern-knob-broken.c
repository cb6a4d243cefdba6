/* diffsched fn ctest input (fn.stub.extern-var.broken): extern-knob.c with
 * an off-by-one in the comparison (differs when some_knob is 4). */
#include <linux/cpumask.h>

extern int some_knob;

int knob_scaled(int cpu)
{
	return some_knob >= 4 ? cpu : -cpu;
}
