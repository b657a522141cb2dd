/* test-gui-popovers.c: what pops over the windows shows whole: the scenario list's names, a menu button's popover without its tooltip. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "rp-compare-window.h"
#include "rp-compare-view.h"
#include "rp-gui-fixture.h"
#include "rp-scenario.h"
#include "rp-stall-report.h"
#include "rp-window.h"
#include "rp-window-private.h"

static GtkApplication *application;

/* Past GTK's tooltip delay (500 ms): a tooltip due has shown by then. */
#define TOOLTIP_WAIT_MS 1200

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data);
}

typedef struct {
  GtkWidget *popover;
  guint      n_items;
  GPtrArray *labels;
} ListWait;

/* The popup's labels shown, once each is laid out. */
static gboolean
items_laid_out (gpointer data)
{
  ListWait *wait = data;
  g_autoptr(GPtrArray) all = g_ptr_array_new ();

  g_ptr_array_set_size (wait->labels, 0);
  if (wait->popover == NULL || !gtk_widget_get_mapped (wait->popover))
    return FALSE;
  rp_gui_fixture_collect (wait->popover, GTK_TYPE_LABEL, all);
  for (guint i = 0; i < all->len; i++)
    if (gtk_widget_get_mapped (all->pdata[i]) && gtk_widget_get_width (all->pdata[i]) > 0)
      g_ptr_array_add (wait->labels, all->pdata[i]);
  return wait->labels->len == wait->n_items;
}

/* Issue 21: the scenario list showed "R1 · Big sequential wri…",
 * "R3-fsync · Four thread…": each name shows whole in the popup, in
 * English and wrapped where long; the row's subtitle has the selected one. */
static void
test_scenario_names_whole (void)
{
  RpWindow *window = rp_window_new (application);
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  ListWait wait = { .labels = labels };
  const RpPresetInfo *presets = rp_scenario_list_presets (&wait.n_items);
  gboolean wrapped = FALSE;

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  rp_gui_fixture_wait (is_mapped, window->scenario_row, "the scenario row shown");
  adw_action_row_activate (ADW_ACTION_ROW (window->scenario_row));
  wait.popover = GTK_WIDGET (rp_gui_fixture_find_popover (GTK_WIDGET (window->scenario_row)));
  rp_gui_fixture_wait (items_laid_out, &wait, "the scenario list laid out");
  for (guint i = 0; i < labels->len; i++)
    {
      GtkLabel *label = labels->pdata[i];
      g_autofree char *name = g_strdup_printf ("%s · %s", presets[i].id, presets[i].title);
      PangoLayout *layout = gtk_label_get_layout (label);

      g_test_message ("%s: %d line(s), %d px", gtk_label_get_text (label),
                      pango_layout_get_line_count (layout), gtk_widget_get_width (GTK_WIDGET (label)));
      g_assert_cmpstr (gtk_label_get_text (label), ==, name);
      g_assert_false (pango_layout_is_ellipsized (layout));
      wrapped |= pango_layout_get_line_count (layout) > 1;
    }
  /* R6's is long: it wraps rather than widening the popup past a sidebar. */
  g_assert_true (wrapped);
  g_assert_cmpint (gtk_widget_get_width (wait.popover), <, gtk_widget_get_width (GTK_WIDGET (window)));
  gtk_popover_popdown (GTK_POPOVER (wait.popover));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
compare_shown (gpointer data)
{
  RpCompareView *view = rp_compare_window_get_view (data);

  return rp_compare_view_get_reports (view) != NULL && gtk_widget_get_mapped (GTK_WIDGET (view));
}

/* Whether a tooltip shows over @window (GTK puts its popup under the
 * window's widget). */
static gboolean
tooltip_shown (GtkWidget *window)
{
  GType type = g_type_from_name ("GtkTooltipWindow");
  g_autoptr(GPtrArray) tooltips = g_ptr_array_new ();

  if (type == 0)
    return FALSE;
  rp_gui_fixture_collect (window, type, tooltips);
  for (guint i = 0; i < tooltips->len; i++)
    if (gtk_widget_get_mapped (tooltips->pdata[i]))
      return TRUE;
  return FALSE;
}

static gboolean
tooltip_shown_on (gpointer window)
{
  return tooltip_shown (window);
}

static gboolean
popover_mapped (gpointer data)
{
  GtkPopover *popover = gtk_menu_button_get_popover (data);

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

static gboolean
popover_gone (gpointer data)
{
  return !popover_mapped (data);
}

/* A click on @button, the pointer resting on it past the tooltip delay:
 * the popover opens without the button's tooltip over it. Escape closes
 * it; the tooltip is back. */
static void
check_popover_without_tooltip (GtkWidget *window,
                               GtkWidget *button)
{
  int width = gtk_widget_get_width (button), height = gtk_widget_get_height (button);

  rp_gui_fixture_click_at (button, width / 2.0, height / 2.0);
  rp_gui_fixture_wait (popover_mapped, button, "the menu button's popover");
  /* The hand moves a little, as a user's does. */
  rp_gui_fixture_point_at (button, width / 2.0 + 2, height / 2.0 + 1, NULL);
  rp_gui_fixture_spin (TOOLTIP_WAIT_MS);
  g_assert_false (tooltip_shown (window));
  g_assert_false (gtk_widget_get_has_tooltip (button));
  rp_gui_fixture_xdotool ("key --clearmodifiers Escape");
  rp_gui_fixture_wait (popover_gone, button, "the popover closed");
  g_assert_true (gtk_widget_get_has_tooltip (button));
}

/* Issue 21: "Baseline and Order of the Runs" covered the order popover's
 * first heading. The same for the new popover a reorder makes, and for
 * the main menu. */
static void
test_menu_popover_without_tooltip (void)
{
  g_autofree char *path_a = rp_stall_report_write (rp_stall_report_two_stalls, RP_STALL_REPORT_PLAIN, "test-gui-popovers-XXXXXX.json");
  g_autofree char *path_b = rp_stall_report_write ("[]", RP_STALL_REPORT_PLAIN, "test-gui-popovers-XXXXXX.json");
  g_autoptr(GFile) a = g_file_new_for_path (path_a);
  g_autoptr(GFile) b = g_file_new_for_path (path_b);
  GFile *files[] = { a, b };
  RpCompareWindow *window;
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GtkWidget *order = NULL;

  if (!rp_gui_fixture_has_real_input ())
    return;
  window = rp_compare_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  rp_compare_window_open_files (window, files, G_N_ELEMENTS (files));
  rp_gui_fixture_wait (compare_shown, window, "the comparison");
  rp_gui_fixture_collect (GTK_WIDGET (window), GTK_TYPE_MENU_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_widget_get_tooltip_text (buttons->pdata[i]), "Baseline and Order of the Runs") == 0)
      order = buttons->pdata[i];
  g_assert_nonnull (order);

  /* The pointer at rest on the button (moved onto it, then within it):
   * its tooltip shows, what the popover must not have over it. */
  rp_gui_fixture_point_at (order, 2, 2, NULL);
  rp_gui_fixture_point_at (order, 4, 3, NULL);
  /* Waited for, not given a time: on a busy machine it shows later. */
  rp_gui_fixture_wait (tooltip_shown_on, window, "the order button's tooltip");

  check_popover_without_tooltip (GTK_WIDGET (window), order);
  /* A new order, a new menu model, a new popover. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.move-later", "u", 0);
  check_popover_without_tooltip (GTK_WIDGET (window), order);
  for (guint i = 0; i < buttons->len; i++)
    if (buttons->pdata[i] != order)
      check_popover_without_tooltip (GTK_WIDGET (window), buttons->pdata[i]);

  rp_gui_fixture_xdotool ("mousemove --sync 640 400");
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path_a);
  g_unlink (path_b);
}

int
main (int   argc,
      char *argv[])
{
  /* The names and tooltips are compared as written. */
  g_setenv ("LANGUAGE", "C", TRUE);
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION | RP_GUI_FIXTURE_DATA_HOME, 0);

  g_test_add_func ("/popovers/scenario-names-whole", test_scenario_names_whole);
  g_test_add_func ("/popovers/menu-popover-without-tooltip", test_menu_popover_without_tooltip);
  return rp_gui_fixture_run ();
}
