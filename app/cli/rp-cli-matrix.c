/* rp-cli-matrix.c: `resprobe-cli matrix`: one scenario over file systems, journal modes and schedulers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib-unix.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <signal.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "rp-cli.h"
#include "rp-cli-run-options.h"
#include "rp-cli-matrix-check.h"
#include "rp-bdi-state.h"
#include "rp-clock.h"
#include "rp-device-profile.h"
#include "rp-dirty-state.h"
#include "rp-emulated-device.h"
#include "rp-error.h"
#include "rp-loop-mount.h"
#include "rp-report.h"
#include "rp-session.h"
#include "rp-undo-cleanup.h"
#include "rp-undo-journal.h"
#include "rp-units.h"

/* Every reporter of docs/SCENARIOS.md compared configurations by reinstalling. This
 * command does it on loop-mounted images, one cell at a time, and restores
 * everything it changed (mounts, loop devices, sysctls, images) on every exit
 * path: errors, Ctrl-C, SIGTERM and SIGHUP included. Only SIGKILL can leave
 * a mount behind, and then `findmnt`/`losetup` show it under the --dir
 * directory; what an emulated device (--device) left, the next matrix in
 * that directory finds by name and removes (rp-emulated-device.c). */

typedef struct {
  RpDeviceChoice *device;  /* NULL: no --device, the plain image; owned by the plan */
  char    *fs_type;
  char    *journal_mode;   /* NULL: the file system has no data= modes */
  char    *scheduler;
  guint64  dirty_bytes;    /* 0: leave vm.dirty_* alone */
  char    *wbt_lat_usec;   /* NULL: as the loop device has it */
  int      direct_io;      /* 1 on, 0 off, -1 as attached */
  char    *bdi_max_ratio;  /* the cell device's bdi max_ratio (%); NULL: as it is */
  guint64  bdi_max_bytes;  /* its bdi max_bytes; 0: as it is */
  int      bdi_strict_limit; /* its bdi strict_limit: 1, 0, -1 as it is */
  guint64  memory;         /* --memory: the machine memory emulated; 0: the machine's own */
} Cell;

/* --drain-limit's default, seconds: what a cell may add to its duration
 * while its files wait for writeback on an emulated device. Half a minute
 * shows how long the device would keep the desktop waiting without making a
 * 10 s cell last two minutes. */
#define DEFAULT_DRAIN_LIMIT 30.0

typedef struct {
  GMainLoop  *loop;
  RpSession  *session;
  gboolean    interrupted;
  GError     *start_error;
  /* The cell's ending: from the stop (its duration) to "finished". */
  RpEmulatedDevice *device;      /* the cell's emulated device, or NULL */
  double      drain_limit;       /* --drain-limit seconds; < 0 none */
  double      stopped_at;        /* rp_clock_now() at the stop; 0 running */
  guint       drain_source;
  gboolean    drained;
  /* Every machine-wide change is written here before it is made
   * (rp-undo-journal.c): a SIGKILL leaves the way back for the next
   * matrix or `resprobe-cli cleanup`. */
  RpUndoJournal *journal;
  RpDirtyState  *saved_dirty;    /* vm.dirty_* as found before the first cell */
} MatrixState;

static void
cell_clear (gpointer data)
{
  Cell *cell = data;

  g_free (cell->fs_type);
  g_free (cell->journal_mode);
  g_free (cell->scheduler);
  g_free (cell->wbt_lat_usec);
  g_free (cell->bdi_max_ratio);
}

/* The cell's per-device dirty limits, as the name (with @separator "-",
 * e.g. "-maxratio1-strict") or the label (", bdi max_ratio 1, strict_limit 1"). */
static void
append_bdi (GString    *out,
            const Cell *cell,
            gboolean    for_label)
{
  if (cell->bdi_max_ratio != NULL)
    g_string_append_printf (out, for_label ? ", bdi max_ratio %s" : "-maxratio%s", cell->bdi_max_ratio);
  if (cell->bdi_max_bytes != 0)
    g_string_append_printf (out, for_label ? ", bdi max_bytes %" G_GUINT64_FORMAT "M" : "-maxbytes%" G_GUINT64_FORMAT "M",
                            cell->bdi_max_bytes / RP_MiB);
  if (cell->bdi_strict_limit >= 0)
    g_string_append_printf (out, for_label ? ", strict_limit %d" : "-strict%d", cell->bdi_strict_limit);
}

/* --memory's value as given in whole units: "4G", "1536M". */
static void
append_memory (GString    *out,
               const char *prefix,
               guint64     bytes)
{
  if (bytes % RP_GiB == 0)
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT "G", prefix, bytes / RP_GiB);
  else
    g_string_append_printf (out, "%s%" G_GUINT64_FORMAT "M", prefix, bytes / RP_MiB);
}

static char *
cell_name (const Cell *cell)
{
  GString *name = g_string_new (NULL);

  if (cell->device != NULL)
    g_string_append_printf (name, "%s-", rp_device_choice_get_profile (cell->device)->name);
  g_string_append (name, cell->fs_type);

  if (cell->journal_mode != NULL)
    g_string_append_printf (name, "-%s", cell->journal_mode);
  g_string_append_printf (name, "-%s", cell->scheduler);
  if (cell->dirty_bytes != 0)
    g_string_append_printf (name, "-dirty%" G_GUINT64_FORMAT "M", cell->dirty_bytes / RP_MiB);
  if (cell->wbt_lat_usec != NULL)
    g_string_append_printf (name, "-wbt%s", cell->wbt_lat_usec);
  if (cell->direct_io >= 0)
    g_string_append (name, cell->direct_io ? "-dio" : "-buffered");
  append_bdi (name, cell, FALSE);
  if (cell->memory != 0)
    append_memory (name, "-mem", cell->memory);
  return g_string_free (name, FALSE);
}

/* The cell for people: "ext3 data=ordered, none, wbt 0 µs". */
static char *
cell_label (const Cell *cell)
{
  GString *label = g_string_new (NULL);

  if (cell->device != NULL)
    g_string_append_printf (label, "%s, ", rp_device_choice_get_profile (cell->device)->name);
  g_string_append (label, cell->fs_type);

  if (cell->journal_mode != NULL)
    g_string_append_printf (label, " data=%s", cell->journal_mode);
  g_string_append_printf (label, ", %s", cell->scheduler);
  if (cell->dirty_bytes != 0)
    g_string_append_printf (label, ", dirty_bytes %" G_GUINT64_FORMAT "M", cell->dirty_bytes / RP_MiB);
  if (cell->wbt_lat_usec != NULL)
    g_string_append_printf (label, ", wbt_lat_usec %s", cell->wbt_lat_usec);
  if (cell->direct_io >= 0)
    g_string_append_printf (label, ", dio %d", cell->direct_io);
  append_bdi (label, cell, TRUE);
  if (cell->memory != 0)
    append_memory (label, ", memory ", cell->memory);
  return g_string_free (label, FALSE);
}

static gboolean
on_signal (gpointer data)
{
  MatrixState *state = data;

  if (!state->interrupted)
    g_printerr (_("\nInterrupted: stopping and cleaning up…\n"));
  state->interrupted = TRUE;
  if (state->session != NULL)
    rp_session_stop (state->session);
  /* Whoever stops the matrix wants it gone, not the emulated device's
   * writeback at its emulated speed (--drain-limit). */
  if (state->device != NULL && !state->drained)
    {
      g_autoptr(GError) error = NULL;

      g_clear_handle_id (&state->drain_source, g_source_remove);
      if (rp_emulated_device_drain (state->device, &error))
        state->drained = TRUE;
      else
        rp_cli_printerr ("resprobe-cli: --drain-limit: %s\n", error->message);
    }
  return G_SOURCE_CONTINUE;
}

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  MatrixState *state = user_data;

  if (!rp_session_start_finish (RP_SESSION (object), result, &state->start_error))
    g_main_loop_quit (state->loop);
  else if (state->interrupted)
    rp_session_stop (RP_SESSION (object));
}

static void
on_finished (RpSession   *session,
             MatrixState *state)
{
  g_main_loop_quit (state->loop);
}

/* The cell's measurement is over, its ending is not: a file closed on
 * ext3/ext4 data=ordered waits for the writeback of its dirty pages, at the
 * emulated device's speed (R6: 1 GiB at 8 MB/s is two minutes). From here
 * the device runs at the speed of the disk below, so the cell ends. */
static gboolean
on_drain_limit (gpointer data)
{
  MatrixState *state = data;
  g_autoptr(GError) error = NULL;

  state->drain_source = 0;
  if (!rp_emulated_device_drain (state->device, &error))
    {
      rp_cli_printerr ("resprobe-cli: --drain-limit: %s\n", error->message);
      return G_SOURCE_REMOVE;
    }
  state->drained = TRUE;
  /* TRANSLATORS: seconds; --drain-limit is an option, not translated */
  rp_cli_print (_("  still ending after %.0f s (the kernel writes back the load’s dirty pages before its file is closed): "
                  "the emulated device now runs at full speed (--drain-limit)\n"), state->drain_limit);
  return G_SOURCE_REMOVE;
}

static void
on_state (RpSession   *session,
          GParamSpec  *pspec,
          MatrixState *state)
{
  if (rp_session_get_state (session) != RP_SESSION_STOPPING || state->stopped_at != 0)
    return;
  state->stopped_at = rp_clock_now ();
  if (state->device != NULL && state->drain_limit >= 0)
    state->drain_source = g_timeout_add ((guint) (state->drain_limit * 1000), on_drain_limit, state);
}

/* How long the cell took to end and why, in its notes and on its line. */
static void
note_ending (MatrixState *state,
             RpSession   *session)
{
  g_autoptr(GHashTable) notes = rp_session_get_notes (session);
  const char *close_text = g_hash_table_lookup (notes, RP_NOTE_CLOSE_SECONDS);
  double ending = state->stopped_at > 0 ? rp_clock_now () - state->stopped_at : 0;
  double closing = close_text != NULL ? g_ascii_strtod (close_text, NULL) : 0;
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  rp_session_set_note (session, RP_NOTE_ENDING_SECONDS, g_ascii_formatd (text, sizeof text, "%.3f", ending));
  rp_session_set_note (session, RP_NOTE_ENDING_DRAINED, state->drained ? "true" : "false");
  /* A second is what any cell may take to stop its threads. */
  if (ending >= 1.0)
    /* TRANSLATORS: seconds of the whole ending, then of closing the files */
    rp_cli_print (_("  ending took %.1f s after the duration, %.1f s of it closing the loads’ files "
                    "(a closed file first waits for the writeback of its dirty pages)\n"), ending, closing);
}

/* Runs one scenario to its end on the default main context. The cell's
 * device profile (@device_profile, NULL without --device) goes into the
 * report as the note RP_NOTE_DEVICE_PROFILE, so that a comparison names
 * runs by it rather than by what the emulated disk looks like in sysfs
 * ("Rotational disk yes/no"). */
static RpReport *
run_scenario (MatrixState       *state,
              const RpScenario  *scenario,
              RpMemoryPin       *pin,
              const char        *device_profile,
              GError           **error)
{
  g_autoptr(RpSession) session = rp_session_new (scenario);

  if (pin != NULL)
    rp_memory_pin_set_notes (pin, session);
  if (device_profile != NULL)
    rp_session_set_note (session, RP_NOTE_DEVICE_PROFILE, device_profile);

  /* A cell's stop waits for its threads: the cell's file system is
   * unmounted next, and an emulated device drains first (--drain-limit). */
  rp_session_set_stop_bound (session, -1);
  state->session = session;
  state->stopped_at = 0;
  state->drained = FALSE;
  g_signal_connect (session, "finished", G_CALLBACK (on_finished), state);
  g_signal_connect (session, "notify::state", G_CALLBACK (on_state), state);
  rp_session_start_async (session, NULL, on_started, state);
  g_main_loop_run (state->loop);
  state->session = NULL;
  if (pin != NULL)
    rp_memory_pin_set_notes (pin, session);
  g_clear_handle_id (&state->drain_source, g_source_remove);

  if (state->start_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&state->start_error));
      return NULL;
    }
  note_ending (state, session);
  return rp_report_new_from_session (session);
}

/* Handles signals that arrived while a blocking step (mkfs) ran. */
static void
dispatch_pending (void)
{
  while (g_main_context_pending (NULL))
    g_main_context_iteration (NULL, FALSE);
}

static gboolean
cell_sets_bdi (const Cell *cell)
{
  return cell->bdi_max_ratio != NULL || cell->bdi_max_bytes != 0 || cell->bdi_strict_limit >= 0;
}

/* The cell's per-device dirty limits on its loop device's bdi, after
 * vm.dirty_bytes: the kernel turns max_bytes into a share of the global
 * threshold as it stands when max_bytes is written. What was there is
 * saved first (*@out_saved), even when a write fails, so that the caller
 * puts back whatever did change. */
static gboolean
apply_bdi (const Cell     *cell,
           const char     *device,
           RpUndoJournal  *journal,
           RpBdiState    **out_saved,
           GError        **error)
{
  g_autofree char *disk = device != NULL ? g_path_get_basename (device) : NULL;
  g_autofree char *bytes = g_strdup_printf ("%" G_GUINT64_FORMAT, cell->bdi_max_bytes);
  RpBdiState *saved;

  if (disk == NULL)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                           _("The cell’s loop device is unknown: cannot set its per-device dirty limits"));
      return FALSE;
    }
  saved = *out_saved = rp_bdi_state_save (disk, error);
  /* Nothing is changed before the way back is on disk. */
  return saved != NULL && rp_bdi_state_journal (saved, journal, error) &&
         (cell->bdi_strict_limit < 0 ||
          rp_bdi_state_set (saved, "strict_limit", cell->bdi_strict_limit ? "1" : "0", error)) &&
         (cell->bdi_max_ratio == NULL || rp_bdi_state_set (saved, "max_ratio", cell->bdi_max_ratio, error)) &&
         (cell->bdi_max_bytes == 0 || rp_bdi_state_set (saved, "max_bytes", bytes, error));
}

static RpReport *
run_cell (MatrixState       *state,
          const Cell        *cell,
          const RpScenario  *base,
          const char        *work_directory,
          guint64            image_size,
          const char        *loop_device,
          const char        *probe_directory,
          GError           **error)
{
  g_autoptr(RpBdiState) saved_bdi = NULL;
  g_autoptr(RpMemoryPin) pin = NULL;
  g_autoptr(RpScenario) scenario = rp_scenario_copy (base);
  g_autoptr(GError) cleanup_error = NULL;
  g_autofree char *name = cell_name (cell);
  const RpDeviceProfile *profile = cell->device ? rp_device_choice_get_profile (cell->device) : NULL;
  /* An emulated disk is marked rotational as the kernel marks a real one
   * (the loop device on its FUSE file is not): bfq's heuristics read it. */
  RpLoopMountQueue queue = { cell->scheduler, cell->wbt_lat_usec, NULL, cell->direct_io,
                             profile != NULL && rp_device_profile_is_rotational (profile) ? "1" : NULL };
  RpEmulatedDevice *device = NULL;
  RpLoopMount *scratch;
  RpReport *report = NULL;

  /* A slow device: nbdkit and nbdfuse serve the formatted image as a file,
   * and the loop device sits on that. */
  if (profile != NULL && !rp_device_profile_is_native (profile))
    {
      device = rp_emulated_device_create (work_directory, profile, image_size, cell->fs_type, error);
      if (device == NULL)
        return NULL;
      scratch = rp_loop_mount_create_on_file (rp_emulated_device_get_directory (device),
                                              rp_emulated_device_get_path (device), cell->fs_type,
                                              cell->journal_mode, loop_device, &queue, error);
    }
  else
    scratch = rp_loop_mount_create (work_directory, cell->fs_type, cell->journal_mode,
                                    image_size, loop_device, &queue, state->journal, error);
  if (scratch == NULL)
    {
      if (!rp_emulated_device_destroy (device, &cleanup_error))
        rp_cli_printerr (_("resprobe-cli: cleaning up %s: %s\n"), name, cleanup_error->message);
      return NULL;
    }

  if (!rp_loop_mount_get_direct_io (scratch))
    rp_cli_print (_("Note: %s reads its image through the page cache (no direct I/O here): evicted pages stay cached below it.\n"),
                  rp_loop_mount_get_device (scratch) ? rp_loop_mount_get_device (scratch) : name);
  dispatch_pending ();
  /* The memory first: the bdi's max_bytes becomes a share of the
   * threshold of the moment it is written. */
  if (!state->interrupted && cell->memory != 0)
    {
      pin = rp_cli_pin_memory (cell->memory, error);
      dispatch_pending ();
    }
  if (!state->interrupted && (cell->memory == 0 || pin != NULL) &&
      (cell->dirty_bytes == 0 ||
       (rp_dirty_state_journal (state->saved_dirty, state->journal, error) &&
        rp_dirty_apply_bytes (cell->dirty_bytes, error))) &&
      (!cell_sets_bdi (cell) ||
       apply_bdi (cell, rp_loop_mount_get_device (scratch), state->journal, &saved_bdi, error)))
    {
      /* With --probe-dir the cell's file system takes the load and the
       * probes measure the user's fast one: the USB stick scenario. */
      g_free (scenario->directory);
      g_free (scenario->load_directory);
      scenario->directory = g_strdup (probe_directory != NULL ? probe_directory : rp_loop_mount_get_mount_point (scratch));
      scenario->load_directory = probe_directory != NULL ? g_strdup (rp_loop_mount_get_mount_point (scratch)) : NULL;
      state->device = device;
      report = run_scenario (state, scenario, pin, profile != NULL ? profile->name : NULL, error);
      state->device = NULL;
    }
  g_clear_pointer (&pin, rp_memory_pin_free);

  /* Before the device is released; the limits outlive its detach. */
  if (saved_bdi != NULL && !rp_bdi_state_restore (saved_bdi, &cleanup_error))
    {
      rp_cli_printerr (_("resprobe-cli: could not restore the per-device dirty limits of bdi %s: %s\n"),
                       rp_bdi_state_get_name (saved_bdi), cleanup_error->message);
      g_clear_error (&cleanup_error);
    }
  else if (saved_bdi != NULL && !rp_undo_journal_forget (state->journal, RP_UNDO_GROUP_BDI, &cleanup_error))
    {
      rp_cli_printerr ("resprobe-cli: %s\n", cleanup_error->message);
      g_clear_error (&cleanup_error);
    }

  if (!rp_loop_mount_destroy (scratch, &cleanup_error))
    rp_cli_printerr (_("resprobe-cli: cleaning up %s: %s\n"), name, cleanup_error->message);
  g_clear_error (&cleanup_error);
  if (!rp_emulated_device_destroy (device, &cleanup_error))
    rp_cli_printerr (_("resprobe-cli: cleaning up %s: %s\n"), name, cleanup_error->message);
  return report;
}

static gboolean
parse_list (const char   *text,
            const char   *option,
            const char  **allowed,
            GPtrArray    *out,
            GError      **error)
{
  g_auto(GStrv) items = g_strsplit (text, ",", -1);

  /* "--scheduler ''" gave an empty list: no cell, nothing said, exit 0. */
  if (items[0] == NULL || (items[1] == NULL && *g_strstrip (items[0]) == '\0'))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: an option, e.g. "--scheduler" */
                   _("%s: no value given; list one or more, separated by commas"), option);
      return FALSE;
    }
  for (guint i = 0; items[i] != NULL; i++)
    {
      gboolean known = allowed == NULL;

      g_strstrip (items[i]);
      if (*items[i] == '\0')
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: an option, e.g. "--scheduler", and its text, e.g. "none,,kyber" */
                       _("%s: an empty value in “%s”; separate the values by single commas"), option, text);
          return FALSE;
        }
      for (guint j = 0; allowed != NULL && allowed[j] != NULL; j++)
        known |= g_str_equal (items[i], allowed[j]);
      if (!known)
        {
          g_autofree char *choices = allowed ? g_strjoinv (", ", (char **) allowed) : g_strdup ("");
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("%s: unknown value “%s” (choose from %s)"), option, items[i], choices);
          return FALSE;
        }
      /* Two cells of one name: the second's report would replace the first's. */
      if (g_ptr_array_find_with_equal_func (out, items[i], g_str_equal, NULL))
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("%s: “%s” is listed twice in “%s”"), option, items[i], text);
          return FALSE;
        }
      g_ptr_array_add (out, g_strdup (items[i]));
    }
  return TRUE;
}

/* The per-device dirty limits varied: --bdi-max-ratio, --bdi-max-bytes,
 * --bdi-strict-limit, each empty when not given. */
typedef struct {
  GPtrArray *max_ratio;
  GArray    *max_bytes;     /* guint64 */
  GArray    *strict_limit;  /* int */
} BdiLists;

static void
add_bdi_cells (GArray         *cells,
               const Cell     *base,
               const BdiLists *bdi)
{
  for (guint m = 0; m < MAX (bdi->max_ratio->len, 1); m++)
    for (guint b = 0; b < MAX (bdi->max_bytes->len, 1); b++)
      for (guint l = 0; l < MAX (bdi->strict_limit->len, 1); l++)
        {
          Cell cell = *base;

          cell.fs_type = g_strdup (base->fs_type);
          cell.journal_mode = g_strdup (base->journal_mode);
          cell.scheduler = g_strdup (base->scheduler);
          cell.wbt_lat_usec = g_strdup (base->wbt_lat_usec);
          cell.bdi_max_ratio = bdi->max_ratio->len ? g_strdup (g_ptr_array_index (bdi->max_ratio, m)) : NULL;
          cell.bdi_max_bytes = bdi->max_bytes->len ? g_array_index (bdi->max_bytes, guint64, b) : 0;
          cell.bdi_strict_limit = bdi->strict_limit->len ? g_array_index (bdi->strict_limit, int, l) : -1;
          g_array_append_val (cells, cell);
        }
}

/* Every combination, the device outermost, then the file system: @devices
 * empty is the plain image, @wbt and @direct_io empty leave the loop
 * device's as they are. */
static GArray *
build_cells (GPtrArray      *devices,
             GPtrArray      *fs_types,
             GPtrArray      *journals,
             GPtrArray      *schedulers,
             GArray         *dirty,
             GPtrArray      *wbt,
             GArray         *direct_io,
             const BdiLists *bdi)
{
  GArray *cells = g_array_new (FALSE, TRUE, sizeof (Cell));

  g_array_set_clear_func (cells, cell_clear);
  for (guint v = 0; v < MAX (devices->len, 1); v++)
  for (guint f = 0; f < fs_types->len; f++)
    {
      const char *fs = g_ptr_array_index (fs_types, f);
      gboolean has_modes = rp_loop_mount_fs_has_journal_modes (fs);
      guint n_journals = has_modes ? journals->len : 1;

      if (!has_modes && v == 0)
        rp_cli_print (_("Note: %s has no data= journal mode; its cells use its only mode.\n"), fs);

      for (guint j = 0; j < n_journals; j++)
        for (guint s = 0; s < schedulers->len; s++)
          for (guint d = 0; d < MAX (dirty->len, 1); d++)
            for (guint w = 0; w < MAX (wbt->len, 1); w++)
              for (guint o = 0; o < MAX (direct_io->len, 1); o++)
                {
                  /* Borrowed strings: add_bdi_cells() copies them. */
                  Cell base = {
                    devices->len ? g_ptr_array_index (devices, v) : NULL,
                    (char *) fs,
                    has_modes ? g_ptr_array_index (journals, j) : NULL,
                    g_ptr_array_index (schedulers, s),
                    dirty->len ? g_array_index (dirty, guint64, d) : 0,
                    wbt->len ? g_ptr_array_index (wbt, w) : NULL,
                    direct_io->len ? g_array_index (direct_io, int, o) : -1,
                    NULL, 0, -1,
                  };
                  add_bdi_cells (cells, &base, bdi);
                }
    }
  return cells;
}

/* Every cell once per machine memory, the memory innermost. Frees @cells. */
static GArray *
cells_times_memory (GArray *cells,
                    GArray *memories)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Cell));

  g_array_set_clear_func (out, cell_clear);
  for (guint i = 0; i < cells->len; i++)
    for (guint m = 0; m < memories->len; m++)
      {
        Cell cell = g_array_index (cells, Cell, i);

        cell.fs_type = g_strdup (cell.fs_type);
        cell.journal_mode = g_strdup (cell.journal_mode);
        cell.scheduler = g_strdup (cell.scheduler);
        cell.wbt_lat_usec = g_strdup (cell.wbt_lat_usec);
        cell.bdi_max_ratio = g_strdup (cell.bdi_max_ratio);
        cell.memory = g_array_index (memories, guint64, m);
        g_array_append_val (out, cell);
      }
  g_array_unref (cells);
  return out;
}

static gboolean
check_space (const char  *directory,
             guint64      image_size,
             GError     **error)
{
  struct statvfs vfs;
  guint64 free_bytes, reserve;

  if (statvfs (directory, &vfs) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Checking free space in"), directory);
      return FALSE;
    }
  free_bytes = (guint64) vfs.f_bavail * vfs.f_frsize;
  reserve = MAX ((guint64) (0.05 * (double) vfs.f_blocks * vfs.f_frsize), RP_GiB);
  if (image_size + reserve > free_bytes)
    {
      g_autofree char *image_text = rp_format_size (image_size);
      g_autofree char *free_text = rp_format_size (free_bytes);

      g_set_error (error, RP_ERROR, RP_ERROR_NO_SPACE,
                   _("An image of %s does not fit in “%s” (%s free, and 5 %% or 1 GiB must stay free); use a smaller --image-size"),
                   image_text, directory, free_text);
      return FALSE;
    }
  return TRUE;
}

static char *
format_eta (double seconds)
{
  guint total = (guint) MAX (seconds, 0);

  return g_strdup_printf ("%u:%02u", total / 60, total % 60);
}

/* --wbt: wbt_lat_usec values in µs, as the kernel reads them (0 turns it off). */
static gboolean
parse_wbt (GPtrArray  *texts,
           GError    **error)
{
  for (guint i = 0; i < texts->len; i++)
    {
      guint64 value;

      if (!g_ascii_string_to_unsigned (g_ptr_array_index (texts, i), 10, 0, G_MAXINT32, &value, NULL))
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: wbt_lat_usec is a kernel setting, not translated */
                       _("--wbt: “%s” is not a number of microseconds (wbt_lat_usec, 0 turns it off)"),
                       (const char *) g_ptr_array_index (texts, i));
          return FALSE;
        }
    }
  return TRUE;
}

/* --bdi-max-ratio: whole percents of the global dirty threshold, as the
 * kernel's max_ratio reads them (1 to 100: 0 would stop the device's writers). */
static gboolean
parse_max_ratio (GPtrArray  *texts,
                 GError    **error)
{
  for (guint i = 0; i < texts->len; i++)
    if (!g_ascii_string_to_unsigned (g_ptr_array_index (texts, i), 10, 1, 100, NULL, NULL))
      {
        g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                     /* TRANSLATORS: max_ratio is a kernel setting, not translated */
                     _("--bdi-max-ratio: “%s” is not a percentage from 1 to 100 (max_ratio)"),
                     (const char *) g_ptr_array_index (texts, i));
        return FALSE;
      }
  return TRUE;
}

/* A vm.dirty_bytes a cell can set and be named by, checked before the
 * first cell (issue 33: 1 byte failed inside the cell, named "dirty0M",
 * and 100T was written as is): whole MiB, as the cells' names and labels
 * count it, from 1 MiB to this machine's memory, beyond which no threshold
 * is ever reached. */
static gboolean
check_dirty_bytes (guint64   bytes,
                   GError  **error)
{
  guint64 memory = (guint64) sysconf (_SC_PHYS_PAGES) * (guint64) sysconf (_SC_PAGESIZE);

  if (!rp_params_check_size (bytes, RP_MiB, MAX (memory, RP_MiB), "--dirty-bytes", error))
    return FALSE;
  if (bytes % RP_MiB != 0)
    {
      g_autofree char *text = rp_format_size (bytes);

      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s is a size such as "1.5 MiB" */
                   _("--dirty-bytes: %s is not a whole number of MiB (the cells are named by it, e.g. dirty64M)"),
                   text);
      return FALSE;
    }
  return TRUE;
}

/* "/dev/loopN", which libmount's loop= option takes. */
static gboolean
check_loop_device (const char  *device,
                   GError     **error)
{
  const char *number = g_str_has_prefix (device, "/dev/loop") ? device + strlen ("/dev/loop") : NULL;

  if (number == NULL || !g_ascii_string_to_unsigned (number, 10, 0, 1 << 20, NULL, NULL))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--loop-device: “%s” is not a loop device such as /dev/loop7"), device);
      return FALSE;
    }
  return TRUE;
}

/* Attached already (to another matrix's image, a user's file): said
 * before the first cell, not as its mount error (issue 33); checked after
 * the cleanup of what dead runs left, which may have been attached by one. */
static gboolean
check_loop_device_free (const char  *device,
                        GError     **error)
{
  g_autofree char *backing_path = g_strdup_printf ("/sys/block/%s/loop/backing_file", device + strlen ("/dev/"));
  g_autofree char *backing = NULL;

  if (g_file_get_contents (backing_path, &backing, NULL, NULL))
    {
      g_strchomp (backing);
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: the loop device, then the file it is attached to */
                   _("--loop-device: “%s” is busy: it is attached to “%s” (give a free one, or none)"),
                   device, backing);
      return FALSE;
    }
  return TRUE;
}

typedef struct {
  GArray     *cells;
  RpScenario *scenario;
  const char *directory;
  const char *reports_directory;
  const char *loop_device;
  const char *probe_directory;   /* --probe-dir, or NULL: the probes on the cell */
  guint64     image_size;
  guint       repeats;
} MatrixPlan;

static void
save_run (RpCliGroup  *group,
          RpReport    *report,
          const char  *reports_directory,
          guint        repeat,
          guint        repeats,
          int         *exit_code)
{
  g_autofree char *file_name = repeats > 1 ? g_strdup_printf ("%s-r%u.json", group->key, repeat)
                                           : g_strdup_printf ("%s.json", group->key);
  g_autofree char *path = g_build_filename (reports_directory, file_name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  rp_report_set_configuration (report, group->key, group->label, repeat, repeats);
  if (!rp_report_save (report, file, "json", &error))
    {
      rp_cli_printerr ("resprobe-cli: %s\n", error->message);
      *exit_code = RP_CLI_EXIT_FAILURE;
    }
  else
    g_ptr_array_add (group->file_names, g_steal_pointer (&file_name));
  g_ptr_array_add (group->reports, report);
}

/* vm.dirty_* as before the first cell, and the journal forgets them; a
 * failure is said and the journal keeps them for a cleanup. */
static void
restore_dirty (MatrixState *state)
{
  g_autoptr(GError) error = NULL;

  if (!rp_dirty_state_restore (state->saved_dirty, NULL, &error) ||
      !rp_undo_journal_forget (state->journal, RP_UNDO_GROUP_DIRTY, &error))
    rp_cli_printerr (_("resprobe-cli: could not restore vm.dirty_*: %s\n"), error->message);
}

/* Each cell @repeats times, interleaved (A, B, A, B …) so that drift over
 * the session hits every cell alike. Returns the number of runs that gave a
 * report. */
static guint
run_matrix (MatrixState      *state,
            const MatrixPlan *plan,
            GPtrArray        *groups,
            int              *exit_code)
{
  guint total = plan->cells->len * plan->repeats;
  guint done = 0, reported = 0;
  double started = rp_clock_now (), spent = 0;

  for (guint r = 0; r < plan->repeats && !state->interrupted; r++)
    for (guint i = 0; i < plan->cells->len && !state->interrupted; i++, done++)
      {
        const Cell *cell = &g_array_index (plan->cells, Cell, i);
        RpCliGroup *group = g_ptr_array_index (groups, i);
        g_autofree char *eta = format_eta (done == 0 ? (plan->scenario->duration + 10) * total
                                                     : spent / done * (total - done));
        g_autoptr(GError) cell_error = NULL;
        RpReport *report;

        if (plan->repeats > 1)
          /* TRANSLATORS: run number, runs in all, cell name, its repeat, repeats, time left */
          rp_cli_print (_("[%u/%u] %s, repeat %u of %u (about %s left)\n"), done + 1, total,
                        group->key, r + 1, plan->repeats, eta);
        else
          rp_cli_print (_("[%u/%u] %s (about %s left)\n"), done + 1, total, group->key, eta);
        report = run_cell (state, cell, plan->scenario, plan->directory, plan->image_size,
                           plan->loop_device, plan->probe_directory, &cell_error);
        if (cell->dirty_bytes != 0)
          restore_dirty (state);
        spent = rp_clock_now () - started;
        /* A stop between mounting and the run leaves no report and no error. */
        if (report == NULL && cell_error == NULL)
          continue;
        if (report == NULL)
          {
            rp_cli_printerr ("resprobe-cli: %s: %s\n", group->key, cell_error->message);
            *exit_code = RP_CLI_EXIT_FAILURE;
            continue;
          }
        /* As `run`: a cell measured without the load asked for is no good cell. */
        if (rp_cli_report_failed_commands (rp_report_get_notes (report)))
          *exit_code = rp_cli_exit_worse (*exit_code, RP_CLI_EXIT_COMMAND);
        save_run (group, report, plan->reports_directory, r + 1, plan->repeats, exit_code);
        reported++;
      }
  return reported;
}

static void
print_comparison (GPtrArray *groups)
{
  g_autofree char *text = rp_cli_repeats_table (groups);

  g_print ("\n%s\n", text);
}

/* `run`'s options for loads and probes; the ones the matrix has itself
 * (scenario, dir, size, duration) or has no use for (report, force: each
 * cell's report goes to --reports) are left out. */
static GOptionEntry *
parts_entries (RpRunOptions  *options,
               GArray       **out_array)
{
  static const char *const own[] = { "scenario", "dir", "load-dir", "memory", "size", "duration", "report", "force", NULL };
  GOptionEntry *all = rp_run_options_get_entries (options);
  GArray *array = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));

  for (guint i = 0; all[i].long_name != NULL; i++)
    if (!g_strv_contains (own, all[i].long_name))
      {
        GOptionEntry entry = all[i];

        /* -s, -d, -t, -o mean the matrix's own options here. */
        if (entry.short_name == 'o' || entry.short_name == 's' || entry.short_name == 'd' || entry.short_name == 't')
          entry.short_name = 0;
        g_array_append_val (array, entry);
      }
  *out_array = array;
  return (GOptionEntry *) array->data;
}

/**
 * rp_cli_matrix:
 * @argc: argument count, argv[0] being "matrix"
 * @argv: arguments
 *
 * `resprobe-cli matrix --fs LIST --journal LIST --scheduler LIST --scenario NAME
 * --size SIZE --image-size SIZE --duration SECONDS --dir DIR [--reports DIR]
 * [--dirty-bytes LIST] [--wbt LIST] [--direct-io LIST] [--device LIST]
 * [--loop-device DEV] [--probe-dir DIR] [--drain-limit SECONDS] [--bdi-max-ratio LIST] [--bdi-max-bytes LIST]
 * [--bdi-strict-limit LIST] [--memory LIST] [--repeat N]`: runs the scenario N times (default 1) per valid combination,
 * interleaved, on a fresh loop-mounted file system, saves a report per run
 * (with its configuration and repeat), prints the comparison (with repeats,
 * the table over them) and writes comparison.json listing the reports and
 * their groups. With --probe-dir the cell's file system takes only the loads
 * and the probes run in that directory. Everything it changes on the loop
 * device (queue settings, bdi limits) and vm.dirty_* is put back; the
 * memory pinned for --memory is released after each cell's run. Root
 * only.
 *
 * Returns: 0; 1 when a cell failed; 2 bad options; 3 when a signal stopped
 *   it (what ran is saved and compared, everything cleaned up)
 */
int
rp_cli_matrix (int    argc,
               char **argv)
{
  static const char *fs_allowed[] = { "ext2", "ext3", "ext4", "xfs", "btrfs", NULL };
  static const char *journal_allowed[] = { "ordered", "writeback", "journal", NULL };
  static const char *direct_io_allowed[] = { "off", "on", NULL };
  static const char *strict_limit_allowed[] = { "0", "1", NULL };
  g_autofree char *fs_text = NULL, *journal_text = NULL, *scheduler_text = NULL;
  g_autofree char *scenario_name = NULL, *size_text = NULL, *image_size_text = NULL;
  g_autofree char *duration_text = NULL, *directory = NULL, *reports_directory = NULL;
  g_autofree char *dirty_text = NULL, *wbt_text = NULL, *direct_io_text = NULL;
  g_autofree char *loop_device = NULL, *probe_directory = NULL;
  g_autofree char *device_text = NULL;
  g_autofree char *drain_limit_text = NULL;
  g_autofree char *profiles_help = NULL;
  g_autofree char *description = NULL;
  g_autofree char *max_ratio_text = NULL, *max_bytes_text = NULL, *strict_limit_text = NULL;
  g_autofree char *memory_text = NULL;
  int repeats = 1;
  GOptionEntry entries[] = {
    { "fs", 0, 0, G_OPTION_ARG_STRING, &fs_text, N_("File systems (default ext3,ext4)"), N_("LIST") },
    { "journal", 0, 0, G_OPTION_ARG_STRING, &journal_text, N_("ext3/ext4 journal modes (default ordered,writeback)"), N_("LIST") },
    { "scheduler", 0, 0, G_OPTION_ARG_STRING, &scheduler_text, N_("I/O schedulers (default none,mq-deadline)"), N_("LIST") },
    { "scenario", 0, 0, G_OPTION_ARG_STRING, &scenario_name, N_("Scenario per cell (default R1)"), N_("NAME") },
    { "size", 's', 0, G_OPTION_ARG_STRING, &size_text, N_("Writer size per cell (default 4G)"), N_("SIZE") },
    { "image-size", 0, 0, G_OPTION_ARG_STRING, &image_size_text, N_("Image size (default 12G, sparse)"), N_("SIZE") },
    { "duration", 't', 0, G_OPTION_ARG_STRING, &duration_text, N_("Seconds per cell (default 20)"), N_("SECONDS") },
    { "dir", 'd', 0, G_OPTION_ARG_FILENAME, &directory, N_("Where images and mount points go (required)"), N_("DIR") },
    { "reports", 'o', 0, G_OPTION_ARG_FILENAME, &reports_directory, N_("Where reports go (default ./resprobe-matrix-TIME)"), N_("DIR") },
    { "dirty-bytes", 0, 0, G_OPTION_ARG_STRING, &dirty_text, N_("Also vary vm.dirty_bytes (restored afterwards)"), N_("LIST") },
    { "wbt", 0, 0, G_OPTION_ARG_STRING, &wbt_text, N_("Also vary the loop device’s wbt_lat_usec in µs, 0 off (restored afterwards)"), N_("LIST") },
    { "direct-io", 0, 0, G_OPTION_ARG_STRING, &direct_io_text, N_("Also vary the loop device’s direct I/O: off,on (restored afterwards)"), N_("LIST") },
    { "device", 0, 0, G_OPTION_ARG_STRING, &device_text, N_("Also vary the device under the file system: profiles (below) or custom:KEY=VALUE,… (default native)"), N_("LIST") },
    { "probe-dir", 0, 0, G_OPTION_ARG_FILENAME, &probe_directory, N_("Run the probes in this directory on a fast file system, and only the loads on the cell’s (a copy to a slow USB stick; default: everything on the cell’s)"), N_("DIR") },
    { "bdi-max-ratio", 0, 0, G_OPTION_ARG_STRING, &max_ratio_text, N_("Also vary the cell device’s /sys/class/bdi/BDI/max_ratio, in percent of the dirty threshold (restored afterwards)"), N_("LIST") },
    { "bdi-max-bytes", 0, 0, G_OPTION_ARG_STRING, &max_bytes_text, N_("Also vary the cell device’s bdi max_bytes (restored afterwards)"), N_("LIST") },
    { "bdi-strict-limit", 0, 0, G_OPTION_ARG_STRING, &strict_limit_text, N_("Also vary the cell device’s bdi strict_limit: 0,1 (restored afterwards)"), N_("LIST") },
    { "memory", 0, 0, G_OPTION_ARG_STRING, &memory_text, N_("Also vary the machine memory, emulated by pinning the rest for the cell (at least 1G, less than this machine has)"), N_("LIST") },
    { "drain-limit", 0, 0, G_OPTION_ARG_STRING, &drain_limit_text, N_("Seconds an emulated device’s cell may take to end after its duration (its files waiting for writeback) before the device runs at full speed; “none” waits (default 30)"), N_("SECONDS") },
    { "loop-device", 0, 0, G_OPTION_ARG_FILENAME, &loop_device, N_("Use this free loop device (default: the first free one)"), N_("DEVICE") },
    { "repeat", 'r', 0, G_OPTION_ARG_INT, &repeats, N_("Runs per configuration, interleaved (default 1)"), N_("N") },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GPtrArray) fs_types = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) journals = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) schedulers = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) dirty_texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) wbt = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) direct_io_texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GArray) dirty = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) direct_io = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GPtrArray) max_ratios = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) max_bytes_texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) strict_limit_texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) max_bytes = g_array_new (FALSE, FALSE, sizeof (guint64));
  g_autoptr(GArray) strict_limits = g_array_new (FALSE, FALSE, sizeof (int));
  g_autoptr(GArray) memories = g_array_new (FALSE, FALSE, sizeof (guint64));
  BdiLists bdi = { max_ratios, max_bytes, strict_limits };
  g_autoptr(GArray) cells = NULL;
  g_autoptr(GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_cli_group_free);
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(RpUndoJournal) journal = NULL;
  g_autoptr(RpDirtyState) saved_dirty = NULL;
  g_auto(RpRunOptions) run_options = { 0 };
  g_autoptr(GArray) parts_entries_array = NULL;
  GOptionGroup *parts_group;
  MatrixState state = { 0 };
  MatrixPlan plan = { 0 };
  guint64 image_size = 12 * RP_GiB;
  guint64 writer_size;
  RpCliStopSignals signals;
  guint reported;
  int exit_code = RP_CLI_EXIT_OK;

  rp_run_options_init (&run_options);
  parts_group = g_option_group_new ("parts", _("Loads and probes of each cell (as in “resprobe-cli run”):"),
                                    _("Show the loads’ and probes’ options"), NULL, NULL);
  g_option_group_set_translation_domain (parts_group, GETTEXT_PACKAGE);
  g_option_group_add_entries (parts_group, parts_entries (&run_options, &parts_entries_array));
  g_option_context_add_group (context, parts_group);
  g_option_context_set_summary (context,
    _("Run a scenario on loop-mounted file systems, one per combination of file system, journal mode and I/O scheduler, and compare. Needs root."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  profiles_help = rp_device_profile_help ();
  description = g_strdup_printf (_("Device profiles (--device), each an emulated block device under the cell’s loop device (nbdkit and nbdfuse; sources in the man page):\n%s"
                                   "  custom:KEY=VALUE,…  read=RATE, write=RATE (bytes per second, e.g. 8M), latency=DURATION (a read that does not follow the last request), write-latency=DURATION, seek=DURATION (over the whole device), flush=DURATION, cache=SIZE (write cache), stripe=SIZE and rmw=DURATION (RAID5 read-modify-write)\n"),
                                 profiles_help);
  g_option_context_set_description (context, description);
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;

  if (!parse_list (fs_text ? fs_text : "ext3,ext4", "--fs", fs_allowed, fs_types, &error) ||
      !parse_list (journal_text ? journal_text : "ordered,writeback", "--journal", journal_allowed, journals, &error) ||
      !parse_list (scheduler_text ? scheduler_text : "none,mq-deadline", "--scheduler", NULL, schedulers, &error) ||
      (dirty_text && !parse_list (dirty_text, "--dirty-bytes", NULL, dirty_texts, &error)) ||
      (wbt_text && (!parse_list (wbt_text, "--wbt", NULL, wbt, &error) || !parse_wbt (wbt, &error))) ||
      (direct_io_text && !parse_list (direct_io_text, "--direct-io", direct_io_allowed, direct_io_texts, &error)) ||
      (max_ratio_text && (!parse_list (max_ratio_text, "--bdi-max-ratio", NULL, max_ratios, &error) ||
                          !parse_max_ratio (max_ratios, &error))) ||
      (max_bytes_text && !parse_list (max_bytes_text, "--bdi-max-bytes", NULL, max_bytes_texts, &error)) ||
      (strict_limit_text && !parse_list (strict_limit_text, "--bdi-strict-limit", strict_limit_allowed, strict_limit_texts, &error)) ||
      (loop_device && !check_loop_device (loop_device, &error)) ||
      (device_text && (devices = rp_cli_matrix_parse_devices (device_text, &error)) == NULL))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  if (devices == NULL)
    devices = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_device_choice_free);
  if (repeats < 1 || repeats > 100)
    {
      g_printerr (_("resprobe-cli: --repeat: %d is not a number of runs from 1 to 100\n"), repeats);
      return RP_CLI_EXIT_USAGE;
    }
  for (guint i = 0; i < dirty_texts->len; i++)
    {
      guint64 bytes;

      if (!rp_parse_size (g_ptr_array_index (dirty_texts, i), "--dirty-bytes", &bytes, &error) ||
          !check_dirty_bytes (bytes, &error))
        return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
      g_array_append_val (dirty, bytes);
    }
  for (guint i = 0; i < max_bytes_texts->len; i++)
    {
      guint64 bytes;

      if (!rp_parse_size (g_ptr_array_index (max_bytes_texts, i), "--bdi-max-bytes", &bytes, &error))
        return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
      g_array_append_val (max_bytes, bytes);
    }
  for (guint i = 0; i < strict_limit_texts->len; i++)
    {
      int on = g_str_equal (g_ptr_array_index (strict_limit_texts, i), "1");

      g_array_append_val (strict_limits, on);
    }
  for (guint i = 0; i < direct_io_texts->len; i++)
    {
      int on = g_str_equal (g_ptr_array_index (direct_io_texts, i), "on");

      g_array_append_val (direct_io, on);
    }
  state.drain_limit = DEFAULT_DRAIN_LIMIT;
  if (drain_limit_text != NULL && g_str_equal (drain_limit_text, "none"))
    state.drain_limit = -1;
  else if (drain_limit_text != NULL && !rp_parse_duration (drain_limit_text, "--drain-limit", &state.drain_limit, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  if (memory_text && !rp_cli_parse_memory_list (memory_text, memories, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  if (image_size_text && !rp_parse_size (image_size_text, "--image-size", &image_size, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  writer_size = 4 * RP_GiB;
  if (size_text && !rp_parse_size (size_text, "--size", &writer_size, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  /* The cell's scenario as `run` builds it, with the matrix's defaults:
   * R1, 20 s, a 4 GiB writer. */
  if (!rp_cli_check_folder_option ("--dir", directory, FALSE, &error) ||
      !rp_cli_check_folder_option ("--reports", reports_directory, FALSE, &error) ||
      !rp_cli_check_folder_option ("--probe-dir", probe_directory, FALSE, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  run_options.scenario = g_steal_pointer (&scenario_name);
  run_options.duration = duration_text ? g_steal_pointer (&duration_text) : g_strdup ("20");
  scenario = rp_run_options_to_scenario (&run_options, &error);
  if (scenario == NULL)
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  scenario->stop_when_loads_finish = FALSE;
  if (rp_scenario_has_part (scenario, "seq-writer"))
    rp_params_set_size (scenario->params, "writer_total_size", writer_size);
  else
    writer_size = 0;
  if (!rp_scenario_validate (scenario, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  /* Each cell's run checks its free space when it starts: an image without
   * room would fail in every cell, with mkfs's or mount's words rather than
   * ours, or after minutes of cells (rp-cli-matrix-check.c). */
  if (!rp_cli_matrix_check_cell_space (scenario, fs_types, image_size, NULL, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  /* What the kernel offers, before any cell: schedulers and settings come
   * and go with its release and configuration (rp-kernel-features.c). */
  {
    const RpCliMatrixSetting kernel_settings[] = {
      { "--wbt", "queue/wbt_lat_usec", wbt->len > 0 },
      { "--bdi-max-ratio", "bdi/max_ratio", max_ratios->len > 0 },
      { "--bdi-max-bytes", "bdi/max_bytes", max_bytes->len > 0 },
      { "--bdi-strict-limit", "bdi/strict_limit", strict_limits->len > 0 },
    };

    if (!rp_cli_matrix_check_kernel (schedulers, scheduler_text == NULL, kernel_settings,
                                     G_N_ELEMENTS (kernel_settings), &error) ||
        !rp_cli_matrix_check_file_systems (fs_types, FALSE, &error))
      return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  }

  /* Root first: without it nothing else matters, whatever the directory. */
  if (geteuid () != 0)
    {
      g_printerr (_("resprobe-cli: matrix needs root: it creates loop devices, mounts file systems and changes I/O schedulers. Run it with sudo.\n"));
      return RP_CLI_EXIT_FAILURE;
    }
  if (directory == NULL)
    {
      g_printerr (_("resprobe-cli: --dir is required: the directory where the images are created\n"));
      return RP_CLI_EXIT_USAGE;
    }
  if (!rp_cli_check_directory (directory, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  if (!check_space (directory, image_size, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  if (!rp_cli_check_memory_list (memories, &error))
    return rp_cli_fail (g_error_matches (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT) ? RP_CLI_EXIT_USAGE
                                                                                    : RP_CLI_EXIT_FAILURE, error);
  if (probe_directory != NULL && !rp_cli_check_directory (probe_directory, &error))
    {
      g_prefix_error (&error, "--probe-dir: ");
      return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
    }
  if (probe_directory != NULL &&
      !rp_cli_matrix_check_cell_space (scenario, fs_types, image_size, probe_directory, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  /* Before anything is made: a device that cannot be emulated here fails
   * every cell of its profile. */
  for (guint i = 0; i < devices->len; i++)
    if (!rp_emulated_device_check_tools (rp_device_choice_get_profile (g_ptr_array_index (devices, i)), &error))
      return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
  /* The programs that make the file systems, like the device's tools. */
  if (!rp_cli_matrix_check_file_systems (fs_types, TRUE, &error))
    return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
  /* What a matrix killed with SIGKILL left in this directory: put back
   * before anything of this one, whose loop device may be the dead one's. */
  if (!rp_cli_cleanup_directory (directory, FALSE, &error))
    rp_cli_printerr (_("resprobe-cli: putting back what a dead run left: %s\n"), error->message);
  g_clear_error (&error);
  if (loop_device != NULL && !check_loop_device_free (loop_device, &error))
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);

  if (reports_directory == NULL)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();
      g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
      reports_directory = g_strdup_printf ("resprobe-matrix-%s", stamp);
    }
  if (g_mkdir_with_parents (reports_directory, 0755) != 0)
    {
      rp_error_set_from_errno (&error, errno, _("Creating the directory"), reports_directory);
      return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
    }

  cells = build_cells (devices, fs_types, journals, schedulers, dirty, wbt, direct_io, &bdi);
  if (memories->len > 0)
    cells = cells_times_memory (cells, memories);
  for (guint i = 0; i < cells->len; i++)
    {
      const Cell *cell = &g_array_index (cells, Cell, i);
      g_autofree char *key = cell_name (cell);
      g_autofree char *label = cell_label (cell);

      g_ptr_array_add (groups, rp_cli_group_new (key, label));
    }
  plan = (MatrixPlan) { cells, scenario, directory, reports_directory, loop_device, probe_directory,
                        image_size, (guint) repeats };
  loop = g_main_loop_new (NULL, FALSE);
  state.loop = loop;
  state.journal = journal = rp_undo_journal_new (directory);
  state.saved_dirty = saved_dirty = rp_dirty_state_save ();
  rp_cli_stop_signals_add (&signals, on_signal, &state);
  reported = run_matrix (&state, &plan, groups, &exit_code);
  rp_cli_stop_signals_remove (&signals);

  if (reported > 0)
    {
      print_comparison (groups);
      if (!rp_cli_write_comparison (reports_directory, groups, plan.repeats, &error))
        return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
      rp_cli_print (_("Reports and comparison.json saved in %s\n"), reports_directory);
    }
  if (state.interrupted)
    {
      guint total = cells->len * plan.repeats;

      /* TRANSLATORS: the cells done, of how many (the plural follows the second) */
      g_printerr (g_dngettext (GETTEXT_PACKAGE, "resprobe-cli: interrupted after %u of %u cell; everything was cleaned up\n",
                               "resprobe-cli: interrupted after %u of %u cells; everything was cleaned up\n", total),
                  reported, total);
      exit_code = rp_cli_exit_worse (exit_code, RP_CLI_EXIT_STOPPED);
    }
  return exit_code;
}
