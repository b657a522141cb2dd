/* rp-memory.c: living within a memory limit (ulimit -v). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gi18n-lib.h>
#include <malloc.h>
#include <pthread.h>
#include <sys/resource.h>

#include "rp-error.h"
#include "rp-memory.h"
#include "rp-units.h"

/* Room for what a run maps after main() starts and before its own checks
 * can speak: GIO's modules, GLib's and json-glib's allocations, the parts'
 * buffers (an R3 run needs about 20 MiB beyond its threads' stacks). */
#define HEADROOM_BYTES (32 * 1024 * 1024)

/* The stack of a new thread under a memory limit: the default of RLIMIT_STACK
 * (8 MiB) reserved per thread is most of a low limit; none of our threads
 * recurses deeply. */
#define LIMITED_STACK_BYTES (2 * 1024 * 1024)

/* VmSize of /proc/self/status in bytes, or 0. */
static guint64
own_address_space (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (line = strstr (status, "\nVmSize:")) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen ("\nVmSize:"), NULL, 10) * 1024;
}

/**
 * rp_memory_adapt_to_limit:
 *
 * Under a limit of the address space (`ulimit -v`, RLIMIT_AS), makes glibc's
 * malloc() serve every thread from one arena. Each thread that allocates
 * otherwise gets an arena of its own that reserves 64 MiB of address space
 * (glibc's HEAP_MAX_SIZE on 64-bit), so a run of ten threads under
 * `ulimit -v 200000` ran out of address space with almost nothing in use,
 * and a small allocation failing deep in GLib aborts or overflows the stack
 * on its way to an error message. With one arena, the limit is reached by
 * what the run really holds: a thread that cannot get its stack, a buffer or
 * a chunk of samples, each of which fails the run with a message. New
 * threads get stacks of 2 MiB instead of RLIMIT_STACK's 8 MiB, too.
 * Call it first in main(), before any thread exists.
 *
 * Returns: whether a limit was found and malloc() adapted to it
 */
gboolean
rp_memory_adapt_to_limit (void)
{
  struct rlimit limit;

  pthread_attr_t attributes;

  if (getrlimit (RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return FALSE;
  /* Threads created without a stack size of their own (GLib's, ours) take
   * the process's default. */
  if (pthread_attr_init (&attributes) == 0)
    {
      if (pthread_attr_setstacksize (&attributes, LIMITED_STACK_BYTES) == 0)
        pthread_setattr_default_np (&attributes);
      pthread_attr_destroy (&attributes);
    }
  return mallopt (M_ARENA_MAX, 1) == 1;
}

/**
 * rp_memory_check_headroom:
 * @n_threads: threads the caller is about to need before it can report an
 *   error by itself (GLib's own "gmain" worker thread among them)
 * @error: set to %RP_ERROR_FAILED naming the limit and what is needed
 *
 * GLib aborts when it cannot create a thread of its own (GIO's "gmain") or
 * allocate a few bytes; under a very low `ulimit -v` that happens before any
 * of our messages. This compares the limit with what the process already
 * maps (VmSize), @n_threads stacks (2 MiB each under a limit) and 32 MiB of
 * headroom, so that such a limit is a message instead of an abort.
 *
 * Returns: %TRUE when there is no limit or it leaves that much room
 */
gboolean
rp_memory_check_headroom (guint    n_threads,
                          GError **error)
{
  struct rlimit limit, stack;
  guint64 stack_bytes = 8 * 1024 * 1024, needed;
  g_autofree char *limit_text = NULL;
  g_autofree char *needed_text = NULL;

  if (getrlimit (RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return TRUE;
  /* rp_memory_adapt_to_limit() made them smaller, when it ran. */
  if (getrlimit (RLIMIT_STACK, &stack) == 0 && stack.rlim_cur != RLIM_INFINITY)
    stack_bytes = MIN (stack.rlim_cur, LIMITED_STACK_BYTES);
  needed = own_address_space () + n_threads * stack_bytes + HEADROOM_BYTES;
  if ((guint64) limit.rlim_cur >= needed)
    return TRUE;
  limit_text = rp_format_size (limit.rlim_cur);
  needed_text = rp_format_size (needed);
  /* TRANSLATORS: both %s are sizes such as "29.3 MiB"; ulimit -v is a shell command, keep it */
  g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
               _("The memory limit (ulimit -v) of %s is too low: at least %s of address space is needed"),
               limit_text, needed_text);
  return FALSE;
}
