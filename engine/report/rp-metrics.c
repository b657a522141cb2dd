/* rp-metrics.c: what `resprobe-cli monitor` exports: cumulative histograms and counters in Prometheus text. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-metrics.h"
#include "rp-report-stalls.h"
#include "rp-stall.h"

/* The latencies a user waits for, one histogram each, named after their
 * series: `resprobe_fsync_latency_seconds` of "fsync_latency". Counters
 * live as long as the process, across the monitor's sessions (Prometheus
 * takes a reset for a restart). */
typedef struct {
  char    *series;
  guint64  buckets[RP_METRICS_N_BOUNDS + 1];   /* the last: over the last bound (+Inf) */
  guint64  count;
  double   sum;
  guint64  stalls[3];                          /* over 0.1 s, 1 s, 10 s */
  guint    harvested;                          /* points of the current session seen */
} Latency;

/* One monitored folder: its labels, its latencies, its stall causes. */
typedef struct {
  char       *folder;
  char       *labels;        /* `folder="…",fs="…",…`, escaped */
  gboolean    up;
  GPtrArray  *latencies;     /* Latency */
  GHashTable *causes;        /* "site\ncause" → guint64 count, as a pointer-sized box */
  guint       stalls_harvested;
} Folder;

struct _RpMetrics
{
  GPtrArray *folders;        /* Folder, in the order they were first seen */
  guint64    periods;
};

static const double stall_limits[3] = { 0.1, 1.0, 10.0 };
static const char *const stall_limit_labels[3] = { "0.1", "1", "10" };

static void
latency_free (Latency *latency)
{
  g_free (latency->series);
  g_free (latency);
}

static void
folder_free (Folder *folder)
{
  g_free (folder->folder);
  g_free (folder->labels);
  g_ptr_array_unref (folder->latencies);
  g_hash_table_unref (folder->causes);
  g_free (folder);
}

/**
 * rp_metrics_new:
 *
 * Returns: (transfer full): empty metrics; free with rp_metrics_free().
 *   Used from one thread (the monitor's main context), so it has no lock.
 */
RpMetrics *
rp_metrics_new (void)
{
  RpMetrics *self = g_new0 (RpMetrics, 1);

  self->folders = g_ptr_array_new_with_free_func ((GDestroyNotify) folder_free);
  return self;
}

/**
 * rp_metrics_free:
 * @self: (nullable): metrics
 */
void
rp_metrics_free (RpMetrics *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->folders);
  g_free (self);
}

/**
 * rp_metrics_get_bound:
 * @index: 0 to %RP_METRICS_N_BOUNDS - 1
 *
 * Returns: the upper bound (`le`) of histogram bucket @index, seconds:
 *   10^(FIRST_DECADE + index / BUCKETS_PER_DECADE) to 4 significant
 *   digits, the same on every machine
 */
double
rp_metrics_get_bound (guint index)
{
  static double bounds[RP_METRICS_N_BOUNDS];
  static gsize initialized;

  g_return_val_if_fail (index < RP_METRICS_N_BOUNDS, INFINITY);

  /* Rounded to 4 significant digits, as the `le` label prints them, so
   * that a value is counted in the bucket its label says (1.778e-05, not
   * 1.7782794100389229e-05), and whole decades are exact. */
  if (g_once_init_enter (&initialized))
    {
      for (guint i = 0; i < RP_METRICS_N_BOUNDS; i++)
        {
          char text[G_ASCII_DTOSTR_BUF_SIZE];

          g_ascii_formatd (text, sizeof text, "%.4g",
                           pow (10, RP_METRICS_FIRST_DECADE + (double) i / RP_METRICS_BUCKETS_PER_DECADE));
          bounds[i] = g_ascii_strtod (text, NULL);
        }
      g_once_init_leave (&initialized, 1);
    }
  return bounds[index];
}

/**
 * rp_metrics_bucket_of:
 * @seconds: a latency
 *
 * Returns: the index of the first bucket whose bound is at least @seconds
 *   (Prometheus' `le`); %RP_METRICS_N_BOUNDS for a value over the last
 */
guint
rp_metrics_bucket_of (double seconds)
{
  for (guint i = 0; i < RP_METRICS_N_BOUNDS; i++)
    if (seconds <= rp_metrics_get_bound (i))
      return i;
  return RP_METRICS_N_BOUNDS;
}

static Folder *
lookup_folder (RpMetrics  *self,
               const char *folder)
{
  for (guint i = 0; i < self->folders->len; i++)
    {
      Folder *f = g_ptr_array_index (self->folders, i);

      if (g_str_equal (f->folder, folder))
        return f;
    }
  return NULL;
}

static Folder *
ensure_folder (RpMetrics  *self,
               const char *folder)
{
  Folder *f = lookup_folder (self, folder);

  if (f != NULL)
    return f;
  f = g_new0 (Folder, 1);
  f->folder = g_strdup (folder);
  f->latencies = g_ptr_array_new_with_free_func ((GDestroyNotify) latency_free);
  f->causes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_ptr_array_add (self->folders, f);
  return f;
}

/* A label value as the exposition format escapes it: \\, \" and \n. */
static void
append_label (GString    *out,
              const char *name,
              const char *value)
{
  if (out->len > 0)
    g_string_append_c (out, ',');
  g_string_append_printf (out, "%s=\"", name);
  for (const char *p = value ? value : "unknown"; *p != '\0'; p++)
    {
      if (*p == '\\' || *p == '"')
        g_string_append_c (out, '\\');
      if (*p == '\n')
        g_string_append (out, "\\n");
      else
        g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/* The disk's model from sysfs (`/sys/block/sda/device/model`, as lsblk
 * shows it); %NULL for a disk without one (loop, md, dm). */
static char *
read_device_model (const char *whole_disk)
{
  g_autofree char *path = NULL;
  char *model = NULL;

  if (whole_disk == NULL || strchr (whole_disk, '/') != NULL)
    return NULL;
  path = g_build_filename ("/sys/block", whole_disk, "device", "model", NULL);
  if (!g_file_get_contents (path, &model, NULL, NULL))
    return NULL;
  g_strstrip (model);
  if (*model == '\0')
    g_clear_pointer (&model, g_free);
  return model;
}

/**
 * rp_metrics_begin_session:
 * @folder: the monitored folder as given
 * @sysinfo: the new session's snapshot: the labels (file system, journal
 *   mode, scheduler, device model from sysfs, kernel release)
 *
 * A new session of @folder begins: its series start empty, so the
 * harvest starts over; the counters go on. Labels follow the snapshot (a
 * scheduler changed and a SIGHUP give the new one).
 */
void
rp_metrics_begin_session (RpMetrics       *self,
                          const char      *folder,
                          const RpSysinfo *sysinfo)
{
  Folder *f;
  g_autoptr(GString) labels = g_string_new (NULL);
  g_autofree char *model = NULL;
  g_autofree char *journal_mode = NULL;

  g_return_if_fail (self != NULL && folder != NULL && sysinfo != NULL);

  /* The snapshot says "ordered (default)" when the mount options do not
   * name the mode (rp-sysinfo-collect.c): the same mode as "ordered", so
   * one label value, which a PromQL selector can rely on. */
  journal_mode = g_strdup (sysinfo->journal_mode ? sysinfo->journal_mode : "none");
  if (g_str_has_suffix (journal_mode, " (default)"))
    journal_mode[strlen (journal_mode) - strlen (" (default)")] = '\0';

  f = ensure_folder (self, folder);
  model = read_device_model (sysinfo->whole_disk);
  append_label (labels, "folder", folder);
  append_label (labels, "fs", sysinfo->fs_type);
  append_label (labels, "journal_mode", journal_mode);
  append_label (labels, "scheduler", sysinfo->scheduler);
  append_label (labels, "device_model", model);
  append_label (labels, "kernel_release", sysinfo->kernel_release);
  g_free (f->labels);
  f->labels = g_string_free (g_steal_pointer (&labels), FALSE);
  f->up = TRUE;
  f->stalls_harvested = 0;
  for (guint i = 0; i < f->latencies->len; i++)
    ((Latency *) g_ptr_array_index (f->latencies, i))->harvested = 0;
}

/**
 * rp_metrics_set_up:
 * @folder: a monitored folder
 * @up: whether it is measured now (`resprobe_monitor_up`); %FALSE when its
 *   session could not start (the folder removed, say)
 */
void
rp_metrics_set_up (RpMetrics  *self,
                   const char *folder,
                   gboolean    up)
{
  g_return_if_fail (self != NULL && folder != NULL);
  ensure_folder (self, folder)->up = up;
}

/**
 * rp_metrics_add_period:
 *
 * Counts a period the monitor finished (`resprobe_monitor_periods_total`).
 */
void
rp_metrics_add_period (RpMetrics *self)
{
  g_return_if_fail (self != NULL);
  self->periods++;
}

/**
 * rp_metrics_get_periods:
 *
 * Returns: the periods counted by rp_metrics_add_period()
 *   (`resprobe_monitor_periods_total`)
 */
guint64
rp_metrics_get_periods (RpMetrics *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->periods;
}

static Latency *
ensure_latency (Folder     *f,
                const char *series)
{
  Latency *latency;

  for (guint i = 0; i < f->latencies->len; i++)
    {
      latency = g_ptr_array_index (f->latencies, i);
      if (g_str_equal (latency->series, series))
        return latency;
    }
  latency = g_new0 (Latency, 1);
  latency->series = g_strdup (series);
  g_ptr_array_add (f->latencies, latency);
  return latency;
}

/* A series the monitor exports as a histogram: a latency in seconds. */
static gboolean
is_latency (RpSeries *series)
{
  return g_str_has_suffix (rp_series_get_name (series), "_latency") &&
         g_str_equal (rp_series_get_unit (series), "s");
}

static void
harvest_series (Folder   *f,
                RpSeries *series)
{
  Latency *latency = ensure_latency (f, rp_series_get_name (series));
  g_autofree RpPoint *points = NULL;
  guint n = 0;

  points = rp_series_copy_points (series, latency->harvested, &n);
  for (guint i = 0; i < n; i++)
    {
      double v = points[i].v;

      if (!isfinite (v) || v < 0)
        continue;
      latency->buckets[rp_metrics_bucket_of (v)]++;
      latency->count++;
      latency->sum += v;
      for (guint k = 0; k < G_N_ELEMENTS (stall_limits); k++)
        if (v > stall_limits[k])
          latency->stalls[k]++;
    }
  latency->harvested += n;
}

static RpSeries *
lookup_in_session (gpointer    owner,
                   const char *name)
{
  return rp_session_lookup_series (owner, name);
}

static void
harvest_stalls (Folder    *f,
                RpSession *session)
{
  g_autoptr(GPtrArray) stalls = rp_session_get_stalls (session);

  /* Finished stalls only, in start order: a stall that ends later may sort
   * before one already counted, so count by number, not by position. */
  for (guint i = f->stalls_harvested; i < stalls->len; i++)
    {
      RpStall *stall = g_ptr_array_index (stalls, i);
      RpCauseEvidence evidence;
      g_autoptr(GArray) causes = NULL;
      const RpCauseShare *dominant;
      g_autofree char *key = NULL;
      guint64 *count;

      /* The cause the judgement gives it (rp-report-causes.c), by its id:
       * a label that adds up across machines in any language. */
      rp_stall_evidence_from (lookup_in_session, session, rp_session_get_sysinfo (session), stall, &evidence);
      causes = rp_stall_get_causes (stall, &evidence);
      dominant = causes->len > 0 ? &g_array_index (causes, RpCauseShare, 0) : NULL;
      key = g_strdup_printf ("%s\n%s", dominant != NULL ? dominant->site : RP_WAIT_SITE_UNKNOWN,
                             rp_cause_get_id (dominant != NULL ? dominant->cause : RP_CAUSE_UNKNOWN));
      count = g_hash_table_lookup (f->causes, key);

      if (count == NULL)
        {
          count = g_new0 (guint64, 1);
          g_hash_table_insert (f->causes, g_steal_pointer (&key), count);
        }
      (*count)++;
    }
  f->stalls_harvested = MAX (f->stalls_harvested, stalls->len);
}

/**
 * rp_metrics_harvest:
 * @folder: the folder @session measures
 * @session: its current session (begun with rp_metrics_begin_session())
 *
 * Adds what @session measured since the last harvest: every new point of
 * its latency series (name ending in `_latency`, unit s) to that
 * series' histogram and stall counters, every new finished stall to the
 * count of its dominant wait site.
 */
void
rp_metrics_harvest (RpMetrics  *self,
                    const char *folder,
                    RpSession  *session)
{
  Folder *f;
  g_autoptr(GPtrArray) series = NULL;

  g_return_if_fail (self != NULL && folder != NULL && RP_IS_SESSION (session));

  f = ensure_folder (self, folder);
  series = rp_session_get_series (session);
  for (guint i = 0; i < series->len; i++)
    if (is_latency (g_ptr_array_index (series, i)))
      harvest_series (f, g_ptr_array_index (series, i));
  harvest_stalls (f, session);
}

static void
append_double (GString *out,
               double   value)
{
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  if (isinf (value))
    g_string_append (out, value > 0 ? "+Inf" : "-Inf");
  else
    g_string_append (out, g_ascii_dtostr (number, sizeof number, value));
}

static void
append_histogram (GString       *out,
                  const Folder  *f,
                  const Latency *latency)
{
  guint64 cumulative = 0;

  for (guint i = 0; i <= RP_METRICS_N_BOUNDS; i++)
    {
      char le[G_ASCII_DTOSTR_BUF_SIZE] = "+Inf";

      /* The bounds have 4 significant digits: "1e-05", "1.778e-05". */
      if (i < RP_METRICS_N_BOUNDS)
        g_ascii_formatd (le, sizeof le, "%.4g", rp_metrics_get_bound (i));
      cumulative += latency->buckets[i];
      g_string_append_printf (out, "resprobe_%s_seconds_bucket{%s,le=\"%s\"} %" G_GUINT64_FORMAT "\n",
                              latency->series, f->labels, le, cumulative);
    }
  g_string_append_printf (out, "resprobe_%s_seconds_sum{%s} ", latency->series, f->labels);
  append_double (out, latency->sum);
  g_string_append_printf (out, "\nresprobe_%s_seconds_count{%s} %" G_GUINT64_FORMAT "\n",
                          latency->series, f->labels, latency->count);
}

/* Every folder's histogram of @series, under one HELP and TYPE. */
static void
append_histograms (GString    *out,
                   RpMetrics  *self,
                   const char *series)
{
  g_string_append_printf (out, "# HELP resprobe_%s_seconds Latency of the %s probe's calls (series %s), seconds.\n"
                          "# TYPE resprobe_%s_seconds histogram\n", series, series, series, series);
  for (guint i = 0; i < self->folders->len; i++)
    {
      const Folder *f = g_ptr_array_index (self->folders, i);

      for (guint k = 0; k < f->latencies->len; k++)
        {
          const Latency *latency = g_ptr_array_index (f->latencies, k);

          if (f->labels != NULL && g_str_equal (latency->series, series))
            append_histogram (out, f, latency);
        }
    }
}

static void
append_stalls (GString   *out,
               RpMetrics *self)
{
  g_string_append (out, "# HELP resprobe_stalls_total Calls of a latency series over 0.1, 1 and 10 s (threshold_seconds).\n"
                        "# TYPE resprobe_stalls_total counter\n");
  for (guint i = 0; i < self->folders->len; i++)
    {
      const Folder *f = g_ptr_array_index (self->folders, i);

      for (guint k = 0; k < f->latencies->len && f->labels != NULL; k++)
        {
          const Latency *latency = g_ptr_array_index (f->latencies, k);

          for (guint s = 0; s < G_N_ELEMENTS (stall_limits); s++)
            g_string_append_printf (out, "resprobe_stalls_total{%s,series=\"%s\",threshold_seconds=\"%s\"} %"
                                    G_GUINT64_FORMAT "\n", f->labels, latency->series,
                                    stall_limit_labels[s], latency->stalls[s]);
        }
    }
}

static void
append_causes (GString   *out,
               RpMetrics *self)
{
  g_string_append (out, "# HELP resprobe_stall_causes_total Stalls (calls over 0.1 s) by the wait site where they spent the most time, and its cause.\n"
                        "# TYPE resprobe_stall_causes_total counter\n");
  for (guint i = 0; i < self->folders->len; i++)
    {
      const Folder *f = g_ptr_array_index (self->folders, i);
      g_autoptr(GList) keys = g_list_sort (g_hash_table_get_keys (f->causes), (GCompareFunc) strcmp);

      for (GList *l = keys; l != NULL && f->labels != NULL; l = l->next)
        {
          g_auto(GStrv) parts = g_strsplit (l->data, "\n", 2);
          g_autoptr(GString) labels = g_string_new (NULL);
          const guint64 *count = g_hash_table_lookup (f->causes, l->data);

          append_label (labels, "site", parts[0]);
          append_label (labels, "cause", parts[1]);
          g_string_append_printf (out, "resprobe_stall_causes_total{%s,%s} %" G_GUINT64_FORMAT "\n",
                                  f->labels, labels->str, *count);
        }
    }
}

/**
 * rp_metrics_to_text:
 *
 * The exposition in Prometheus' text format 0.0.4 (what `/metrics` serves
 * and the textfile holds; `promtool check metrics` passes it): a
 * histogram per latency series, stall counters, stall causes, whether each
 * folder is measured, the periods finished.
 *
 * Returns: (transfer full): the text, ending with a newline
 */
char *
rp_metrics_to_text (RpMetrics *self)
{
  GString *out = g_string_new (NULL);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  g_return_val_if_fail (self != NULL, NULL);

  g_string_append (out, "# HELP resprobe_monitor_up Whether the folder is being measured (1), or its session could not start or the folder is gone (0).\n"
                        "# TYPE resprobe_monitor_up gauge\n");
  for (guint i = 0; i < self->folders->len; i++)
    {
      const Folder *f = g_ptr_array_index (self->folders, i);
      g_autoptr(GString) labels = g_string_new (NULL);

      append_label (labels, "folder", f->folder);
      g_string_append_printf (out, "resprobe_monitor_up{%s} %d\n", labels->str, f->up ? 1 : 0);
      for (guint k = 0; k < f->latencies->len; k++)
        {
          const Latency *latency = g_ptr_array_index (f->latencies, k);

          if (!g_ptr_array_find_with_equal_func (names, latency->series, g_str_equal, NULL))
            g_ptr_array_add (names, latency->series);
        }
    }
  g_string_append_printf (out, "# HELP resprobe_monitor_periods_total Periods (reports) the monitor finished.\n"
                          "# TYPE resprobe_monitor_periods_total counter\n"
                          "resprobe_monitor_periods_total %" G_GUINT64_FORMAT "\n", self->periods);
  for (guint i = 0; i < names->len; i++)
    append_histograms (out, self, g_ptr_array_index (names, i));
  if (names->len > 0)
    append_stalls (out, self);
  append_causes (out, self);
  return g_string_free (out, FALSE);
}
