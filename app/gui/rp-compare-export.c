/* rp-compare-export.c: where an export of a comparison goes: a file name from the runs' labels. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "rp-compare-export.h"

/* A file name stays under NAME_MAX (255 bytes) with room for the
 * extension and the ".XXXXXXXX.part" of the atomic save. */
#define MAX_STEM_BYTES 200

/* LABEL as part of a file name: a path separator, a character other file
 * systems refuse (FAT, SMB: \ : * ? " < > |), a control character or a
 * space becomes "_"; "=" and "," stay, "data=ordered" reads as in the
 * window. */
static void
append_safe (GString    *out,
             const char *label)
{
  for (const char *p = label; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c < 0x20 || c == 0x7f || g_unichar_isspace (c) || strchr ("/\\:*?\"<>|", (int) c) != NULL)
        g_string_append_c (out, '_');
      else
        g_string_append_unichar (out, c);
    }
}

/**
 * rp_compare_export_suggest_name:
 * @prefix: what the file holds, e.g. "comparison"
 * @labels: (array length=n_labels): the runs' labels, as the window and the
 *   legends show them (rp_compare_view_get_label())
 * @n_labels: how many
 * @extension: the file name extension, without the dot, e.g. "pdf"
 *
 * The name an export chooser proposes: the runs by what differs between
 * them, "comparison-data=ordered-vs-data=writeback.pdf", safe as a file
 * name on any file system (no "/", no control characters, no characters
 * FAT or SMB refuse, no leading dot) and under 255 bytes (a long label is
 * cut at a character boundary).
 *
 * Returns: (transfer full): the file name, without a folder
 */
char *
rp_compare_export_suggest_name (const char        *prefix,
                                const char *const *labels,
                                guint              n_labels,
                                const char        *extension)
{
  GString *stem = g_string_new (prefix);

  g_return_val_if_fail (prefix != NULL && *prefix != '\0' && *prefix != '.', NULL);
  g_return_val_if_fail (labels != NULL || n_labels == 0, NULL);
  g_return_val_if_fail (extension != NULL, NULL);

  for (guint i = 0; i < n_labels; i++)
    {
      g_string_append (stem, i == 0 ? "-" : "-vs-");
      append_safe (stem, labels[i] != NULL ? labels[i] : "");
    }
  if (stem->len > MAX_STEM_BYTES)
    {
      /* Cut before the character the limit falls in. */
      const char *end = g_utf8_find_prev_char (stem->str, stem->str + MAX_STEM_BYTES + 1);

      g_string_truncate (stem, end - stem->str);
    }
  g_string_append_printf (stem, ".%s", extension);
  return g_string_free (stem, FALSE);
}
