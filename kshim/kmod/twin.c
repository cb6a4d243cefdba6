// SPDX-License-Identifier: MIT
/*
 * kernel-check --in-kernel: the userspace twin of the module, written for
 * diffsched. It dlopen()s the candidate as kernel-check built it against
 * the shim (candidate.so: the file, its glue, kshim/runtime) and runs the
 * same driver (kc_driver.c) on the same program lines, so that its "KC"
 * lines can be compared with the guest's line by line.
 *
 *   kcheck_twin CANDIDATE.so programs.txt > shim.txt
 * A warning the shim records (WARN_ON() etc.) is printed as
 * "KC W id op file:line: what" after the op's state line.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kc_driver.h"

static const struct kcheck_candidate *cand;
static int cur_id, cur_op;

static void emit(const char *line)
{
	struct kcheck_warning w;

	printf("KC %s\n", line);
	if (line[0] == 'P')
		sscanf(line + 2, "%d", &cur_id);
	if (line[0] == 'S' && sscanf(line + 2, "%d %d", &cur_id, &cur_op) == 2 &&
	    cand->take_warning(&w))
		printf("KC W %d %d %s:%d: %s\n", cur_id, cur_op, w.file ? w.file : "?", w.line,
		       w.what ? w.what : "?");
}

int main(int argc, char **argv)
{
	static char line[1 << 20];
	struct kc_driver *d;
	void *h;

	FILE *in;

	if (argc != 3) {
		fprintf(stderr, "usage: kcheck_twin CANDIDATE.so PROGRAMS\n");
		return 2;
	}
	in = fopen(argv[2], "r");
	if (!in) {
		perror(argv[2]);
		return 2;
	}
	h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		fprintf(stderr, "kcheck_twin: %s\n", dlerror());
		return 2;
	}
	cand = dlsym(h, "kcheck_candidate");
	if (!cand || cand->abi_version != KCHECK_ABI_VERSION) {
		fprintf(stderr, "kcheck_twin: %s has no kcheck_candidate table of ABI %d\n", argv[1],
			KCHECK_ABI_VERSION);
		return 2;
	}
	cand->set_capacity(0, NULL, 0);
	d = kc_driver_new(cand, 0, emit);
	if (!d)
		return 2;
	while (fgets(line, sizeof(line), in)) {
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		kc_driver_line(d, line);
		fflush(stdout);
	}
	kc_driver_free(d);
	return 0;
}
