/* The C twin of plain/scan: scanf("%ld") from standard input to its end;
   prints the count and the sum. */
#include "common.h"

int main(int argc, char **argv) {
	(void)argv;
	if (argc != 1)
		usage("scan < INTS");
	long x, count = 0, sum = 0;
	int r;
	while ((r = scanf("%ld", &x)) == 1) {
		count++;
		sum += x;
	}
	if (r != EOF || ferror(stdin)) {
		fprintf(stderr, "scan: integer %ld: not an integer or a read error\n", count + 1);
		return 1;
	}
	printf("%ld %ld\n", count, sum);
	return 0;
}
