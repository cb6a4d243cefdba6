/* diffsched fn ctest input (fn.files.printk-*), written for this project:
 * messages through printk() and pr_*(), as kernel files print them. The
 * message is not compared; an argument with a side effect runs, as in the
 * kernel (printk-args-new.c drops that argument: a finding), and
 * pr_debug()'s does not (no DEBUG). */
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
	printk(KERN_DEBUG "weight %d, report %d\n", weight, span_report());
	pr_cont(" done\n");
	return weight + span_reports;
}
