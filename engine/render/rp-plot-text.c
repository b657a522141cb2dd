/* rp-plot-text.c: RpPlot's texts: Pango layouts cached between frames, and the metrics of the layout. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-plot-private.h"

/* Laid-out texts kept between frames (tick labels of a few ranges, the
 * legend, the title); more than this and the cache starts over. */
#define MAX_LAYOUTS 128

static double
layout_width (PangoLayout *layout,
              const char  *text)
{
  int width;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
set_font (PangoLayout *layout,
          const char  *font)
{
  PangoFontDescription *description = pango_font_description_from_string (font);

  pango_layout_set_font_description (layout, description);
  pango_font_description_free (description);
}

static PangoLayout *
create_layout (cairo_t           *cr,
               const RpPlotStyle *style)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);

  set_font (layout, style->font ? style->font : "Sans 9");
  return layout;
}

static void
set_bold (PangoLayout *layout,
          gboolean     bold)
{
  PangoAttrList *attrs = NULL;

  if (bold)
    {
      attrs = pango_attr_list_new ();
      pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
    }
  pango_layout_set_attributes (layout, attrs);
  if (attrs != NULL)
    pango_attr_list_unref (attrs);
}

static void
clear_layouts (RpPlot *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->layouts); i++)
    g_hash_table_remove_all (self->layouts[i]);
}

/* Points the text cache at @cr's target and @style's font. The layouts of
 * a changed font are dropped; those of a changed target (font options or
 * transformation: a PDF after the screen) lay themselves out again, as
 * Pango tracks the context. Only then: pango_cairo_update_context() marks
 * the context changed at every call, which would lay every text out at
 * every frame. A context belongs to the font map of one thread: a plot
 * drawn by another thread starts over. */
void
rp_plot_update_text_cache (RpPlot            *self,
                           cairo_t           *cr,
                           const RpPlotStyle *style)
{
  const char *font = style->font ? style->font : "Sans 9";
  PangoFontMap *map = pango_cairo_font_map_get_default ();
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_t *cr_options = cairo_font_options_create ();
  cairo_matrix_t matrix;

  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_get_font_options (cr, cr_options);
  cairo_font_options_merge (options, cr_options);
  cairo_font_options_destroy (cr_options);
  cairo_get_matrix (cr, &matrix);

  if (self->pango == NULL || pango_context_get_font_map (self->pango) != map ||
      g_strcmp0 (self->layouts_font, font) != 0)
    {
      clear_layouts (self);
      g_clear_object (&self->pango);
      self->pango = pango_cairo_create_context (cr);
      g_free (self->layouts_font);
      self->layouts_font = g_strdup (font);
    }
  else if (!cairo_font_options_equal (options, self->pango_options) ||
           memcmp (&matrix, &self->pango_matrix, sizeof matrix) != 0)
    {
      pango_cairo_update_context (cr, self->pango);
    }
  g_clear_pointer (&self->pango_options, cairo_font_options_destroy);
  self->pango_options = options;
  self->pango_matrix = matrix;
}

/* @text laid out in the current font, bold or not; owned by the cache. */
static PangoLayout *
cached_layout (RpPlot     *self,
               const char *text,
               gboolean    bold)
{
  GHashTable *layouts = self->layouts[bold ? 1 : 0];
  PangoLayout *layout = g_hash_table_lookup (layouts, text);

  if (layout != NULL)
    return layout;
  /* Ranges come and go (a live run steps through them): bound the cache. */
  if (g_hash_table_size (layouts) >= MAX_LAYOUTS)
    g_hash_table_remove_all (layouts);
  layout = pango_layout_new (self->pango);
  set_font (layout, self->layouts_font);
  set_bold (layout, bold);
  pango_layout_set_text (layout, text, -1);
  g_hash_table_insert (layouts, g_strdup (text), layout);
  return layout;
}

/* The width of @text as rp_plot_show_text() would draw it. */
double
rp_plot_text_width (Draw       *d,
                    const char *text)
{
  int width;

  pango_layout_get_pixel_size (cached_layout (d->plot, text, d->bold), &width, NULL);
  return width;
}

/* Draws @text with its left end (xalign 0), centre (0.5) or right end (1) at @x. */
void
rp_plot_show_text (Draw       *d,
                   const char *text,
                   double      x,
                   double      y,
                   double      xalign)
{
  PangoLayout *layout = cached_layout (d->plot, text, d->bold);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  cairo_move_to (d->cr, round (x - width * xalign), round (y));
  pango_cairo_show_layout (d->cr, layout);
}

/* The width reserved for y labels: the widest label the unit can produce, so
 * that charts of one unit line up and the plot area (hence the decimation
 * cache) keeps its width while the data grows. */
static double
measure_gutter (RpPlot      *self,
                PangoLayout *layout)
{
  g_autofree char *sample_ms = g_strdup_printf ("000 %s", rp_plot_time_symbol (RP_PLOT_MILLISECONDS));
  g_autofree char *sample_us = g_strdup_printf ("000 %s", rp_plot_time_symbol (RP_PLOT_MICROSECONDS));
  g_autofree char *sample_s = g_strdup_printf ("00.0 %s", rp_plot_time_symbol (RP_PLOT_SECONDS));
  const char *samples_s[] = { sample_ms, sample_us, sample_s };
  static const char *samples_b[] = { "0000 MiB" };
  static const char *samples_bs[] = { "0000 MiB/s" };
  static const char *samples_ratio[] = { "100%" };
  const char *unit = rp_plot_y_unit (self);
  const char **samples;
  guint n;
  double width = 0;

  if (g_strcmp0 (unit, "s") == 0)
    samples = samples_s, n = G_N_ELEMENTS (samples_s);
  else if (g_strcmp0 (unit, "B") == 0)
    samples = samples_b, n = G_N_ELEMENTS (samples_b);
  else if (g_strcmp0 (unit, "B/s") == 0)
    samples = samples_bs, n = G_N_ELEMENTS (samples_bs);
  else if (g_strcmp0 (unit, "ratio") == 0)
    samples = samples_ratio, n = G_N_ELEMENTS (samples_ratio);
  else
    {
      g_autofree char *sample = g_strdup_printf ("000 k%s", unit ? unit : "");

      return layout_width (layout, sample);
    }

  for (guint i = 0; i < n; i++)
    width = MAX (width, layout_width (layout, samples[i]));
  return width;
}

/* Text metrics on a scratch surface: preparing must not need the target. */
void
rp_plot_measure_texts (RpPlot            *self,
                       const RpPlotStyle *style)
{
  const char *font = style->font ? style->font : "Sans 9";
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  int line_height;

  if (self->metrics_valid && g_strcmp0 (self->metrics_font, font) == 0)
    return;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  layout = create_layout (cr, style);

  pango_layout_set_text (layout, "0", -1);
  pango_layout_get_pixel_size (layout, NULL, &line_height);
  self->line_height = line_height;
  self->gutter_width = measure_gutter (self, layout);
  self->time_label_width = layout_width (layout, "00 min");
  self->legend_width = 0;
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      entry->label_width = layout_width (layout, entry->label);
      if (!rp_plot_in_legend (self, entry))
        continue;
      if (self->legend_width > 0)
        self->legend_width += LEGEND_GAP;
      self->legend_width += SWATCH + PAD + entry->label_width;
    }
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *threshold = &g_array_index (self->thresholds, Threshold, i);

      threshold->label_width = threshold->label ? layout_width (layout, threshold->label) : 0;
    }
  set_bold (layout, TRUE);
  self->title_width = self->title ? layout_width (layout, self->title) : 0;

  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  g_free (self->metrics_font);
  self->metrics_font = g_strdup (font);
  self->metrics_valid = TRUE;
  self->frame_dirty = TRUE;
}
