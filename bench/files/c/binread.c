/* The C twin of plain/binread: fread of one 16-byte record (two int64s,
   little-endian as on the machines this runs on) per call; prints the
   count and the sums of the two fields. */
#include <stdint.h>
#include "common.h"

int main(int argc, char **argv) {
	if (argc != 2)
		usage("binread PATH");
	FILE *f = fopen(argv[1], "r");
	if (!f)
		die("binread", argv[1]);
	int64_t r[2];
	long count = 0;
	int64_t sum_a = 0, sum_b = 0;
	size_t got;
	while ((got = fread(r, sizeof r, 1, f)) == 1) {
		count++;
		sum_a += r[0];
		sum_b += r[1];
	}
	if (ferror(f))
		die("binread", argv[1]);
	printf("%ld %lld %lld\n", count, (long long)sum_a, (long long)sum_b);
	return 0;
}
