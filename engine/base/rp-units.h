/* rp-units.h: parse and format sizes and durations, the one place units convert. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define RP_KiB ((guint64) 1024)
#define RP_MiB (RP_KiB * 1024)
#define RP_GiB (RP_MiB * 1024)

/* The largest count a report's notes may hold (calls, frames, gaps): 10^15,
 * a call every microsecond for 31 years; more is no run's (a hostile
 * "-1" reads as 2^64 - 1 with g_ascii_strtoull()). */
#define RP_NOTE_MAX_COUNT G_GUINT64_CONSTANT (1000000000000000)
/* The largest magnitude of a number in a report: as RP_REPORT_MAX_VALUE. */
#define RP_NOTE_MAX_NUMBER 1e21

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
gboolean rp_parse_note_count  (const char *text,
                               guint64     max,
                               guint64    *out_count);
gboolean rp_parse_note_number (const char *text,
                               double      min,
                               double      max,
                               double     *out_value);
char    *rp_format_size    (guint64      bytes);
char    *rp_format_rate    (double       bytes_per_second);
char    *rp_format_latency (double       seconds);
char    *rp_format_value   (const char  *unit,
                            double       value);
char    *rp_format_limit   (double       seconds);

G_END_DECLS
