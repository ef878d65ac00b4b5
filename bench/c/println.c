/* The C twin of println.go: printf("%d\n", i) for every i below N (default
   1<<24), or with -printf printf("%d %s\n", i, word). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
	long n = 1L << 24;
	int pf = 0;
	static const char *words[] = {"alpha", "beta", "gamma", "delta"};
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-printf") == 0)
			pf = 1;
		else if (strncmp(argv[i], "-n=", 3) == 0)
			n = atol(argv[i] + 3);
		else {
			fprintf(stderr, "usage: println [-printf] [-n=N]\n");
			return 2;
		}
	}
	for (long i = 0; i < n; i++) {
		if (pf)
			printf("%ld %s\n", i, words[i % 4]);
		else
			printf("%ld\n", i);
	}
	return 0;
}
