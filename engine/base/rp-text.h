/* rp-text.h: plain text in lines of 80 for terminals, mail and bug trackers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Bug trackers and mail show 80 columns without wrapping. */
#define RP_TEXT_WIDTH 80

gsize      rp_text_width          (const char        *text);
gsize      rp_text_length         (const char        *text);
gboolean   rp_text_is_control     (gunichar           c);
char      *rp_text_clean          (const char        *text,
                                   gboolean           multiline);
char      *rp_text_sanitize       (const char        *text);
char      *rp_text_shorten        (const char        *text);
char      *rp_text_file_name      (GFile             *file);
char      *rp_text_shell_join     (const char * const *argv);
GPtrArray *rp_text_wrap_lines     (const char        *text,
                                   gsize              width);
void       rp_text_append_wrapped (GString           *out,
                                   const char        *first_prefix,
                                   const char        *next_prefix,
                                   const char        *text);
void       rp_text_append_padded  (GString           *out,
                                   const char        *text,
                                   gsize              width,
                                   gboolean           right);
void       rp_text_append_heading (GString           *out,
                                   const char        *title,
                                   char               underline);
void       rp_text_append_table   (GString           *out,
                                   guint              n_columns,
                                   const char *const *header,
                                   GPtrArray         *rows);

G_END_DECLS
