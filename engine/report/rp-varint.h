/* rp-varint.h: unsigned LEB128 varints, the reports' compact numbers (series blocks, window histograms). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most bytes a 64-bit number takes: ⌈64 / 7⌉. */
#define RP_VARINT_MAX_BYTES 10

void     rp_varint_put (GByteArray   *out,
                        guint64       n);
gboolean rp_varint_get (const guint8 *data,
                        gsize         length,
                        gsize        *pos,
                        guint64      *out);

G_END_DECLS
