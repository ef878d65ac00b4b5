/* write4k.c: the cost of one write(2) of 4096 bytes to /dev/null from C,
   the floor that bench/syscallcost compares Go's paths against.
   Build: cc -O2 -o write4k write4k.c; run: ./write4k */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

enum { CALLS = 56000, ROUNDS = 9 };

static int cmp(const void *a, const void *b)
{
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

int main(void)
{
  static char buf[4096];
  long ns[ROUNDS];
  int fd = open("/dev/null", O_WRONLY);
  if (fd < 0) { perror("/dev/null"); return 1; }
  for (int r = 0; r < ROUNDS; r++) {
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < CALLS; i++)
      if (write(fd, buf, sizeof buf) != sizeof buf) { perror("write"); return 1; }
    clock_gettime(CLOCK_MONOTONIC, &b);
    ns[r] = ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec)) / CALLS;
  }
  qsort(ns, ROUNDS, sizeof ns[0], cmp);
  printf("C write(2)\t%ld ns/call\n", ns[ROUNDS / 2]);
  return 0;
}
