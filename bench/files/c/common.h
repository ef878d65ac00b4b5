/* What every C peer shares: the record count of argv, and dying with a
   message naming what failed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static inline void die(const char *prog, const char *what) {
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(errno));
	exit(1);
}

static inline long count_arg(const char *prog, const char *arg) {
	char *end;
	errno = 0;
	long n = strtol(arg, &end, 10);
	if (errno || *end || end == arg || n < 0) {
		fprintf(stderr, "%s: bad record count \"%s\"\n", prog, arg);
		exit(2);
	}
	return n;
}

static inline void usage(const char *text) {
	fprintf(stderr, "usage: %s\n", text);
	exit(2);
}
