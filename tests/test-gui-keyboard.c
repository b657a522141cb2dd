/* test-gui-keyboard.c: Tab through the main window to every chart, and the keys on a chart, with real X input. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "rp-chart-view.h"
#include "rp-gui-fixture.h"
#include "rp-recent-runs.h"
#include "rp-stall-report.h"
#include "rp-window.h"
#include "rp-window-private.h"

static GtkApplication *application;

/* Three times the window's stops (20 at 1280 px: header 2, form 7, Why 2,
 * Recent Runs 2, charts 6, back to the header): a Tab that stops nowhere
 * new fails the walk, not this cap. */
#define MAX_TABS 60

typedef struct {
  RpWindow *window;
  gboolean  folded;
} Opened;

static gboolean
shows_report (gpointer data)
{
  Opened *opened = data;
  g_autoptr(GPtrArray) listed = rp_window_list_recent_files (opened->window);

  return listed->len == 1 && rp_window_get_report (opened->window) != NULL && !rp_window_get_busy (opened->window) &&
         opened->window->fold_idle_id == 0 && rp_window_get_folded (opened->window) == opened->folded &&
         gtk_widget_get_mapped (GTK_WIDGET (opened->window->recent_list)) == !opened->folded;
}

/* A window @width px wide, its sidebar @folded then, showing a report with
 * two fsync stalls, which is also in the reports folder (a Recent Runs
 * row); its path in @out_path. */
static RpWindow *
open_stall_report (int       width,
                   gboolean  folded,
                   char    **out_path)
{
  g_autofree char *folder = rp_recent_runs_get_directory ();
  g_autofree char *source = rp_stall_report_write (rp_stall_report_two_stalls, RP_STALL_REPORT_CALM_CALLS,
                                                   "test-gui-keyboard-XXXXXX.json");
  g_autofree char *name = g_path_get_basename (source);
  char *path = g_build_filename (folder, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  Opened opened = { .folded = folded };

  g_assert_cmpint (g_mkdir_with_parents (folder, 0700), ==, 0);
  g_assert_cmpint (g_rename (source, path), ==, 0);
  opened.window = rp_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (opened.window), width, 800);
  gtk_window_present (GTK_WINDOW (opened.window));
  rp_window_open_files (opened.window, &file, 1);
  rp_gui_fixture_wait (shows_report, &opened, "the report shown, the layout settled");
  *out_path = path;
  return opened.window;
}

static int
compare_reading_order (gconstpointer a,
                       gconstpointer b)
{
  GtkWidget *x = *(GtkWidget **) a, *y = *(GtkWidget **) b;
  graphene_rect_t bx, by;

  g_assert_true (gtk_widget_compute_bounds (x, GTK_WIDGET (gtk_widget_get_root (x)), &bx));
  g_assert_true (gtk_widget_compute_bounds (y, GTK_WIDGET (gtk_widget_get_root (y)), &by));
  if (bx.origin.y != by.origin.y)
    return bx.origin.y < by.origin.y ? -1 : 1;
  return (bx.origin.x > by.origin.x) - (bx.origin.x < by.origin.x);
}

/* The charts shown, row by row, left to right. */
static GPtrArray *
list_charts (RpWindow *window)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  GPtrArray *shown = g_ptr_array_new ();

  rp_gui_fixture_collect (GTK_WIDGET (window->chart_grid), RP_TYPE_CHART_VIEW, all);
  for (guint i = 0; i < all->len; i++)
    if (gtk_widget_get_visible (all->pdata[i]))
      g_ptr_array_add (shown, all->pdata[i]);
  g_ptr_array_sort (shown, compare_reading_order);
  return shown;
}

static gboolean
is_under (GtkWidget *widget,
          gpointer   ancestor)
{
  return widget == ancestor || gtk_widget_is_ancestor (widget, ancestor);
}

/* The stalls @chart marks (rp_plot_get_span_x() names only those). */
static guint
count_marked_stalls (RpChartView *chart)
{
  RpPlot *plot = rp_chart_view_get_plot (chart);
  guint n = 0;

  for (guint i = 0; i < rp_plot_get_n_spans (plot); i++)
    n += rp_plot_get_span_x (plot, i, NULL, NULL) != NULL;
  return n;
}

static GtkWidget *
focus_of (RpWindow *window)
{
  return gtk_window_get_focus (GTK_WINDOW (window));
}

/* Issue 21: from the window's start, Tab goes through the header, the
 * sidebar (the form, the Why rows, Recent Runs) when it is shown, then
 * every chart in reading order with a focus ring, and back to the header;
 * each Tab lands on a widget that is on screen (at 800 px with the sidebar
 * folded the focus went into the hidden sidebar; at 1280 px the verdict's
 * selectable text took every Tab after the last Recent Runs row). Then
 * Right on the first chart with stalls marks its first stall, and Right on
 * a chart without stalls leaves the focus there and says why. */
static void
check_tab_order (int      width,
                 gboolean folded)
{
  g_autofree char *path = NULL;
  RpWindow *window;
  g_autoptr(GPtrArray) charts = NULL;
  g_autoptr(GPtrArray) stops = g_ptr_array_new ();
  GtkWidget *sidebar, *header, *previous = NULL;
  guint next_chart = 0, first_chart_stop = 0;
  gboolean recent_row_before = FALSE, back_in_header = FALSE;
  RpChartView *with_stalls = NULL, *without_stalls = NULL;

  if (!rp_gui_fixture_has_real_input ())
    return;
  window = open_stall_report (width, folded, &path);
  charts = list_charts (window);
  g_assert_cmpuint (charts->len, >=, 4);
  sidebar = adw_flap_get_flap (window->flap);
  header = gtk_widget_get_ancestor (GTK_WIDGET (window->run_button), ADW_TYPE_HEADER_BAR);
  g_assert_nonnull (header);

  /* The pointer on the title, off every widget with a tooltip. */
  rp_gui_fixture_xdotool ("mousemove --sync 200 12");
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  for (guint tab = 0; tab < MAX_TABS && !back_in_header; tab++)
    {
      GtkWidget *focus;

      rp_gui_fixture_xdotool ("key --clearmodifiers Tab");
      focus = focus_of (window);
      g_assert_nonnull (focus);
      g_test_message ("Tab %u: %s %s", tab + 1, G_OBJECT_TYPE_NAME (focus),
                      ADW_IS_PREFERENCES_ROW (focus) ? adw_preferences_row_get_title (ADW_PREFERENCES_ROW (focus)) : "");
      /* Each Tab moves, to a widget on screen. */
      g_assert_true (focus != previous);
      g_assert_true (gtk_widget_is_drawable (focus));
      previous = focus;
      g_ptr_array_add (stops, focus);
      if (folded)
        g_assert_false (is_under (focus, sidebar));
      if (RP_IS_CHART_VIEW (focus))
        {
          /* In reading order, each once, with its focus ring. */
          g_assert_cmpuint (next_chart, <, charts->len);
          g_assert_true (focus == charts->pdata[next_chart]);
          if (next_chart++ == 0)
            first_chart_stop = stops->len - 1;
          g_assert_true (gtk_widget_get_state_flags (focus) & GTK_STATE_FLAG_FOCUS_VISIBLE);
          if (with_stalls == NULL && count_marked_stalls (RP_CHART_VIEW (focus)) > 0)
            with_stalls = RP_CHART_VIEW (focus);
          else if (without_stalls == NULL && count_marked_stalls (RP_CHART_VIEW (focus)) == 0)
            without_stalls = RP_CHART_VIEW (focus);
        }
      else if (next_chart == 0)
        recent_row_before |= is_under (focus, window->recent_list);
      else
        /* After the charts: back to the start. */
        back_in_header = is_under (focus, header);
    }
  g_assert_cmpuint (next_chart, ==, charts->len);
  g_assert_true (back_in_header);
  /* The header first; the sidebar's stops, when shown, before the charts. */
  g_assert_true (is_under (stops->pdata[0], header));
  g_assert_cmpint (recent_row_before, ==, !folded);
  for (guint i = first_chart_stop; i < stops->len; i++)
    g_assert_false (is_under (stops->pdata[i], sidebar));

  /* Right on the chart with stalls: its first is marked and explained. */
  g_assert_nonnull (with_stalls);
  g_assert_nonnull (without_stalls);
  gtk_widget_grab_focus (GTK_WIDGET (with_stalls));
  rp_gui_fixture_xdotool ("key --clearmodifiers Right");
  g_assert_true (focus_of (window) == GTK_WIDGET (with_stalls));
  g_assert_cmpint (rp_chart_view_get_stall_index (with_stalls), ==, 0);
  g_assert_nonnull (rp_plot_span_at (rp_chart_view_get_plot (with_stalls), rp_chart_view_get_marked_x (with_stalls)));
  g_assert_nonnull (rp_gui_fixture_find_popover (GTK_WIDGET (with_stalls)));
  g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (rp_gui_fixture_find_popover (GTK_WIDGET (with_stalls)))));
  g_assert_true (g_str_has_prefix (rp_chart_view_get_description (with_stalls), "Stall 1 of 2: "));

  /* Right on a chart without stalls: nothing moves, nothing opens. */
  gtk_widget_grab_focus (GTK_WIDGET (without_stalls));
  rp_gui_fixture_xdotool ("key --clearmodifiers Right");
  g_assert_true (focus_of (window) == GTK_WIDGET (without_stalls));
  g_assert_cmpint (rp_chart_view_get_stall_index (without_stalls), ==, -1);
  g_assert_null (rp_gui_fixture_find_popover (GTK_WIDGET (without_stalls)));
  g_assert_true (g_str_has_prefix (rp_chart_view_get_description (without_stalls), "No stalls marked on this chart\n"));
  /* The other chart's popover went with its focus. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (rp_gui_fixture_find_popover (GTK_WIDGET (with_stalls)))));

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_unlink (path), ==, 0);
}

static void
test_tab_order_wide (void)
{
  check_tab_order (1280, FALSE);
}

static void
test_tab_order_folded (void)
{
  check_tab_order (700, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  /* The descriptions are compared as written. */
  g_setenv ("LANGUAGE", "C", TRUE);
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION | RP_GUI_FIXTURE_DATA_HOME, 0);

  g_test_add_func ("/keyboard/tab-order-wide", test_tab_order_wide);
  g_test_add_func ("/keyboard/tab-order-folded", test_tab_order_folded);
  return rp_gui_fixture_run ();
}
