/* rp-chart-view.c: a widget that shows an RpPlot with theme colours and a hover readout. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <math.h>

#include "rp-chart-view.h"

/* Width of the strips the data layer is cut into. A new point changes the
 * strips at the right end only; the others keep their render node, so GTK
 * repaints (and uploads) a narrow strip instead of the whole chart. */
#define STRIP_WIDTH 48

typedef struct {
  GskRenderNode *node;
  guint          hash;
} Strip;

struct _RpChartView
{
  GtkWidget      parent_instance;

  RpPlot        *plot;
  gulong         changed_id;
  guint64        drawn_points;
  gboolean       hovering;
  double         pointer_x;     /* the pointer's last x over the chart; -1: none */
  double         pointer_y;
  GtkPopover    *stall_popover; /* a clicked stall's breakdown; NULL until the first */
  GtkLabel      *stall_label;
  /* The stall the keyboard stepped to (Left/Right, p/n), left to right
   * among those this chart shows; -1: none yet. Its words lead the
   * accessible description. */
  int            stall_index;
  char          *stall_text;
  /* The middle of that stall, where the cursor line marks it until the
   * pointer moves over the chart; -1: none marked. */
  double         stall_x;
  guint          redraw_id;

  /* The frame layer (texts, axes, grid), rendered once and reused while the
   * plot's frame serial stays the same; the data in strips, each reused
   * while its hash stays the same. */
  GskRenderNode *frame_node;
  guint          frame_serial;
  int            frame_scale;
  GArray        *strips;

  /* The values in words (rp_plot_describe()), the accessible description:
   * made when the chart gets focus or is redrawn while it has it, since
   * it reads every point. */
  char          *description;
};

G_DEFINE_FINAL_TYPE (RpChartView, rp_chart_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_PLOT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
rgba_from_gdk (RpRgba        *out,
               const GdkRGBA *in)
{
  *out = (RpRgba) { in->red, in->green, in->blue, in->alpha };
}

/**
 * rp_chart_view_get_style:
 * @out_style: (out caller-allocates): the plot style as the widget draws it now
 * @out_font: (out) (transfer full): the font description string that
 *   @out_style->font points to; free it after use
 *
 * Colours come from the theme: the text colour, the libadwaita error colour
 * for thresholds, and the named colours rp_chart_1 … rp_chart_8 that the
 * application's style sheets define for light, dark and high contrast.
 */
void
rp_chart_view_get_style (RpChartView  *self,
                         RpPlotStyle  *out_style,
                         char        **out_font)
{
  GtkStyleContext *context;
  PangoContext *pango;
  GdkRGBA color;

  g_return_if_fail (RP_IS_CHART_VIEW (self));
  g_return_if_fail (out_style != NULL);
  g_return_if_fail (out_font != NULL);

  rp_plot_style_init_default (out_style, adw_style_manager_get_dark (adw_style_manager_get_default ()));
  context = gtk_widget_get_style_context (GTK_WIDGET (self));

  gtk_style_context_get_color (context, &color);
  rgba_from_gdk (&out_style->foreground, &color);
  color.alpha *= 0.12;
  rgba_from_gdk (&out_style->grid, &color);
  out_style->background = (RpRgba) { 0, 0, 0, 0 };
  if (gtk_style_context_lookup_color (context, "error_color", &color))
    rgba_from_gdk (&out_style->threshold, &color);

  for (guint i = 0; i < RP_PLOT_PALETTE_SIZE; i++)
    {
      g_autofree char *name = g_strdup_printf ("rp_chart_%u", i + 1);

      if (gtk_style_context_lookup_color (context, name, &color))
        rgba_from_gdk (&out_style->palette[i], &color);
    }

  /* The widget's own font, so that CSS (font-size on rpchartview) and the
   * text scaling setting reach the chart. */
  pango = gtk_widget_get_pango_context (GTK_WIDGET (self));
  *out_font = pango_font_description_to_string (pango_context_get_font_description (pango));
  out_style->font = *out_font;
}

/* The frame rasterised once into an image surface, wrapped in a cairo node
 * that only paints that surface: the node is reused (no damage) while the
 * frame is the same, and repainting a damaged part is a blit, with the cairo
 * renderer as with GL. */
static GskRenderNode *
render_frame (RpChartView       *self,
              int                width,
              int                height,
              int                scale,
              const RpPlotStyle *style)
{
  graphene_rect_t bounds = GRAPHENE_RECT_INIT (0, 0, width, height);
  GskRenderNode *node = gsk_cairo_node_new (&bounds);
  cairo_surface_t *surface;
  cairo_t *cr;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  rp_plot_draw_frame (self->plot, cr, style);
  cairo_destroy (cr);

  cr = gsk_cairo_node_get_draw_context (node);
  cairo_set_source_surface (cr, surface, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return node;
}

static void
strip_clear (gpointer data)
{
  Strip *strip = data;

  g_clear_pointer (&strip->node, gsk_render_node_unref);
}

static void
snapshot_data (RpChartView       *self,
               GtkSnapshot       *snapshot,
               int                height,
               const RpPlotStyle *style)
{
  double area_x, area_w;
  guint n_strips;

  rp_plot_get_area (self->plot, &area_x, NULL, &area_w, NULL);
  n_strips = (guint) ceil (area_w / STRIP_WIDTH);
  if (self->strips->len != n_strips)
    g_array_set_size (self->strips, 0);
  g_array_set_size (self->strips, n_strips);

  for (guint i = 0; i < n_strips; i++)
    {
      Strip *strip = &g_array_index (self->strips, Strip, i);
      double x0 = area_x + i * STRIP_WIDTH;
      double x1 = MIN (x0 + STRIP_WIDTH, area_x + area_w);
      guint hash = rp_plot_get_data_hash (self->plot, x0, x1);

      if (strip->node == NULL || strip->hash != hash)
        {
          graphene_rect_t bounds = GRAPHENE_RECT_INIT (x0, 0, x1 - x0, height);
          GskRenderNode *node = gsk_cairo_node_new (&bounds);
          cairo_t *cr = gsk_cairo_node_get_draw_context (node);

          cairo_rectangle (cr, x0, 0, x1 - x0, height);
          cairo_clip (cr);
          rp_plot_draw_data (self->plot, cr, style);
          cairo_destroy (cr);
          g_clear_pointer (&strip->node, gsk_render_node_unref);
          strip->node = node;
          strip->hash = hash;
        }
      gtk_snapshot_append_node (snapshot, strip->node);
    }
}

static void
rp_chart_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  RpChartView *self = RP_CHART_VIEW (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  g_autofree char *font = NULL;
  RpPlotStyle style;
  guint serial;
  cairo_t *cr;

  if (self->plot == NULL || width <= 0 || height <= 0)
    return;

  rp_chart_view_get_style (self, &style, &font);
  serial = rp_plot_prepare (self->plot, width, height, &style);
  if (self->frame_node == NULL || serial != self->frame_serial ||
      scale != self->frame_scale)
    {
      g_clear_pointer (&self->frame_node, gsk_render_node_unref);
      self->frame_node = render_frame (self, width, height, scale, &style);
      self->frame_serial = serial;
      self->frame_scale = scale;
      /* A new scale or range moves every point. */
      g_array_set_size (self->strips, 0);
    }
  gtk_snapshot_append_node (snapshot, self->frame_node);

  snapshot_data (self, snapshot, height, &style);

  /* A new node is new damage: add the hover layer only while hovering or
   * while it marks the stall the keys stepped to. */
  if (self->hovering || self->stall_x >= 0)
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      rp_plot_draw_hover (self->plot, cr, &style);
      cairo_destroy (cr);
    }
  self->drawn_points = rp_plot_count_points (self->plot);
}

static guint count_shown_stalls (RpChartView *self);

/* The description a screen reader reads when the chart has focus: title
 * and each series' count, median and worst (rp_plot_describe()). */
static void
update_description (RpChartView *self)
{
  g_autofree char *values = self->plot != NULL ? rp_plot_describe (self->plot) : NULL;
  const char *lead = self->stall_text;

  /* Said first, so that a user pressing Left or Right in vain hears why. */
  if (lead == NULL && values != NULL && count_shown_stalls (self) == 0)
    lead = _("No stalls marked on this chart");
  g_free (self->description);
  if (lead != NULL && values != NULL)
    self->description = g_strconcat (lead, "\n", values, NULL);
  else
    self->description = g_strdup (values);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION,
                                  self->description != NULL ? self->description : "",
                                  -1);
}

static gboolean
on_redraw_due (gpointer user_data)
{
  RpChartView *self = user_data;

  self->redraw_id = 0;
  if (self->plot != NULL && rp_plot_count_points (self->plot) != self->drawn_points)
    {
      gtk_widget_queue_draw (GTK_WIDGET (self));
      /* Only a focused chart is read out: the others wait for their focus,
       * so that a live run does not sort every series every second. */
      if (gtk_widget_has_focus (GTK_WIDGET (self)))
        update_description (self);
    }
  return G_SOURCE_REMOVE;
}

/**
 * rp_chart_view_get_description:
 *
 * The chart's values in words, as its accessible description says them
 * (e.g. "fsync latency: 412 samples, median 3.10 ms, worst 9.85 s at
 * 12.4 s"), made afresh.
 *
 * Returns: (transfer none) (nullable): the text, %NULL without a plot
 */
const char *
rp_chart_view_get_description (RpChartView *self)
{
  g_return_val_if_fail (RP_IS_CHART_VIEW (self), NULL);

  update_description (self);
  return self->description;
}

/**
 * rp_chart_view_refresh:
 *
 * Redraws, once a second at most, if the plot's series got new points since
 * the last draw. Changes of the plot itself (RpPlot::changed: time range,
 * axis, thresholds) redraw at once.
 */
void
rp_chart_view_refresh (RpChartView *self)
{
  g_return_if_fail (RP_IS_CHART_VIEW (self));

  if (self->plot == NULL || self->redraw_id != 0 ||
      rp_plot_count_points (self->plot) == self->drawn_points)
    return;
  /* Live charts follow the rest of the window: the elapsed time, the
   * progress and the summary change once a second, like a system monitor's
   * graphs. Every repaint is main-thread time (which the main-loop probe
   * measures as our own lateness) and, with the cairo renderer, a walk of
   * the whole window's render tree: redrawing the charts whenever a worker
   * reported (twice a second while only the system is sampled, up to 20
   * times under load) made three repaints a second out of one. GLib fires
   * the seconds timeouts of a process together, at the same point of each
   * second (g_timeout_add_seconds()): with the window's status update, so
   * that the whole window repaints in one frame. No sample is lost: the
   * next draw shows all of them. */
  self->redraw_id = g_timeout_add_seconds (1, on_redraw_due, self);
  g_source_set_name_by_id (self->redraw_id, "[resprobe] chart redraw");
}

static void
rp_chart_view_measure (GtkWidget      *widget,
                       GtkOrientation  orientation,
                       int             for_size,
                       int            *minimum,
                       int            *natural,
                       int            *minimum_baseline,
                       int            *natural_baseline)
{
  /* A small minimum: the window decides how many charts stand side by
   * side (rp-window.c), and a narrow one must be able to get narrower:
   * two side by side (at 600 px and more, so each gets 280) must not hold
   * the window over 360 px while it is dragged narrower. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = 120;
      *natural = 480;
    }
  else
    {
      *minimum = 150;
      *natural = 200;
    }
}

static void
append_readout (GString             *markup,
                RpChartView         *self,
                const RpPlotStyle   *style,
                const RpPlotReadout *readout)
{
  const RpRgba *color = &style->palette[readout->color % RP_PLOT_PALETTE_SIZE];
  g_autofree char *max = rp_plot_format_value (self->plot, readout->max);
  g_autofree char *label = g_markup_escape_text (readout->label, -1);

  g_string_append_printf (markup, "\n<span foreground=\"#%02x%02x%02x\">●</span> %s: ",
                          (guint) (color->red * 255), (guint) (color->green * 255),
                          (guint) (color->blue * 255), label);
  if (rp_plot_get_mode (self->plot) == RP_PLOT_CDF)
    {
      /* TRANSLATORS: the share of samples at or below the value under the pointer */
      g_string_append_printf (markup, _("%.0f %%"), readout->max * 100);
      return;
    }
  if (readout->n > 1 && readout->max > readout->min)
    {
      g_autofree char *min = rp_plot_format_value (self->plot, readout->min);

      /* TRANSLATORS: the range of values under the pointer, e.g. "2.1 ms – 12 ms" */
      g_string_append_printf (markup, _("%s – %s"), min, max);
    }
  else
    {
      g_string_append (markup, max);
    }
}

static gboolean
rp_chart_view_query_tooltip (GtkWidget  *widget,
                             int         x,
                             int         y,
                             gboolean    keyboard_mode,
                             GtkTooltip *tooltip)
{
  RpChartView *self = RP_CHART_VIEW (widget);
  g_autoptr(GArray) readouts = g_array_new (FALSE, FALSE, sizeof (RpPlotReadout));
  g_autoptr(GString) markup = NULL;
  g_autofree char *font = NULL;
  RpPlotStyle style;
  double t;

  /* A stall's popover says it already; a tooltip over it would hide it. */
  if (self->stall_popover != NULL && gtk_widget_get_visible (GTK_WIDGET (self->stall_popover)))
    return FALSE;
  if (self->plot == NULL || !rp_plot_read_at (self->plot, x, y, &t, readouts) || readouts->len == 0)
    return FALSE;

  rp_chart_view_get_style (self, &style, &font);
  markup = g_string_new (NULL);
  if (rp_plot_get_mode (self->plot) == RP_PLOT_CDF)
    {
      g_autofree char *value = rp_plot_format_value (self->plot, t);

      /* TRANSLATORS: a distribution's tooltip: which share of the samples
       * was at most the value under the pointer, e.g. "≤ 12 ms" */
      g_string_append_printf (markup, _("<b>at most %s</b>"), value);
    }
  else
    /* TRANSLATORS: the time under the pointer, seconds since the start */
    g_string_append_printf (markup, _("<b>%.1f s</b>"), t);
  for (guint i = 0; i < readouts->len; i++)
    append_readout (markup, self, &style, &g_array_index (readouts, RpPlotReadout, i));
  {
    /* Over a stall: its breakdown (where the time went). */
    const char *span = rp_plot_span_at (self->plot, x);

    if (span != NULL)
      {
        g_autofree char *escaped = g_markup_escape_text (span, -1);

        g_string_append_printf (markup, "\n%s", escaped);
      }
  }
  gtk_tooltip_set_markup (tooltip, markup->str);
  return TRUE;
}

/* A stall's breakdown in a popover pointing at (@x, @y). From a click it
 * hides when the user clicks elsewhere (autohide, which takes the focus);
 * stepped to with the keys it leaves the focus on the chart, so that the
 * next key steps on, and hides with Escape or when the chart loses focus. */
static void
show_stall_popover (RpChartView *self,
                    const char  *text,
                    double       x,
                    double       y,
                    gboolean     autohide)
{
  if (self->stall_popover == NULL)
    {
      GtkWidget *label = gtk_label_new (NULL);

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 40);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      /* Not selectable: a selectable label takes the popover's focus and
       * shows its text all selected. */
      self->stall_label = GTK_LABEL (label);
      self->stall_popover = GTK_POPOVER (gtk_popover_new ());
      gtk_popover_set_child (self->stall_popover, label);
      gtk_widget_set_parent (GTK_WIDGET (self->stall_popover), GTK_WIDGET (self));
    }
  gtk_label_set_text (self->stall_label, text);
  gtk_popover_set_autohide (self->stall_popover, autohide);
  gtk_popover_set_pointing_to (self->stall_popover,
                               &(GdkRectangle) { (int) x, (int) CLAMP (y, 0, gtk_widget_get_height (GTK_WIDGET (self))), 1, 1 });
  gtk_popover_popup (self->stall_popover);
}

/* The breakdown of the stall at @x in a popover pointing at it, for a
 * click or Enter: a tooltip vanishes as the pointer moves, a popover stays
 * while the user reads it. Returns FALSE without a stall there. */
static gboolean
popup_stall_at (RpChartView *self,
                double       x,
                double       y)
{
  const char *span;

  if (self->plot == NULL || x < 0 || (span = rp_plot_span_at (self->plot, x)) == NULL)
    return FALSE;
  show_stall_popover (self, span, x, y, TRUE);
  return TRUE;
}

static void
on_pressed (GtkGestureClick *gesture,
            int              n_press,
            double           x,
            double           y,
            RpChartView     *self)
{
  /* A click focuses the chart, as a click on a button does, so that the
   * keys then step through its stalls (a click beside the markers left
   * the focus where it was, and Right did nothing: issue 21). And the
   * popover's autohide moves the keyboard focus into it and, closed,
   * gives it back to the window's focus widget: the chart. */
  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (popup_stall_at (self, x, y))
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
}

typedef struct {
  double      x0;
  double      x1;
  const char *label;
} ShownStall;

static int
compare_left_edge (gconstpointer a,
                   gconstpointer b)
{
  const ShownStall *x = a, *y = b;

  return (x->x0 > y->x0) - (x->x0 < y->x0);
}

/* The stalls this chart draws, left to right (the plot's spans of other
 * charts' series are not). */
static GArray *
list_shown_stalls (RpChartView *self)
{
  GArray *stalls = g_array_new (FALSE, FALSE, sizeof (ShownStall));
  guint n = self->plot != NULL ? rp_plot_get_n_spans (self->plot) : 0;

  for (guint i = 0; i < n; i++)
    {
      ShownStall stall;

      stall.label = rp_plot_get_span_x (self->plot, i, &stall.x0, &stall.x1);
      if (stall.label != NULL)
        g_array_append_val (stalls, stall);
    }
  g_array_sort (stalls, compare_left_edge);
  return stalls;
}

static guint
count_shown_stalls (RpChartView *self)
{
  g_autoptr(GArray) stalls = list_shown_stalls (self);

  return stalls->len;
}

/* The cursor line at @x, the stall the keys stepped to, even under the
 * pointer (a user who clicked the chart and pressed Right must see where
 * it went); -1: back at the pointer's place, or none. The pointer's next
 * move takes the line back. */
static void
mark_stall (RpChartView *self,
            double       x)
{
  self->stall_x = x;
  if (self->plot != NULL)
    rp_plot_set_hover (self->plot, x >= 0 ? x : self->hovering ? self->pointer_x : -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Left/Right (or p/n) on the focused chart: the previous or next stall,
 * marked by the cursor line, its breakdown in the popover and in the
 * accessible description. The first press goes to the first (Right) or
 * the last (Left). On a chart without stalls the key does nothing: the
 * focus stays (arrows moving it to a neighbouring chart read as a stall
 * there), and the description says there are none. */
static gboolean
step_stall (RpChartView *self,
            int          direction)
{
  g_autoptr(GArray) stalls = list_shown_stalls (self);
  const ShownStall *stall;
  int index;

  if (stalls->len == 0)
    return GDK_EVENT_STOP;
  if (self->stall_index < 0)
    index = direction > 0 ? 0 : (int) stalls->len - 1;
  else
    index = CLAMP (self->stall_index + direction, 0, (int) stalls->len - 1);
  self->stall_index = index;
  stall = &g_array_index (stalls, ShownStall, index);
  g_free (self->stall_text);
  /* TRANSLATORS: a chart's accessible description after Left/Right moved to
   * a stall: "Stall 2 of 5: fsync stalled 9.85 s: waiting for …" */
  self->stall_text = g_strdup_printf (_("Stall %d of %u: %s"), index + 1, stalls->len, stall->label);
  update_description (self);
  mark_stall (self, (stall->x0 + stall->x1) / 2);
  /* Hanging from the chart's bottom edge: over the chart it hid the
   * marked stall and its cursor line. */
  show_stall_popover (self, stall->label, self->stall_x,
                      gtk_widget_get_height (GTK_WIDGET (self)), FALSE);
  return TRUE;
}

/* Enter on the focused chart: the stall under the pointer's last place, or
 * the one the keys stepped to. Left/Right, p/n: the previous or next
 * stall; Escape hides its popover. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                RpChartView           *self)
{
  if ((state & gtk_accelerator_get_default_mod_mask ()) != 0)
    return GDK_EVENT_PROPAGATE;
  switch (keyval)
    {
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
    case GDK_KEY_n:
      return step_stall (self, +1);
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
    case GDK_KEY_p:
      return step_stall (self, -1);
    case GDK_KEY_Escape:
      if (self->stall_popover == NULL || !gtk_widget_get_visible (GTK_WIDGET (self->stall_popover)))
        return GDK_EVENT_PROPAGATE;
      gtk_popover_popdown (self->stall_popover);
      mark_stall (self, -1);
      return GDK_EVENT_STOP;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_ISO_Enter:
      if (self->stall_index >= 0 && self->pointer_x < 0)
        {
          self->stall_index--;
          return step_stall (self, +1);
        }
      return popup_stall_at (self, self->pointer_x, self->pointer_y);
    default:
      return GDK_EVENT_PROPAGATE;
    }
}

/* A popover the keys opened does not hold the focus: it goes with it. */
static void
on_focus_leave (RpChartView *self)
{
  if (self->stall_popover != NULL && !gtk_popover_get_autohide (self->stall_popover))
    gtk_popover_popdown (self->stall_popover);
  mark_stall (self, -1);
}

/**
 * rp_chart_view_get_stall_index:
 *
 * Returns: the stall the keyboard stepped to, counted from 0 left to right
 *   among those the chart shows; -1 for none
 */
int
rp_chart_view_get_stall_index (RpChartView *self)
{
  g_return_val_if_fail (RP_IS_CHART_VIEW (self), -1);
  return self->stall_index;
}

/**
 * rp_chart_view_get_marked_x:
 *
 * Returns: where the cursor line marks the stall the keyboard stepped to,
 *   in pixels from the chart's left edge (the stall's middle); -1 while
 *   none is marked (none stepped to, or Escape or the focus leaving took
 *   the mark away)
 */
double
rp_chart_view_get_marked_x (RpChartView *self)
{
  g_return_val_if_fail (RP_IS_CHART_VIEW (self), -1);
  return self->stall_x;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           RpChartView              *self)
{
  self->pointer_x = x;
  self->pointer_y = y;
  self->hovering = TRUE;
  if (self->plot != NULL)
    rp_plot_set_hover (self->plot, x);
}

static void
on_leave (GtkEventControllerMotion *controller,
          RpChartView              *self)
{
  self->hovering = FALSE;
  /* Back to the stall the keys marked, if any. */
  if (self->plot != NULL)
    rp_plot_set_hover (self->plot, self->stall_x);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_plot_changed (RpPlot      *plot,
                 RpChartView *self)
{
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* A popover is a child: it needs its own allocation. */
static void
rp_chart_view_size_allocate (GtkWidget *widget,
                             int        width,
                             int        height,
                             int        baseline)
{
  RpChartView *self = RP_CHART_VIEW (widget);

  if (self->stall_popover != NULL)
    gtk_popover_present (self->stall_popover);
}

static void
rp_chart_view_dispose (GObject *object)
{
  RpChartView *self = RP_CHART_VIEW (object);

  g_clear_handle_id (&self->redraw_id, g_source_remove);
  rp_chart_view_set_plot (self, NULL);
  g_clear_pointer (&self->frame_node, gsk_render_node_unref);
  g_clear_pointer (&self->strips, g_array_unref);
  g_clear_pointer (&self->description, g_free);
  g_clear_pointer (&self->stall_text, g_free);
  if (self->stall_popover != NULL)
    {
      gtk_widget_unparent (GTK_WIDGET (self->stall_popover));
      self->stall_popover = NULL;
      self->stall_label = NULL;
    }

  G_OBJECT_CLASS (rp_chart_view_parent_class)->dispose (object);
}

static void
rp_chart_view_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  RpChartView *self = RP_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_PLOT:
      g_value_set_object (value, self->plot);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_chart_view_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  RpChartView *self = RP_CHART_VIEW (object);

  switch (prop_id)
    {
    case PROP_PLOT:
      rp_chart_view_set_plot (self, g_value_get_object (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_chart_view_class_init (RpChartViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = rp_chart_view_dispose;
  object_class->get_property = rp_chart_view_get_property;
  object_class->set_property = rp_chart_view_set_property;

  widget_class->snapshot = rp_chart_view_snapshot;
  widget_class->measure = rp_chart_view_measure;
  widget_class->query_tooltip = rp_chart_view_query_tooltip;
  widget_class->size_allocate = rp_chart_view_size_allocate;

  properties[PROP_PLOT] =
    g_param_spec_object ("plot", NULL, NULL, RP_TYPE_PLOT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "rpchartview");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
rp_chart_view_init (RpChartView *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkEventController *focus = gtk_event_controller_focus_new ();

  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *key = gtk_event_controller_key_new ();

  self->pointer_x = -1;
  self->stall_index = -1;
  self->stall_x = -1;
  self->strips = g_array_new (FALSE, TRUE, sizeof (Strip));
  g_array_set_clear_func (self->strips, strip_clear);

  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (key, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), key);
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);

  /* Reachable by Tab, so that a screen reader reads its values. */
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  g_signal_connect_swapped (focus, "enter", G_CALLBACK (update_description), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (on_focus_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), focus);

  /* Redraw when the theme flips between light and dark: the palette differs. */
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
}

/**
 * rp_chart_view_new:
 * @plot: (nullable): the plot to show
 *
 * Returns: (transfer floating): a new chart view
 */
GtkWidget *
rp_chart_view_new (RpPlot *plot)
{
  g_return_val_if_fail (plot == NULL || RP_IS_PLOT (plot), NULL);

  return g_object_new (RP_TYPE_CHART_VIEW, "plot", plot, NULL);
}

/**
 * rp_chart_view_get_plot:
 *
 * Returns: (transfer none) (nullable): the plot
 */
RpPlot *
rp_chart_view_get_plot (RpChartView *self)
{
  g_return_val_if_fail (RP_IS_CHART_VIEW (self), NULL);
  return self->plot;
}

/**
 * rp_chart_view_set_plot:
 * @plot: (nullable): the plot to show; the view redraws when it emits
 *   RpPlot::changed, and the owner calls rp_chart_view_refresh() when its
 *   series grow
 */
void
rp_chart_view_set_plot (RpChartView *self,
                        RpPlot      *plot)
{
  g_return_if_fail (RP_IS_CHART_VIEW (self));
  g_return_if_fail (plot == NULL || RP_IS_PLOT (plot));

  if (self->plot == plot)
    return;

  if (self->plot != NULL)
    g_clear_signal_handler (&self->changed_id, self->plot);
  g_set_object (&self->plot, plot);
  /* Another plot, other stalls: the keys start again from the edge. */
  self->stall_index = -1;
  self->stall_x = -1;
  g_clear_pointer (&self->stall_text, g_free);
  g_clear_pointer (&self->frame_node, gsk_render_node_unref);
  if (self->strips != NULL)
    g_array_set_size (self->strips, 0);
  if (plot != NULL)
    {
      self->changed_id = g_signal_connect (plot, "changed", G_CALLBACK (on_plot_changed), self);
      gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, rp_plot_get_title (plot),
                                      -1);
    }
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PLOT]);
}
