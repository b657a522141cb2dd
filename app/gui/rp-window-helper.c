/* rp-window-helper.c: the form's offer to trace kernel events through resprobed, asked once and remembered. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <unistd.h>

#include "rp-helper-client.h"
#include "rp-window-private.h"

/* A user who starts the window from the menu is not root: kernel events
 * (journal commits, device latency, writer pauses), which explain most
 * stalls, need resprobed and an administrator's password (docs/SECURITY.md).
 * The window does not ask polkit behind the user's back: the form offers it
 * once, where the run is set up, and the answer is a setting
 * (kernel-tracing-helper: ask, yes, no) that Preferences can change. Only
 * "yes" lets a run ask resprobed; the offer shows only where the helper is
 * installed and the user is not root. */

#define KEY "kernel-tracing-helper"

static void
update (RpWindow *self)
{
  g_autofree char *answer = self->settings != NULL ? g_settings_get_string (self->settings, KEY) : NULL;

  rp_helper_client_set_allowed (g_strcmp0 (answer, "yes") == 0);
  gtk_widget_set_visible (GTK_WIDGET (self->helper_group),
                          self->helper_installed && geteuid () != 0 && g_strcmp0 (answer, "ask") == 0);
}

static void
answer (RpWindow   *self,
        const char *value)
{
  if (self->settings != NULL)
    g_settings_set_string (self->settings, KEY, value);
}

static void
on_allow (RpWindow *self)
{
  answer (self, "yes");
}

static void
on_decline (RpWindow *self)
{
  answer (self, "no");
}

static void
on_checked (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(RpWindow) self = data;
  g_autoptr(GError) error = NULL;
  gboolean installed = rp_helper_client_check_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  self->helper_installed = installed;
  update (self);
}

/**
 * rp_window_helper_init:
 *
 * Applies the stored answer (whether runs may ask resprobed) and, unless
 * root, asks the system bus on a thread whether resprobed is installed, to
 * show the offer if the question is still open.
 */
void
rp_window_helper_init (RpWindow *self)
{
  g_signal_connect_object (self->helper_allow_button, "clicked", G_CALLBACK (on_allow), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->helper_decline_button, "clicked", G_CALLBACK (on_decline), self,
                           G_CONNECT_SWAPPED);
  if (self->settings != NULL)
    g_signal_connect_object (self->settings, "changed::" KEY, G_CALLBACK (update), self, G_CONNECT_SWAPPED);
  update (self);
  if (geteuid () != 0)
    rp_helper_client_check_async (self->cancellable, on_checked, g_object_ref (self));
}
