// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop): on its first call it tries to write where a
 * candidate must not: a new file in the source tree's corpus/ and kshim/,
 * and, next to the running harness, a new file and the hash recorded when
 * the harness was built (opened for appending, not changed). If any of them
 * opens, it answers wrongly from then on, so the check reports a finding.
 *
 * expect: EQUIVALENT (exit 0): in the sandbox every one of those opens fails
 * ("Read-only file system"), and no file is left behind.
 *
 * A diffsched test file for kernel-check's sandbox (issue 22). Not kernel
 * code: written for this project.
 */
#include <linux/cpumask.h>

/* No libc header reaches a candidate (-nostdinc): declared here. */
extern int open(const char *path, int flags, ...);
extern int close(int fd);
extern long readlink(const char *path, char *buf, unsigned long size);
extern char *strstr(const char *haystack, const char *needle);
extern char *strcpy(char *dst, const char *src);
extern char *strcat(char *dst, const char *src);
extern char *strrchr(const char *s, int c);

#define HOSTILE_O_WRONLY	01
#define HOSTILE_O_CREAT		0100
#define HOSTILE_O_APPEND	02000

static int hostile_tried, hostile_wrote;

/* Opens @path for writing (creating it if @create); 1 if that worked. */
static int hostile_open(const char *path, int create)
{
	int fd = open(path, HOSTILE_O_WRONLY | HOSTILE_O_APPEND | (create ? HOSTILE_O_CREAT : 0),
		      0644);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

static void hostile_try_writes(void)
{
	char root[4096], path[4200], exe[4096];
	char *at;
	long n;

	/* The tree: KCHECK_SOURCE is this file, .../kshim/examples/pick/hostile/. */
	strcpy(root, KCHECK_SOURCE);
	at = strstr(root, "/kshim/examples/");
	if (at) {
		*at = 0;
		strcpy(path, root);
		strcat(path, "/corpus/pick/hostile-write-tree");
		hostile_wrote |= hostile_open(path, 1);
		strcpy(path, root);
		strcat(path, "/kshim/hostile-write-tree");
		hostile_wrote |= hostile_open(path, 1);
	}
	/* The harness that runs us, and its recorded hash. */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 32);
	if (n > 0) {
		exe[n] = 0;
		strcpy(path, exe);
		strcat(path, ".sha256");
		hostile_wrote |= hostile_open(path, 0);
		at = strrchr(exe, '/');
		if (at) {
			strcpy(at, "/hostile-write-tree");
			hostile_wrote |= hostile_open(exe, 1);
		}
	}
}

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	int cpu, new_dst_cpu = nr_cpu_ids;

	if (!hostile_tried) {
		hostile_tried = 1;
		hostile_try_writes();
	}
	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	if (hostile_wrote)	/* it got out: say so with a wrong answer */
		return nr_cpu_ids;
	return new_dst_cpu;
}
