/* walker DIR: a line per file, its path and size, on standard output. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdio.h>

static int visit(const char *p, const struct stat *st, int type, struct FTW *f) {
	(void)f;
	if (type == FTW_F)
		printf("%s %lld\n", p, (long long)st->st_size);
	return 0;
}

int main(int argc, char **argv) {
	if (argc < 3 || nftw(argv[2], visit, 64, FTW_PHYS) != 0)
		return 2;
	return 0;
}
