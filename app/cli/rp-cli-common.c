/* rp-cli-common.c: what every resprobe-cli subcommand shares: option parsing, errors. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <stdio.h>

#include "rp-cli.h"

/**
 * rp_cli_fail:
 * @exit_code: what to return
 * @error: what to print
 *
 * Prints "resprobe-cli: MESSAGE" on stderr.
 *
 * Returns: @exit_code, so that callers can `return rp_cli_fail (…)`
 */
int
rp_cli_fail (int           exit_code,
             const GError *error)
{
  g_printerr ("resprobe-cli: %s\n", error->message);
  return exit_code;
}

/**
 * rp_cli_parse_options:
 * @context: (transfer none): the subcommand's options
 * @argc: (inout): argument count
 * @argv: (inout): arguments; options are removed
 *
 * Parses, and on failure prints the error and a hint to --help.
 *
 * Returns: %FALSE when the options were bad (exit with %RP_CLI_EXIT_USAGE)
 */
gboolean
rp_cli_parse_options (GOptionContext   *context,
                      int              *argc,
                      char           ***argv)
{
  g_autoptr(GError) error = NULL;

  if (g_option_context_parse (context, argc, argv, &error))
    return TRUE;

  g_printerr ("resprobe-cli: %s\n", error->message);
  g_printerr (_("Run “%s --help” for the options.\n"), g_get_prgname ());
  return FALSE;
}
