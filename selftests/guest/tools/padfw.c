// SPDX-License-Identifier: GPL-2.0
/*
 * padfw METHOD [ARG]: run \_SB.PAD0.METHOD (of selftests/firmware/pad.asl),
 * with one Integer argument if ARG is given, the way the firmware would:
 * from the module-level code of a small SSDT loaded through ACPI configfs
 * (/sys/kernel/config/acpi/table/padfw.N). The method has run when padfw
 * returns; a Notify it makes is delivered asynchronously, as always.
 *
 * This replaces the ACPICA debugger (acpidbg) as the tests' firmware
 * transport: the debugger's user interface sometimes garbles a command and
 * then answers none. The tables stay loaded: unloading a table while the
 * bus scan its load queued still runs is not safe (see the kselftest). Each
 * table is unique (its OEM revision is N), as ACPICA refuses to load a copy
 * of a loaded table.
 *
 * Each load queues a scan of the whole ACPI namespace, one at a time: loads
 * faster than the scans run pile them up (a sanitizer kernel under stress
 * then reports the waiting workers as hung). So padfw returns only once
 * the scan its load queued has started: \_SB.PAD0.SCNV's _STA counts the
 * scans (pad.asl). Without that device it does not wait.
 *
 * ARG is a decimal (or 0x-prefixed) unsigned 64-bit number; a namespace
 * with 32-bit Integers (a revision 1 DSDT) truncates it as ACPICA does.
 * Exit status: 0 when the table loaded, 1 when it did not (the reason on
 * stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TABLE_DIR	"/sys/kernel/config/acpi/table"
#define HEADER_LEN	36
/* \_SB.PAD0 as an AML NameString: RootChar, MultiNamePrefix, 3 segments to come */
#define PAD0_PATH	"\\" "\x2f" "\x03" "_SB_" "PAD0"
#define MAX_TABLES	100000
#define HINT_FILE	"/tmp/padfw.next"
#define ACPI_DEVICES	"/sys/bus/acpi/devices"
#define SCAN_PATH	"\\_SB_.PAD0.SCNV"
#define SCAN_WAIT_MS	30000

static unsigned char aml[HEADER_LEN + 64];
static size_t len = HEADER_LEN;

static void put(const void *p, size_t n)
{
	memcpy(aml + len, p, n);
	len += n;
}

static void put_le(uint64_t v, int n)
{
	while (n--) {
		aml[len++] = v & 0xff;
		v >>= 8;
	}
}

/* An AML Integer: ZeroOp, OneOp or the shortest of Byte/Word/DWord/QWord. */
static void put_int(uint64_t v)
{
	if (v <= 1) {
		aml[len++] = v;		/* ZeroOp 0x00, OneOp 0x01 */
	} else if (v <= 0xff) {
		aml[len++] = 0x0a;
		put_le(v, 1);
	} else if (v <= 0xffff) {
		aml[len++] = 0x0b;
		put_le(v, 2);
	} else if (v <= 0xffffffff) {
		aml[len++] = 0x0c;
		put_le(v, 4);
	} else {
		aml[len++] = 0x0e;
		put_le(v, 8);
	}
}

/* Find the status file of the ACPI device at @acpi_path ("\\_SB_.PAD0.SCNV"). */
static bool find_status(const char *acpi_path, char *out, size_t size)
{
	char path[300], buf[64];
	struct dirent *de;
	bool found = false;
	ssize_t n;
	DIR *d;
	int fd;

	d = opendir(ACPI_DEVICES);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), ACPI_DEVICES "/%s/path", de->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = 0;
		buf[strcspn(buf, "\n")] = 0;
		if (!strcmp(buf, acpi_path)) {
			snprintf(out, size, ACPI_DEVICES "/%s/status", de->d_name);
			found = true;
		}
	}
	closedir(d);
	return found;
}

/* The number in @file, or -1. */
static long long read_number(const char *file)
{
	char buf[32];
	ssize_t n;
	int fd;

	fd = open(file, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtoll(buf, NULL, 10);
}

static int usage(void)
{
	fprintf(stderr, "usage: padfw METHOD [ARG]   (METHOD: 4 characters, a method of \\_SB.PAD0)\n");
	return 2;
}

int main(int argc, char **argv)
{
	char dir[64], path[80], sig[8], *end;
	unsigned char sum = 0;
	uint64_t arg = 0;
	size_t i;
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	char scan_file[300];
	long long scans;
	int n, first, fd;
	FILE *hint;

	if (argc < 2 || argc > 3 || strlen(argv[1]) != 4)
		return usage();
	if (argc == 3) {
		errno = 0;
		arg = strtoull(argv[2], &end, 0);
		if (errno || end == argv[2] || *end || argv[2][0] == '-')
			return usage();
	}

	/* MethodInvocation: \_SB.PAD0.METHOD as a MultiNamePath, then ARG. */
	put(PAD0_PATH, sizeof(PAD0_PATH) - 1);
	put(argv[1], 4);
	if (argc == 3)
		put_int(arg);

	/*
	 * A directory of our own: mkdir() fails with EEXIST on a taken one.
	 * Start where the last call left off (a hint: a race only costs a
	 * retry).
	 */
	hint = fopen(HINT_FILE, "r");
	if (!hint || fscanf(hint, "%d", &first) != 1 || first < 1 || first > MAX_TABLES)
		first = 1;
	if (hint)
		fclose(hint);
	for (n = first; n <= MAX_TABLES; n++) {
		snprintf(dir, sizeof(dir), TABLE_DIR "/padfw.%d", n);
		if (!mkdir(dir, 0755))
			break;
		if (errno != EEXIST) {
			fprintf(stderr, "padfw: mkdir %s: %s (needs CONFIG_ACPI_CONFIGFS and configfs mounted)\n",
				dir, strerror(errno));
			return 1;
		}
	}
	if (n > MAX_TABLES) {
		fprintf(stderr, "padfw: no free table directory in " TABLE_DIR "\n");
		return 1;
	}

	memcpy(aml, "SSDT", 4);
	aml[8] = 2;				/* revision */
	memcpy(aml + 10, "PADTST", 6);		/* OEM ID */
	memcpy(aml + 16, "PADFW   ", 8);	/* OEM table ID */
	memcpy(aml + 28, "PADF", 4);		/* creator ID */
	i = len;
	len = 4;
	put_le(i, 4);				/* length */
	len = 24;
	put_le(n, 4);				/* OEM revision: unique */
	len = 32;
	put_le(1, 4);				/* creator revision */
	len = i;
	for (i = 0; i < len; i++)
		sum += aml[i];
	aml[9] = -sum;				/* checksum */

	scans = find_status(SCAN_PATH, scan_file, sizeof(scan_file)) ?
		read_number(scan_file) : -1;

	/*
	 * configfs loads the table when the file is closed and ignores what
	 * the load returns: the table's signature reads back only if it
	 * loaded.
	 */
	snprintf(path, sizeof(path), "%s/aml", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, aml, len) != (ssize_t)len) {
		fprintf(stderr, "padfw: writing %s: %s\n", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		rmdir(dir);
		return 1;
	}
	if (close(fd)) {
		fprintf(stderr, "padfw: writing %s: %s\n", path, strerror(errno));
		rmdir(dir);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/signature", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, sig, sizeof(sig)) != 5 || memcmp(sig, "SSDT\n", 5)) {
		fprintf(stderr, "padfw: %s did not load (the kernel log says why)\n", dir);
		if (fd >= 0)
			close(fd);
		rmdir(dir);
		return 1;
	}
	close(fd);

	/* Wait (bounded) for the bus scan this load queued to start. */
	for (i = 0; scans >= 0 && read_number(scan_file) == scans; i++) {
		if (i == SCAN_WAIT_MS / 10) {
			fprintf(stderr, "padfw: %s loaded, but no bus scan started within %d s\n",
				dir, SCAN_WAIT_MS / 1000);
			return 1;
		}
		nanosleep(&tick, NULL);
	}

	hint = fopen(HINT_FILE, "w");
	if (hint) {
		fprintf(hint, "%d\n", n + 1);
		fclose(hint);
	}
	return 0;
}
