/* The C twin of plain/fprintf: fprintf(f, "%ld\n", i) for every i below N
   into a file from fopen(PATH, "w"). */
#include "common.h"

int main(int argc, char **argv) {
	if (argc != 3)
		usage("fprintf N PATH");
	long n = count_arg("fprintf", argv[1]);
	FILE *f = fopen(argv[2], "w");
	if (!f)
		die("fprintf", argv[2]);
	for (long i = 0; i < n; i++)
		if (fprintf(f, "%ld\n", i) < 0)
			die("fprintf", argv[2]);
	if (fclose(f))
		die("fprintf", argv[2]);
	return 0;
}
