// SPDX-License-Identifier: GPL-2.0
/*
 * Minimal timeout(1) for the farm guest: run_kselftest.sh calls
 * "/usr/bin/timeout --foreground SECS /usr/bin/timeout SECS CMD...", which
 * busybox's timeout does not understand.  Supports --foreground,
 * -k/--kill-after SECS and -s/--signal NUM; exits 124 on a time-out, else
 * with the command's status (128 + signal when it was killed).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static pid_t child;
static int foreground, sig = SIGTERM, kill_after, timed_out;

static void on_alarm(int unused)
{
	pid_t target = foreground ? child : -child;

	(void)unused;
	if (!timed_out) {
		timed_out = 1;
		kill(target, sig);
		if (kill_after)
			alarm(kill_after);
	} else {
		kill(target, SIGKILL);
	}
}

int main(int argc, char **argv)
{
	int i = 1, status, secs;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--foreground"))
			foreground = 1;
		else if ((!strcmp(argv[i], "-k") || !strcmp(argv[i], "--kill-after")) && i + 1 < argc)
			kill_after = atoi(argv[++i]);
		else if ((!strcmp(argv[i], "-s") || !strcmp(argv[i], "--signal")) && i + 1 < argc)
			sig = atoi(argv[++i]);
		else
			break;
	}
	if (argc - i < 2) {
		fprintf(stderr, "usage: timeout [--foreground] [-k SECS] [-s SIG] SECS CMD...\n");
		return 125;
	}
	secs = atoi(argv[i++]);
	child = fork();
	if (child < 0)
		return 125;
	if (!child) {
		if (!foreground)
			setpgid(0, 0);
		execvp(argv[i], argv + i);
		perror(argv[i]);
		_exit(127);
	}
	if (!foreground)
		setpgid(child, child);
	signal(SIGALRM, on_alarm);
	if (secs > 0)
		alarm(secs);
	while (waitpid(child, &status, 0) < 0)
		;
	if (timed_out)
		return 124;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
