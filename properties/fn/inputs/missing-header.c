/* SPDX-License-Identifier: MIT */
/* diffsched fn test input (written for the project): a type from a header
 * the kernel shim does not have; the error names the #include. */
#include <linux/types.h>
#include <linux/no_such_shim_header.h>

int first_key(const frob_key_t *keys, int n)
{
	return n > 0 ? (int)keys[0] : -1;
}
