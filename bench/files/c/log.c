/* The C twin of plain/log: per record, the local time formatted as log's
   default flags do ("2006/01/02 15:04:05 "), then "record I of N", into a
   file from fopen(PATH, "w"). */
#include <time.h>
#include "common.h"

int main(int argc, char **argv) {
	if (argc != 3)
		usage("log N PATH");
	long n = count_arg("log", argv[1]);
	FILE *f = fopen(argv[2], "w");
	if (!f)
		die("log", argv[2]);
	for (long i = 0; i < n; i++) {
		char stamp[32];
		struct tm tm;
		time_t now = time(NULL);
		localtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y/%m/%d %H:%M:%S", &tm);
		if (fprintf(f, "%s record %ld of %ld\n", stamp, i, n) < 0)
			die("log", argv[2]);
	}
	if (fclose(f))
		die("log", argv[2]);
	return 0;
}
