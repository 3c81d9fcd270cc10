// SPDX-License-Identifier: GPL-2.0
/*
 * padbench: what a task pinned to one CPU sees while that CPU is forced idle.
 *
 *   padbench busy CPU SECS    spin for SECS seconds; print the share of the
 *                             CPU the task got (its CPU time over wall time)
 *                             and the longest time it was kept off the CPU
 *   padbench sleep CPU SECS [PRIO]
 *                             wake up every millisecond for SECS seconds, as
 *                             a normal task or at SCHED_FIFO priority PRIO;
 *                             print how late the wake-ups were (median, 99th
 *                             percentile, maximum)
 *   padbench trace CPU SECS [STOP]
 *                             spin for SECS seconds, or until the file STOP
 *                             exists (looked for every 100 ms); print each
 *                             time the task was kept off the CPU for more
 *                             than 1 ms, as "gap START END" (CLOCK_MONOTONIC)
 *   padbench now              print CLOCK_MONOTONIC, to line events up with
 *                             a trace
 *
 * Output is one line of NAME=VALUE pairs, times in milliseconds.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void busy(double secs)
{
	double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_THREAD_CPUTIME_ID);
	double last = t0, t = t0, gap = 0;

	while (t - t0 < secs * 1e3) {
		t = now_ms(CLOCK_MONOTONIC);
		if (t - last > gap)
			gap = t - last;
		last = t;
	}
	printf("share=%.3f maxstall_ms=%.1f\n",
	       (now_ms(CLOCK_THREAD_CPUTIME_ID) - c0) / (t - t0), gap);
}

static void trace(double secs, const char *stop)
{
	double t0 = now_ms(CLOCK_MONOTONIC), last = t0, t = t0, looked = t0;

	while (t - t0 < secs * 1e3) {
		t = now_ms(CLOCK_MONOTONIC);
		if (t - last > 1)
			printf("gap %.3f %.3f\n", last, t);
		last = t;
		if (stop && t - looked >= 100) {
			if (!access(stop, F_OK))
				break;
			looked = t;
		}
	}
}

static void sleeper(double secs)
{
	size_t cap = secs * 1e3 + 1, n = 0;
	double *late = calloc(cap, sizeof(*late));
	double due = now_ms(CLOCK_MONOTONIC), end = due + secs * 1e3, t;
	struct timespec ts;

	if (!late)
		exit(1);
	while (n < cap) {
		due += 1;
		ts.tv_sec = due / 1e3;
		ts.tv_nsec = (due - ts.tv_sec * 1e3) * 1e6;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		t = now_ms(CLOCK_MONOTONIC);
		late[n++] = t - due;
		if (t >= end)
			break;
		/* After a late wake-up, skip the periods overslept. */
		if (t > due)
			due = t;
	}
	qsort(late, n, sizeof(*late), cmp_double);
	printf("wake_p50_ms=%.2f wake_p99_ms=%.2f wake_max_ms=%.1f\n",
	       late[n / 2], late[n * 99 / 100], late[n - 1]);
	free(late);
}

int main(int argc, char **argv)
{
	cpu_set_t set;

	if (argc == 2 && !strcmp(argv[1], "now")) {
		printf("%.3f\n", now_ms(CLOCK_MONOTONIC));
		return 0;
	}
	if (argc != 4 && !(argc == 5 && strcmp(argv[1], "busy"))) {
		fprintf(stderr, "usage: padbench busy|sleep|trace CPU SECS | padbench sleep CPU SECS PRIO | padbench trace CPU SECS STOP | padbench now\n");
		return 2;
	}
	if (argc == 5 && !strcmp(argv[1], "sleep")) {
		struct sched_param sp = { .sched_priority = atoi(argv[4]) };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			perror("sched_setscheduler");
			return 1;
		}
	}
	CPU_ZERO(&set);
	CPU_SET(atoi(argv[2]), &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("sched_setaffinity");
		return 1;
	}
	if (!strcmp(argv[1], "busy"))
		busy(atof(argv[3]));
	else if (!strcmp(argv[1], "sleep"))
		sleeper(atof(argv[3]));
	else if (!strcmp(argv[1], "trace"))
		trace(atof(argv[3]), argc == 5 ? argv[4] : NULL);
	else
		return 2;
	return 0;
}
