// SPDX-License-Identifier: MIT
/*
 * HOSTILE pick (the v6.13 loop): on its first call it tries to reach the
 * network: a UDP socket connected to 8.8.8.8:53 (connecting a UDP socket
 * sends nothing; it succeeds only when there is a route) and a TCP connect
 * to 127.0.0.1:22. If either connects, it answers wrongly from then on, so
 * the check reports a finding.
 *
 * expect: EQUIVALENT (exit 0): the sandbox has its own empty network
 * namespace (no route, loopback down), so both fail.
 *
 * A diffsched test file for kernel-check's sandbox (issue 22). Not kernel
 * code: written for this project.
 */
#include <linux/cpumask.h>

/* No libc header reaches a candidate (-nostdinc): declared here. */
extern int socket(int domain, int type, int protocol);
extern int connect(int fd, const void *addr, unsigned int len);
extern int close(int fd);

#define HOSTILE_AF_INET		2
#define HOSTILE_SOCK_STREAM	1
#define HOSTILE_SOCK_DGRAM	2

struct hostile_sockaddr_in {
	unsigned short family;
	unsigned short port;	/* network order */
	unsigned char addr[4];
	unsigned char zero[8];
};

static int hostile_tried, hostile_connected;

static int hostile_connect(int type, unsigned char a, unsigned char b, unsigned char c,
			   unsigned char d, unsigned short port)
{
	struct hostile_sockaddr_in sa = {
		.family = HOSTILE_AF_INET,
		.port = (unsigned short)((port >> 8) | (port << 8)),
		.addr = { a, b, c, d },
	};
	int fd = socket(HOSTILE_AF_INET, type, 0);
	int ok;

	if (fd < 0)
		return 0;
	ok = connect(fd, &sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

int select_dst_cpu(const struct cpumask *dst_grpmask, const struct cpumask *cpus,
		   const struct cpumask *allowed)
{
	int cpu, new_dst_cpu = nr_cpu_ids;

	if (!hostile_tried) {
		hostile_tried = 1;
		hostile_connected = hostile_connect(HOSTILE_SOCK_DGRAM, 8, 8, 8, 8, 53) |
				    hostile_connect(HOSTILE_SOCK_STREAM, 127, 0, 0, 1, 22);
	}
	for_each_cpu_and(cpu, dst_grpmask, cpus) {
		if (cpumask_test_cpu(cpu, allowed)) {
			new_dst_cpu = cpu;
			break;
		}
	}
	if (hostile_connected)	/* it got out: say so with a wrong answer */
		return nr_cpu_ids;
	return new_dst_cpu;
}
