/* rp-page-cache.h: evicting files from the page cache, and saying what stayed there. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GHashTable *rp_page_cache_mapped_files          (guint       *out_unreadable);
gboolean    rp_page_cache_evict                 (const char  *path);
gboolean    rp_page_cache_drop_all              (GError     **error);
double      rp_page_cache_resident_share        (const char  *path);
char       *rp_page_cache_loop_without_direct_io (const char *path);

G_END_DECLS
