/* rp-cli-common.c: what every resprobe-cli subcommand shares: option parsing, errors. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <errno.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "rp-error.h"
#include "rp-text.h"

#include "rp-cli.h"

/* @format filled in, rp_text_sanitize()d as a whole, and printed with
 * @print (g_print or g_printerr). The message's own line ends are those at
 * its end; a line feed before them came from an argument (a file named
 * "a\nReport saved to fake.json") and becomes a space, so that no name can
 * print a line of its own. */
G_GNUC_PRINTF (2, 0)
static void
print_sanitized (gboolean      to_stderr,
                 const char   *format,
                 va_list       args)
{
  g_autofree char *text = g_strdup_vprintf (format, args);
  g_autofree char *clean = rp_text_sanitize (text);
  gsize body = strlen (clean);

  while (body > 0 && clean[body - 1] == '\n')
    body--;
  for (gsize i = 0; i < body; i++)
    if (clean[i] == '\n')
      clean[i] = ' ';
  if (to_stderr)
    g_printerr ("%s", clean);
  else
    g_print ("%s", clean);
}

/**
 * rp_cli_print:
 * @format: a printf() format, e.g. _("Report saved to %s\n")
 *
 * Prints on stdout what may hold a user's text: a path, an argument, an
 * error naming them. A file name is a stranger's string: an ESC in it would
 * set the terminal's title or colours, a U+202E turn the line around. Every
 * such message of the CLI goes out through here or rp_cli_printerr(), with
 * control and bidi characters as spaces (rp_text_sanitize()). Text the
 * engine has made already (report text, fsync-tester lines) does not.
 */
void
rp_cli_print (const char *format,
              ...)
{
  va_list args;

  va_start (args, format);
  print_sanitized (FALSE, format, args);
  va_end (args);
}

/**
 * rp_cli_printerr:
 * @format: a printf() format
 *
 * rp_cli_print() on stderr.
 */
void
rp_cli_printerr (const char *format,
                 ...)
{
  va_list args;

  va_start (args, format);
  print_sanitized (TRUE, format, args);
  va_end (args);
}

/**
 * rp_cli_fail:
 * @exit_code: what to return
 * @error: what to print
 *
 * Prints "resprobe-cli: MESSAGE" on stderr, through rp_cli_printerr(): the
 * message may name a path or repeat an argument.
 *
 * Returns: @exit_code, so that callers can `return rp_cli_fail (…)`
 */
int
rp_cli_fail (int           exit_code,
             const GError *error)
{
  rp_cli_printerr ("resprobe-cli: %s\n", error->message);
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
  g_auto(GStrv) given = g_strdupv (*argv);

  if (g_option_context_parse (context, argc, argv, &error))
    return TRUE;

  /* A value that is not text in the locale's encoding: GOption says only
   * "Invalid byte sequence in conversion input"; name the option. */
  if (error->domain == G_CONVERT_ERROR)
    for (guint i = 1; given[i] != NULL; i++)
      if (!g_utf8_validate (given[i], -1, NULL))
        {
          g_autofree char *shown = g_utf8_make_valid (given[i], -1);
          const char *option = i > 1 && !g_str_has_prefix (shown, "-") ? given[i - 1] : shown;
          g_autofree char *name = g_strndup (option, strcspn (option, "="));
          const char *value = option == shown && strchr (shown, '=') != NULL ? strchr (shown, '=') + 1 : shown;

          /* TRANSLATORS: an option, e.g. "--duration", and its value with
           * the bytes that are not text shown as � */
          rp_cli_printerr (_("resprobe-cli: %s: “%s” is not text (an invalid byte)\n"), name, value);
          g_printerr (_("Run “%s --help” for the options.\n"), g_get_prgname ());
          return FALSE;
        }
  /* GOption repeats the unknown option as given. */
  rp_cli_printerr ("resprobe-cli: %s\n", error->message);
  g_printerr (_("Run “%s --help” for the options.\n"), g_get_prgname ());
  return FALSE;
}

/**
 * rp_cli_check_directory:
 * @directory: a path given on the command line
 * @error: %RP_ERROR_TARGET naming @directory: missing, not a directory, or
 *   not reachable (with the system's reason, e.g. "Permission denied")
 *
 * Returns: %TRUE when @directory is an existing directory
 */
gboolean
rp_cli_check_directory (const char  *directory,
                        GError     **error)
{
  struct stat st;

  if (stat (directory, &st) != 0)
    {
      if (errno == ENOENT)
        g_set_error (error, RP_ERROR, RP_ERROR_TARGET,
                     _("Directory “%s” does not exist"), directory);
      else
        rp_error_set_from_errno (error, errno, _("Directory"), directory);
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_TARGET,
                   _("“%s” is not a directory"), directory);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_cli_check_folder_option:
 * @option: the option as typed, e.g. "--load-dir"
 * @folder: (nullable): its value; %NULL when it was not given
 * @must_exist: whether the folder must be there already (one written into
 *   as it is, like --textfile), not made or checked later
 * @error: %RP_ERROR_INVALID_ARGUMENT naming @option: an empty name, or with
 *   @must_exist a folder that is missing, not a folder, or not reachable
 *   (with the system's reason)
 *
 * A folder option's value checked before anything runs, the message naming
 * the option rather than the setting behind it ("load_directory").
 *
 * Returns: %TRUE when @folder is %NULL or usable
 */
gboolean
rp_cli_check_folder_option (const char  *option,
                            const char  *folder,
                            gboolean     must_exist,
                            GError     **error)
{
  struct stat st;

  if (folder == NULL)
    return TRUE;
  if (*folder == '\0')
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s is the option, e.g. --load-dir */
                   _("%s: an empty folder name; give the folder’s path"), option);
      return FALSE;
    }
  if (!must_exist)
    return TRUE;
  if (stat (folder, &st) != 0)
    {
      if (errno == ENOENT)
        g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                     /* TRANSLATORS: the option, e.g. --textfile, and the folder given */
                     _("%s: folder “%s” does not exist"), option, folder);
      else
        {
          rp_error_set_from_errno (error, errno, _("Folder"), folder);
          g_prefix_error (error, "%s: ", option);
        }
      return FALSE;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: the option, e.g. --textfile, and what was given */
                   _("%s: “%s” is not a folder"), option, folder);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_cli_stop_signals_add:
 * @signals: (out caller-allocates): the sources, for rp_cli_stop_signals_remove()
 * @handler: called on the main context for each signal
 *
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP stop a run or a matrix cleanly, with
 * its summary, its report, its unmounts. SIGHUP (a closed terminal, a
 * dropped ssh connection) would otherwise kill the program and lose the run,
 * or leave a matrix's loop mounts behind. Under nohup, which starts the
 * program with SIGHUP ignored, it stays ignored.
 */
void
rp_cli_stop_signals_add (RpCliStopSignals *signals,
                         GSourceFunc       handler,
                         gpointer          data)
{
  struct sigaction action;

  signals->sigint_id = g_unix_signal_add (SIGINT, handler, data);
  signals->sigterm_id = g_unix_signal_add (SIGTERM, handler, data);
  signals->sighup_id = 0;
  if (sigaction (SIGHUP, NULL, &action) != 0 || action.sa_handler != SIG_IGN)
    signals->sighup_id = g_unix_signal_add (SIGHUP, handler, data);
}

void
rp_cli_stop_signals_remove (RpCliStopSignals *signals)
{
  g_clear_handle_id (&signals->sigint_id, g_source_remove);
  g_clear_handle_id (&signals->sigterm_id, g_source_remove);
  g_clear_handle_id (&signals->sighup_id, g_source_remove);
}

/**
 * rp_cli_exit_worse:
 * @a: an RP_CLI_EXIT_* code
 * @b: another
 *
 * The code that says more of two runs (repeats, matrix cells): bad values
 * over a failure over a stop over success; a failed run that was also
 * stopped is a failure; a load command that failed (exit 4) says more than
 * a stop and less than a failed run.
 *
 * Returns: @a or @b
 */
int
rp_cli_exit_worse (int a,
                   int b)
{
  static const int order[] = { RP_CLI_EXIT_OK, RP_CLI_EXIT_STOPPED, RP_CLI_EXIT_COMMAND,
                              RP_CLI_EXIT_FAILURE, RP_CLI_EXIT_USAGE };
  guint rank_a = 0, rank_b = 0;

  for (guint i = 0; i < G_N_ELEMENTS (order); i++)
    {
      if (order[i] == a)
        rank_a = i;
      if (order[i] == b)
        rank_b = i;
    }
  return rank_b > rank_a ? b : a;
}
