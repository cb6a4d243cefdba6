/* diffsched fn ctest input (fn.stub.extern-var.*): some_knob is an extern
 * variable that neither this file nor the kernel shim defines. */
#include <linux/cpumask.h>

extern int some_knob;

int knob_scaled(int cpu)
{
	return some_knob > 4 ? cpu : -cpu;
}
