/* rp-helper-auth.c: asks polkit whether the caller of a method may do it, by its bus name. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-helper-auth.h"

/* polkit's D-Bus interface (org.freedesktop.PolicyKit1.Authority, as in
 * polkit(8)), called directly so that resprobed needs GIO only. The subject
 * is always the caller's unique bus name, taken from the message by the bus
 * (never a PID, which the caller could have exited and another process
 * reused: the race of CVE-2013-4288, and never anything the caller says):
 * polkitd asks the bus whose connection that is. Asynchronous, because an
 * administrator may take minutes to type a password, and the helper serves
 * its other callers meanwhile. */

#define POLKIT_NAME      "org.freedesktop.PolicyKit1"
#define POLKIT_PATH      "/org/freedesktop/PolicyKit1/Authority"
#define POLKIT_INTERFACE "org.freedesktop.PolicyKit1.Authority"
/* CheckAuthorizationFlags: AllowUserInteraction */
#define POLKIT_ALLOW_USER_INTERACTION 1u

static void
on_checked (GObject      *source,
            GAsyncResult *result,
            gpointer      data)
{
  g_autoptr(GTask) task = data;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  const char *action_id = g_task_get_task_data (task);
  gboolean authorized = FALSE, challenge = FALSE;

  if (reply == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_task_return_new_error (task, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                               "polkit could not be asked about %s: %s", action_id, error->message);
      return;
    }
  g_variant_get (reply, "((bb@a{ss}))", &authorized, &challenge, NULL);
  if (authorized)
    g_task_return_boolean (task, TRUE);
  else if (challenge)
    g_task_return_new_error (task, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                             "Not authorized: %s needs an administrator's password, and the call did not allow asking for it",
                             action_id);
  else
    g_task_return_new_error (task, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED,
                             "Not authorized: polkit said no to %s", action_id);
}

/**
 * rp_helper_auth_check_async:
 * @invocation: the method call; its sender is the subject
 * @action_id: one of the RP_HELPER_ACTION_ ids
 *
 * Asks polkit whether @invocation's sender may do @action_id, letting polkit
 * ask for a password when the caller flagged the call
 * G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION. No time limit: polkit's
 * own dialog has none.
 */
void
rp_helper_auth_check_async (GDBusMethodInvocation *invocation,
                            const char            *action_id,
                            GAsyncReadyCallback    callback,
                            gpointer               user_data)
{
  GTask *task = g_task_new (NULL, NULL, callback, user_data);
  GDBusMessage *message = g_dbus_method_invocation_get_message (invocation);
  gboolean interactive = (g_dbus_message_get_flags (message) &
                          G_DBUS_MESSAGE_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION) != 0;
  GVariantBuilder subject;

  g_task_set_source_tag (task, rp_helper_auth_check_async);
  g_task_set_task_data (task, g_strdup (action_id), g_free);
  g_variant_builder_init (&subject, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&subject, "{sv}", "name",
                         g_variant_new_string (g_dbus_method_invocation_get_sender (invocation)));
  g_dbus_connection_call (g_dbus_method_invocation_get_connection (invocation),
                          POLKIT_NAME, POLKIT_PATH, POLKIT_INTERFACE, "CheckAuthorization",
                          g_variant_new ("((sa{sv})sa{ss}us)", "system-bus-name", &subject,
                                         action_id, NULL,
                                         interactive ? POLKIT_ALLOW_USER_INTERACTION : 0u, ""),
                          G_VARIANT_TYPE ("((bba{ss}))"), G_DBUS_CALL_FLAGS_NONE, G_MAXINT,
                          NULL, on_checked, task);
}

/**
 * rp_helper_auth_check_finish:
 * @error: %G_DBUS_ERROR_ACCESS_DENIED with the reason (polkit said no, a
 *   password was needed but not allowed, polkit could not be asked)
 *
 * Returns: whether the caller is authorized
 */
gboolean
rp_helper_auth_check_finish (GAsyncResult  *result,
                             GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}
