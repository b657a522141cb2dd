/* test-gui-verdict.c: the verdict card keeps the charts in place and says one sentence, under a real (X) display. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "rp-gui-fixture.h"
#include "rp-gui-util.h"
#include "rp-stall-report.h"
#include "rp-summary-view.h"
#include "rp-window.h"
#include "rp-window-private.h"

static GtkApplication *application;

typedef struct {
  RpWindow *window;
  int       width;
  int       height;
} Shown;

/* The report is shown, the window laid out and the first chart placed. */
static gboolean
laid_out (gpointer data)
{
  Shown *shown = data;

  return rp_window_get_report (shown->window) != NULL && !rp_window_get_busy (shown->window) &&
         gtk_widget_get_width (GTK_WIDGET (shown->window)) > 0 &&
         shown->window->views->len > 0 &&
         gtk_widget_get_height (shown->window->views->pdata[0]) > 0;
}

/* Where the first chart's top is in the window, pixels. */
static double
first_chart_y (RpWindow *window)
{
  graphene_point_t point;

  g_assert_true (gtk_widget_compute_point (window->views->pdata[0], GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (0, 0), &point));
  return point.y;
}

/* Issue 21: "Charts keep their place when the verdict wraps". A verdict
 * that grows, as a live one does from "Measuring…" to a stall's sentence
 * with the call in flight, leaves the first chart where it was, at 800 × 600
 * as at 1920 × 1080; and the card says one sentence, not every probe. */
static void
test_charts_keep_place (gconstpointer data)
{
  const int *size = data;
  g_autofree char *path = rp_stall_report_write (rp_stall_report_two_stalls, RP_STALL_REPORT_CALM_CALLS,
                                                 "test-gui-verdict-XXXXXX.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Shown shown = { rp_window_new (application), size[0], size[1] };
  const char *short_verdict, *verdict;
  g_autoptr(GString) growing = g_string_new (NULL);
  double y;

  gtk_window_set_default_size (GTK_WINDOW (shown.window), size[0], size[1]);
  gtk_window_present (GTK_WINDOW (shown.window));
  rp_window_open_files (shown.window, &file, 1);
  rp_gui_fixture_wait (laid_out, &shown, "the report laid out");
  /* Read: removed now, so that a failed assertion below leaves no file. */
  g_unlink (path);

  /* One sentence: what stalled, how often, worst and the cause. */
  short_verdict = rp_summary_view_get_short_verdict (shown.window->summary_view);
  verdict = rp_summary_view_get_verdict (shown.window->summary_view);
  g_test_message ("card: %s", gtk_label_get_text (shown.window->verdict_label));
  g_test_message ("details: %s", verdict);
  g_assert_cmpstr (gtk_label_get_text (shown.window->verdict_label), ==, short_verdict);
  g_assert_nonnull (strstr (short_verdict, "fsync stalled"));
  g_assert_nonnull (strstr (short_verdict, "cause: "));
  g_assert_cmpuint (strlen (short_verdict), <, strlen (verdict));
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (shown.window->verdict_label)), ==, verdict);

  y = first_chart_y (shown.window);
  /* Its content is the size asked for, less the frame of client-side
   * decorations (790 px wide for 800 here). */
  g_test_message ("%d × %d (laid out %d × %d): first chart at y = %.0f", size[0], size[1],
                  gtk_widget_get_width (GTK_WIDGET (shown.window)),
                  gtk_widget_get_height (GTK_WIDGET (shown.window)), y);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (shown.window)), >, size[0] - 40);
  for (guint step = 0; step < 6; step++)
    {
      g_string_append (growing, step == 0 ? "Measuring…" : verdict);
      g_string_append_c (growing, ' ');
      gtk_label_set_text (shown.window->verdict_label, growing->str);
      /* Two frames' layout at least: a resize is applied on the next frame. */
      rp_gui_fixture_spin (200);
      g_test_message ("%" G_GSIZE_FORMAT " characters: first chart at y = %.0f", growing->len,
                      first_chart_y (shown.window));
      g_assert_cmpfloat (first_chart_y (shown.window), ==, y);
    }
  gtk_window_destroy (GTK_WINDOW (shown.window));
}

/* Whether a line of @label's layout begins with a unit: "%)", "s;", "ms". */
static gboolean
a_line_begins_with_a_unit (GtkLabel *label)
{
  PangoLayout *layout = gtk_label_get_layout (label);
  const char *text = pango_layout_get_text (layout);
  g_autoptr(GRegex) unit = g_regex_new ("^(%|[mµ]?s\\b|[KMG]iB)", 0, 0, NULL);

  for (GSList *l = pango_layout_get_lines_readonly (layout); l != NULL; l = l->next)
    {
      PangoLayoutLine *line = l->data;

      if (g_regex_match (unit, text + line->start_index, 0, NULL))
        return TRUE;
    }
  return FALSE;
}

/* Issue 32: at 360 px the verdict wraps over the lines it needs instead of
 * losing its end ("(82 %)") at three lines, and no figure is parted from
 * its unit by a line break (no-break spaces, rp_gui_keep_units()). */
static void
test_narrow_wraps_whole (void)
{
  g_autofree char *path = rp_stall_report_write (rp_stall_report_two_stalls, RP_STALL_REPORT_CALM_CALLS,
                                                 "test-gui-verdict-XXXXXX.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Shown shown = { rp_window_new (application), 360, 720 };
  g_autoptr(GString) longer = g_string_new (NULL);
  const char *short_verdict;

  gtk_window_set_default_size (GTK_WINDOW (shown.window), 360, 720);
  gtk_window_present (GTK_WINDOW (shown.window));
  rp_window_open_files (shown.window, &file, 1);
  rp_gui_fixture_wait (laid_out, &shown, "the report laid out");
  g_unlink (path);
  rp_gui_fixture_spin (200);

  short_verdict = rp_summary_view_get_short_verdict (shown.window->summary_view);
  g_test_message ("card at %d px: %s", gtk_widget_get_width (GTK_WIDGET (shown.window)), short_verdict);
  g_assert_nonnull (strstr (short_verdict, "\u00a0s"));
  g_assert_nonnull (strstr (short_verdict, "\u00a0%"));
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (shown.window->verdict_label)));
  g_assert_false (a_line_begins_with_a_unit (shown.window->verdict_label));

  /* Longer than three lines hold at this width: all of it shows. */
  g_string_append_printf (longer, "%s %s", short_verdict, short_verdict);
  gtk_label_set_text (shown.window->verdict_label, longer->str);
  rp_gui_fixture_spin (200);
  g_test_message ("%d lines", pango_layout_get_line_count (gtk_label_get_layout (shown.window->verdict_label)));
  g_assert_cmpint (pango_layout_get_line_count (gtk_label_get_layout (shown.window->verdict_label)), >, 3);
  g_assert_false (pango_layout_is_ellipsized (gtk_label_get_layout (shown.window->verdict_label)));
  g_assert_false (a_line_begins_with_a_unit (shown.window->verdict_label));
  gtk_window_destroy (GTK_WINDOW (shown.window));
}

/* A stall's "device write latency" line wraps in a narrow sidebar: a
 * percentile's name stays with its figure, the figure with its unit
 * (issue 31: "p50 3.03 ms, p99 5.75 ms of 50000 requests"); a count and
 * its noun may part ("50000 requests" is not a figure and its unit). */
static void
test_keep_percentiles (void)
{
  g_autofree char *kept = rp_gui_keep_units ("p50 3.03 ms, p99 5.75 ms of 50000 requests; p99.9 12 ms, top50 x");

  g_assert_cmpstr (kept, ==, "p50\u00a03.03\u00a0ms, p99\u00a05.75\u00a0ms of 50000 requests; "
                             "p99.9\u00a012\u00a0ms, top50 x");
}

int
main (int   argc,
      char *argv[])
{
  static const int small[] = { 800, 600 }, large[] = { 1920, 1080 };

  /* The verdict's words are compared as written. */
  g_setenv ("LANGUAGE", "C", TRUE);
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION, 0);

  g_test_add_data_func ("/gui-verdict/charts-keep-place-800x600", small, test_charts_keep_place);
  g_test_add_data_func ("/gui-verdict/charts-keep-place-1920x1080", large, test_charts_keep_place);
  g_test_add_func ("/gui-verdict/narrow-wraps-whole", test_narrow_wraps_whole);
  g_test_add_func ("/gui-verdict/keep-percentiles", test_keep_percentiles);
  return rp_gui_fixture_run ();
}
