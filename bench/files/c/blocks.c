/* The C twin of plain/blocks: fread and fwrite of 128 KiB blocks from IN
   to OUT (glibc passes blocks this large straight to read and write);
   prints the bytes copied. */
#include "common.h"

int main(int argc, char **argv) {
	if (argc != 3)
		usage("blocks IN OUT");
	FILE *in = fopen(argv[1], "r");
	if (!in)
		die("blocks", argv[1]);
	FILE *out = fopen(argv[2], "w");
	if (!out)
		die("blocks", argv[2]);
	static char buf[128 << 10];
	long total = 0;
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
		if (fwrite(buf, 1, n, out) != n)
			die("blocks", argv[2]);
		total += (long)n;
	}
	if (ferror(in))
		die("blocks", argv[1]);
	if (fclose(out))
		die("blocks", argv[2]);
	printf("%ld\n", total);
	return 0;
}
