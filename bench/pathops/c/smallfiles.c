/* smallfiles DIR N: N files of a line each, fopen, fprintf, fclose. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
	if (argc < 4)
		return 2;
	int n = atoi(argv[3]);
	char name[4096];
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof name, "%s/f%d", argv[2], i);
		FILE *f = fopen(name, "w");
		if (!f)
			return 2;
		fprintf(f, "file %d\n", i);
		if (fclose(f) != 0)
			return 2;
	}
	return 0;
}
