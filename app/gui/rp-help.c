/* rp-help.c: opening the user guide (help:resprobe) in the help viewer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "rp-help.h"

/* The guide's name in the help system: help/meson.build installs it as
 * share/help/LANG/resprobe (gnome.yelp() with the project's name). */
#define HELP_NAME "resprobe"

/**
 * rp_help_get_uri:
 * @page: (nullable): a page of help/C without ".page" (e.g. "verdict"), or
 *   %NULL or "" for the guide's front page
 *
 * Returns: (transfer full): "help:resprobe" or "help:resprobe/PAGE"
 */
char *
rp_help_get_uri (const char *page)
{
  if (page == NULL || *page == '\0')
    return g_strdup ("help:" HELP_NAME);
  return g_strdup_printf ("help:%s/%s", HELP_NAME, page);
}

/* Without a help viewer (Yelp is only recommended by the package), GTK would
 * print a warning on a terminal nobody sees: say it in the window instead. */
static void
on_shown (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GtkWindow) parent = user_data;
  g_autoptr(GError) error = NULL;
  AdwMessageDialog *dialog;

  if (gtk_show_uri_full_finish (parent, result, &error))
    return;
  g_message ("Cannot open the guide: %s", error->message);
  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (parent, _("The Guide Cannot Be Opened"), NULL));
  /* TRANSLATORS: %s is GLib's reason, e.g. "Failed to find default application for content type ‘x-scheme-handler/help’" */
  adw_message_dialog_format_body (dialog,
                                  _("The guide is shown by the Help application: install the package “yelp”. (%s)"),
                                  error->message);
  adw_message_dialog_add_response (dialog, "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * rp_help_show:
 * @parent: the window the user asked from (the help viewer opens above it,
 *   and an error is shown over it)
 * @page: (nullable): as for rp_help_get_uri()
 *
 * Opens the guide with gtk_show_uri_full(), which hands the help: URI to the
 * desktop's handler of x-scheme-handler/help (Yelp). Returns at once; a
 * failure is shown in a dialog over @parent.
 */
void
rp_help_show (GtkWindow  *parent,
              const char *page)
{
  g_autofree char *uri = rp_help_get_uri (page);

  g_return_if_fail (GTK_IS_WINDOW (parent));

  gtk_show_uri_full (parent, uri, GDK_CURRENT_TIME, NULL, on_shown, g_object_ref (parent));
}
