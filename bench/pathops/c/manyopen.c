/* manyopen DIR N: N files open at once, a line to each, then all closed. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

int main(int argc, char **argv) {
	if (argc < 4)
		return 2;
	int n = atoi(argv[3]);
	struct rlimit lim = {n + 100, n + 100};
	if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
		return 2;
	FILE **f = calloc(n, sizeof *f);
	char name[4096];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s/f%d", argv[2], i);
		if (!(f[i] = fopen(name, "w")))
			return 2;
		fprintf(f[i], "file %d of %d\n", i, n);
	}
	for (int i = 0; i < n; i++)
		if (fclose(f[i]) != 0)
			return 2;
	return 0;
}
