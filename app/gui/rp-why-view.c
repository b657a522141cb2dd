/* rp-why-view.c: the "Why" section: the dominant cause of a run's stalls and its worst stalls. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-report-stalls.h"
#include "rp-session.h"
#include "rp-units.h"
#include "rp-why-view.h"

/* The causes a row's subtitle names: the rest is in its breakdown. */
#define SUBTITLE_SITES 2

struct _RpWhyView
{
  AdwPreferencesGroup parent_instance;

  /* (element-type AdwExpanderRow) (owned) shown now, in order. References
   * of our own: a row outlives its removal from the group while it is
   * moved, and a pointer here never dangles after dispose. */
  GPtrArray  *rows;
  GHashTable *by_key;    /* "series@start" → its row (owned) */
  gboolean    disposed;
};

G_DEFINE_FINAL_TYPE (RpWhyView, rp_why_view, ADW_TYPE_PREFERENCES_GROUP)

static void
why_item_free (gpointer data)
{
  RpWhyItem *item = data;

  g_clear_pointer (&item->stall, rp_stall_free);
  g_clear_pointer (&item->meanwhile, g_ptr_array_unref);
  g_free (item);
}

static int
compare_duration_desc (gconstpointer a,
                       gconstpointer b)
{
  const RpStall *x = *(const RpStall **) a;
  const RpStall *y = *(const RpStall **) b;

  return (x->duration < y->duration) - (x->duration > y->duration);
}

/* The @max_stalls longest of @stalls, copied, each breakdown sorted. */
static GPtrArray *
collect_longest (GPtrArray *stalls,
                 guint      max_stalls)
{
  g_autoptr(GPtrArray) longest = g_ptr_array_new ();
  GPtrArray *items = g_ptr_array_new_with_free_func (why_item_free);

  for (guint i = 0; stalls != NULL && i < stalls->len; i++)
    g_ptr_array_add (longest, stalls->pdata[i]);
  g_ptr_array_sort (longest, compare_duration_desc);
  for (guint i = 0; i < MIN (longest->len, max_stalls); i++)
    {
      RpWhyItem *item = g_new0 (RpWhyItem, 1);

      item->stall = rp_stall_copy (longest->pdata[i]);
      rp_stall_sort (item->stall);
      g_ptr_array_add (items, item);
    }
  return items;
}

/**
 * rp_why_items_collect:
 * @report: (nullable): the finished run's report, for what ran meanwhile;
 *   %NULL: none
 * @stalls: (element-type RpStall): the run's stalls (rp_report_get_stalls()),
 *   left as they are
 * @max_stalls: at most this many, the longest
 *
 * What the section shows, made off the main thread (what ran meanwhile
 * reads the report's series): the longest stalls first, each copied with
 * its breakdown sorted by seconds.
 *
 * Returns: (transfer full) (element-type RpWhyItem): the rows, possibly empty
 */
GPtrArray *
rp_why_items_collect (RpReport  *report,
                      GPtrArray *stalls,
                      guint      max_stalls)
{
  GPtrArray *items;

  g_return_val_if_fail (report == NULL || RP_IS_REPORT (report), g_ptr_array_new_with_free_func (why_item_free));

  items = collect_longest (stalls, max_stalls);
  for (guint i = 0; report != NULL && i < items->len; i++)
    {
      RpWhyItem *item = items->pdata[i];

      item->meanwhile = rp_report_stall_meanwhile (report, item->stall);
    }
  for (guint i = 0; i < items->len; i++)
    {
      RpWhyItem *item = items->pdata[i];

      if (report != NULL)
        rp_report_stall_evidence (report, item->stall, &item->evidence);
      else
        rp_stall_evidence_from (NULL, NULL, NULL, item->stall, &item->evidence);
    }
  return items;
}

static RpSeries *
lookup_in_session (gpointer    owner,
                   const char *name)
{
  return rp_session_lookup_series (owner, name);
}

static GPtrArray *
copy_strings (GPtrArray *strings)
{
  GPtrArray *copy = g_ptr_array_new_full (strings->len, g_free);

  for (guint i = 0; i < strings->len; i++)
    g_ptr_array_add (copy, g_strdup (strings->pdata[i]));
  return copy;
}

/**
 * rp_why_items_collect_live:
 * @session: a running session
 * @settled: (element-type utf8 GPtrArray): what ran meanwhile for stalls
 *   that are over, by "series@start", kept by the caller from refresh to
 *   refresh (and filled here): a stall's series read once after it settled,
 *   not every second
 * @max_stalls: at most this many, the longest
 *
 * The live section, on the refresh's worker thread: the longest stalls so
 * far, finished (rp_session_get_stalls()) and in flight
 * (rp_session_get_in_flight(), at least %RP_STALL_MIN_SECONDS old), each
 * with what ran meanwhile as far as the session's series say it now. A
 * stall that ended over %RP_WHY_SETTLE_SECONDS ago has all the samples it
 * will get: its lines are computed once and then taken from @settled.
 *
 * Returns: (transfer full) (element-type RpWhyItem): the rows, possibly empty
 */
GPtrArray *
rp_why_items_collect_live (RpSession  *session,
                           GHashTable *settled,
                           guint       max_stalls)
{
  g_autoptr(GPtrArray) stalls = NULL;
  g_autoptr(GPtrArray) flying = NULL;
  g_autoptr(GHashTable) in_flight = g_hash_table_new (g_direct_hash, g_direct_equal);
  double now;
  GPtrArray *items;

  g_return_val_if_fail (RP_IS_SESSION (session), g_ptr_array_new_with_free_func (why_item_free));
  g_return_val_if_fail (settled != NULL, g_ptr_array_new_with_free_func (why_item_free));

  now = rp_session_get_elapsed (session);
  stalls = rp_session_get_stalls (session);
  flying = rp_session_get_in_flight (session, RP_STALL_MIN_SECONDS);
  for (guint i = 0; i < flying->len; i++)
    {
      g_ptr_array_add (stalls, g_steal_pointer (&flying->pdata[i]));
      g_hash_table_add (in_flight, stalls->pdata[stalls->len - 1]);
    }
  g_ptr_array_set_size (flying, 0);
  items = collect_longest (stalls, max_stalls);
  for (guint i = 0; i < items->len; i++)
    {
      RpWhyItem *item = items->pdata[i];
      g_autofree char *key = g_strdup_printf ("%s@%.6f", item->stall->series, item->stall->start);
      GPtrArray *kept = g_hash_table_lookup (settled, key);

      item->in_flight = FALSE;
      rp_stall_evidence_from (lookup_in_session, session, rp_session_get_sysinfo (session), item->stall,
                              &item->evidence);
      for (guint k = 0; k < stalls->len; k++)
        if (g_hash_table_contains (in_flight, stalls->pdata[k]) &&
            g_str_equal (((RpStall *) stalls->pdata[k])->series, item->stall->series) &&
            ((RpStall *) stalls->pdata[k])->start == item->stall->start)
          item->in_flight = TRUE;
      if (kept != NULL)
        {
          item->meanwhile = copy_strings (kept);
          continue;
        }
      item->meanwhile = rp_stall_meanwhile_from (lookup_in_session, session, item->stall);
      if (!item->in_flight && now - (item->stall->start + item->stall->duration) > RP_WHY_SETTLE_SECONDS)
        g_hash_table_insert (settled, g_steal_pointer (&key), copy_strings (item->meanwhile));
    }
  return items;
}

/* "(100 %)" wraps as "(100" and "%)" in a narrow sidebar, "9.85 s" as
 * "9.85" and "s": a no-break space keeps a figure on one line. */
static char *
keep_shares_whole (char *text)
{
  char *whole = rp_gui_keep_units (text);

  g_free (text);
  return whole;
}

static GtkWidget *
make_detail_row (void)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  gtk_widget_add_css_class (row, "property");
  return row;
}

/* A stall's row: its title and top sites, and in its expansion where all
 * of its time went and what ran meanwhile. Its detail rows are kept (in
 * "rp-details") so that an update sets their texts instead of adding rows. */
static GtkWidget *
make_stall_row (const char *key)
{
  GtkWidget *row = adw_expander_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  g_object_set_data_full (G_OBJECT (row), "rp-stall-key", g_strdup (key), g_free);
  g_object_set_data_full (G_OBJECT (row), "rp-details", g_ptr_array_new (), (GDestroyNotify) g_ptr_array_unref);
  return row;
}

/* The texts of @item's row: title, subtitle, then label/value pairs of its
 * detail rows. */
static GPtrArray *
describe_item (const RpWhyItem *item)
{
  const RpStall *stall = item->stall;
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *duration = rp_format_latency (stall->duration);

  if (item->in_flight)
    /* TRANSLATORS: a row of the Why section for a call that has not
     * returned yet: "fsync in flight for 8.20 s since 12.3 s" */
    g_ptr_array_add (texts, keep_shares_whole (g_strdup_printf (_("%s in flight for %s since %.1f s"),
                                                                rp_stall_call_name (stall->series), duration,
                                                                stall->start)));
  else
    /* TRANSLATORS: a row of the Why section: the call, how long it took and
     * when it began, seconds since the start: "fsync took 9.85 s at 12.3 s" */
    g_ptr_array_add (texts, keep_shares_whole (g_strdup_printf (_("%s took %s at %.1f s"),
                                                                rp_stall_call_name (stall->series),
                                                                duration, stall->start)));
  /* The causes in plain words; the kernel's sites beside them in the
   * expansion, for engineers. */
  g_ptr_array_add (texts, keep_shares_whole (rp_stall_breakdown_text (stall, &item->evidence, SUBTITLE_SITES, FALSE)));
  /* TRANSLATORS: in a stall's expanded row: where all of its time went */
  g_ptr_array_add (texts, g_strdup (_("Where the time went")));
  g_ptr_array_add (texts, keep_shares_whole (rp_stall_breakdown_text (stall, &item->evidence, 0, TRUE)));
  if (item->meanwhile != NULL && item->meanwhile->len >= 2)
    for (guint i = 0; i + 1 < item->meanwhile->len; i += 2)
      {
        g_ptr_array_add (texts, g_strdup (item->meanwhile->pdata[i]));
        g_ptr_array_add (texts, keep_shares_whole (g_strdup (item->meanwhile->pdata[i + 1])));
      }
  else
    {
      /* TRANSLATORS: in a stall's expanded row when no source said what
       * the system did meanwhile (yet) */
      g_ptr_array_add (texts, g_strdup (_("Meanwhile")));
      g_ptr_array_add (texts, g_strdup (item->meanwhile != NULL
                                        /* TRANSLATORS: in a stall's expanded row */
                                        ? _("No journal, device or dirty-memory figures were recorded")
                                        /* TRANSLATORS: in a stall's expanded row while the run goes on */
                                        : _("Journal commits, device latency and dirty memory show as they are measured")));
    }
  return texts;
}

/* Sets @row's texts; a row whose texts did not change is left alone (its
 * labels are not set again: no resize, no redraw). */
static void
update_stall_row (GtkWidget       *row,
                  const RpWhyItem *item)
{
  g_autoptr(GPtrArray) texts = describe_item (item);
  GPtrArray *details = g_object_get_data (G_OBJECT (row), "rp-details");
  guint n_details = (texts->len - 2) / 2;

  if (g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), texts->pdata[0]) != 0)
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), texts->pdata[0]);
  if (g_strcmp0 (adw_expander_row_get_subtitle (ADW_EXPANDER_ROW (row)), texts->pdata[1]) != 0)
    adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), texts->pdata[1]);
  while (details->len < n_details)
    {
      GtkWidget *detail = make_detail_row ();

      adw_expander_row_add_row (ADW_EXPANDER_ROW (row), detail);
      g_ptr_array_add (details, detail);
    }
  while (details->len > n_details)
    {
      adw_expander_row_remove (ADW_EXPANDER_ROW (row), details->pdata[details->len - 1]);
      g_ptr_array_set_size (details, details->len - 1);
    }
  for (guint i = 0; i < n_details; i++)
    {
      AdwPreferencesRow *detail = details->pdata[i];
      const char *title = texts->pdata[2 + 2 * i];
      const char *subtitle = texts->pdata[3 + 2 * i];

      if (g_strcmp0 (adw_preferences_row_get_title (detail), title) != 0)
        adw_preferences_row_set_title (detail, title);
      if (g_strcmp0 (adw_action_row_get_subtitle (ADW_ACTION_ROW (detail)), subtitle) != 0)
        adw_action_row_set_subtitle (ADW_ACTION_ROW (detail), subtitle);
    }
}

static char *
item_key (const RpWhyItem *item)
{
  return g_strdup_printf ("%s@%.6f", item->stall->series, item->stall->start);
}

/**
 * rp_why_view_show:
 * @cause: (nullable): the dominant cause in plain words
 *   (rp_report_get_stall_cause()), %NULL when not known yet
 * @items: (nullable) (element-type RpWhyItem): from rp_why_items_collect()
 *   or rp_why_items_collect_live()
 *
 * Shows the cause and one expandable row per stall, the longest first; the
 * section hides itself when there is no stall. Called on every refresh of
 * a run (once a second): a stall that was shown keeps its row (expanded or
 * not, focused or not) and only its changed texts are set; a new stall
 * gets a row; the order follows the durations. Nothing is rebuilt per
 * refresh, and nothing is done once the section is disposed.
 */
void
rp_why_view_show (RpWhyView  *self,
                  const char *cause,
                  GPtrArray  *items)
{
  guint n = items != NULL ? items->len : 0;
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean same_order;

  g_return_if_fail (RP_IS_WHY_VIEW (self));

  /* A refresh that ends after the window began to go: no widget work. */
  if (self->disposed)
    return;

  for (guint i = 0; i < n; i++)
    {
      const RpWhyItem *item = items->pdata[i];
      g_autofree char *key = item_key (item);
      GtkWidget *row = g_hash_table_lookup (self->by_key, key);

      if (row == NULL)
        {
          row = make_stall_row (key);
          g_hash_table_insert (self->by_key, g_strdup (key), g_object_ref_sink (row));
        }
      update_stall_row (row, item);
      g_ptr_array_add (rows, g_object_ref (row));
    }

  /* Rows of stalls no longer among the longest go. */
  same_order = rows->len == self->rows->len;
  for (guint i = 0; same_order && i < rows->len; i++)
    same_order = rows->pdata[i] == self->rows->pdata[i];
  if (!same_order)
    {
      for (guint i = 0; i < self->rows->len; i++)
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self), self->rows->pdata[i]);
      {
        GHashTableIter iter;
        gpointer row;

        g_hash_table_iter_init (&iter, self->by_key);
        while (g_hash_table_iter_next (&iter, NULL, &row))
          if (!g_ptr_array_find (rows, row, NULL))
            g_hash_table_iter_remove (&iter);
      }
      /* Re-added in the new order (libadwaita 1.2 has no insert at a
       * position); the rows themselves, their expansion included, stay. */
      for (guint i = 0; i < rows->len; i++)
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), rows->pdata[i]);
      g_ptr_array_unref (self->rows);
      self->rows = g_steal_pointer (&rows);
    }

  {
    /* The cause sentence keeps its figures with their units, as the rows
     * do ("…answered in 206⏎µs per request" at 360 px, issue 32). */
    g_autofree char *description = cause != NULL ? rp_gui_keep_units (cause)
                                                  /* TRANSLATORS: the Why section's description while the run goes on */
                                                  : g_strdup (_("The longest calls so far and where they waited"));

    if (g_strcmp0 (adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (self)), description) != 0)
      adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self), description);
  }
  gtk_widget_set_visible (GTK_WIDGET (self), n > 0);
}

/**
 * rp_why_view_get_n_rows:
 *
 * Returns: how many stalls the section lists now
 */
guint
rp_why_view_get_n_rows (RpWhyView *self)
{
  g_return_val_if_fail (RP_IS_WHY_VIEW (self), 0);
  return self->rows->len;
}

static void
rp_why_view_dispose (GObject *object)
{
  RpWhyView *self = RP_WHY_VIEW (object);

  self->disposed = TRUE;
  G_OBJECT_CLASS (rp_why_view_parent_class)->dispose (object);
  /* After the group has let its children go. */
  if (self->rows != NULL)
    g_ptr_array_set_size (self->rows, 0);
  if (self->by_key != NULL)
    g_hash_table_remove_all (self->by_key);
}

static void
rp_why_view_finalize (GObject *object)
{
  RpWhyView *self = RP_WHY_VIEW (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->by_key, g_hash_table_unref);
  G_OBJECT_CLASS (rp_why_view_parent_class)->finalize (object);
}

static void
rp_why_view_class_init (RpWhyViewClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = rp_why_view_dispose;
  G_OBJECT_CLASS (klass)->finalize = rp_why_view_finalize;
}

static void
rp_why_view_init (RpWhyView *self)
{
  self->rows = g_ptr_array_new_with_free_func (g_object_unref);
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  /* TRANSLATORS: the title of the section that explains the stalls */
  adw_preferences_group_set_title (ADW_PREFERENCES_GROUP (self), _("Why"));
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
}

/**
 * rp_why_view_new:
 *
 * Returns: (transfer floating): an empty, hidden section
 */
GtkWidget *
rp_why_view_new (void)
{
  return g_object_new (RP_TYPE_WHY_VIEW, NULL);
}
