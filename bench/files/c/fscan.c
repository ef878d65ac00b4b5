/* The C twin of plain/fscan: fscanf(f, "%ld") from fopen(PATH, "r") to
   its end; prints the count and the sum. */
#include "common.h"

int main(int argc, char **argv) {
	if (argc != 2)
		usage("fscan PATH");
	FILE *f = fopen(argv[1], "r");
	if (!f)
		die("fscan", argv[1]);
	long x, count = 0, sum = 0;
	int r;
	while ((r = fscanf(f, "%ld", &x)) == 1) {
		count++;
		sum += x;
	}
	if (r != EOF || ferror(f)) {
		fprintf(stderr, "fscan: %s: integer %ld: not an integer or a read error\n", argv[1], count + 1);
		return 1;
	}
	printf("%ld %ld\n", count, sum);
	return 0;
}
