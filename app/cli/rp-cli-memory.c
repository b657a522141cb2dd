/* rp-cli-memory.c: `--memory`: a machine of less memory for a run or a matrix cell, said on the terminal. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-cli.h"
#include "rp-error.h"
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

/**
 * rp_cli_parse_memory_list:
 * @text: `matrix --memory`'s value, sizes separated by commas ("4G,2G")
 * @out: (element-type guint64): where the sizes go, bytes
 * @error: %RP_ERROR_INVALID_ARGUMENT naming `--memory` and the item
 *
 * Reads the sizes only; rp_cli_check_memory_list() judges them against
 * this machine.
 *
 * Returns: %TRUE when every item is a size
 */
gboolean
rp_cli_parse_memory_list (const char  *text,
                          GArray      *out,
                          GError     **error)
{
  g_auto(GStrv) items = g_strsplit (text, ",", -1);
  guint64 bytes;

  /* "" splits into no item at all: refused as the size it is not, rather
   * than a matrix without the dimension the user asked for. */
  if (items[0] == NULL)
    return rp_parse_size (text, "--memory", &bytes, error);
  for (guint i = 0; items[i] != NULL; i++)
    {
      if (!rp_parse_size (g_strstrip (items[i]), "--memory", &bytes, error))
        return FALSE;
      /* Two cells of one name ("4G,4096M" too): the second's report would
       * replace the first's. */
      for (guint j = 0; j < out->len; j++)
        if (g_array_index (out, guint64, j) == bytes)
          {
            g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                         _("%s: “%s” is listed twice in “%s”"), "--memory", items[i], text);
            return FALSE;
          }
      g_array_append_val (out, bytes);
    }
  return TRUE;
}

/**
 * rp_cli_check_memory_list:
 * @memories: (element-type guint64): machine memories, bytes
 * @error: the first %RP_ERROR_INVALID_ARGUMENT of rp_memory_pin_check()
 *   (a value that makes no sense anywhere), else its first other error (one
 *   this machine cannot give now)
 *
 * Returns: %TRUE when every one can be emulated here now
 */
gboolean
rp_cli_check_memory_list (GArray  *memories,
                          GError **error)
{
  g_autoptr(GError) unavailable = NULL;

  for (guint i = 0; i < memories->len; i++)
    {
      g_autoptr(GError) local_error = NULL;

      if (rp_memory_pin_check (g_array_index (memories, guint64, i), NULL, &local_error))
        continue;
      if (g_error_matches (local_error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT))
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (unavailable == NULL)
        unavailable = g_steal_pointer (&local_error);
    }
  if (unavailable != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&unavailable));
      return FALSE;
    }
  return TRUE;
}
