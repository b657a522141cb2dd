/* rp-units.h: parse and format sizes and durations, the one place units convert. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define RP_KiB ((guint64) 1024)
#define RP_MiB (RP_KiB * 1024)
#define RP_GiB (RP_MiB * 1024)

gboolean rp_parse_size     (const char  *text,
                            const char  *field,
                            guint64     *out_bytes,
                            GError     **error);
gboolean rp_parse_duration (const char  *text,
                            const char  *field,
                            double      *out_seconds,
                            GError     **error);
gboolean rp_parse_count    (const char  *text,
                            const char  *field,
                            guint        max,
                            guint       *out_count,
                            GError     **error);
char    *rp_format_size    (guint64      bytes);
char    *rp_format_rate    (double       bytes_per_second);
char    *rp_format_latency (double       seconds);
char    *rp_format_value   (const char  *unit,
                            double       value);
char    *rp_format_limit   (double       seconds);

G_END_DECLS
