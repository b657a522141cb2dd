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
 * to `$RESPROBE_LOCALEDIR` when set (a DESTDIR installation that has not
 * reached its prefix yet: the tests), else to the build tree's `po/` when
 * the program runs from the build directory, else to LOCALEDIR: translated
 * without installing.
 *
 * Header-only: each front end calls it once, first thing in main().
 */
static inline void
rp_i18n_init (void)
{
  const char *localedir = g_getenv ("RESPROBE_LOCALEDIR");
  g_autofree char *self = NULL;
  g_autofree char *in_build = NULL;

  /* A program run from the build directory (app/gui/resprobe,
   * app/cli/resprobe-cli) takes the build's catalogues in po/, so that the
   * README's commands run translated before `meson install`; the build's
   * po/de holds a catalogue only there. */
  if (localedir == NULL || *localedir == '\0')
    {
      self = g_file_read_link ("/proc/self/exe", NULL);
      if (self != NULL)
        {
          g_autofree char *app_directory = g_path_get_dirname (self);
          g_autofree char *catalogue = NULL;

          in_build = g_build_filename (app_directory, "..", "..", "po", NULL);
          catalogue = g_build_filename (in_build, "de", "LC_MESSAGES", GETTEXT_PACKAGE ".mo", NULL);
          if (g_file_test (catalogue, G_FILE_TEST_IS_REGULAR))
            localedir = in_build;
        }
    }

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL && *localedir != '\0' ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

G_END_DECLS
