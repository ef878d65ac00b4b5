/* pipeblocks: standard input read in 32 KiB blocks, bytes and lines counted. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
	static char buf[32 << 10];
	long n = 0, lines = 0;
	ssize_t k;
	while ((k = read(0, buf, sizeof buf)) > 0) {
		n += k;
		for (ssize_t i = 0; i < k; i++)
			lines += buf[i] == '\n';
	}
	printf("%ld %ld\n", n, lines);
	return 0;
}
