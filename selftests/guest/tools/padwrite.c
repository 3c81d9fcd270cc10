// SPDX-License-Identifier: GPL-2.0
/*
 * padwrite FILE DATA [TIMES]: write DATA, repeated TIMES times (default 1),
 * to FILE with a single write(2) and print what the kernel answered:
 * "ret N" (bytes written) or "errno NAME" (e.g. "errno EINVAL"); an open
 * that fails prints "open-errno NAME". DATA takes the escapes \n, \t, \\
 * and \xHH (so "\x00" is a NUL byte), which the shell's echo cannot give
 * exactly. Exit status: 0 when it printed an answer, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static size_t unescape(const char *s, char *out)
{
	size_t n = 0;
	unsigned int v;

	while (*s) {
		if (s[0] == '\\' && s[1] == 'n') {
			out[n++] = '\n';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 't') {
			out[n++] = '\t';
			s += 2;
		} else if (s[0] == '\\' && s[1] == '\\') {
			out[n++] = '\\';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2x", &v) == 1) {
			out[n++] = (char)v;
			s += 4;
		} else {
			out[n++] = *s++;
		}
	}
	return n;
}

int main(int argc, char **argv)
{
	size_t len, times = 1, i;
	char *one, *buf;
	ssize_t ret;
	int fd;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: padwrite FILE DATA [TIMES]\n");
		return 2;
	}
	if (argc == 4)
		times = strtoul(argv[3], NULL, 10);
	one = malloc(strlen(argv[2]) + 1);
	if (!one || !times)
		return 2;
	len = unescape(argv[2], one);
	buf = malloc(len * times + 1);
	if (!buf)
		return 2;
	for (i = 0; i < times; i++)
		memcpy(buf + i * len, one, len);

	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("open-errno %s\n", strerrorname_np(errno));
		return 0;
	}
	ret = write(fd, buf, len * times);
	if (ret < 0)
		printf("errno %s\n", strerrorname_np(errno));
	else
		printf("ret %zd\n", ret);
	close(fd);
	return 0;
}
