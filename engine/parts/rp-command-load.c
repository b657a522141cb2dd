/* rp-command-load.c: external commands as the load: argv without a shell, stopped with every process they started. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <poll.h>
#include <string.h>

#include "rp-command-process.h"
#include "rp-error.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-text.h"

/* How often the worker looks at the commands and the stop flag. */
#define POLL_MS 100

/* The user's own loads (`dd …`, `rsync …`, a build) run as given, each a
 * program and its arguments without a shell (rp-command-process.c), all at
 * once: `--command A --command B` is A and B side by side, as two terminals
 * would run them, each with its own exit status, output, CPU and wall time. */

typedef struct {
  GPtrArray *argvs;        /* (element-type GStrv): the first command, then the more_commands */
  char      *directory;
} CommandLoad;

static void
command_load_free (gpointer data)
{
  CommandLoad *load = data;

  g_ptr_array_unref (load->argvs);
  g_free (load->directory);
  g_free (load);
}

/* Whether the program can be found and run, so that a typo is a start error
 * rather than a run that ends at once. */
static gboolean
check_program (const char  *program,
               GError     **error)
{
  g_autofree char *path = NULL;

  if (strchr (program, '/') != NULL)
    path = g_strdup (program);
  else
    path = g_find_program_in_path (program);

  if (path != NULL && g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
      !g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  /* A bad value of the scenario's command field, as a typo in a size is. */
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("command: cannot run “%s”: no such program, or it is not executable"),
               program);
  return FALSE;
}

/* One of more_commands, a command line, split as a shell would split it
 * (but run without one); an empty or unbalanced one is an error naming
 * which command it is (the first is command_argv, so these count from 2). */
static char **
parse_more_command (const char  *text,
                    guint        number,
                    GError     **error)
{
  /* TRANSLATORS: which of several --command options, 2 for the second, 3 for the third … */
  g_autofree char *name = g_strdup_printf (_("--command %u"), number);

  return rp_params_split_command (text, name, error);
}

/* Every command of the scenario as an argv: command_argv first, then each
 * of more_commands. */
static GPtrArray *
all_commands (const RpParams  *params,
              GError         **error)
{
  g_autoptr(GPtrArray) argvs = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  const char * const *more = rp_params_get_argv (params, "more_commands");

  g_ptr_array_add (argvs, g_strdupv ((char **) rp_params_get_argv (params, "command_argv")));
  for (guint i = 0; more != NULL && more[i] != NULL; i++)
    {
      char **argv = parse_more_command (more[i], i + 2, error);

      if (argv == NULL)
        return NULL;
      g_ptr_array_add (argvs, argv);
    }
  return g_steal_pointer (&argvs);
}

static gpointer
command_load_prepare (RpPartHost *host,
                      GError    **error)
{
  g_autoptr(GPtrArray) argvs = all_commands (rp_part_host_get_params (host), error);
  CommandLoad *load;

  if (argvs == NULL)
    return NULL;
  for (guint i = 0; i < argvs->len; i++)
    if (!check_program (((char **) g_ptr_array_index (argvs, i))[0], error))
      return NULL;
  load = g_new0 (CommandLoad, 1);
  load->argvs = g_steal_pointer (&argvs);
  load->directory = g_strdup (rp_part_host_get_directory (host));
  return load;
}

/* "command_" for the first command (the notes' names of a run with one),
 * "command_2_", "command_3_" … for the others. */
static char *
note_prefix (guint index)
{
  return index == 0 ? g_strdup ("command_") : g_strdup_printf ("command_%u_", index + 1);
}

/* Waits for the commands' output or POLL_MS, then looks at each; returns
 * whether all have finished. */
static gboolean
watch (GPtrArray *processes)
{
  g_autofree struct pollfd *fds = g_new0 (struct pollfd, processes->len);
  guint n = 0;
  gboolean all_finished = TRUE;

  for (guint i = 0; i < processes->len; i++)
    {
      int fd = rp_command_process_get_fd (g_ptr_array_index (processes, i));

      if (fd >= 0)
        fds[n++] = (struct pollfd) { .fd = fd, .events = POLLIN };
    }
  poll (fds, n, POLL_MS);
  for (guint i = 0; i < processes->len; i++)
    if (!rp_command_process_check (g_ptr_array_index (processes, i)))
      all_finished = FALSE;
  return all_finished;
}

static void
command_load_run (RpPartHost *host,
                  gpointer   state)
{
  CommandLoad *load = state;
  g_autoptr(GPtrArray) processes =
    g_ptr_array_new_with_free_func ((GDestroyNotify) rp_command_process_free);
  GError *error = NULL;

  for (guint i = 0; i < load->argvs->len; i++)
    {
      RpCommandProcess *process =
        rp_command_process_spawn (g_ptr_array_index (load->argvs, i), load->directory, &error);

      if (process == NULL)
        {
          /* Those already started are stopped as at the end of a run. */
          rp_command_process_stop_all (processes);
          rp_part_host_fail (host, error);
          return;
        }
      g_ptr_array_add (processes, process);
    }

  while (!watch (processes))
    if (rp_part_host_should_stop (host))
      {
        rp_command_process_stop_all (processes);
        break;
      }

  rp_part_host_set_number_note (host, "command_count", "%.0f", processes->len);
  for (guint i = 0; i < processes->len; i++)
    {
      g_autofree char *prefix = note_prefix (i);
      g_autofree char *key = g_strconcat (prefix, "line", NULL);
      g_autofree char *line = rp_text_shell_join (g_ptr_array_index (load->argvs, i));

      /* PREFIXline: the command as a shell line, for messages naming it. */
      rp_part_host_set_note (host, key, line);
      rp_command_process_set_notes (g_ptr_array_index (processes, i), host, prefix);
    }
}

static const RpWorkerClass worker = {
  .name = "command",
  .prepare = command_load_prepare,
  .run = command_load_run,
  .free_state = command_load_free,
};

static const RpParamInfo params[] = {
  { "command_argv", "command", "command", RP_PARAM_ARGV, 0, 0, 0, NULL,
    N_("Command load: program and arguments, split like a shell but run without one (or give them after “--”); give it again for more commands, run side by side"),
    N_("COMMAND") },
  /* No option of its own: `--command` given again fills it (app/cli). */
  { "more_commands", "more-commands", NULL, RP_PARAM_ARGV, 0, 0, 0, NULL,
    N_("Command load: further commands run beside the first, each a command line split like a shell’s but run without one"),
    NULL, .cli_rule = "command" },
};

static gboolean
command_load_validate (const RpParams  *p,
                       GError         **error)
{
  const char * const *argv = rp_params_get_argv (p, "command_argv");
  g_autoptr(GPtrArray) argvs = NULL;

  if (argv == NULL || argv[0] == NULL || *argv[0] == '\0')
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("command: the command load needs a program to run"));
      return FALSE;
    }
  /* Each further command must split (GLib refuses an empty one too). */
  argvs = all_commands (p, error);
  return argvs != NULL;
}

static char *
command_load_describe (const RpParams *p)
{
  g_autoptr(GPtrArray) argvs = NULL;
  GString *text = g_string_new (NULL);

  /* Each argument quoted where a shell would split it, so that the line
   * pasted into a shell runs the same commands: "of=a b" was two words. */
  argvs = all_commands (p, NULL);
  for (guint i = 0; argvs != NULL && i < argvs->len; i++)
    {
      g_autofree char *line = rp_text_shell_join (g_ptr_array_index (argvs, i));

      /* Several commands as a shell would run them side by side. */
      g_string_append_printf (text, "%s%s", i > 0 ? " & " : "", line);
    }
  return g_string_free (text, FALSE);
}

/* Any program as the load, without a shell. */
const RpPartInfo rp_command_part = {
  .id = "command",
  .role = RP_PART_LOAD,
  .label = N_("Command"),
  /* TRANSLATORS: %s is a command line */
  .sentence = N_("command “%s”"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  .worker = &worker,
  .validate = command_load_validate,
  .describe = command_load_describe,
};
