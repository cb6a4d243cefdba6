/* diffsched fn ctest input (fn.files.missing-header-compiles), written for
 * this project: a header the shim lacks, included where nothing the
 * function needs comes from it. Refused all the same: a header is never
 * guessed (an X-macro list left empty would change a value silently). */
#include <linux/cpumask.h>
#include <linux/no_such_shim_header.h>

int first_of(const struct cpumask *m)
{
	return cpumask_first(m);
}
