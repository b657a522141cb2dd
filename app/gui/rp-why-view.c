/* rp-why-view.c: the "Why" section: the dominant cause of a run's stalls and its worst stalls. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-report-stalls.h"
#include "rp-units.h"
#include "rp-why-view.h"

/* The sites a row's subtitle names: the rest is in its breakdown. */
#define SUBTITLE_SITES 2

struct _RpWhyView
{
  AdwPreferencesGroup parent_instance;

  GPtrArray *rows;       /* (element-type AdwExpanderRow) shown now */
  char      *shown;      /* what they show, in short (signature()) */
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

/**
 * rp_why_items_collect:
 * @report: (nullable): the finished run's report, for what ran meanwhile;
 *   %NULL while the run goes on
 * @stalls: (element-type RpStall): the run's stalls (rp_report_get_stalls()
 *   or rp_session_get_stalls()), left as they are
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
  g_autoptr(GPtrArray) longest = g_ptr_array_new ();
  GPtrArray *items = g_ptr_array_new_with_free_func (why_item_free);

  g_return_val_if_fail (report == NULL || RP_IS_REPORT (report), items);

  if (stalls == NULL)
    return items;
  for (guint i = 0; i < stalls->len; i++)
    g_ptr_array_add (longest, stalls->pdata[i]);
  g_ptr_array_sort (longest, compare_duration_desc);
  for (guint i = 0; i < MIN (longest->len, max_stalls); i++)
    {
      RpWhyItem *item = g_new0 (RpWhyItem, 1);

      item->stall = rp_stall_copy (longest->pdata[i]);
      rp_stall_sort (item->stall);
      if (report != NULL)
        item->meanwhile = rp_report_stall_meanwhile (report, item->stall);
      g_ptr_array_add (items, item);
    }
  return items;
}

/* "(100 %)" wraps as "(100" and "%)" in a narrow sidebar: a no-break space
 * keeps a share on one line. */
static char *
keep_shares_whole (char *text)
{
  GString *out = g_string_new (text);

  g_free (text);
  g_string_replace (out, " %", "\u00a0%", 0);
  return g_string_free (out, FALSE);
}

static GtkWidget *
make_detail_row (const char *title,
                 const char *subtitle)
{
  GtkWidget *row = adw_action_row_new ();

  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  gtk_widget_add_css_class (row, "property");
  return row;
}

static GtkWidget *
make_stall_row (const RpWhyItem *item)
{
  const RpStall *stall = item->stall;
  GtkWidget *row = adw_expander_row_new ();
  g_autofree char *duration = rp_format_latency (stall->duration);
  g_autofree char *title = NULL;
  g_autofree char *top = keep_shares_whole (rp_report_stall_breakdown_text (stall, SUBTITLE_SITES));
  g_autofree char *all = keep_shares_whole (rp_report_stall_breakdown_text (stall, 0));

  /* TRANSLATORS: a row of the Why section: the call, how long it took and
   * when it began, seconds since the start: "fsync took 9.85 s at 12.3 s" */
  title = g_strdup_printf (_("%s took %s at %.1f s"), rp_stall_call_name (stall->series), duration,
                           stall->start);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_expander_row_set_subtitle (ADW_EXPANDER_ROW (row), top);

  /* TRANSLATORS: in a stall's expanded row: where all of its time went */
  adw_expander_row_add_row (ADW_EXPANDER_ROW (row), make_detail_row (_("Where the time went"), all));
  if (item->meanwhile != NULL)
    for (guint i = 0; i + 1 < item->meanwhile->len; i += 2)
      adw_expander_row_add_row (ADW_EXPANDER_ROW (row),
                                make_detail_row (item->meanwhile->pdata[i], item->meanwhile->pdata[i + 1]));
  else
    adw_expander_row_add_row (ADW_EXPANDER_ROW (row),
                              /* TRANSLATORS: in a stall's expanded row while the run goes on */
                              make_detail_row (_("Meanwhile"), _("Journal commits, device latency and dirty memory show once the run has ended")));
  return row;
}

/* What a refresh would show, in short: an unchanged section (most refreshes
 * of a run, every second or so) keeps its rows, their focus and state. */
static char *
signature (const char *cause,
           GPtrArray  *items)
{
  GString *out = g_string_new (cause);

  for (guint i = 0; items != NULL && i < items->len; i++)
    {
      const RpWhyItem *item = items->pdata[i];

      g_string_append_printf (out, "|%s@%.6f+%.6f/%u/%d", item->stall->series, item->stall->start,
                              item->stall->duration, item->stall->breakdown->len, item->meanwhile != NULL);
    }
  return g_string_free (out, FALSE);
}

/**
 * rp_why_view_show:
 * @cause: (nullable): the dominant cause in plain words
 *   (rp_report_get_stall_cause()), %NULL when not known yet
 * @items: (nullable) (element-type RpWhyItem): from rp_why_items_collect()
 *
 * Shows the cause and one expandable row per stall; the section hides
 * itself when there is no stall.
 */
void
rp_why_view_show (RpWhyView  *self,
                  const char *cause,
                  GPtrArray  *items)
{
  guint n = items != NULL ? items->len : 0;

  g_return_if_fail (RP_IS_WHY_VIEW (self));

  {
    g_autofree char *now = signature (cause, items);

    if (g_strcmp0 (now, self->shown) == 0)
      return;
    g_free (self->shown);
    self->shown = g_steal_pointer (&now);
  }

  /* Rebuilt each refresh: at most RP_WHY_MAX_STALLS rows, every few seconds.
   * A row the user expanded stays expanded if it is the same stall. */
  {
    g_autoptr(GHashTable) expanded = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

    for (guint i = 0; i < self->rows->len; i++)
      {
        GtkWidget *row = self->rows->pdata[i];

        if (adw_expander_row_get_expanded (ADW_EXPANDER_ROW (row)))
          g_hash_table_add (expanded, g_strdup (g_object_get_data (G_OBJECT (row), "rp-stall-key")));
        adw_preferences_group_remove (ADW_PREFERENCES_GROUP (self), row);
      }
    g_ptr_array_set_size (self->rows, 0);

    for (guint i = 0; i < n; i++)
      {
        const RpWhyItem *item = items->pdata[i];
        GtkWidget *row = make_stall_row (item);
        char *key = g_strdup_printf ("%s@%.6f", item->stall->series, item->stall->start);

        g_object_set_data_full (G_OBJECT (row), "rp-stall-key", key, g_free);
        adw_expander_row_set_expanded (ADW_EXPANDER_ROW (row), g_hash_table_contains (expanded, key));
        adw_preferences_group_add (ADW_PREFERENCES_GROUP (self), row);
        g_ptr_array_add (self->rows, row);
      }
  }
  adw_preferences_group_set_description (ADW_PREFERENCES_GROUP (self),
                                         cause != NULL ? cause
                                                       /* TRANSLATORS: the Why section's description while the run goes on */
                                                       : _("The longest calls so far and where they waited"));
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
rp_why_view_finalize (GObject *object)
{
  RpWhyView *self = RP_WHY_VIEW (object);

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->shown, g_free);
  G_OBJECT_CLASS (rp_why_view_parent_class)->finalize (object);
}

static void
rp_why_view_class_init (RpWhyViewClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rp_why_view_finalize;
}

static void
rp_why_view_init (RpWhyView *self)
{
  self->rows = g_ptr_array_new ();
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
