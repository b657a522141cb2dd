/* rp-plot-style.c: RpPlot's default style (exports, tests), and the style each layer draws with. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-plot-private.h"

static void
rgba_from_hex (RpRgba  *rgba,
               guint32  rgb,
               double   alpha)
{
  rgba->red = ((rgb >> 16) & 0xff) / 255.0;
  rgba->green = ((rgb >> 8) & 0xff) / 255.0;
  rgba->blue = (rgb & 0xff) / 255.0;
  rgba->alpha = alpha;
}

/**
 * rp_plot_style_init_default:
 * @style: (out caller-allocates): the style to fill
 * @dark: whether the background is dark
 *
 * The GNOME palette (blue, orange, purple, green, red, yellow, brown, teal) on
 * an opaque light or dark background, for exports and tests. On screen the
 * widget takes the same roles from the theme.
 */
void
rp_plot_style_init_default (RpPlotStyle *style,
                            gboolean     dark)
{
  static const guint32 light[RP_PLOT_PALETTE_SIZE] = {
    0x1c71d8, 0xe66100, 0x813d9c, 0x26a269, 0xc01c28, 0xe5a50a, 0x865e3c, 0x2190a4,
  };
  static const guint32 night[RP_PLOT_PALETTE_SIZE] = {
    0x62a0ea, 0xffa348, 0xc061cb, 0x57e389, 0xf66151, 0xf8e45c, 0xcdab8f, 0x5bc8af,
  };

  g_return_if_fail (style != NULL);

  rgba_from_hex (&style->foreground, dark ? 0xffffff : 0x000000, dark ? 1.0 : 0.8);
  rgba_from_hex (&style->grid, dark ? 0xffffff : 0x000000, dark ? 0.10 : 0.08);
  rgba_from_hex (&style->background, dark ? 0x242424 : 0xffffff, 1.0);
  rgba_from_hex (&style->threshold, dark ? 0xf66151 : 0xc01c28, 0.8);
  for (guint i = 0; i < RP_PLOT_PALETTE_SIZE; i++)
    rgba_from_hex (&style->palette[i], dark ? night[i] : light[i], 1.0);
  style->font = "Sans 9";
}

/* @style, or the light default style in @fallback when @style is %NULL:
 * every drawing entry point takes a nullable style. */
const RpPlotStyle *
rp_plot_style_or_default (const RpPlotStyle *style,
                          RpPlotStyle       *fallback)
{
  if (style != NULL)
    return style;
  rp_plot_style_init_default (fallback, FALSE);
  return fallback;
}

/* Sets @d up to draw a layer of the last prepare of @self onto @cr, in
 * @style (%NULL: the default, kept in @fallback). Returns %FALSE when there
 * is nothing to draw: no prepare (the chart was too small), or no data
 * when @need_data. */
gboolean
rp_plot_draw_init (Draw              *d,
                   RpPlot            *self,
                   cairo_t           *cr,
                   const RpPlotStyle *style,
                   RpPlotStyle       *fallback,
                   gboolean           need_data)
{
  if (!self->prepared || (need_data && !self->has_data))
    return FALSE;
  *d = (Draw) { self, cr, rp_plot_style_or_default (style, fallback), FALSE, NULL };
  return TRUE;
}
