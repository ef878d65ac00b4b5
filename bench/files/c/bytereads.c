/* The C twin of plain/bytereads: getchar() to the end of standard input;
   prints the bytes and the newlines read. */
#include "common.h"

int main(int argc, char **argv) {
	(void)argv;
	if (argc != 1)
		usage("bytereads < FILE");
	long bytes = 0, lines = 0;
	int c;
	while ((c = getchar()) != EOF) {
		bytes++;
		if (c == '\n')
			lines++;
	}
	if (ferror(stdin))
		die("bytereads", "standard input");
	printf("%ld %ld\n", bytes, lines);
	return 0;
}
