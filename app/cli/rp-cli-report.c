/* rp-cli-report.c: `resprobe-cli export`, `show` and `compare`: saved reports, converted, printed, compared. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-cli.h"
#include "rp-error.h"
#include "rp-report.h"
#include "rp-report-export.h"
#include "rp-text.h"

#define COMPARE_MIN 2
/* Repeats of a configuration share a column (rp_comparison_new()), so a
 * matrix of 8 cells run 4 times each still compares. */
#define COMPARE_MAX 32

/* Whether @message names @file, given as @path. The loader names it by
 * rp_text_file_name(): an absolute path, cleaned of control characters, or
 * a URI with %-escapes when the name has characters a terminal must not
 * see ("file:///tmp/x%1B%5B31m.json"). */
static gboolean
names_file (const char *message,
            GFile      *file,
            const char *path)
{
  g_autofree char *name = rp_text_file_name (file);
  /* Quoted, as the loader names files: a file called "e" or "JSON" is not
   * named by every message that has the word in it. */
  g_autofree char *quoted_path = g_strdup_printf ("“%s”", path);
  g_autofree char *quoted_name = g_strdup_printf ("“%s”", name);

  return strstr (message, quoted_path) != NULL || strstr (message, quoted_name) != NULL;
}

static int
usage_error (const char *message)
{
  rp_cli_printerr ("resprobe-cli: %s\n", message);
  g_printerr (_("Run “%s --help” for the options.\n"), g_get_prgname ());
  return RP_CLI_EXIT_USAGE;
}

/* Loads @path; on failure prints why, naming the file once by its full
 * path, as the loader's own messages do (its messages about the contents
 * do not name it), and returns NULL. */
static RpReport *
load_report (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (path);
  g_autoptr(GError) error = NULL;
  RpReport *report = rp_report_load (file, &error);
  g_autofree char *name = NULL;
  g_autofree char *message = NULL;

  if (report != NULL)
    return report;
  if (names_file (error->message, file, path))
    {
      rp_cli_printerr ("resprobe-cli: %s\n", error->message);
      return NULL;
    }
  name = rp_text_file_name (file);
  message = g_strdup_printf (_("Cannot read the report “%s”: %s"), name, error->message);
  rp_cli_printerr ("resprobe-cli: %s\n", message);
  return NULL;
}

/* An empty argument is the current folder to GFile, whose message
 * ("Cannot read the report “/home/me”: Is a directory") names a folder
 * the user never gave: say which argument is empty. Returns whether none
 * is. */
static gboolean
check_not_empty (char   **paths,
                 guint    n_paths,
                 GError **error)
{
  for (guint i = 0; i < n_paths; i++)
    {
      if (*paths[i] != '\0')
        continue;
      if (n_paths == 1)
        g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                             _("The report argument is empty (“”): give the path of a saved report, "
                               "e.g. run.json"));
      else
        g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                     /* TRANSLATORS: "Report argument 2 of 2 is empty": which of the reports given */
                     _("Report argument %u of %u is empty (“”): give the path of a saved report, "
                       "e.g. run.json"), i + 1, n_paths);
      return FALSE;
    }
  return TRUE;
}

/* Every report of @paths, or NULL after the first that does not load. */
static GPtrArray *
load_reports (char **paths,
              guint  n_paths)
{
  g_autoptr(GPtrArray) reports = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) error = NULL;

  if (!check_not_empty (paths, n_paths, &error))
    {
      usage_error (error->message);
      return NULL;
    }
  for (guint i = 0; i < n_paths; i++)
    {
      RpReport *report = load_report (paths[i]);

      if (report == NULL)
        return NULL;
      g_ptr_array_add (reports, report);
    }
  return g_steal_pointer (&reports);
}

static char *
list_formats (void)
{
  guint n;
  const RpReportFormat *formats = rp_report_list_formats (&n);
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? ", " : "", formats[i].format);
  return g_string_free (text, FALSE);
}

static const char *
format_label (const char *format)
{
  guint n;
  const RpReportFormat *formats = rp_report_list_formats (&n);

  for (guint i = 0; i < n; i++)
    if (g_ascii_strcasecmp (formats[i].format, format) == 0)
      return formats[i].label;
  return format;
}

/* The format asked for, or the one of the output's extension. The engine's
 * rp_report_format_for_filename() is the one mapping of extensions to
 * formats, for the guess and for the check. */
static const char *
choose_format (const char  *requested,
               const char  *output,
               GError     **error)
{
  g_autofree char *known = list_formats ();
  const char *guessed = rp_report_format_for_filename (output);

  if (requested != NULL)
    {
      const char *format;

      if (!rp_report_format_is_known (requested))
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("--format: unknown format “%s”; use one of %s"), requested, known);
          return NULL;
        }
      format = g_ascii_strcasecmp (requested, "text") == 0 ? "txt" : requested;
      /* PNG data in run.pdf opens nowhere, and the name says otherwise. A
       * name without a known extension (summary.out) takes any format. */
      if (guessed != NULL && g_ascii_strcasecmp (guessed, format) != 0)
        {
          /* TRANSLATORS: e.g. "“new.pdf” ends in .pdf but --format is png; …" */
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("“%s” ends in .%s but --format is %s; change the name or "
                         "the format"), output, strrchr (output, '.') + 1, requested);
          return NULL;
        }
      return format;
    }
  if (guessed == NULL)
    g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                 _("Cannot tell the format from the name “%s”: give --format (%s) "
                   "or an extension such as .pdf"), output, known);
  return guessed;
}

/* Whether @a and @b are one file: the same name, or (a link, another path
 * to it) the same device and inode. */
static gboolean
same_file (GFile *a,
           GFile *b)
{
  const char *attributes = G_FILE_ATTRIBUTE_UNIX_DEVICE "," G_FILE_ATTRIBUTE_UNIX_INODE;
  g_autoptr(GFileInfo) info_a = NULL;
  g_autoptr(GFileInfo) info_b = NULL;

  if (g_file_equal (a, b))
    return TRUE;
  info_a = g_file_query_info (a, attributes, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  info_b = g_file_query_info (b, attributes, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  /* Files that are not local have no inode: their names said it all. */
  if (info_a == NULL || info_b == NULL ||
      !g_file_info_has_attribute (info_a, G_FILE_ATTRIBUTE_UNIX_INODE) ||
      !g_file_info_has_attribute (info_b, G_FILE_ATTRIBUTE_UNIX_INODE))
    return FALSE;
  return g_file_info_get_attribute_uint32 (info_a, G_FILE_ATTRIBUTE_UNIX_DEVICE) ==
         g_file_info_get_attribute_uint32 (info_b, G_FILE_ATTRIBUTE_UNIX_DEVICE) &&
         g_file_info_get_attribute_uint64 (info_a, G_FILE_ATTRIBUTE_UNIX_INODE) ==
         g_file_info_get_attribute_uint64 (info_b, G_FILE_ATTRIBUTE_UNIX_INODE);
}

/* Exporting onto the report being read would replace it, even with --force:
 * the JSON report is the only complete record of a run. */
static gboolean
check_not_input (GFile       *output_file,
                 const char  *output,
                 char       **inputs,
                 guint        n_inputs,
                 GError     **error)
{
  for (guint i = 0; i < n_inputs; i++)
    {
      g_autoptr(GFile) input = g_file_new_for_commandline_arg (inputs[i]);

      if (!same_file (output_file, input))
        continue;
      /* TRANSLATORS: the first is -o's file, the second the report read;
       * they may be two names of one file (a link) */
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("-o: writing “%s” would replace the report “%s”; give another file"),
                   output, inputs[i]);
      return FALSE;
    }
  return TRUE;
}

/* The GUI asks before it replaces a file; a script has to say so. The
 * check is for the user's sake, not a lock: a file created between the
 * check and the rename is replaced. */
static gboolean
check_output (GFile       *file,
              const char  *output,
              gboolean     force,
              GError     **error)
{
  GFileType type = g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL);

  if (type == G_FILE_TYPE_DIRECTORY)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("“%s” is a directory; give a file name with -o"), output);
      return FALSE;
    }
  if (type != G_FILE_TYPE_UNKNOWN && !force)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("“%s” already exists; use --force to replace it"), output);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_cli_export:
 * @argc: argument count, argv[0] being "export"
 * @argv: arguments
 *
 * `resprobe-cli export REPORT.json [--format FORMAT] -o OUT [--force]`:
 * writes a saved report as JSON, CSV, text, PNG, SVG or PDF (the format from
 * --format, else from OUT's extension), atomically. An existing OUT is
 * replaced only with --force, and never when it is REPORT.json itself.
 *
 * Returns: 0; 1 when writing fails; 2 for bad options, an unknown format,
 *   a --format that OUT's extension contradicts, OUT being the report, an
 *   existing OUT without --force, or a report that does not load
 */
int
rp_cli_export (int    argc,
               char **argv)
{
  g_autofree char *format_option = NULL;
  g_autofree char *output = NULL;
  gboolean force = FALSE;
  GOptionEntry entries[] = {
    { "format", 'f', 0, G_OPTION_ARG_STRING, &format_option,
      N_("json, csv, txt, png, svg or pdf (default: from OUT’s extension)"), N_("FORMAT") },
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output, N_("The file to write"), N_("OUT") },
    { "force", 0, 0, G_OPTION_ARG_NONE, &force, N_("Replace OUT if it exists"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("REPORT.json"));
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  const char *format;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    _("Convert a saved report: JSON (complete, can be opened again), CSV (every\n"
      "sample), text for bug trackers (80 columns, fsync-tester lines), PNG or SVG\n"
      "(the charts) or PDF (system, summary, verdict and charts on A4 pages)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;

  if (argc != 2)
    return usage_error (argc < 2 ? _("Give the report to export, e.g. resprobe-cli export run.json -o run.pdf")
                                 : _("Give exactly one report to export"));
  if (output == NULL || *output == '\0')
    return usage_error (_("Give the file to write with -o OUT"));
  /* "-o -" reads as "to standard output", but would write a file named "-". */
  if (g_str_equal (output, "-"))
    return usage_error (_("-o: export writes files only; “resprobe-cli show REPORT” prints "
                          "the text report on standard output (for a file named “-”, give ./-)"));
  if (!check_not_empty (argv + 1, 1, &error))
    return usage_error (error->message);
  file = g_file_new_for_commandline_arg (output);
  /* First: "use --force" or "change the format" would be the wrong advice. */
  if (!check_not_input (file, output, argv + 1, (guint) argc - 1, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  format = choose_format (format_option, output, &error);
  if (format == NULL || !check_output (file, output, force, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);

  report = load_report (argv[1]);
  if (report == NULL)
    return RP_CLI_EXIT_USAGE;
  if (!rp_report_export (report, file, format, &error))
    return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
  /* TRANSLATORS: e.g. "Wrote run.pdf (PDF report)" */
  rp_cli_print (_("Wrote %s (%s)\n"), output, format_label (format));
  return RP_CLI_EXIT_OK;
}

/**
 * rp_cli_show:
 * @argc: argument count, argv[0] being "show"
 * @argv: arguments
 *
 * `resprobe-cli show FILE.json…`: prints each report as text for bug
 * trackers (rp_report_to_text()), separated by a blank line.
 *
 * Returns: 0, or 2 for bad options or a report that does not load (then
 *   nothing is printed on stdout)
 */
int
rp_cli_show (int    argc,
             char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("REPORT.json…"));
  g_autoptr(GPtrArray) reports = NULL;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    _("Print a saved report as text: the system snapshot, the scenario, a summary\n"
      "table, the verdict and the fsync-tester lines."));
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;
  if (argc < 2)
    return usage_error (_("Give the report to show, e.g. resprobe-cli show run.json"));

  reports = load_reports (argv + 1, (guint) argc - 1);
  if (reports == NULL)
    return RP_CLI_EXIT_USAGE;
  for (guint i = 0; i < reports->len; i++)
    {
      g_autofree char *text = rp_report_to_text (g_ptr_array_index (reports, i));

      g_print ("%s%s", i > 0 ? "\n" : "", text);
    }
  return RP_CLI_EXIT_OK;
}

/* The first of @argv[1 … @i − 1] that is the same file as @argv[@i], or 0. */
static int
same_file_before (char **argv,
                  int    i)
{
  g_autoptr(GFile) file = g_file_new_for_commandline_arg (argv[i]);

  for (int j = 1; j < i; j++)
    {
      g_autoptr(GFile) other = g_file_new_for_commandline_arg (argv[j]);

      if (same_file (file, other))
        return j;
    }
  return 0;
}

/**
 * rp_cli_compare:
 * @argc: argument count, argv[0] being "compare"
 * @argv: arguments
 *
 * `resprobe-cli compare A.json B.json…`: 2 to 32 reports side by side
 * (rp_report_compare_text()), one column per configuration, settings that
 * differ marked, every figure with its interval and its change relative to
 * the first column, significant or within noise; then which file is which
 * run.
 *
 * Returns: 0, or 2 for bad options, fewer than 2 or more than 32 reports, or
 *   a report that does not load (the message names it)
 */
int
rp_cli_compare (int    argc,
                char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (_("A.json B.json…"));
  g_autoptr(GPtrArray) reports = NULL;
  g_autoptr(GString) files = NULL;
  g_autofree char *text = NULL;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    /* xgettext:no-c-format */
    _("Compare 2 to 32 saved reports: the configuration (file system, journal mode,\n"
      "I/O scheduler, kernel, dirty settings) with differences marked, and every\n"
      "latency, CPU, pressure, memory and throughput figure with its 95 % interval\n"
      "and its change relative to the first column, significant or within noise.\n"
      "Reports of the same configuration share a column as repeats."));
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;
  if (argc - 1 < COMPARE_MIN || argc - 1 > COMPARE_MAX)
    {
      g_autofree char *message =
        g_strdup_printf (ngettext ("compare takes %d to %d reports, got %d",
                                   "compare takes %d to %d reports, got %d", argc - 1),
                         COMPARE_MIN, COMPARE_MAX, argc - 1);

      return usage_error (message);
    }

  reports = load_reports (argv + 1, (guint) argc - 1);
  if (reports == NULL)
    return RP_CLI_EXIT_USAGE;
  text = rp_report_compare_text (reports);
  files = g_string_new (NULL);
  for (int i = 1; i < argc; i++)
    {
      /* TRANSLATORS: which file is which column of the comparison, e.g. "Run 1: a.json" */
      g_autofree char *line = g_strdup_printf (_("  Run %d: %s\n"), i, argv[i]);
      int earlier = same_file_before (argv, i);

      /* A run compared with itself looks like two runs that agree. */
      if (earlier > 0)
        {
          g_autofree char *same = NULL;

          g_strchomp (line);
          /* TRANSLATORS: after "Run 3: a.json": the file was given twice */
          same = g_strdup_printf (_("%s (the same file as run %d)\n"), line, earlier);
          g_free (line);
          line = g_steal_pointer (&same);
        }

      /* A long path wraps after a '/', like every line of the comparison. */
      g_strchomp (line);
      rp_text_append_wrapped (files, "", "      ", line);
    }
  g_print ("%s\n%s\n%s", text, _("Files:"), files->str);
  return RP_CLI_EXIT_OK;
}
