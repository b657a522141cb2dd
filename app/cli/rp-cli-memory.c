/* rp-cli-memory.c: `--memory`: a machine of less memory for a run or a matrix cell, said on the terminal. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-cli.h"
#include "rp-units.h"

/**
 * rp_cli_pin_memory:
 * @machine_memory: the memory of the machine to emulate, bytes
 * @error: as rp_memory_pin_new()
 *
 * Pins the rest of this machine's memory (rp_memory_pin_new()), saying
 * first how much and afterwards what the kernel's dirty threshold became.
 * Call it on the main thread.
 *
 * Returns: (transfer full) (nullable): the pin, held until it is freed
 */
RpMemoryPin *
rp_cli_pin_memory (guint64   machine_memory,
                   GError  **error)
{
  g_autofree char *machine_text = rp_format_size (machine_memory);
  g_autofree char *pinned_text = NULL, *emulated_text = NULL, *own_text = NULL;
  RpMemoryPin *pin;
  guint64 pinned = 0;

  if (!rp_memory_pin_check (machine_memory, &pinned, error))
    return NULL;
  pinned_text = rp_format_size (pinned);
  /* TRANSLATORS: bytes to pin, the memory of the machine emulated */
  rp_cli_print (_("Pinning %s of memory to emulate a machine of %s…\n"), pinned_text, machine_text);
  pin = rp_memory_pin_new (machine_memory, error);
  if (pin == NULL)
    return NULL;
  emulated_text = rp_format_size (rp_memory_pin_get_dirty_threshold (pin, TRUE));
  own_text = rp_format_size (rp_memory_pin_get_dirty_threshold (pin, FALSE));
  /* TRANSLATORS: the kernel's dirty threshold now, and before pinning */
  rp_cli_print (_("The kernel’s dirty threshold is now %s (%s without the emulation).\n"), emulated_text, own_text);
  return pin;
}
