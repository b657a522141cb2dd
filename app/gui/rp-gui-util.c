/* rp-gui-util.c: small GTK helpers that several windows share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-text.h"

/**
 * rp_gui_render_widget:
 * @widget: a realized widget in a native (a window)
 *
 * Renders what @widget shows, with the window's own renderer, so that a
 * screenshot for scripts and tests (--screenshot-on-exit) is exactly the
 * screen. Must be called on the main thread; saving the texture can then
 * happen on a worker.
 *
 * Returns: (transfer full) (nullable): the texture, or %NULL when the widget
 *   has nothing to draw or no renderer yet
 */
GdkTexture *
rp_gui_render_widget (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  graphene_rect_t bounds;

  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  paintable = gtk_widget_paintable_new (widget);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot,
                          gtk_widget_get_width (widget),
                          gtk_widget_get_height (widget));
  node = gtk_snapshot_free_to_node (snapshot);
  if (node == NULL || renderer == NULL)
    return NULL;
  gsk_render_node_get_bounds (node, &bounds);
  return gsk_renderer_render_texture (renderer, node, &bounds);
}

/* A window that has just been presented on a loaded machine may not have
 * been laid out and drawn yet when its screenshot is due: give it this many
 * more chances (one a timer period) before writing none. */
#define SCREENSHOT_TRIES 20

/**
 * rp_gui_screenshot_ready:
 * @widget: the window to take
 * @tries: (inout): a counter, 0 at first, kept by the caller between calls
 * @out_texture: (out) (transfer full) (nullable): the screenshot, when ready
 *
 * For a timer that takes a screenshot (--screenshot-on-exit): renders
 * @widget if it has been drawn. Returns %FALSE when it has not, and the
 * timer should fire again; %TRUE when the caller should go on, with the
 * texture, or with %NULL after SCREENSHOT_TRIES tries (the caller then says
 * that the screenshot could not be written).
 *
 * Returns: whether to go on
 */
gboolean
rp_gui_screenshot_ready (GtkWidget   *widget,
                         guint       *tries,
                         GdkTexture **out_texture)
{
  g_return_val_if_fail (GTK_IS_WIDGET (widget), TRUE);
  g_return_val_if_fail (tries != NULL && out_texture != NULL, TRUE);

  *out_texture = gtk_widget_get_mapped (widget) ? rp_gui_render_widget (widget) : NULL;
  if (*out_texture == NULL && ++*tries < SCREENSHOT_TRIES)
    return FALSE;
  return TRUE;
}

/**
 * rp_gui_printerr:
 * @message: an error for the terminal the application was started from
 *
 * Prints "resprobe: MESSAGE" on stderr, on one line: the message may repeat
 * a command-line value or a file name, a stranger's string whose ESC would
 * set the terminal's title or colours, whose U+202E would turn the line
 * around and whose line feed would print a line of its own. Those become
 * spaces (rp_text_clean()).
 */
void
rp_gui_printerr (const char *message)
{
  g_autofree char *clean = rp_text_clean (message, FALSE);

  /* TRANSLATORS: an error on the terminal, e.g. "resprobe: --size: …" */
  g_printerr (_("resprobe: %s\n"), clean);
}

/**
 * rp_gui_new_settings:
 *
 * The application's settings, if its schema is installed. Run from the build
 * tree without `GSETTINGS_SCHEMA_DIR` it is not, and g_settings_new() would
 * abort: the windows then work with their defaults and remember nothing.
 *
 * Returns: (transfer full) (nullable): io.github.resprobe.Resprobe, or %NULL
 */
GSettings *
rp_gui_new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, APP_ID, TRUE);
  if (schema == NULL)
    return NULL;
  return g_settings_new_full (schema, NULL, NULL);
}

/* No tooltip while the popover is shown; the one shown already (the
 * pointer rested on the button before the click) goes too. */
static void
on_menu_popover_visible (GtkWidget  *popover,
                         GParamSpec *pspec,
                         GtkWidget  *button)
{
  gtk_widget_set_has_tooltip (button, !gtk_widget_get_visible (popover));
  gtk_widget_trigger_tooltip_query (button);
}

/* gtk_menu_button_set_menu_model() makes a new popover each time. */
static void
on_menu_popover_changed (GtkMenuButton *button)
{
  GtkPopover *popover = gtk_menu_button_get_popover (button);

  if (popover == NULL)
    return;
  g_signal_connect_object (popover, "notify::visible", G_CALLBACK (on_menu_popover_visible), button, 0);
  on_menu_popover_visible (GTK_WIDGET (popover), NULL, GTK_WIDGET (button));
}

/**
 * rp_gui_menu_button_quiet_tooltip:
 * @button: a menu button with a tooltip
 *
 * Hides @button's tooltip while its popover is open, for this popover and
 * the ones a new menu model makes. GTK 4.8 keeps showing it while the
 * pointer rests on the button, over the popover's first lines (issue 21:
 * "Baseline and Order of the Runs" hid the first run's name).
 */
void
rp_gui_menu_button_quiet_tooltip (GtkMenuButton *button)
{
  g_return_if_fail (GTK_IS_MENU_BUTTON (button));

  g_signal_connect (button, "notify::popover", G_CALLBACK (on_menu_popover_changed), NULL);
  on_menu_popover_changed (button);
}

/**
 * rp_gui_keep_units:
 * @text: (nullable): a sentence of the judgement or a figure, e.g. "fsync
 *   stalled 7 of 60 times over 1 s, worst 9.85 s; cause: journal commit (89 %)."
 *
 * The same text with a no-break space (U+00A0) between each number and its
 * unit ("9.85 s", "89 %", "64 MiB", "5 min") and after a percentile's
 * name ("p99 5.75 ms"), and a word joiner (U+2060)
 * after a slash within a word ("I/O", "MiB/s"), so that a label that wraps
 * never puts the unit on a line of its own ("(82⏎%)", "1.40⏎s", issue 32).
 * For the window's labels only: the engine's texts keep plain spaces for
 * terminals and files.
 *
 * Returns: (transfer full) (nullable): the text, %NULL for %NULL
 */
char *
rp_gui_keep_units (const char *text)
{
  static GRegex *number_unit, *slash, *percentile;
  static gsize initialized;
  g_autofree char *joined = NULL, *named = NULL;

  if (text == NULL)
    return NULL;
  if (g_once_init_enter (&initialized))
    {
      /* A digit, one space, then a unit the engine prints (rp-units.c)
       * that ends a word: "3 stalls" keeps its space. */
      number_unit = g_regex_new ("(?<=\\d) (?=(?:%|[kKMGTP]i?B(?:/s)?\\b|B(?:/s)?\\b|[mµn]?s\\b|min\\b|h\\b|ops/s|Hz\\b))",
                                 G_REGEX_OPTIMIZE, 0, NULL);
      /* Pango may break a line after a slash: "I/⏎O scheduler", "MiB/⏎s". */
      slash = g_regex_new ("(?<=\\S)/(?=\\S)", G_REGEX_OPTIMIZE, 0, NULL);
      /* A percentile's name and its figure: "p50⏎3.03 ms" reads as two
       * things ("p50 3.03 ms, p99 5.75 ms of 50000 requests"). */
      percentile = g_regex_new ("\\b(p\\d{2}(?:\\.\\d)?) (?=\\d)", G_REGEX_OPTIMIZE, 0, NULL);
      g_once_init_leave (&initialized, 1);
    }
  joined = g_regex_replace_literal (slash, text, -1, 0, "/\u2060", 0, NULL);
  named = g_regex_replace (percentile, joined, -1, 0, "\\1\u00a0", 0, NULL);
  return g_regex_replace_literal (number_unit, named, -1, 0, "\u00a0", 0, NULL);
}
