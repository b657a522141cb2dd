/* rp-headroom.c: address space kept free while threads start under a memory limit. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <sys/mman.h>

#include "rp-error.h"
#include "rp-headroom.h"
#include "rp-units.h"

/* Under an address-space limit (ulimit -v, RLIMIT_AS) every thread's stack
 * (8 MiB by default) counts: a part starting dozens of threads may take the
 * last of it, and the run's other threads then abort in their next
 * g_malloc() (GLib's allocations cannot fail): "GSlice: failed to allocate
 * 496 bytes" ended 64 readers under ulimit -v 200000 in one CI run, where
 * the limit was meant to fail their start with a message. A reservation
 * held while the threads start and given back after (or before the part
 * fails) leaves the others that much. It reserves address space only
 * (PROT_NONE, MAP_NORESERVE): no memory is touched. */
struct _RpHeadroom
{
  gpointer address;
  gsize    size;
};

/**
 * rp_headroom_try_take:
 * @size: bytes of address space to hold, at least 1
 * @owner: who asks, for the message: a part's label such as "Sequential readers"
 * @error: set to %RP_ERROR_FAILED naming @owner and @size when the address
 *   space (ulimit -v) has not that much left
 *
 * Returns: (transfer full) (nullable): the reservation, give it back with
 *   rp_headroom_release(); %NULL with @error set
 */
RpHeadroom *
rp_headroom_try_take (gsize        size,
                      const char  *owner,
                      GError     **error)
{
  gpointer address;
  RpHeadroom *headroom;
  g_autofree char *text = NULL;

  g_return_val_if_fail (size > 0, NULL);

  address = mmap (NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (address != MAP_FAILED)
    {
      /* g_try_new(): the struct itself may not fit either. */
      headroom = g_try_new (RpHeadroom, 1);
      if (headroom != NULL)
        {
          headroom->address = address;
          headroom->size = size;
          return headroom;
        }
      munmap (address, size);
    }
  text = rp_format_size (size);
  /* TRANSLATORS: %s is a load, e.g. "Sequential readers"; the second %s a size such as "32.0 MiB" */
  g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
               _("%s: not enough memory left for its threads (%s more; is a memory limit set, such as ulimit -v?)"),
               owner, text);
  return NULL;
}

/**
 * rp_headroom_release:
 * @headroom: (transfer full) (nullable): from rp_headroom_try_take()
 *
 * Gives the address space back.
 */
void
rp_headroom_release (RpHeadroom *headroom)
{
  if (headroom == NULL)
    return;
  munmap (headroom->address, headroom->size);
  g_free (headroom);
}
