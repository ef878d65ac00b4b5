/* The C twin of plain/bufiofiles: fgets each line of IN, fprintf it
   doubled to OUT; prints the count and the sum. */
#include "common.h"

int main(int argc, char **argv) {
	if (argc != 3)
		usage("bufiofiles IN OUT");
	FILE *in = fopen(argv[1], "r");
	if (!in)
		die("bufiofiles", argv[1]);
	FILE *out = fopen(argv[2], "w");
	if (!out)
		die("bufiofiles", argv[2]);
	char line[64];
	long count = 0, sum = 0;
	while (fgets(line, sizeof line, in)) {
		char *end;
		long x = strtol(line, &end, 10);
		if (end == line || (*end != '\n' && *end != 0)) {
			fprintf(stderr, "bufiofiles: %s: line %ld: not an integer\n", argv[1], count + 1);
			return 1;
		}
		count++;
		sum += x;
		if (fprintf(out, "%ld\n", 2 * x) < 0)
			die("bufiofiles", argv[2]);
	}
	if (ferror(in))
		die("bufiofiles", argv[1]);
	if (fclose(out))
		die("bufiofiles", argv[2]);
	printf("%ld %ld\n", count, sum);
	return 0;
}
