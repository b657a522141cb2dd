/* rp-field.h: a labelled value for display, as a system snapshot and a scenario list theirs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * RpField:
 * @key: stable key, e.g. "fs_type" or "fsync" (static)
 * @label: translated label for display, e.g. "File system" (static)
 * @value: the value as text, e.g. "ext3" (owned)
 */
typedef struct {
  const char *key;
  const char *label;
  char       *value;
} RpField;

RpField  *rp_field_new      (const char *key,
                             const char *label,
                             char       *value);
void      rp_field_free     (RpField    *field);
gboolean  rp_fields_differ  (GPtrArray  *field_sets,
                             guint       index);

G_END_DECLS
