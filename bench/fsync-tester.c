/* fsync-tester.c: the reference of benchmark 3, fsync-tester of kernel bug 12309 as R1 describes it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Written from the description in docs/SCENARIOS.md (R1), deliberately without the
 * engine, GLib or anything of ours, so that it is an independent reference:
 * write 1 MiB of 'a' at offset 0 of its own file, time fsync(), print
 * "fsync time: %.4f" (seconds), sleep 1 s, repeat. The original loops
 * forever; an optional count lets the benchmark stop it, and the file is
 * removed at the end. With --tmpfile the file is an unlinked one in the
 * directory DIR (O_TMPFILE), as the engine's probe uses, to measure what
 * that difference alone costs (bench/fsync-unlinked.py).
 * Usage: fsync-tester [--tmpfile] FILE|DIR [COUNT] */
/* _GNU_SOURCE comes from the project arguments (meson.build). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SIZE (1024 * 1024)

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int
main (int   argc,
      char *argv[])
{
  static char buffer[SIZE];
  int tmpfile = argc > 1 && strcmp (argv[1], "--tmpfile") == 0;
  long count;
  int fd;

  argc -= tmpfile;
  argv += tmpfile;
  if (argc < 2)
    {
      fprintf (stderr, "usage: fsync-tester [--tmpfile] FILE|DIR [COUNT]\n");
      return 2;
    }
  count = argc > 2 ? strtol (argv[2], NULL, 10) : -1;
  fd = tmpfile ? open (argv[1], O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600)
               : open (argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    {
      perror (argv[1]);
      return 1;
    }
  memset (buffer, 'a', sizeof buffer);

  for (long i = 0; count < 0 || i < count; i++)
    {
      double start;

      if (pwrite (fd, buffer, sizeof buffer, 0) != (ssize_t) sizeof buffer)
        {
          perror ("pwrite");
          return 1;
        }
      start = now ();
      if (fsync (fd) != 0)
        {
          perror ("fsync");
          return 1;
        }
      printf ("fsync time: %.4f\n", now () - start);
      fflush (stdout);
      if (count < 0 || i + 1 < count)
        sleep (1);
    }
  close (fd);
  if (!tmpfile)
    unlink (argv[1]);
  return 0;
}
