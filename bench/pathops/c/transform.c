/* transform IN OUT: each number of IN and its square, a line each to OUT. */
#include <stdio.h>

int main(int argc, char **argv) {
	if (argc < 4)
		return 2;
	FILE *in = fopen(argv[2], "r"), *out = fopen(argv[3], "w");
	if (!in || !out)
		return 2;
	long long n;
	while (fscanf(in, "%lld", &n) == 1)
		fprintf(out, "%lld %lld\n", n, n * n);
	return fclose(out) != 0;
}
