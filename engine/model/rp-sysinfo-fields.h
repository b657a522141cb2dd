/* rp-sysinfo-fields.h: the one table of the snapshot's fields, for its files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-sysinfo.h"

G_BEGIN_DECLS

/* One table drives copy, free, display, JSON out and JSON in, so a field
 * added to RpSysinfo needs one line here and nothing else. */
typedef enum {
  KIND_STRING,      /* char *, NULL is unknown */
  KIND_UINT,        /* guint, 0 is unknown */
  KIND_UINT64,      /* guint64, 0 is unknown */
  KIND_TRISTATE,    /* int: 1, 0, -1 is unknown */
  KIND_BOOLEAN,     /* gboolean, always known */
} FieldKind;

typedef enum {
  SHOW_PLAIN,
  SHOW_BITS,        /* "64-bit" */
  SHOW_SIZE,        /* bytes, in IEC units */
  SHOW_YES_NO,
  SHOW_PER_FS,      /* NULL with a known fs type: the fs has no such thing */
  SHOW_PER_DISK,    /* NULL with a known disk: the disk has no such layer */
  SHOW_PER_LOOP,    /* NULL with a known disk that is no loop device: not applicable */
  SHOW_PER_LOAD,    /* NULL when the loads wrote to the target directory: said so */
  SHOW_BYTES,       /* a string of bytes ("4938858496"), shown in IEC units */
  SHOW_FLAG,        /* a string "0" or "1", shown as "no" or "yes" */
} FieldShow;

typedef struct {
  const char *key;
  const char *label;
  FieldKind   kind;
  FieldShow   show;
  gboolean    of_disk;    /* not applicable to a file system in RAM or across the network */
  gsize       offset;
} FieldSpec;

#define FIELD(key, label, kind, show) \
  { #key, label, kind, show, FALSE, G_STRUCT_OFFSET (RpSysinfo, key) }
#define DISK_FIELD(key, label, kind, show) \
  { #key, label, kind, show, TRUE, G_STRUCT_OFFSET (RpSysinfo, key) }

extern const FieldSpec rp_sysinfo_field_specs[];
extern const guint     rp_sysinfo_n_field_specs;

#define STRING_MEMBER(self, spec)   G_STRUCT_MEMBER (char *, self, (spec)->offset)
#define UINT_MEMBER(self, spec)     G_STRUCT_MEMBER (guint, self, (spec)->offset)
#define UINT64_MEMBER(self, spec)   G_STRUCT_MEMBER (guint64, self, (spec)->offset)
#define INT_MEMBER(self, spec)      G_STRUCT_MEMBER (int, self, (spec)->offset)
#define BOOLEAN_MEMBER(self, spec)  G_STRUCT_MEMBER (gboolean, self, (spec)->offset)

/* A report's text fields longer than this are refused (read_json_field()). */
#define SYSINFO_MAX_STRING 8192

gboolean rp_sysinfo_field_is_known     (const RpSysinfo *self,
                                        const FieldSpec *spec);
void     rp_sysinfo_make_strings_valid (RpSysinfo       *self);

G_END_DECLS
