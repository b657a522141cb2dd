/* rp-scenario.c: scenario parameters, the reference presets, validation and JSON. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-error.h"
#include "rp-scenario.h"
#include "rp-units.h"

G_DEFINE_BOXED_TYPE (RpScenario, rp_scenario, rp_scenario_copy, rp_scenario_free)

/* Presets reproduce the reports of SCENARIOS.md; ids are stable (CLI, reports). */
static const RpPresetInfo presets[] = {
  { "R1", N_("Big sequential write (dd) while fsync-tester measures fsync latency") },
  { "R2", N_("Endless copy of a 1 GiB file while a CPU benchmark measures the CPU time I/O steals") },
  { "R3", N_("Four threads of 64 KiB write() calls, timing the longest write() of each thread") },
  { "R3-fsync", N_("Four threads of 64 KiB write() calls, each followed by fsync()") },
  { "passive", N_("No load: measure while you work as usual") },
};

/**
 * rp_scenario_list_presets:
 * @out_n_presets: (out): number of presets
 *
 * Returns: (transfer none) (array length=out_n_presets): the presets; titles
 *   are untranslated, pass them through gettext for display
 */
const RpPresetInfo *
rp_scenario_list_presets (guint *out_n_presets)
{
  g_return_val_if_fail (out_n_presets != NULL, NULL);

  *out_n_presets = G_N_ELEMENTS (presets);
  return presets;
}

static RpScenario *
rp_scenario_new_defaults (void)
{
  RpScenario *self = g_new0 (RpScenario, 1);

  self->name = g_strdup ("custom");
  self->sample_period = 0.5;
  self->probes = RP_PROBE_FSYNC | RP_PROBE_SYSTEM;

  /* dd bs=1M count=15000 of R1 */
  self->writer_block_size = RP_MiB;
  self->writer_total_size = 0;

  /* fsync-tester of kernel bug 12309 */
  self->fsync_size = RP_MiB;
  self->fsync_interval = 1.0;

  self->copy_source_size = RP_GiB;
  self->copy_buffer_size = 128 * RP_KiB;

  self->writers_count = 4;
  self->writers_write_size = 64 * RP_KiB;

  self->cpu_calibration = 3.0;

  self->cold_read_file_size = 64 * RP_MiB;
  self->cold_read_interval = 0.5;
  self->app_start_interval = 2.0;
  return self;
}

/**
 * rp_scenario_new_preset:
 * @id: a preset id from rp_scenario_list_presets() (case-insensitive), or "custom"
 * @error: %RP_ERROR_INVALID_ARGUMENT when @id is unknown
 *
 * Returns: (transfer full) (nullable): a new scenario with the preset's loads,
 *   probes and defaults; free with rp_scenario_free()
 */
RpScenario *
rp_scenario_new_preset (const char  *id,
                        GError     **error)
{
  g_autoptr(RpScenario) self = NULL;
  const char *canonical = NULL;

  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    if (g_ascii_strcasecmp (id, presets[i].id) == 0)
      canonical = presets[i].id;
  if (canonical == NULL && g_ascii_strcasecmp (id, "custom") != 0)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Unknown scenario “%s”; run “resprobe-cli scenarios” to list them"), id);
      return NULL;
    }

  self = rp_scenario_new_defaults ();
  if (canonical == NULL)
    return g_steal_pointer (&self);

  g_free (self->name);
  self->name = g_strdup (canonical);
  if (g_str_equal (canonical, "R1"))
    self->loads = RP_LOAD_SEQ_WRITER;
  else if (g_str_equal (canonical, "R2"))
    /* The reporter watched top beside the benchmark: the system sampler gives
     * the same split; the fsync probe shows what a saving editor would feel. */
    self->loads = RP_LOAD_COPY_LOOP | RP_LOAD_CPU_BENCH;
  else if (g_str_equal (canonical, "R3") || g_str_equal (canonical, "R3-fsync"))
    {
      self->loads = RP_LOAD_PARALLEL_WRITERS;
      self->writers_fsync_each = g_str_equal (canonical, "R3-fsync");
    }
  else
    self->loads = 0;
  return g_steal_pointer (&self);
}

/**
 * rp_scenario_copy:
 *
 * Returns: (transfer full): a deep copy
 */
RpScenario *
rp_scenario_copy (const RpScenario *self)
{
  RpScenario *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  copy->name = g_strdup (self->name);
  copy->directory = g_strdup (self->directory);
  copy->command_argv = g_strdupv (self->command_argv);
  return copy;
}

void
rp_scenario_free (RpScenario *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->directory);
  g_strfreev (self->command_argv);
  g_free (self);
}

/**
 * rp_scenario_default_directory:
 *
 * The default target: a folder in the user's cache directory
 * ($XDG_CACHE_HOME/resprobe, normally ~/.cache/resprobe), so that the run
 * measures the file system that holds the user's home, where desktop
 * applications save their files.
 *
 * Returns: (transfer full): the path
 */
char *
rp_scenario_default_directory (void)
{
  return g_build_filename (g_get_user_cache_dir (), "resprobe", NULL);
}

/**
 * rp_scenario_get_directory:
 *
 * Returns: (transfer none): the target directory, the default one when unset
 */
const char *
rp_scenario_get_directory (const RpScenario *self)
{
  static char *default_directory;
  static gsize initialized;

  g_return_val_if_fail (self != NULL, NULL);

  if (self->directory != NULL)
    return self->directory;
  if (g_once_init_enter (&initialized))
    {
      default_directory = rp_scenario_default_directory ();
      g_once_init_leave (&initialized, 1);
    }
  return default_directory;
}

static gboolean
check_range (double       value,
             double       min,
             double       max,
             const char  *field,
             GError     **error)
{
  if (isfinite (value) && value >= min && value <= max)
    return TRUE;
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("%s: %g is out of range (%g to %g)"), field, value, min, max);
  return FALSE;
}

static gboolean
check_size (guint64      value,
            guint64      min,
            guint64      max,
            const char  *field,
            GError     **error)
{
  g_autofree char *value_text = NULL;
  g_autofree char *min_text = NULL;
  g_autofree char *max_text = NULL;

  if (value >= min && value <= max)
    return TRUE;
  /* In the units the user typed them in ("16.0 MiB", not 16777216). */
  value_text = rp_format_size (value);
  min_text = rp_format_size (min);
  max_text = rp_format_size (max);
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               /* TRANSLATORS: e.g. "block-size: 100 bytes is out of range (512 bytes to 64.0 MiB)" */
               _("%s: %s is out of range (%s to %s)"),
               field, value_text, min_text, max_text);
  return FALSE;
}

/* A run's duration: 0 (until stopped, or until the loads finish), else from
 * a second, under which no probe has measured anything worth a verdict,
 * to 30 days (rp_parse_duration()'s limit). */
static gboolean
check_duration (double       duration,
                GError     **error)
{
  if (duration == 0 || (isfinite (duration) && duration >= 1 && duration <= 30 * 24 * 3600.0))
    return TRUE;
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               /* TRANSLATORS: %g is the duration asked for, in seconds */
               _("duration: %g s is out of range (1 s to 30 days)"), duration);
  return FALSE;
}

/* Copy loop, parallel writers, CPU benchmark and command (issue 4). Field
 * names are the CLI options, so that a message points at what to change. */
static gboolean
validate_new_loads (const RpScenario  *self,
                    GError           **error)
{
  if ((self->loads & RP_LOAD_COPY_LOOP) &&
      (!check_size (self->copy_buffer_size, 512, 64 * RP_MiB, "copy-buffer", error) ||
       !check_size (self->copy_source_size, MAX (self->copy_buffer_size, RP_MiB),
                    G_MAXUINT64 / 4, "copy-size", error)))
    return FALSE;

  if (self->loads & RP_LOAD_PARALLEL_WRITERS)
    {
      if (!check_range (self->writers_count, 1, RP_MAX_WRITERS, "writers", error) ||
          !check_size (self->writers_write_size, 512, 64 * RP_MiB, "write-size", error))
        return FALSE;
      if (self->writers_file_size != 0 &&
          !check_size (self->writers_file_size, self->writers_write_size,
                       G_MAXUINT64 / 128, "file-size", error))
        return FALSE;
    }

  if ((self->loads & RP_LOAD_CPU_BENCH) &&
      !check_range (self->cpu_calibration, 0.5, 600, "calibration", error))
    return FALSE;

  if ((self->loads & RP_LOAD_COMMAND) &&
      (self->command_argv == NULL || self->command_argv[0] == NULL || *self->command_argv[0] == '\0'))
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("command: the command load needs a program to run"));
      return FALSE;
    }
  return TRUE;
}

static gboolean
validate_new_probes (const RpScenario  *self,
                     GError           **error)
{
  /* At least one 4 KiB block to read; a file the size of the RAM would take
   * as long to prepare as a run. */
  if ((self->probes & RP_PROBE_COLD_READ) &&
      (!check_size (self->cold_read_file_size, 64 * RP_KiB, 16 * RP_GiB, "cold-read-size", error) ||
       !check_range (self->cold_read_interval, 0.01, 3600, "cold-read-interval", error)))
    return FALSE;

  if ((self->probes & RP_PROBE_APP_START) &&
      !check_range (self->app_start_interval, 0.01, 3600, "app-start-interval", error))
    return FALSE;
  return TRUE;
}

/**
 * rp_scenario_validate:
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the first bad field
 *
 * Checks every parameter that applies to the selected loads and probes, without
 * touching the file system (the session checks the directory and free space).
 *
 * Returns: %TRUE when the scenario can run
 */
gboolean
rp_scenario_validate (const RpScenario  *self,
                      GError           **error)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->directory != NULL && *self->directory == '\0')
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("directory: the target directory is empty"));
      return FALSE;
    }
  if (!check_duration (self->duration, error) ||
      !check_range (self->sample_period, 0.05, 60, "sample-period", error))
    return FALSE;
  if (self->loads & RP_LOAD_SEQ_WRITER)
    {
      if (!check_size (self->writer_block_size, 512, 64 * RP_MiB, "block-size", error))
        return FALSE;
      if (self->writer_direct && self->writer_block_size % 4096 != 0)
        {
          g_autofree char *size_text = g_strdup_printf ("%" G_GUINT64_FORMAT, self->writer_block_size);

          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("block-size: O_DIRECT needs a multiple of 4096 bytes, not %s"),
                       size_text);
          return FALSE;
        }
      if (self->writer_total_size != 0 && self->writer_total_size < self->writer_block_size)
        {
          g_autofree char *size_text = rp_format_size (self->writer_total_size);
          g_autofree char *block_text = rp_format_size (self->writer_block_size);

          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: "size: 16.0 MiB is less than one block (block-size 64.0 MiB)" */
                       _("size: %s is less than one block (block-size %s)"), size_text, block_text);
          return FALSE;
        }
      if (self->writer_total_size != 0 &&
          !check_size (self->writer_total_size, self->writer_block_size,
                       G_MAXUINT64 / 2, "size", error))
        return FALSE;
      /* The last block is as long as what is left; O_DIRECT takes whole
       * 4 KiB pages only. */
      if (self->writer_direct && self->writer_total_size % 4096 != 0)
        {
          /* In bytes, as for the block size: "1.5 MiB" would hide why. */
          g_autofree char *size_text = g_strdup_printf ("%" G_GUINT64_FORMAT, self->writer_total_size);

          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("size: O_DIRECT needs a multiple of 4096 bytes, not %s"), size_text);
          return FALSE;
        }
    }

  if (self->probes & RP_PROBE_FSYNC)
    {
      if (!check_size (self->fsync_size, 1, 256 * RP_MiB, "fsync-size", error) ||
          !check_range (self->fsync_interval, 0.01, 3600, "interval", error))
        return FALSE;
    }

  if (!validate_new_loads (self, error) || !validate_new_probes (self, error))
    return FALSE;

  return TRUE;
}

/**
 * rp_scenario_to_json:
 *
 * Every field under its CLI option name, sizes in bytes, durations in seconds,
 * loads and probes as arrays of names.
 *
 * Returns: (transfer full): a JSON object node
 */
JsonNode *
rp_scenario_to_json (const RpScenario *self)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

#define ADD_STRING(k, v) (json_builder_set_member_name (b, k), (v) ? json_builder_add_string_value (b, v) : json_builder_add_null_value (b))
#define ADD_DOUBLE(k, v) (json_builder_set_member_name (b, k), json_builder_add_double_value (b, v))
#define ADD_INT(k, v)    (json_builder_set_member_name (b, k), json_builder_add_int_value (b, (gint64) (v)))
#define ADD_BOOL(k, v)   (json_builder_set_member_name (b, k), json_builder_add_boolean_value (b, v))

  json_builder_begin_object (b);
  ADD_STRING ("name", self->name);
  ADD_STRING ("directory", rp_scenario_get_directory (self));
  ADD_DOUBLE ("duration", self->duration);
  ADD_BOOL ("stop_when_loads_finish", self->stop_when_loads_finish);
  ADD_DOUBLE ("sample_period", self->sample_period);

  json_builder_set_member_name (b, "loads");
  json_builder_begin_array (b);
  if (self->loads & RP_LOAD_SEQ_WRITER) json_builder_add_string_value (b, "seq-writer");
  if (self->loads & RP_LOAD_COPY_LOOP) json_builder_add_string_value (b, "copy-loop");
  if (self->loads & RP_LOAD_PARALLEL_WRITERS) json_builder_add_string_value (b, "parallel-writers");
  if (self->loads & RP_LOAD_CPU_BENCH) json_builder_add_string_value (b, "cpu-bench");
  if (self->loads & RP_LOAD_COMMAND) json_builder_add_string_value (b, "command");
  json_builder_end_array (b);

  json_builder_set_member_name (b, "probes");
  json_builder_begin_array (b);
  if (self->probes & RP_PROBE_FSYNC) json_builder_add_string_value (b, "fsync");
  if (self->probes & RP_PROBE_SYSTEM) json_builder_add_string_value (b, "system");
  if (self->probes & RP_PROBE_COLD_READ) json_builder_add_string_value (b, "cold-read");
  if (self->probes & RP_PROBE_APP_START) json_builder_add_string_value (b, "app-start");
  json_builder_end_array (b);

  ADD_INT ("writer_block_size", self->writer_block_size);
  ADD_INT ("writer_total_size", self->writer_total_size);
  ADD_BOOL ("writer_fdatasync", self->writer_fdatasync);
  ADD_BOOL ("writer_direct", self->writer_direct);
  ADD_INT ("fsync_size", self->fsync_size);
  ADD_DOUBLE ("fsync_interval", self->fsync_interval);
  ADD_BOOL ("fsync_use_fdatasync", self->fsync_use_fdatasync);
  ADD_INT ("copy_source_size", self->copy_source_size);
  ADD_INT ("copy_buffer_size", self->copy_buffer_size);
  ADD_INT ("writers_count", self->writers_count);
  ADD_INT ("writers_write_size", self->writers_write_size);
  ADD_INT ("writers_file_size", self->writers_file_size);
  ADD_BOOL ("writers_fsync_each", self->writers_fsync_each);
  ADD_BOOL ("cpu_single_thread", self->cpu_single_thread);
  ADD_DOUBLE ("cpu_calibration", self->cpu_calibration);
  json_builder_set_member_name (b, "command_argv");
  if (self->command_argv != NULL)
    {
      json_builder_begin_array (b);
      for (guint i = 0; self->command_argv[i] != NULL; i++)
        json_builder_add_string_value (b, self->command_argv[i]);
      json_builder_end_array (b);
    }
  else
    json_builder_add_null_value (b);
  ADD_INT ("cold_read_file_size", self->cold_read_file_size);
  ADD_DOUBLE ("cold_read_interval", self->cold_read_interval);
  ADD_DOUBLE ("app_start_interval", self->app_start_interval);
  json_builder_end_object (b);

#undef ADD_STRING
#undef ADD_DOUBLE
#undef ADD_INT
#undef ADD_BOOL

  return json_builder_get_root (b);
}

/* Reads an optional member of the expected JSON type; absent members keep the
 * default, present members of another type are an error naming the key. */
static gboolean
read_member (JsonObject  *object,
             const char  *key,
             GType        value_type,
             GValue      *out_value,
             GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return FALSE;
  if (JSON_NODE_HOLDS_VALUE (node))
    {
      GType held = json_node_get_value_type (node);
      gboolean numeric = held == G_TYPE_INT64 || held == G_TYPE_DOUBLE;

      if ((value_type == G_TYPE_DOUBLE && numeric) ||
          (value_type == G_TYPE_INT64 && numeric) ||
          (value_type == held))
        {
          g_value_init (out_value, value_type);
          if (value_type == G_TYPE_DOUBLE)
            g_value_set_double (out_value, json_node_get_double (node));
          else if (value_type == G_TYPE_INT64)
            g_value_set_int64 (out_value, held == G_TYPE_INT64 ? json_node_get_int (node)
                                                               : (gint64) CLAMP (json_node_get_double (node), -9e18, 9e18));
          else if (value_type == G_TYPE_BOOLEAN)
            g_value_set_boolean (out_value, json_node_get_boolean (node));
          else
            g_value_set_string (out_value, json_node_get_string (node));
          return TRUE;
        }
    }
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               _("Scenario field “%s” has the wrong type"), key);
  return FALSE;
}

#define READ_INTO(key, gtype, getter, target, cast)                       \
  G_STMT_START {                                                          \
    GValue value = G_VALUE_INIT;                                          \
    if (read_member (object, key, gtype, &value, &local_error))           \
      {                                                                   \
        target = cast getter (&value);                                    \
        g_value_unset (&value);                                           \
      }                                                                   \
    if (local_error != NULL)                                              \
      {                                                                   \
        g_propagate_error (error, g_steal_pointer (&local_error));        \
        return NULL;                                                      \
      }                                                                   \
  } G_STMT_END

static guint
flags_from_names (JsonArray   *names,
                  const char **table,
                  guint        n_table)
{
  guint flags = 0;

  for (guint i = 0; i < json_array_get_length (names); i++)
    {
      const char *name = json_node_get_string (json_array_get_element (names, i));

      for (guint j = 0; name != NULL && j < n_table; j++)
        if (g_str_equal (name, table[j]))
          flags |= 1u << j;
    }
  return flags;
}

static const char *load_names[] = { "seq-writer", "copy-loop", "parallel-writers", "cpu-bench", "command" };
static const char *probe_names[] = { "fsync", "system", "cold-read", "app-start" };

/**
 * rp_scenario_new_from_json:
 * @node: a node written by rp_scenario_to_json() (possibly by a stranger)
 * @error: %RP_ERROR_REPORT when @node is not an object or a field has the
 *   wrong type
 *
 * Missing fields take their defaults; unknown load and probe names are ignored.
 * The result is not validated: call rp_scenario_validate() before running it.
 *
 * Returns: (transfer full) (nullable): the scenario
 */
RpScenario *
rp_scenario_new_from_json (JsonNode  *node,
                           GError   **error)
{
  g_autoptr(RpScenario) self = rp_scenario_new_defaults ();
  g_autoptr(GError) local_error = NULL;
  JsonObject *object;
  JsonNode *member;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_REPORT,
                           _("“scenario” is not a JSON object"));
      return NULL;
    }
  object = json_node_get_object (node);

  g_clear_pointer (&self->name, g_free);
  READ_INTO ("name", G_TYPE_STRING, g_value_dup_string, self->name, (char *));
  READ_INTO ("directory", G_TYPE_STRING, g_value_dup_string, self->directory, (char *));
  READ_INTO ("duration", G_TYPE_DOUBLE, g_value_get_double, self->duration, (double));
  READ_INTO ("stop_when_loads_finish", G_TYPE_BOOLEAN, g_value_get_boolean, self->stop_when_loads_finish, (gboolean));
  READ_INTO ("sample_period", G_TYPE_DOUBLE, g_value_get_double, self->sample_period, (double));
  READ_INTO ("writer_block_size", G_TYPE_INT64, g_value_get_int64, self->writer_block_size, (guint64));
  READ_INTO ("writer_total_size", G_TYPE_INT64, g_value_get_int64, self->writer_total_size, (guint64));
  READ_INTO ("writer_fdatasync", G_TYPE_BOOLEAN, g_value_get_boolean, self->writer_fdatasync, (gboolean));
  READ_INTO ("writer_direct", G_TYPE_BOOLEAN, g_value_get_boolean, self->writer_direct, (gboolean));
  READ_INTO ("fsync_size", G_TYPE_INT64, g_value_get_int64, self->fsync_size, (guint64));
  READ_INTO ("fsync_interval", G_TYPE_DOUBLE, g_value_get_double, self->fsync_interval, (double));
  READ_INTO ("fsync_use_fdatasync", G_TYPE_BOOLEAN, g_value_get_boolean, self->fsync_use_fdatasync, (gboolean));
  READ_INTO ("copy_source_size", G_TYPE_INT64, g_value_get_int64, self->copy_source_size, (guint64));
  READ_INTO ("copy_buffer_size", G_TYPE_INT64, g_value_get_int64, self->copy_buffer_size, (guint64));
  READ_INTO ("writers_count", G_TYPE_INT64, g_value_get_int64, self->writers_count, (guint));
  READ_INTO ("writers_write_size", G_TYPE_INT64, g_value_get_int64, self->writers_write_size, (guint64));
  READ_INTO ("writers_file_size", G_TYPE_INT64, g_value_get_int64, self->writers_file_size, (guint64));
  READ_INTO ("writers_fsync_each", G_TYPE_BOOLEAN, g_value_get_boolean, self->writers_fsync_each, (gboolean));
  READ_INTO ("cpu_single_thread", G_TYPE_BOOLEAN, g_value_get_boolean, self->cpu_single_thread, (gboolean));
  READ_INTO ("cpu_calibration", G_TYPE_DOUBLE, g_value_get_double, self->cpu_calibration, (double));
  READ_INTO ("cold_read_file_size", G_TYPE_INT64, g_value_get_int64, self->cold_read_file_size, (guint64));
  READ_INTO ("cold_read_interval", G_TYPE_DOUBLE, g_value_get_double, self->cold_read_interval, (double));
  READ_INTO ("app_start_interval", G_TYPE_DOUBLE, g_value_get_double, self->app_start_interval, (double));

  if ((member = json_object_get_member (object, "loads")) != NULL && JSON_NODE_HOLDS_ARRAY (member))
    self->loads = flags_from_names (json_node_get_array (member), load_names, G_N_ELEMENTS (load_names));
  if ((member = json_object_get_member (object, "probes")) != NULL && JSON_NODE_HOLDS_ARRAY (member))
    self->probes = flags_from_names (json_node_get_array (member), probe_names, G_N_ELEMENTS (probe_names));
  if ((member = json_object_get_member (object, "command_argv")) != NULL && JSON_NODE_HOLDS_ARRAY (member))
    {
      JsonArray *argv = json_node_get_array (member);
      GStrvBuilder *builder = g_strv_builder_new ();

      for (guint i = 0; i < json_array_get_length (argv); i++)
        {
          const char *arg = json_node_get_string (json_array_get_element (argv, i));
          if (arg != NULL)
            g_strv_builder_add (builder, arg);
        }
      self->command_argv = g_strv_builder_end (builder);
      g_strv_builder_unref (builder);
    }

  if (self->name == NULL)
    self->name = g_strdup ("custom");
  return g_steal_pointer (&self);
}
