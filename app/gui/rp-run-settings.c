/* rp-run-settings.c: the settings of the next run, typed, and the one place they become a scenario. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-run-settings.h"
#include "rp-units.h"

/* What the window's form and the Preferences window edit: typed values that
 * GSettings stores and the forms bind, parsed from text once, when edited,
 * not on every refresh. */
struct _RpRunSettings
{
  GObject   parent_instance;

  char     *scenario;       /* a preset id, as rp_scenario_list_presets() spells it */
  char     *directory;      /* NULL: rp_scenario_default_directory() */
  /* NULL: the loads in @directory; else another file system (a USB stick,
   * scenario R6). Stored like @directory: a folder that is gone by the next
   * start fails that start with an error naming it, as any folder does. */
  char     *load_directory;
  guint64   size;           /* bytes; 0: the preset's own size */
  double    duration;       /* seconds; 0: until the loads are done */
  double    baseline;       /* seconds the system samplers run alone first; 0: none */
  gboolean  simulate_save;

  /* A window's form follows the settings (rp_run_settings_bind() with
   * %G_SETTINGS_BIND_GET) through "changed", not g_settings_bind(): */
  GSettings  *followed;
  /* key → the value it had before this object stored the form. A backend
   * that accepts a write and then undoes it (dconf without a session bus:
   * the write fails later and the old value comes back as a change) must
   * not take the form back with it. */
  GHashTable *before_store;
};

G_DEFINE_FINAL_TYPE (RpRunSettings, rp_run_settings, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SCENARIO,
  PROP_DIRECTORY,
  PROP_LOAD_DIRECTORY,
  PROP_SIZE,
  PROP_DURATION,
  PROP_BASELINE,
  PROP_SIMULATE_SAVE,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------------- */
/* RpScenario fields. The GUI reads and writes the fields and parameters of
 * an RpScenario in this section and nowhere else, so that a change of the
 * scenario's API is adapted here, once. */

/* The size of the form is the parameter rp_scenario_get_size_key() names. */
static RpSizeMeaning
size_meaning_of (const RpScenario *scenario)
{
  static const struct {
    const char    *key;
    RpSizeMeaning  meaning;
  } meanings[] = {
    { "writer_total_size", RP_SIZE_MEANING_WRITER_TOTAL },
    { "copy_source_size", RP_SIZE_MEANING_COPY_SOURCE },
    { "writers_file_size", RP_SIZE_MEANING_WRITER_SHARE },
  };
  const char *key = rp_scenario_get_size_key (scenario);

  for (guint i = 0; key != NULL && i < G_N_ELEMENTS (meanings); i++)
    if (g_str_equal (meanings[i].key, key))
      return meanings[i].meaning;
  return RP_SIZE_MEANING_NONE;
}

/**
 * rp_run_settings_build_scenario:
 * @error: where an invalid setting is named
 *
 * The scenario these settings run: the preset, with the folder, the size and
 * the duration of the form. Every part of the GUI that runs a scenario gets
 * it from here.
 *
 * Returns: (transfer full) (nullable): a validated scenario, or %NULL
 */
RpScenario *
rp_run_settings_build_scenario (RpRunSettings  *self,
                                GError        **error)
{
  g_autoptr(RpScenario) scenario = NULL;
  const char *size_key;

  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  scenario = rp_scenario_new_preset (self->scenario, error);
  if (scenario == NULL)
    return NULL;
  if (self->directory != NULL)
    {
      g_free (scenario->directory);
      scenario->directory = g_strdup (self->directory);
    }
  scenario->load_directory = g_strdup (self->load_directory);
  /* "Data to write" means what the scenario's load writes: dd's total, the
   * size of the file the copy loop copies, or each parallel writer's share. */
  size_key = rp_scenario_get_size_key (scenario);
  if (self->size > 0 && size_key != NULL)
    rp_params_set_size (scenario->params, size_key, self->size);
  scenario->duration = self->duration;
  /* The system sampler's parameter (rp-system-sampler.c); the session holds
   * the loads back that long. */
  rp_params_set_seconds (scenario->params, "baseline", self->baseline);
  /* Without a duration the run ends with its loads, as dd does (and as the
   * CLI does); a scenario without loads runs until stopped. */
  scenario->stop_when_loads_finish = self->duration == 0 && rp_scenario_has_role (scenario, RP_PART_LOAD);
  /* What a desktop user feels, measured in a probe window of its own
   * (engine/parts/rp-window-probes.c), which also makes the naive save. */
  rp_scenario_set_part (scenario, "window", TRUE);
  rp_params_set_flag (scenario->params, "simulate_save", self->simulate_save);

  if (!rp_scenario_validate (scenario, error))
    return NULL;
  return g_steal_pointer (&scenario);
}

/**
 * rp_run_settings_load_scenario:
 * @scenario: a scenario, e.g. of an opened report
 *
 * Shows @scenario in the settings (scenario, size, duration; not the folder,
 * which is this machine's): the reverse of rp_run_settings_build_scenario().
 *
 * Returns: %FALSE if @scenario is not a preset (nothing changed)
 */
gboolean
rp_run_settings_load_scenario (RpRunSettings    *self,
                               const RpScenario *scenario)
{
  const char *size_key;

  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), FALSE);
  g_return_val_if_fail (scenario != NULL, FALSE);

  if (scenario->name == NULL || !rp_run_settings_set_scenario (self, scenario->name))
    return FALSE;
  size_key = rp_scenario_get_size_key (scenario);
  rp_run_settings_set_size (self, size_key ? rp_params_get_size (scenario->params, size_key) : 0);
  rp_run_settings_set_duration (self, MAX (scenario->duration, 0));
  rp_run_settings_set_baseline (self, MAX (rp_params_get_seconds (scenario->params, "baseline"), 0));
  return TRUE;
}

/**
 * rp_run_settings_get_size_meaning:
 *
 * Returns: what the size means for the selected scenario
 */
RpSizeMeaning
rp_run_settings_get_size_meaning (RpRunSettings *self)
{
  g_autoptr(RpScenario) preset = NULL;

  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), RP_SIZE_MEANING_NONE);

  preset = rp_scenario_new_preset (self->scenario, NULL);
  return preset != NULL ? size_meaning_of (preset) : RP_SIZE_MEANING_NONE;
}

/* ------------------------------------------------------------------------- */
/* Text: what the entries show and accept */

/* rp_parse_duration() reads "20s"; people type "20 s". */
static char *
squeeze_spaces (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

/**
 * rp_run_settings_parse_size:
 * @text: as typed: "4G", "512 M"; empty: 0, the preset's own size
 * @out_bytes: (out): the size
 *
 * Returns: %FALSE with @error naming the field if @text is not a size
 */
gboolean
rp_run_settings_parse_size (const char  *text,
                            guint64     *out_bytes,
                            GError     **error)
{
  g_autofree char *squeezed = squeeze_spaces (text);

  *out_bytes = 0;
  return *squeezed == '\0' || rp_parse_size (squeezed, _("Data to write"), out_bytes, error);
}

/**
 * rp_run_settings_parse_duration:
 * @text: as typed: "60", "2m", "20 s"; empty: 0, until the loads are done
 * @out_seconds: (out): the duration
 *
 * Returns: %FALSE with @error naming the field if @text is not a duration
 */
gboolean
rp_run_settings_parse_duration (const char  *text,
                                double      *out_seconds,
                                GError     **error)
{
  g_autofree char *squeezed = squeeze_spaces (text);

  *out_seconds = 0;
  return *squeezed == '\0' || rp_parse_duration (squeezed, _("Duration"), out_seconds, error);
}

/**
 * rp_run_settings_parse_baseline:
 * @text: as typed: "3", "10 s", "1m"; empty or "0": 0, no baseline
 * @out_seconds: (out): the baseline, seconds
 *
 * Returns: %FALSE with @error naming the field if @text is not a duration
 */
gboolean
rp_run_settings_parse_baseline (const char  *text,
                                double      *out_seconds,
                                GError     **error)
{
  g_autofree char *squeezed = squeeze_spaces (text);
  char *end = NULL;

  *out_seconds = 0;
  /* "0" is the row's word for none, which a duration cannot be. */
  if (g_ascii_strtod (squeezed, &end) == 0 && end != squeezed && (*end == '\0' || g_str_equal (end, "s")))
    return TRUE;
  /* TRANSLATORS: the field's name in an error, as the run form's row says it */
  return *squeezed == '\0' || rp_parse_duration (squeezed, _("Baseline"), out_seconds, error);
}

/**
 * rp_run_settings_format_size:
 *
 * Returns: (transfer full): @bytes as the size field reads it back (dd's
 *   units): "4G", "256M", or bytes; "" for 0
 */
char *
rp_run_settings_format_size (guint64 bytes)
{
  if (bytes == 0)
    return g_strdup ("");
  if (bytes % RP_GiB == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "G", bytes / RP_GiB);
  if (bytes % RP_MiB == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "M", bytes / RP_MiB);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
}

/**
 * rp_run_settings_format_duration:
 *
 * Returns: (transfer full): @seconds as the duration field reads it back;
 *   "" for 0
 */
char *
rp_run_settings_format_duration (double seconds)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  /* The parser reads a decimal point in every locale (rp_parse_duration()). */
  return seconds > 0 ? g_strdup (g_ascii_formatd (text, sizeof text, "%g", seconds)) : g_strdup ("");
}

/* ------------------------------------------------------------------------- */
/* GSettings */

/* The "directory" and "load-directory" keys hold "" for the default folder;
 * the property NULL. */
static gboolean
directory_from_key (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char *text = g_variant_get_string (variant, NULL);

  g_value_set_string (value, *text != '\0' ? text : NULL);
  return TRUE;
}

static GVariant *
directory_to_key (const GValue       *value,
                  const GVariantType *expected_type,
                  gpointer            user_data)
{
  const char *text = g_value_get_string (value);

  return g_variant_new_string (text != NULL ? text : "");
}

/* One key of the settings into its property. */
static void
follow_key (RpRunSettings *self,
            const char    *key)
{
  g_autoptr(GVariant) value = g_settings_get_value (self->followed, key);
  GVariant *before = g_hash_table_lookup (self->before_store, key);

  /* The value this form replaced came back: the backend undid the store.
   * The form keeps what the user chose. */
  if (before != NULL && g_variant_equal (before, value))
    return;
  if (g_str_equal (key, "scenario"))
    /* An unknown preset id (of another version) is refused by the setter:
     * the selection stays. */
    rp_run_settings_set_scenario (self, g_variant_get_string (value, NULL));
  else if (g_str_equal (key, "directory"))
    rp_run_settings_set_directory (self, g_variant_get_string (value, NULL));
  else if (g_str_equal (key, "load-directory"))
    rp_run_settings_set_load_directory (self, g_variant_get_string (value, NULL));
  else if (g_str_equal (key, "size-bytes"))
    rp_run_settings_set_size (self, g_variant_get_uint64 (value));
  else if (g_str_equal (key, "duration-seconds"))
    rp_run_settings_set_duration (self, g_variant_get_double (value));
  else if (g_str_equal (key, "baseline-seconds"))
    rp_run_settings_set_baseline (self, g_variant_get_double (value));
  else if (g_str_equal (key, "simulate-save"))
    rp_run_settings_set_simulate_save (self, g_variant_get_boolean (value));
}

static const char *const followed_keys[] = {
  "scenario", "directory", "load-directory", "size-bytes", "duration-seconds", "baseline-seconds",
  "simulate-save",
};

static void
on_followed_changed (GSettings     *settings,
                     const char    *key,
                     RpRunSettings *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (followed_keys); i++)
    if (g_str_equal (key, followed_keys[i]))
      follow_key (self, key);
}

/* %G_SETTINGS_BIND_GET, by hand: see before_store. */
static void
follow_settings (RpRunSettings *self,
                 GSettings     *settings)
{
  g_return_if_fail (self->followed == NULL);

  self->followed = g_object_ref (settings);
  for (guint i = 0; i < G_N_ELEMENTS (followed_keys); i++)
    follow_key (self, followed_keys[i]);
  g_signal_connect_object (settings, "changed", G_CALLBACK (on_followed_changed), self, 0);
}

/**
 * rp_run_settings_bind:
 * @settings: io.github.resprobe.Resprobe
 * @flags: %G_SETTINGS_BIND_GET to follow the settings (a window's form),
 *   %G_SETTINGS_BIND_DEFAULT to edit them (Preferences)
 *
 * Binds every property to its key. A key that cannot be written leaves the
 * property as it was set: the form keeps what the user typed. Following
 * (%G_SETTINGS_BIND_GET), a change that brings back the value this object's
 * rp_run_settings_store_form() replaced is taken for the backend undoing
 * the write and ignored (a change made elsewhere to exactly that value is
 * ignored too, until the next store).
 */
void
rp_run_settings_bind (RpRunSettings      *self,
                      GSettings          *settings,
                      GSettingsBindFlags  flags)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  if (flags == G_SETTINGS_BIND_GET)
    {
      follow_settings (self, settings);
      return;
    }
  /* An unknown preset id (of another version) is refused by the setter:
   * the selection stays. */
  g_settings_bind (settings, "scenario", self, "scenario", flags);
  g_settings_bind_with_mapping (settings, "directory", self, "directory", flags,
                                directory_from_key, directory_to_key, NULL, NULL);
  g_settings_bind_with_mapping (settings, "load-directory", self, "load-directory", flags,
                                directory_from_key, directory_to_key, NULL, NULL);
  g_settings_bind (settings, "size-bytes", self, "size", flags);
  g_settings_bind (settings, "duration-seconds", self, "duration", flags);
  g_settings_bind (settings, "baseline-seconds", self, "baseline", flags);
  g_settings_bind (settings, "simulate-save", self, "simulate-save", flags);
}

static void
store_key (RpRunSettings *self,
           GSettings     *settings,
           const char    *key,
           GVariant      *value)
{
  g_autoptr(GVariant) owned = g_variant_ref_sink (value);
  g_autoptr(GVariant) before = g_settings_get_value (settings, key);

  /* Not writable (locked down, a read-only backend): the object keeps its
   * value; writing would only log a warning. */
  if (!g_settings_is_writable (settings, key) || g_variant_equal (before, owned))
    return;
  if (settings == self->followed)
    g_hash_table_insert (self->before_store, g_strdup (key), g_steal_pointer (&before));
  g_settings_set_value (settings, key, owned);
}

/**
 * rp_run_settings_store_form:
 * @settings: io.github.resprobe.Resprobe
 *
 * Stores the form (scenario, folders, size, duration, baseline) as a run starts, so that
 * the next window starts where this run left off. The simulation toggle is
 * not stored: its default is a preference.
 */
void
rp_run_settings_store_form (RpRunSettings *self,
                            GSettings     *settings)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  store_key (self, settings, "scenario", g_variant_new_string (self->scenario));
  store_key (self, settings, "directory", g_variant_new_string (self->directory ? self->directory : ""));
  store_key (self, settings, "load-directory",
             g_variant_new_string (self->load_directory ? self->load_directory : ""));
  store_key (self, settings, "size-bytes", g_variant_new_uint64 (self->size));
  store_key (self, settings, "duration-seconds", g_variant_new_double (self->duration));
  store_key (self, settings, "baseline-seconds", g_variant_new_double (self->baseline));
}

/* ------------------------------------------------------------------------- */
/* Properties */

/* g_set_str() is GLib 2.76; this tree is pinned to 2.74. */
static gboolean
replace_string (char       **slot,
                const char  *value)
{
  if (g_strcmp0 (*slot, value) == 0)
    return FALSE;
  g_free (*slot);
  *slot = g_strdup (value);
  return TRUE;
}

/**
 * rp_run_settings_get_scenario:
 *
 * Returns: the id of the preset to run, e.g. "R1"
 */
const char *
rp_run_settings_get_scenario (RpRunSettings *self)
{
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), NULL);
  return self->scenario;
}

/**
 * rp_run_settings_set_scenario:
 * @id: a preset id (case-insensitive)
 *
 * Returns: %FALSE if there is no such preset (the scenario is unchanged)
 */
gboolean
rp_run_settings_set_scenario (RpRunSettings *self,
                              const char    *id)
{
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), FALSE);

  for (guint i = 0; id != NULL && i < n_presets; i++)
    if (g_ascii_strcasecmp (presets[i].id, id) == 0)
      {
        if (replace_string (&self->scenario, presets[i].id))
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
        return TRUE;
      }
  return FALSE;
}

/**
 * rp_run_settings_get_directory:
 *
 * Returns: (nullable): the folder to test; %NULL for the default
 */
const char *
rp_run_settings_get_directory (RpRunSettings *self)
{
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), NULL);
  return self->directory;
}

/**
 * rp_run_settings_set_directory:
 * @directory: (nullable): the folder to test; %NULL or empty: the default
 */
void
rp_run_settings_set_directory (RpRunSettings *self,
                               const char    *directory)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));

  if (directory != NULL && *directory == '\0')
    directory = NULL;
  if (replace_string (&self->directory, directory))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRECTORY]);
}

/**
 * rp_run_settings_get_load_directory:
 *
 * Returns: (nullable): the folder the loads write to, on another file
 *   system (a USB stick); %NULL when they write to the folder to test
 */
const char *
rp_run_settings_get_load_directory (RpRunSettings *self)
{
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), NULL);
  return self->load_directory;
}

/**
 * rp_run_settings_set_load_directory:
 * @directory: (nullable): the loads' folder (RpScenario.load_directory);
 *   %NULL or empty: the folder to test
 */
void
rp_run_settings_set_load_directory (RpRunSettings *self,
                                    const char    *directory)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));

  if (directory != NULL && *directory == '\0')
    directory = NULL;
  if (replace_string (&self->load_directory, directory))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOAD_DIRECTORY]);
}

guint64
rp_run_settings_get_size (RpRunSettings *self)
{
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), 0);
  return self->size;
}

/**
 * rp_run_settings_set_size:
 * @bytes: what the load writes (rp_run_settings_get_size_meaning()); 0:
 *   the preset's own size
 */
void
rp_run_settings_set_size (RpRunSettings *self,
                          guint64        bytes)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));

  if (self->size == bytes)
    return;
  self->size = bytes;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIZE]);
}

double
rp_run_settings_get_duration (RpRunSettings *self)
{
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), 0);
  return self->duration;
}

/**
 * rp_run_settings_set_duration:
 * @seconds: how long the run lasts; 0: until the loads are done
 */
void
rp_run_settings_set_duration (RpRunSettings *self,
                              double         seconds)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));

  if (self->duration == seconds)
    return;
  self->duration = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DURATION]);
}

/**
 * rp_run_settings_get_baseline:
 *
 * Returns: seconds the system-wide samplers run before the loads start
 *   (the system sampler's "baseline" parameter); 0: none
 */
double
rp_run_settings_get_baseline (RpRunSettings *self)
{
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), 0);
  return self->baseline;
}

/**
 * rp_run_settings_set_baseline:
 * @seconds: seconds the system-wide samplers run alone before the loads;
 *   0: none. A value the parameter's range refuses (0.5 to 600 s) makes
 *   rp_run_settings_build_scenario() fail with the parameter's error.
 */
void
rp_run_settings_set_baseline (RpRunSettings *self,
                              double         seconds)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));

  if (self->baseline == seconds)
    return;
  self->baseline = seconds;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BASELINE]);
}

gboolean
rp_run_settings_get_simulate_save (RpRunSettings *self)
{
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (self), FALSE);
  return self->simulate_save;
}

void
rp_run_settings_set_simulate_save (RpRunSettings *self,
                                   gboolean       simulate_save)
{
  g_return_if_fail (RP_IS_RUN_SETTINGS (self));

  simulate_save = !!simulate_save;
  if (self->simulate_save == simulate_save)
    return;
  self->simulate_save = simulate_save;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIMULATE_SAVE]);
}

/* ------------------------------------------------------------------------- */
/* GObject */

static void
rp_run_settings_finalize (GObject *object)
{
  RpRunSettings *self = RP_RUN_SETTINGS (object);

  g_clear_pointer (&self->scenario, g_free);
  g_clear_pointer (&self->directory, g_free);
  g_clear_pointer (&self->load_directory, g_free);
  g_clear_pointer (&self->before_store, g_hash_table_unref);
  g_clear_object (&self->followed);

  G_OBJECT_CLASS (rp_run_settings_parent_class)->finalize (object);
}

static void
rp_run_settings_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  RpRunSettings *self = RP_RUN_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      g_value_set_string (value, self->scenario);
      break;
    case PROP_DIRECTORY:
      g_value_set_string (value, self->directory);
      break;
    case PROP_LOAD_DIRECTORY:
      g_value_set_string (value, self->load_directory);
      break;
    case PROP_SIZE:
      g_value_set_uint64 (value, self->size);
      break;
    case PROP_DURATION:
      g_value_set_double (value, self->duration);
      break;
    case PROP_BASELINE:
      g_value_set_double (value, self->baseline);
      break;
    case PROP_SIMULATE_SAVE:
      g_value_set_boolean (value, self->simulate_save);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_run_settings_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  RpRunSettings *self = RP_RUN_SETTINGS (object);

  switch (prop_id)
    {
    case PROP_SCENARIO:
      rp_run_settings_set_scenario (self, g_value_get_string (value));
      break;
    case PROP_DIRECTORY:
      rp_run_settings_set_directory (self, g_value_get_string (value));
      break;
    case PROP_LOAD_DIRECTORY:
      rp_run_settings_set_load_directory (self, g_value_get_string (value));
      break;
    case PROP_SIZE:
      rp_run_settings_set_size (self, g_value_get_uint64 (value));
      break;
    case PROP_DURATION:
      rp_run_settings_set_duration (self, g_value_get_double (value));
      break;
    case PROP_BASELINE:
      rp_run_settings_set_baseline (self, g_value_get_double (value));
      break;
    case PROP_SIMULATE_SAVE:
      rp_run_settings_set_simulate_save (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_run_settings_class_init (RpRunSettingsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = rp_run_settings_finalize;
  object_class->get_property = rp_run_settings_get_property;
  object_class->set_property = rp_run_settings_set_property;

  /**
   * RpRunSettings:scenario:
   *
   * The id of the preset to run ("R1", "passive", …); an unknown id is
   * refused and leaves it as it was.
   */
  properties[PROP_SCENARIO] =
    g_param_spec_string ("scenario", NULL, NULL, "R1",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * RpRunSettings:directory:
   *
   * The folder to test; %NULL for the default, ~/.cache/resprobe.
   */
  properties[PROP_DIRECTORY] =
    g_param_spec_string ("directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * RpRunSettings:load-directory:
   *
   * The folder the loads write to when not the folder to test: another
   * file system, such as a USB stick (scenario R6), while the probes stay
   * in #RpRunSettings:directory; %NULL for the folder to test.
   */
  properties[PROP_LOAD_DIRECTORY] =
    g_param_spec_string ("load-directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * RpRunSettings:size:
   *
   * Bytes the scenario's load writes (rp_run_settings_get_size_meaning());
   * 0 for the preset's own size.
   */
  properties[PROP_SIZE] =
    g_param_spec_uint64 ("size", NULL, NULL, 0, G_MAXUINT64, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * RpRunSettings:duration:
   *
   * Seconds the run lasts; 0 until the loads are done.
   */
  properties[PROP_DURATION] =
    g_param_spec_double ("duration", NULL, NULL, 0, G_MAXDOUBLE, 0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * RpRunSettings:baseline:
   *
   * Seconds the system-wide samplers run before the loads and the other
   * probes start: the system sampler's "baseline" parameter, whose default
   * (RP_RUN_SETTINGS_DEFAULT_BASELINE) it starts with; 0: none.
   */
  properties[PROP_BASELINE] =
    g_param_spec_double ("baseline", NULL, NULL, 0, G_MAXDOUBLE, RP_RUN_SETTINGS_DEFAULT_BASELINE,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * RpRunSettings:simulate-save:
   *
   * Whether the main thread saves a file every second during the run (the
   * "naive application" simulation).
   */
  properties[PROP_SIMULATE_SAVE] =
    g_param_spec_boolean ("simulate-save", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
rp_run_settings_init (RpRunSettings *self)
{
  self->scenario = g_strdup ("R1");
  self->baseline = RP_RUN_SETTINGS_DEFAULT_BASELINE;
  self->before_store = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) g_variant_unref);
}

/**
 * rp_run_settings_new:
 *
 * Returns: (transfer full): settings of R1 in the default folder, with the
 *   preset's size and no duration
 */
RpRunSettings *
rp_run_settings_new (void)
{
  return g_object_new (RP_TYPE_RUN_SETTINGS, NULL);
}
