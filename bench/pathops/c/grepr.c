/* grepr DIR WORD REPORT: the files under DIR that hold WORD, a line each to REPORT. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *word;
static FILE *out;

static int visit(const char *p, const struct stat *st, int type, struct FTW *f) {
	(void)f;
	if (type != FTW_F)
		return 0;
	FILE *in = fopen(p, "r");
	if (!in)
		return 1;
	char *b = malloc(st->st_size + 1);
	size_t n = fread(b, 1, st->st_size, in);
	b[n] = 0;
	fclose(in);
	if (strstr(b, word))
		fprintf(out, "%s\n", p);
	free(b);
	return 0;
}

int main(int argc, char **argv) {
	if (argc < 5)
		return 2;
	word = argv[3];
	out = fopen(argv[4], "w");
	if (!out || nftw(argv[2], visit, 64, FTW_PHYS) != 0)
		return 2;
	return fclose(out) != 0;
}
