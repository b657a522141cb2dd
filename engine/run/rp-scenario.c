/* rp-scenario.c: scenario parameters, the reference presets, validation and JSON. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-error.h"
#include "rp-scenario.h"
#include "rp-units.h"

G_DEFINE_BOXED_TYPE (RpScenario, rp_scenario, rp_scenario_copy, rp_scenario_free)

/* Presets reproduce the reports of docs/SCENARIOS.md; ids are stable (CLI, reports). */
static const RpPresetInfo presets[] = {
  { "R1", N_("Big sequential write (dd) while fsync-tester measures fsync latency") },
  { "R2", N_("Endless copy of a 1 GiB file while a CPU benchmark measures the CPU time I/O steals") },
  { "R3", N_("Four threads of 64 KiB write() calls, timing the longest write() of each thread") },
  { "R3-fsync", N_("Four threads of 64 KiB write() calls, each followed by fsync()") },
  { "R6", N_("A big copy to a slow USB stick (give it with --load-dir) while fsync and a document save are timed on the fast file system") },
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
  self->params = rp_params_new ();
  rp_scenario_set_part (self, "fsync", TRUE);
  rp_scenario_set_part (self, "system", TRUE);
  /* "auto": recorded where allowed, one line saying so where not. */
  rp_scenario_set_part (self, "kernel-events", TRUE);
  rp_scenario_set_part (self, "stalls", TRUE);
  rp_scenario_set_part (self, "disk", TRUE);
  return self;
}

static guint64
part_bit (const char *id)
{
  int index = rp_parts_get_index (id);

  g_return_val_if_fail (index >= 0, 0);
  return G_GUINT64_CONSTANT (1) << index;
}

/**
 * rp_scenario_has_part:
 * @id: a part's id, e.g. "fsync"
 *
 * Returns: whether the scenario runs that part
 */
gboolean
rp_scenario_has_part (const RpScenario *self,
                      const char       *id)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return (self->parts & part_bit (id)) != 0;
}

/**
 * rp_scenario_set_part:
 * @id: a part's id, e.g. "seq-writer"; a front-end part cannot run
 * @enabled: whether it runs
 */
void
rp_scenario_set_part (RpScenario *self,
                      const char *id,
                      gboolean    enabled)
{
  const RpPartInfo *part = rp_parts_lookup (id);

  g_return_if_fail (self != NULL);
  g_return_if_fail (part != NULL && part->worker != NULL);

  if (enabled)
    self->parts |= part_bit (id);
  else
    self->parts &= ~part_bit (id);
}

/**
 * rp_scenario_has_role:
 * @role: %RP_PART_LOAD or %RP_PART_PROBE
 *
 * Returns: whether any part of that role runs (no load: the passive scenario)
 */
gboolean
rp_scenario_has_role (const RpScenario *self,
                      RpPartRole        role)
{
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  g_return_val_if_fail (self != NULL, FALSE);

  for (guint i = 0; i < n; i++)
    if (table[i]->role == role && (self->parts & (G_GUINT64_CONSTANT (1) << i)))
      return TRUE;
  return FALSE;
}

/**
 * rp_scenario_clear_role:
 * @role: %RP_PART_LOAD or %RP_PART_PROBE
 *
 * Stops every part of that role from running, e.g. before a `--load` list.
 */
void
rp_scenario_clear_role (RpScenario *self,
                        RpPartRole  role)
{
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  g_return_if_fail (self != NULL);

  for (guint i = 0; i < n; i++)
    if (table[i]->role == role)
      self->parts &= ~(G_GUINT64_CONSTANT (1) << i);
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
    rp_scenario_set_part (self, "seq-writer", TRUE);
  else if (g_str_equal (canonical, "R2"))
    {
      /* The reporter watched top beside the benchmark: the system sampler
       * gives the same split; the fsync probe shows what a saving editor
       * would feel. */
      rp_scenario_set_part (self, "copy-loop", TRUE);
      rp_scenario_set_part (self, "cpu-bench", TRUE);
    }
  else if (g_str_equal (canonical, "R6"))
    {
      /* docs/SCENARIOS.md R6: cp's buffered writes to the stick fill the
       * page cache with its dirty pages, and the global dirty limit then
       * throttles every writer, also those on the fast disk: the fsync
       * probe and an editor's save (what the user feels) are timed there.
       * The stick is the run's load folder (RpScenario.load_directory). */
      rp_scenario_set_part (self, "seq-writer", TRUE);
      rp_scenario_set_part (self, "save", TRUE);
    }
  else if (g_str_equal (canonical, "R3") || g_str_equal (canonical, "R3-fsync"))
    {
      rp_scenario_set_part (self, "parallel-writers", TRUE);
      rp_params_set_flag (self->params, "writers_fsync_each", g_str_equal (canonical, "R3-fsync"));
    }
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
  copy->load_directory = g_strdup (self->load_directory);
  copy->params = rp_params_copy (self->params);
  return copy;
}

void
rp_scenario_free (RpScenario *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self->directory);
  g_free (self->load_directory);
  rp_params_free (self->params);
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

/**
 * rp_scenario_get_load_directory:
 *
 * Returns: (transfer none): where the loads write: @load_directory when
 *   set, else the target directory (rp_scenario_get_directory())
 */
const char *
rp_scenario_get_load_directory (const RpScenario *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->load_directory != NULL ? self->load_directory : rp_scenario_get_directory (self);
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

/* Each parameter of @part against its range, then the part's own rules.
 * Names in messages are the CLI options', so that a message points at what
 * to change. */
static gboolean
validate_part (const RpScenario  *self,
               const RpPartInfo  *part,
               GError           **error)
{
  for (guint k = 0; k < part->n_params; k++)
    if (!rp_params_validate (self->params, &part->params[k], error))
      return FALSE;
  return part->validate == NULL || part->validate (self->params, error);
}

/**
 * rp_scenario_validate:
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the first bad field
 *
 * Checks every parameter of the parts that run, in table order, without
 * touching the file system (the session checks the directory and free
 * space).
 *
 * Returns: %TRUE when the scenario can run
 */
gboolean
rp_scenario_validate (const RpScenario  *self,
                      GError           **error)
{
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->directory != NULL && *self->directory == '\0')
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("directory: the target directory is empty"));
      return FALSE;
    }
  if (self->load_directory != NULL && *self->load_directory == '\0')
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("load_directory: the load directory is empty"));
      return FALSE;
    }
  if (!check_duration (self->duration, error))
    return FALSE;
  /* It would run until stopped and measure nothing. */
  if (!rp_scenario_has_role (self, RP_PART_LOAD) && !rp_scenario_has_role (self, RP_PART_PROBE))
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("Nothing to run: the scenario has no load and no probe"));
      return FALSE;
    }
  for (guint i = 0; i < n; i++)
    if ((self->parts & (G_GUINT64_CONSTANT (1) << i)) && !validate_part (self, table[i], error))
      return FALSE;
  return TRUE;
}

/* The ids of the parts of @role that run, as an array member @key. */
static void
add_part_ids (const RpScenario *self,
              JsonBuilder      *b,
              const char       *key,
              RpPartRole        role)
{
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  json_builder_set_member_name (b, key);
  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    if (table[i]->role == role && (self->parts & (G_GUINT64_CONSTANT (1) << i)))
      json_builder_add_string_value (b, table[i]->id);
  json_builder_end_array (b);
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

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, self->name);
  json_builder_set_member_name (b, "directory");
  json_builder_add_string_value (b, rp_scenario_get_directory (self));
  /* Only when the loads ran elsewhere: older readers see the same file. */
  if (self->load_directory != NULL)
    {
      json_builder_set_member_name (b, "load_directory");
      json_builder_add_string_value (b, self->load_directory);
    }
  json_builder_set_member_name (b, "duration");
  json_builder_add_double_value (b, self->duration);
  json_builder_set_member_name (b, "stop_when_loads_finish");
  json_builder_add_boolean_value (b, self->stop_when_loads_finish);
  add_part_ids (self, b, "loads", RP_PART_LOAD);
  add_part_ids (self, b, "probes", RP_PART_PROBE);
  rp_params_to_json (self->params, b);
  json_builder_end_object (b);
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

/* Selects the parts of @role named in @names; unknown names and parts of
 * another role are ignored (a newer version's report, or a stranger's). */
static void
select_parts (RpScenario *self,
              JsonArray  *names,
              RpPartRole  role)
{
  for (guint i = 0; i < json_array_get_length (names); i++)
    {
      const char *id = json_node_get_string (json_array_get_element (names, i));
      const RpPartInfo *part = rp_parts_lookup (id);

      if (part != NULL && part->role == role)
        rp_scenario_set_part (self, id, TRUE);
    }
}

static void
read_part_ids (RpScenario *self,
               JsonObject *object,
               const char *key,
               RpPartRole  role)
{
  JsonNode *member = json_object_get_member (object, key);

  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    return;
  rp_scenario_clear_role (self, role);
  select_parts (self, json_node_get_array (member), role);
}

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
  READ_INTO ("load_directory", G_TYPE_STRING, g_value_dup_string, self->load_directory, (char *));
  READ_INTO ("duration", G_TYPE_DOUBLE, g_value_get_double, self->duration, (double));
  READ_INTO ("stop_when_loads_finish", G_TYPE_BOOLEAN, g_value_get_boolean, self->stop_when_loads_finish, (gboolean));
  if (!rp_params_read_json (self->params, object, error))
    return NULL;
  read_part_ids (self, object, "loads", RP_PART_LOAD);
  read_part_ids (self, object, "probes", RP_PART_PROBE);

  if (self->name == NULL)
    self->name = g_strdup ("custom");
  return g_steal_pointer (&self);
}

/**
 * rp_scenario_get_size_key:
 *
 * The size a user gives a run ("Data to write", `--size`) is that of its
 * main load: the writer's total (dd's bs × count), else the file the copy
 * loop copies, else each parallel writer's file.
 *
 * Returns: (nullable): the key of that parameter, e.g. "writer_total_size",
 *   or %NULL when no load of the scenario takes a size
 */
const char *
rp_scenario_get_size_key (const RpScenario *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  if (rp_scenario_has_part (self, "seq-writer"))
    return "writer_total_size";
  if (rp_scenario_has_part (self, "copy-loop"))
    return "copy_source_size";
  if (rp_scenario_has_part (self, "parallel-writers"))
    return "writers_file_size";
  return NULL;
}
