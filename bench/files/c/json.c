/* The C twin of plain/json: per record, the line encoding/json's Encoder
   writes for {ID: i, Name: "item", Value: i + 0.5}, with fprintf into a
   file from fopen(PATH, "w"). */
#include "common.h"

int main(int argc, char **argv) {
	if (argc != 3)
		usage("json N PATH");
	long n = count_arg("json", argv[1]);
	FILE *f = fopen(argv[2], "w");
	if (!f)
		die("json", argv[2]);
	for (long i = 0; i < n; i++)
		if (fprintf(f, "{\"ID\":%ld,\"Name\":\"item\",\"Value\":%.1f}\n", i, (double)i + 0.5) < 0)
			die("json", argv[2]);
	if (fclose(f))
		die("json", argv[2]);
	return 0;
}
