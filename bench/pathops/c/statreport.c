/* statreport LIST REPORT: stat(2) of each name of LIST, a line each to REPORT. */
#include <stdio.h>
#include <sys/stat.h>

int main(int argc, char **argv) {
	if (argc < 4)
		return 2;
	FILE *in = fopen(argv[2], "r"), *out = fopen(argv[3], "w");
	if (!in || !out)
		return 2;
	char name[4096];
	struct stat st;
	while (fscanf(in, "%4095s", name) == 1) {
		if (stat(name, &st) != 0)
			fprintf(out, "%s: error\n", name);
		else
			fprintf(out, "%s %lld %o\n", name, (long long)st.st_size, st.st_mode);
	}
	return fclose(out) != 0;
}
