// SPDX-License-Identifier: MIT
/*
 * The shim side of scripts/inkernel-api-check.sh (written for diffsched):
 * kc_api.c built against kshim/ at the v6.1 era, run at nr_cpu_ids NR.
 *
 *   kc_api_shim NR SEED OPS [SHOW]   every op's line, or op SHOW's inputs
 *
 * Exit 0, or 2 on bad arguments. Built with the C library; kc_api.c is not.
 */
#include <stdio.h>
#include <stdlib.h>

void kshim_reset_runtime(unsigned nr);
void kc_api_run(unsigned long seed, unsigned long ops, long show);
void kc_emit(const char *line) { puts(line); }

int main(int argc, char **argv)
{
	char *e1, *e2, *e3, *e4 = "";
	unsigned long nr, seed, ops;
	long show = -1;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "kc_api_shim: error: usage: kc_api_shim NR SEED OPS [SHOW]\n");
		return 2;
	}
	nr = strtoul(argv[1], &e1, 10);
	seed = strtoul(argv[2], &e2, 10);
	ops = strtoul(argv[3], &e3, 10);
	if (argc == 5) show = strtol(argv[4], &e4, 10);
	if (*e1 || *e2 || *e3 || *e4 || nr < 1 || nr > 8192) {
		fprintf(stderr, "kc_api_shim: error: NR must be 1..8192, SEED, OPS and SHOW numbers\n");
		return 2;
	}
	kshim_reset_runtime((unsigned)nr);
	kc_api_run(seed, ops, show);
	return 0;
}
