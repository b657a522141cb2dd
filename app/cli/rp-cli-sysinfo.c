/* rp-cli-sysinfo.c: `resprobe-cli sysinfo [DIR] [--json]`: the system snapshot for a directory. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-cli.h"
#include "rp-error.h"
#include "rp-sysinfo.h"
#include "rp-text.h"

static void
print_text (const RpSysinfo *sysinfo)
{
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (sysinfo);
  g_auto(GStrv) warnings = rp_sysinfo_get_warnings (sysinfo);

  g_autoptr(GString) out = g_string_new (NULL);

  /* 80 columns, long values (mount options) wrapped, as in the report. */
  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);
      g_autofree char *line = g_strdup_printf ("%s: %s", field->label, field->value);

      rp_text_append_wrapped (out, "", "  ", line);
    }
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      g_autofree char *line = g_strdup_printf ("%s %s", _("Warning:"), warnings[i]);

      rp_text_append_wrapped (out, "", "  ", line);
    }
  g_print ("%s", out->str);
}

/* JSON with every rp_text_is_control() character as a \u escape (four
 * hex digits): the same data to a parser, but a directory named with U+202E
 * or a C1 control (which JSON-GLib writes as they are) reaches no terminal.
 * Outside strings the generator writes only spaces and line feeds, which
 * stay. A name that is not UTF-8 would make the JSON invalid: U+FFFD, as
 * everywhere else. */
static char *
escape_controls (const char *json)
{
  g_autofree char *valid = g_utf8_make_valid (json, -1);
  GString *out = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c != '\n' && rp_text_is_control (c))
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

static void
print_json (const RpSysinfo *sysinfo)
{
  g_autoptr(JsonNode) node = rp_sysinfo_to_json (sysinfo);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *text = NULL;
  g_autofree char *escaped = NULL;

  json_generator_set_pretty (generator, TRUE);
  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  escaped = escape_controls (text);
  g_print ("%s\n", escaped);
}


/**
 * rp_cli_sysinfo:
 * @argc: argument count
 * @argv: arguments, argv[0] being "sysinfo"
 *
 * `resprobe-cli sysinfo [DIR] [--json]`: prints the snapshot of
 * rp_sysinfo_collect() for DIR (default: the current directory) as
 * "Label: value" lines followed by warnings, or as the report's JSON object.
 *
 * Returns: %RP_CLI_EXIT_OK, or %RP_CLI_EXIT_USAGE for bad options or a DIR
 *   that does not exist or is not a directory (the message names it on stderr)
 */
int
rp_cli_sysinfo (int    argc,
                char **argv)
{
  gboolean json = FALSE;
  const GOptionEntry entries[] = {
    { "json", 'j', G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, &json,
      N_("Print the JSON object that reports contain"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (_("[DIRECTORY]"));
  g_autoptr(GError) error = NULL;
  g_autoptr(RpSysinfo) sysinfo = NULL;
  const char *directory;

  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context,
    _("Show the kernel, machine and storage stack (file system, journal mode, device,\n"
      "I/O scheduler, RAID, writeback settings) of DIRECTORY, the current directory\n"
      "by default, and warn where measurements there would mean little."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;

  if (argc > 2)
    {
      g_set_error (&error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   g_dngettext (GETTEXT_PACKAGE, "Expected one directory, got %d argument",
                                "Expected one directory, got %d arguments", argc - 1), argc - 1);
      return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
    }
  directory = argc == 2 ? argv[1] : ".";
  if (!rp_cli_check_directory (directory, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);

  sysinfo = rp_sysinfo_collect (directory);
  if (json)
    print_json (sysinfo);
  else
    print_text (sysinfo);
  return RP_CLI_EXIT_OK;
}
