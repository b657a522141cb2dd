/* rp-cli-cleanup.c: `resprobe-cli cleanup`: put back what a killed matrix left changed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <unistd.h>

#include "rp-cli.h"
#include "rp-undo-cleanup.h"

/**
 * rp_cli_cleanup_directory:
 * @directory: a matrix's --dir
 * @say_nothing_done: print a line also when there was nothing to put back
 * @error: the first thing that could not be put back (every other one is
 *   still tried, and what was put back is printed all the same)
 *
 * Puts back what matrices killed with SIGKILL left in @directory
 * (rp_undo_cleanup(): vm.dirty_*, a loop device's queue settings and bdi
 * limits, mounts, loop devices, images, emulated devices) and prints what,
 * a line each.
 *
 * Returns: %TRUE when everything left was put back
 */
gboolean
rp_cli_cleanup_directory (const char  *directory,
                          gboolean     say_nothing_done,
                          GError     **error)
{
  g_autoptr(GPtrArray) said = g_ptr_array_new_with_free_func (g_free);
  GError *local = NULL;
  guint runs = rp_undo_cleanup (directory, said, &local);

  if (said->len > 0)
    {
      /* TRANSLATORS: how many dead runs, then the directory; a list follows */
      rp_cli_print (g_dngettext (GETTEXT_PACKAGE, "Put back what %u killed run left in %s:\n",
                                 "Put back what %u killed runs left in %s:\n", MAX (runs, 1)),
                    MAX (runs, 1), directory);
      for (guint i = 0; i < said->len; i++)
        rp_cli_print ("  %s\n", (const char *) g_ptr_array_index (said, i));
    }
  else if (say_nothing_done && local == NULL)
    rp_cli_print (_("Nothing to put back in %s: no run killed there left anything changed.\n"), directory);
  if (local != NULL)
    {
      g_propagate_error (error, local);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_cli_cleanup:
 * @argc: argument count, argv[0] being "cleanup"
 * @argv: arguments
 *
 * `resprobe-cli cleanup --dir DIR`: what a later `matrix` in DIR does
 * first, alone. Root only.
 *
 * Returns: 0 when everything is back (or nothing was left), 1 when
 *   something could not be put back, 2 for bad options
 */
int
rp_cli_cleanup (int    argc,
                char **argv)
{
  g_autofree char *directory = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "dir", 'd', 0, G_OPTION_ARG_FILENAME, &directory, N_("The directory a matrix ran in (its --dir; required)"), N_("DIR") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);

  g_option_context_set_summary (context,
    _("Put back what a matrix killed with SIGKILL left changed in a directory: vm.dirty_*, the loop device’s queue settings and per-device dirty limits, its mount, the loop device, the image, an emulated device. Says what it put back. A later matrix in the same directory does this first. Needs root."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;
  if (directory == NULL)
    {
      g_printerr (_("resprobe-cli: --dir is required: the directory the matrix ran in\n"));
      return RP_CLI_EXIT_USAGE;
    }
  if (!rp_cli_check_directory (directory, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  if (geteuid () != 0)
    {
      g_printerr (_("resprobe-cli: cleanup needs root: it puts back kernel settings, unmounts and detaches loop devices. Run it with sudo.\n"));
      return RP_CLI_EXIT_FAILURE;
    }
  if (!rp_cli_cleanup_directory (directory, TRUE, &error))
    return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
  return RP_CLI_EXIT_OK;
}
