/* diffsched fn ctest input (fn.files.printk-*), written for this project:
 * printk-args.c's function with the message's side-effecting argument
 * dropped: span_report() no longer runs. */
#define pr_fmt(fmt) "span: " fmt
#include <linux/printk.h>

static int span_reports;

static int span_report(void)
{
	return ++span_reports;
}

int span_checked(int weight)
{
	span_reports = 0;
	pr_debug("never evaluated: %d\n", span_report());
	if (weight < 0) {
		pr_err("negative weight %d\n", weight);
		return -1;
	}
	printk(KERN_DEBUG "weight %d\n", weight);
	pr_cont(" done\n");
	return weight + span_reports;
}
