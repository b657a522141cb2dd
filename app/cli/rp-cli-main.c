/* rp-cli-main.c: resprobe-cli, the headless front end: dispatch to a subcommand. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>

#include "rp-cli.h"
#include "rp-i18n.h"
#include "rp-memory.h"

typedef struct {
  const char *name;
  int       (*run) (int argc, char **argv);
  const char *summary;
} Command;

static const Command commands[] = {
  { "run", rp_cli_run, N_("Run a scenario and measure (default: R1, dd + fsync-tester)") },
  { "sysinfo", rp_cli_sysinfo, N_("Show the system snapshot for a directory") },
  { "scenarios", rp_cli_scenarios, N_("List the preset scenarios (R1, R2, R3, …)") },
  { "matrix", rp_cli_matrix, N_("Compare file systems, journal modes and schedulers on loop devices (root)") },
  { "show", rp_cli_show, N_("Print a saved report as text") },
  { "export", rp_cli_export, N_("Convert a saved report to JSON, CSV, text, PNG, SVG or PDF") },
  { "compare", rp_cli_compare, N_("Compare 2 to 32 saved reports side by side") },
  { "monitor", rp_cli_monitor, N_("Measure without a load for as long as it runs; export to Prometheus") },
  { "cleanup", rp_cli_cleanup, N_("Put back what a matrix killed with SIGKILL left changed in its directory (root)") },
};

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n\n", _("Usage: resprobe-cli COMMAND [OPTIONS…]"));
  fprintf (stream, "%s\n", _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-10s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n", _("Run “resprobe-cli COMMAND --help” for a command’s options."));
}

/* Set when a write to stdout failed with EPIPE: its reader went away. */
static gboolean stdout_reader_gone;

/* What a command printed may still sit in stdout's buffer: a report shown
 * into a full disk (show > /dev/full) must not end with 0, as if the text
 * had been written. A reader that went away (`run | head -n 3`) is not a
 * failure: it read what it wanted, and the measurement and its report are
 * whole (as `yes | head` ends well), so EPIPE keeps the command's exit code. */
static int
flush_stdout (int exit_code)
{
  if (fflush (stdout) != 0 || ferror (stdout))
    {
      int saved_errno = errno;

      if (stdout_reader_gone || saved_errno == EPIPE)
        return exit_code;

      /* TRANSLATORS: %s is the reason, e.g. "No space left on device" */
      g_printerr (_("resprobe-cli: writing to standard output: %s\n"), g_strerror (saved_errno));
      return exit_code == RP_CLI_EXIT_OK ? RP_CLI_EXIT_FAILURE : exit_code;
    }
  return exit_code;
}

/* Writes @string (UTF-8) in the terminal's charset. GLib's own handler puts
 * "?" for each character the charset lacks: under LANG=C every "µs" became
 * "?s" and "Loop device’s" "Loop device?s". Where the charset is ASCII,
 * GLib's transliteration writes them "us" and "Loop device's"; in another
 * 8-bit charset the micro sign is written "u" (the usual ASCII spelling of
 * "µs"), as the charset may lack U+00B5 or U+03BC. */
static void
print_in_charset (const char *string,
                  FILE       *stream)
{
  const char *charset;
  g_autofree char *plain = NULL;
  g_autofree char *local = NULL;

  if (g_get_charset (&charset))
    {
      fputs (string, stream);
      return;
    }
  if (g_ascii_strcasecmp (charset, "ANSI_X3.4-1968") == 0 || g_ascii_strcasecmp (charset, "ASCII") == 0 ||
      g_ascii_strcasecmp (charset, "US-ASCII") == 0)
    {
      plain = g_str_to_ascii (string, "C");
      fputs (plain, stream);
      return;
    }
  {
    GString *out = g_string_new (string);

    g_string_replace (out, "\u00b5", "u", 0);
    g_string_replace (out, "\u03bc", "u", 0);
    plain = g_string_free (out, FALSE);
  }
  local = g_convert_with_fallback (plain, -1, charset, "UTF-8", "?", NULL, NULL, NULL);
  fputs (local != NULL ? local : plain, stream);
}

static void
print_stdout (const char *string)
{
  print_in_charset (string, stdout);
  /* errno is only meaningful right after the failed write. */
  if (ferror (stdout) && errno == EPIPE)
    stdout_reader_gone = TRUE;
}

static void
print_stderr (const char *string)
{
  print_in_charset (string, stderr);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  /* Before any thread: one malloc() arena under ulimit -v (rp-memory.c). */
  rp_memory_adapt_to_limit ();
  rp_i18n_init ();
  g_set_print_handler (print_stdout);
  g_set_printerr_handler (print_stderr);
  /* A reader that goes away (`| head`) must not kill a run before its
   * report is saved: writes to the pipe fail with EPIPE instead, which
   * flush_stdout() does not count as a failure. */
  signal (SIGPIPE, SIG_IGN);

  /* GLib aborts when it cannot create its own worker thread: a limit too
   * low for that is said first (rp-memory.c). */
  if (!rp_memory_check_headroom (2, &error))
    {
      rp_cli_printerr ("resprobe-cli: %s\n", error->message);
      return RP_CLI_EXIT_FAILURE;
    }

  if (argc < 2)
    {
      print_usage (stderr);
      return RP_CLI_EXIT_USAGE;
    }

  if (g_str_equal (argv[1], "--help") || g_str_equal (argv[1], "-h") || g_str_equal (argv[1], "help"))
    {
      print_usage (stdout);
      return RP_CLI_EXIT_OK;
    }
  if (g_str_equal (argv[1], "--version"))
    {
      g_print ("resprobe-cli %s\n", PACKAGE_VERSION);
      return RP_CLI_EXIT_OK;
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (g_str_equal (argv[1], commands[i].name))
      {
        g_autofree char *prgname = g_strdup_printf ("resprobe-cli %s", commands[i].name);

        g_set_prgname (prgname);
        return flush_stdout (commands[i].run (argc - 1, argv + 1));
      }

  if (argv[1][0] == '-')
    /* TRANSLATORS: %s is an option such as --size, given before any command */
    rp_cli_printerr (_("resprobe-cli: unknown option “%s”: options follow the command, as in “resprobe-cli run --size 4G”\n\n"),
                     argv[1]);
  else
    rp_cli_printerr (_("resprobe-cli: unknown command “%s”\n\n"), argv[1]);
  print_usage (stderr);
  return RP_CLI_EXIT_USAGE;
}
