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
 * ARG is a decimal (or 0x-prefixed) unsigned 64-bit number; a namespace
 * with 32-bit Integers (a revision 1 DSDT) truncates it as ACPICA does.
 * Exit status: 0 when the table loaded, 1 when it did not (the reason on
 * stderr), 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TABLE_DIR	"/sys/kernel/config/acpi/table"
#define HEADER_LEN	36
/* \_SB.PAD0 as an AML NameString: RootChar, MultiNamePrefix, 3 segments to come */
#define PAD0_PATH	"\\" "\x2f" "\x03" "_SB_" "PAD0"
#define MAX_TABLES	100000
#define HINT_FILE	"/tmp/padfw.next"

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

	/*
	 * configfs loads the table when the file is closed and ignores what
	 * the load returns: the table's signature reads back only if it
	 * loaded.
	 */
	snprintf(path, sizeof(path), "%s/aml", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0 || write(fd, aml, len) != (ssize_t)len || close(fd)) {
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
	hint = fopen(HINT_FILE, "w");
	if (hint) {
		fprintf(hint, "%d\n", n + 1);
		fclose(hint);
	}
	return 0;
}
