/* getdelim_loop: the loop of the glibc patch proposal (Dec 2025), which
   GNU head -n reduces to: getdelim(3) from stdin, fwrite(3) to stdout.

   Usage: getdelim_loop [-n LINES] [-d DELIM] [-i MODE] [-o MODE]

   -n LINES  copy at most LINES records (default: all)
   -d DELIM  record delimiter, one byte (default: newline)
   -i MODE, -o MODE  buffering of stdin and stdout:
       default  glibc as it is: min(st_blksize, BUFSIZ) (8 KiB on a 128 KiB
                file system, 4 KiB on ext4 and /dev/null)
       rule     the proposal: min(st_blksize, 128 KiB), 8 KiB when fstat
                fails or reports no size; terminals stay line buffered
       BYTES    a fixed size, fully buffered

   glibc ignores setvbuf's size when it is given no buffer, so the sizes
   here come with a buffer of their own.

   Build: cc -O2 -o getdelim_loop getdelim_loop.c  */

#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define RULE_MAX (128 * 1024)

static const char *prog = "getdelim_loop";

static void usage(void)
{
  fprintf(stderr, "usage: %s [-n LINES] [-d DELIM] [-i MODE] [-o MODE]\n"
                  "MODE: default, rule or a byte count\n", prog);
  exit(2);
}

/* parse_count parses a non-negative decimal count, or exits with status 2. */
static long long parse_count(const char *opt, const char *s)
{
  char *end;
  errno = 0;
  long long n = strtoll(s, &end, 10);
  if (errno != 0 || end == s || *end != '\0' || n < 0)
    {
      fprintf(stderr, "%s: %s: bad number '%s'\n", prog, opt, s);
      exit(2);
    }
  return n;
}

/* setup applies MODE to fp before its first use, as setvbuf requires. */
static void setup(FILE *fp, const char *opt, const char *mode)
{
  size_t size;
  int how = _IOFBF;
  if (strcmp(mode, "default") == 0)
    return;
  if (strcmp(mode, "rule") == 0)
    {
      struct stat st;
      size = 8192;
      if (fstat(fileno(fp), &st) == 0 && st.st_blksize > 0)
        size = st.st_blksize < RULE_MAX ? (size_t) st.st_blksize : RULE_MAX;
      if (isatty(fileno(fp)))
        how = _IOLBF;
    }
  else
    {
      long long n = parse_count(opt, mode);
      if (n == 0)
        {
          fprintf(stderr, "%s: %s: size must be positive\n", prog, opt);
          exit(2);
        }
      size = (size_t) n;
    }
  char *buf = malloc(size);
  if (buf == NULL || setvbuf(fp, buf, how, size) != 0)
    {
      fprintf(stderr, "%s: %s: cannot set a %zu-byte buffer\n", prog, opt, size);
      exit(1);
    }
}

int main(int argc, char **argv)
{
  long long lines = -1;
  int delim = '\n';
  const char *imode = "default", *omode = "default";
  int c;
  while ((c = getopt(argc, argv, "n:d:i:o:")) != -1)
    switch (c)
      {
      case 'n': lines = parse_count("-n", optarg); break;
      case 'd':
        if (strlen(optarg) != 1)
          usage();
        delim = (unsigned char) optarg[0];
        break;
      case 'i': imode = optarg; break;
      case 'o': omode = optarg; break;
      default: usage();
      }
  if (optind != argc)
    usage();
  setup(stdin, "-i", imode);
  setup(stdout, "-o", omode);

  char *line = NULL;
  size_t cap = 0;
  for (long long i = 0; lines < 0 || i < lines; i++)
    {
      ssize_t len = getdelim(&line, &cap, delim, stdin);
      if (len < 0)
        break;
      if (fwrite(line, 1, (size_t) len, stdout) != (size_t) len)
        break;
    }
  if (ferror(stdin))
    {
      fprintf(stderr, "%s: read error: %s\n", prog, strerror(errno));
      return 1;
    }
  int write_failed = ferror(stdout);
  if (fclose(stdout) != 0 || write_failed)
    {
      fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
      return 1;
    }
  return 0;
}
