/* diffsched fn ctest input (fn.stub.extern-var.*): extern-knob.c with the
 * comparison rewritten (the same for every value of some_knob). */
#include <linux/cpumask.h>

extern int some_knob;

int knob_scaled(int cpu)
{
	return some_knob >= 5 ? cpu : -cpu;
}
