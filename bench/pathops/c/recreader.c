/* recreader IN: 16-byte records of IN, a line per record on standard error. */
#include <stdint.h>
#include <stdio.h>

int main(int argc, char **argv) {
	if (argc < 3)
		return 2;
	FILE *in = fopen(argv[2], "r");
	if (!in)
		return 2;
	uint64_t rec[2];
	for (long i = 0; fread(rec, sizeof rec, 1, in) == 1; i++)
		fprintf(stderr, "record %ld: %llu %llu\n", i, (unsigned long long)rec[0], (unsigned long long)rec[1]);
	return 0;
}
