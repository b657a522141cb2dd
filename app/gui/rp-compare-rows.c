/* rp-compare-rows.c: the comparison's figures, intervals and significance as rows of a GtkGrid. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <math.h>

#include "rp-compare-rows.h"

/**
 * rp_compare_change_css_class:
 * @change: how a figure stands against the baseline's
 *
 * Colours only a significant change with a direction: a difference within
 * noise is not better or worse, however large it looks, so it stays dim.
 *
 * Returns: (transfer none): "success", "error" or "dim-label"
 */
const char *
rp_compare_change_css_class (RpChange change)
{
  switch (change)
    {
    case RP_CHANGE_BETTER:
      return "success";
    case RP_CHANGE_WORSE:
      return "error";
    case RP_CHANGE_NONE:
    case RP_CHANGE_NOISE:
    case RP_CHANGE_DIFFERENT:
    default:
      return "dim-label";
    }
}

/* What the mark means, for the tooltip of the change. */
static char *
change_tooltip (const RpCompareRow *row,
                guint               group)
{
  switch (row->change[group])
    {
    case RP_CHANGE_NOISE:
      if (!isnan (row->p[group]))
        return g_strdup_printf (_("Within noise: the latency samples do not differ significantly "
                                  "(Mann–Whitney U test, Holm-adjusted p = %.3f)"), row->p[group]);
      /* xgettext:no-c-format */
      return g_strdup (_("Within noise: the 95 % intervals overlap"));
    case RP_CHANGE_BETTER:
    case RP_CHANGE_WORSE:
    case RP_CHANGE_DIFFERENT:
      if (!isnan (row->p[group]))
        return g_strdup_printf (_("Significant: Mann–Whitney U test of the latency samples, "
                                  "Holm-adjusted p = %.3f"), row->p[group]);
      /* xgettext:no-c-format */
      return g_strdup (_("Significant: the 95 % intervals do not overlap"));
    case RP_CHANGE_NONE:
    default:
      return NULL;
    }
}

static GtkWidget *
new_caption (const char *text,
             const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "caption");
  gtk_widget_add_css_class (label, "numeric");
  gtk_widget_add_css_class (label, css_class);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  return label;
}

/**
 * rp_compare_rows_new_cell:
 * @row: a row of a comparison
 * @group: its column
 *
 * A cell: the figure, under it its 95 % interval, and for every column but
 * the first the change against it, coloured only where significant
 * (rp_compare_change_css_class()), with a tooltip saying why.
 *
 * Returns: (transfer floating): the cell
 */
GtkWidget *
rp_compare_rows_new_cell (const RpCompareRow *row,
                          guint               group)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *line = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  g_autofree char *value = rp_compare_row_format_value (row, group);
  g_autofree char *interval = rp_compare_row_format_interval (row, group);
  g_autofree char *change = rp_compare_row_format_change (row, group);
  GtkWidget *label = gtk_label_new (isnan (row->value[group]) ? "–" : value);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "numeric");
  gtk_box_append (GTK_BOX (line), label);
  if (change != NULL)
    {
      GtkWidget *change_label = new_caption (change, rp_compare_change_css_class (row->change[group]));
      g_autofree char *tooltip = change_tooltip (row, group);

      gtk_widget_set_tooltip_text (change_label, tooltip);
      gtk_box_append (GTK_BOX (line), change_label);
    }
  gtk_box_append (GTK_BOX (box), line);
  if (interval != NULL)
    {
      GtkWidget *interval_label = new_caption (interval, "dim-label");

      /* TRANSLATORS: tooltip of the interval under a figure of the comparison
       * xgettext:no-c-format */
      gtk_widget_set_tooltip_text (interval_label, _("95 % interval: bootstrap over the runs of this column, "
                                                     "or over the samples of its one run"));
      gtk_box_append (GTK_BOX (box), interval_label);
    }
  gtk_widget_add_css_class (box, "rp-cell");
  return box;
}

/**
 * rp_compare_rows_attach:
 * @grid: the results table: column 0 labels, column g + 1 group g
 * @comparison: what to show
 * @row: the first grid row to fill
 *
 * Attaches a grid row for every row of @comparison.
 *
 * Returns: the grid row after the last one attached
 */
int
rp_compare_rows_attach (GtkGrid            *grid,
                        const RpComparison *comparison,
                        int                 row)
{
  g_return_val_if_fail (GTK_IS_GRID (grid) && comparison != NULL, row);

  for (guint i = 0; i < comparison->rows->len; i++, row++)
    {
      const RpCompareRow *metric = g_ptr_array_index (comparison->rows, i);
      GtkWidget *label = gtk_label_new (metric->label);

      gtk_label_set_xalign (GTK_LABEL (label), 0.0);
      gtk_label_set_yalign (GTK_LABEL (label), 0.0);
      /* Between words: at 360 px "Gerät: Schreiben schlimmster" takes two
       * lines rather than the width of a run's column (issue 21). */
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
      gtk_widget_add_css_class (label, "rp-cell");
      gtk_grid_attach (grid, label, 0, row, 1, 1);
      for (guint g = 0; g < comparison->n_groups; g++)
        gtk_grid_attach (grid, rp_compare_rows_new_cell (metric, g), g + 1, row, 1, 1);
    }
  return row;
}
