/* rp-i18n.h: gettext set-up shared by the two front ends (resprobe, resprobe-cli). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <glib/gi18n.h>
#include <locale.h>

G_BEGIN_DECLS

/**
 * rp_i18n_init:
 *
 * Sets the locale from the environment and binds the "resprobe" text domain
 * to LOCALEDIR, or to `$RESPROBE_LOCALEDIR` when set: the build tree's
 * `po/` directory, or a DESTDIR installation that has not reached its
 * prefix yet (the tests), run translated without installing.
 *
 * Header-only: each front end calls it once, first thing in main().
 */
static inline void
rp_i18n_init (void)
{
  const char *localedir = g_getenv ("RESPROBE_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

G_END_DECLS
