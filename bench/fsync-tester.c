/* fsync-tester.c: the reference of benchmark 3, fsync-tester of kernel bug 12309 as R1 describes it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Written from the description in SCENARIOS.md (R1), deliberately without the
 * engine, GLib or anything of ours, so that it is an independent reference:
 * write 1 MiB of 'a' at offset 0 of its own file, time fsync(), print
 * "fsync time: %.4f" (seconds), sleep 1 s, repeat. The original loops
 * forever; an optional count lets the benchmark stop it, and the file is
 * removed at the end. Usage: fsync-tester FILE [COUNT] */
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
  long count = argc > 2 ? strtol (argv[2], NULL, 10) : -1;
  int fd;

  if (argc < 2)
    {
      fprintf (stderr, "usage: %s FILE [COUNT]\n", argv[0]);
      return 2;
    }
  fd = open (argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
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
  unlink (argv[1]);
  return 0;
}
