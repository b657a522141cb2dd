/* rp-cli.h: the subcommands of resprobe-cli and what they share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-memory-pin.h"
#include "rp-report.h"

G_BEGIN_DECLS

/* Exit codes: 0 success, 1 runtime failure, 2 bad command-line values (or a
 * report file that does not load), 3 stopped by the user (Ctrl-C, SIGTERM,
 * SIGHUP) before the end the scenario asked for, its report saved and
 * marked stopped: `run` and `matrix` alike, so that a script tells a
 * complete measurement from a cut-short one. */
#define RP_CLI_EXIT_OK      0
#define RP_CLI_EXIT_FAILURE 1
#define RP_CLI_EXIT_USAGE   2
#define RP_CLI_EXIT_STOPPED 3
#define RP_CLI_EXIT_COMMAND 4   /* the run's own command (--command) failed; report saved */

int  rp_cli_exit_worse (int a, int b);
gboolean rp_cli_report_failed_commands (GHashTable *notes);

int  rp_cli_run      (int argc, char **argv);
int  rp_cli_sysinfo  (int argc, char **argv);
int  rp_cli_scenarios (int argc, char **argv);
int  rp_cli_matrix   (int argc, char **argv);
int  rp_cli_export   (int argc, char **argv);
int  rp_cli_show     (int argc, char **argv);
int  rp_cli_compare  (int argc, char **argv);
int  rp_cli_monitor  (int argc, char **argv);
int  rp_cli_cleanup  (int argc, char **argv);
gboolean rp_cli_cleanup_directory (const char  *directory,
                                   gboolean     say_nothing_done,
                                   GError     **error);

int  rp_cli_fail     (int exit_code, const GError *error);
RpMemoryPin *rp_cli_pin_memory (guint64   machine_memory,
                                GError  **error);
gboolean rp_cli_parse_memory_list (const char  *text,
                                   GArray      *out,
                                   GError     **error);
gboolean rp_cli_check_memory_list (GArray      *memories,
                                   GError     **error);

/**
 * RpCliGroup:
 * @key: the configuration's stable id, e.g. a matrix cell's name
 * @label: the configuration for people
 * @reports: (element-type RpReport): its runs, in the order they ran
 * @file_names: (element-type utf8): the saved reports' file names
 *
 * The runs of one configuration (rp-cli-repeats.c).
 */
typedef struct {
  char      *key;
  char      *label;
  GPtrArray *reports;
  GPtrArray *file_names;
} RpCliGroup;

RpCliGroup *rp_cli_group_new        (const char *key,
                                     const char *label);
void        rp_cli_group_free       (RpCliGroup *group);
char       *rp_cli_repeats_table    (GPtrArray  *groups);
char       *rp_cli_repeat_report_path (const char *report_path,
                                       guint       repeat,
                                       guint       repeats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpCliGroup, rp_cli_group_free)
gboolean    rp_cli_write_comparison (const char  *directory,
                                     GPtrArray   *groups,
                                     guint        repeats,
                                     GError     **error);
void rp_cli_print    (const char *format, ...) G_GNUC_PRINTF (1, 2);
void rp_cli_printerr (const char *format, ...) G_GNUC_PRINTF (1, 2);
gboolean rp_cli_check_directory (const char  *directory,
                                 GError     **error);
gboolean rp_cli_check_report_directory (const char  *directory,
                                        GError     **error);
gboolean rp_cli_save_report_elsewhere  (RpReport    *report,
                                        GFile       *failed_directory,
                                        const char  *stem);
gboolean rp_cli_check_folder_option (const char  *option,
                                     const char  *folder,
                                     gboolean     must_exist,
                                     GError     **error);
gboolean rp_cli_parse_options (GOptionContext *context,
                               int            *argc,
                               char         ***argv);

/* The signals that stop a run or a matrix cleanly (see rp-cli-common.c). */
typedef struct {
  guint sigint_id;
  guint sigterm_id;
  guint sighup_id;
} RpCliStopSignals;

void rp_cli_stop_signals_add    (RpCliStopSignals *signals,
                                 GSourceFunc       handler,
                                 gpointer          data);
void rp_cli_stop_signals_remove (RpCliStopSignals *signals);

G_END_DECLS
