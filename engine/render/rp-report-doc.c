/* rp-report-doc.c: A4 PDF documents of the exports: pages, paragraphs, headings, tables, page fill. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-pdf.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rp-report-doc-private.h"

/* Starts @doc on its first page of @surface, A4, laid out in pixels at 96
 * dpi (PT_PER_PX), in the light style of the exported files; @footer
 * (taken) goes under every page with its number. */
void
doc_begin (Doc             *doc,
           cairo_surface_t *surface,
           const PdfPass   *pass,
           char            *footer)
{
  cairo_t *cr = cairo_create (surface);

  memset (doc, 0, sizeof *doc);
  rp_plot_style_init_default (&doc->style, FALSE);
  cairo_scale (cr, PT_PER_PX, PT_PER_PX);
  rp_export_pen_init (&doc->pen, cr, &doc->style);
  doc->n_pages = pass->n_pages;
  doc->min_fill = 1;
  doc->short_page = pass->short_page;
  doc->page_width = A4_WIDTH_PT / PT_PER_PX;
  doc->page_height = A4_HEIGHT_PT / PT_PER_PX;
  doc->left = PAGE_MARGIN;
  doc->right = doc->page_width - PAGE_MARGIN;
  doc->top = PAGE_MARGIN;
  doc->full_bottom = doc->bottom = doc->page_height - PAGE_MARGIN;
  doc->short_bottom = doc->full_bottom - pass->shorten;
  doc->footer = footer;
  doc_new_page (doc);
}

/* Ends @doc: the last page's footer; how full the last page is
 * (@out_last_fill) and the emptiest other page (@out_min_fill, optional).
 * Returns the number of pages. */
guint
doc_end (Doc    *doc,
         double *out_last_fill,
         double *out_min_fill)
{
  cairo_t *cr = doc->pen.cr;

  doc_draw_footer (doc);
  *out_last_fill = doc_fill (doc);
  if (out_min_fill != NULL)
    *out_min_fill = doc->min_fill;
  g_clear_pointer (&doc->footer, g_free);
  rp_export_pen_clear (&doc->pen);
  cairo_destroy (cr);
  return doc->page;
}


/* How full the page being laid out is: a share of its content box. */
double
doc_fill (Doc *doc)
{
  return (doc->y - doc->top) / (doc->full_bottom - doc->top);
}

double
doc_width (Doc *doc)
{
  return doc->right - doc->left;
}

void
doc_draw_footer (Doc *doc)
{
  /* TRANSLATORS: page footer, e.g. "Page 2 of 3" */
  g_autofree char *number = g_strdup_printf (_("Page %u of %u"), doc->page,
                                             doc->n_pages > 0 ? doc->n_pages : doc->page);
  g_autoptr(PangoLayout) left = rp_export_pen_layout (&doc->pen, doc->footer, 0.85, FALSE, -1,
                                                      PANGO_ALIGN_LEFT);
  g_autoptr(PangoLayout) right = rp_export_pen_layout (&doc->pen, number, 0.85, FALSE, -1, PANGO_ALIGN_LEFT);
  double y = doc->full_bottom + (doc->page_height - doc->full_bottom - rp_export_layout_height (left)) / 2;
  const RpRgba *fg = &doc->pen.style->foreground;

  set_source (doc->pen.cr, fg, 0.2);
  cairo_rectangle (doc->pen.cr, doc->left, y - 6, doc_width (doc), 1);
  cairo_fill (doc->pen.cr);
  rp_export_show_layout (&doc->pen, left, doc->left, y, fg, 0.6);
  rp_export_show_layout (&doc->pen, right, doc->right - rp_export_layout_width (right), y, fg, 0.6);
}

void
doc_new_page (Doc *doc)
{
  if (doc->page > 0)
    {
      doc->min_fill = MIN (doc->min_fill, doc_fill (doc));
      doc_draw_footer (doc);
      cairo_show_page (doc->pen.cr);
    }
  doc->page++;
  doc->y = doc->top;
  doc->bottom = doc->page == doc->short_page ? doc->short_bottom : doc->full_bottom;
}

/* Starts a new page unless @height fits below the cursor (or the page is
 * still empty: a block taller than a page is cut, not repeated forever). */
void
doc_need (Doc    *doc,
          double  height)
{
  if (doc->y + height > doc->bottom && doc->y > doc->top)
    doc_new_page (doc);
}

void
doc_paragraph (Doc          *doc,
               const char   *text,
               double        scale,
               gboolean      bold,
               const RpRgba *color,
               double        alpha)
{
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, text, scale, bold, doc_width (doc),
                                                        PANGO_ALIGN_LEFT);
  double height = rp_export_layout_height (layout);

  doc_need (doc, height);
  rp_export_show_layout (&doc->pen, layout, doc->left, doc->y, color, alpha);
  doc->y += height;
}

/* A section title, kept on one page with @keep_with_next of what follows. */
void
doc_heading (Doc        *doc,
             const char *title,
             double      keep_with_next)
{
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, title, 1.3, TRUE, doc_width (doc),
                                                        PANGO_ALIGN_LEFT);
  double height = rp_export_layout_height (layout);
  const RpRgba *fg = &doc->pen.style->foreground;

  if (doc->y > doc->top)
    doc->y += 2 * GAP;
  doc_need (doc, height + 6 + keep_with_next);
  rp_export_show_layout (&doc->pen, layout, doc->left, doc->y, fg, 1);
  doc->y += height + 2;
  set_source (doc->pen.cr, fg, 0.25);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, doc_width (doc), 1);
  cairo_fill (doc->pen.cr);
  doc->y += 6;
}



void
doc_table_add (DocTable    *table,
               const char  *first,
               ...)
{
  char **cells = g_new0 (char *, table->n_columns + 1);
  va_list args;

  cells[0] = g_strdup (first);
  va_start (args, first);
  for (guint c = 1; c < table->n_columns; c++)
    cells[c] = g_strdup (va_arg (args, const char *));
  va_end (args);
  g_ptr_array_add (table->rows, cells);
}

static double
natural_width (Doc        *doc,
               const char *text,
               gboolean    bold)
{
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, text, 1.0, bold, -1, PANGO_ALIGN_LEFT);

  return rp_export_layout_width (layout);
}

/* A table of numbers: every column but the first as wide as its widest
 * cell, the first (names) gets the rest, at least a third, and wraps. A
 * key-value table (@stretch_last): keys as wide as the widest, at most half,
 * values get the rest. */
static void
doc_table_measure (Doc      *doc,
                   DocTable *table,
                   gboolean  stretch_last)
{
  double total = doc_width (doc), used = 0, first = 0;

  for (guint c = 0; c < table->n_columns; c++)
    {
      double width = table->header[0] != NULL ? natural_width (doc, table->header[c], TRUE) : 0;

      for (guint r = 0; r < table->rows->len; r++)
        width = MAX (width, natural_width (doc, ((char **) g_ptr_array_index (table->rows, r))[c], FALSE));
      table->widths[c] = width + 2 * CELL_PAD_X;
    }
  if (table->equal)
    {
      /* A column per run: the names get at most a quarter, every run the
       * same share of the rest, however long its label. */
      table->widths[0] = MIN (table->widths[0], floor (total / 4));
      for (guint c = 1; c < table->n_columns; c++)
        table->widths[c] = floor ((total - table->widths[0]) / (table->n_columns - 1));
      return;
    }
  if (stretch_last)
    {
      /* Key and value: the keys as wide as the widest, at most half. */
      table->widths[0] = MIN (table->widths[0], floor (total * 0.5));
      table->widths[1] = total - table->widths[0];
      return;
    }
  for (guint c = 1; c < table->n_columns; c++)
    used += table->widths[c];
  first = MAX (total - used, floor (total / 3));
  table->widths[0] = first;
  if (used + first > total)
    {
      /* Too wide: the number columns share what is left. */
      double scale = (total - first) / used;

      for (guint c = 1; c < table->n_columns; c++)
        table->widths[c] = floor (table->widths[c] * scale);
    }
}

static double
doc_table_row (Doc         *doc,
               DocTable    *table,
               const char **cells,
               gboolean     bold,
               gboolean     shaded,
               gboolean     draw)
{
  PangoLayout *layouts[DOC_MAX_COLUMNS];
  double height = 0, x = doc->left;

  for (guint c = 0; c < table->n_columns; c++)
    {
      layouts[c] = rp_export_pen_layout (&doc->pen, cells[c] ? cells[c] : "", 1.0, bold,
                                         table->widths[c] - 2 * CELL_PAD_X,
                                         table->right[c] ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
      height = MAX (height, rp_export_layout_height (layouts[c]));
    }
  height += 2 * CELL_PAD_Y;

  if (draw)
    {
      if (shaded)
        {
          set_source (doc->pen.cr, &doc->pen.style->grid, 0.6);
          cairo_rectangle (doc->pen.cr, doc->left, doc->y, doc_width (doc), height);
          cairo_fill (doc->pen.cr);
        }
      for (guint c = 0; c < table->n_columns; c++)
        {
          rp_export_show_layout (&doc->pen, layouts[c], x + CELL_PAD_X, doc->y + CELL_PAD_Y,
                                 &doc->pen.style->foreground, c == 0 && !bold ? 0.75 : 1);
          x += table->widths[c];
        }
      if (bold)
        {
          set_source (doc->pen.cr, &doc->pen.style->foreground, 0.3);
          cairo_rectangle (doc->pen.cr, doc->left, doc->y + height - 1, doc_width (doc), 1);
          cairo_fill (doc->pen.cr);
        }
    }
  for (guint c = 0; c < table->n_columns; c++)
    g_object_unref (layouts[c]);
  return height;
}

void
doc_table (Doc      *doc,
           DocTable *table,
           gboolean  key_value)
{
  gboolean has_header = table->header[0] != NULL;
  double header;

  doc_table_measure (doc, table, key_value);
  header = has_header ? doc_table_row (doc, table, table->header, TRUE, FALSE, FALSE) : 0;
  for (guint r = 0; r < table->rows->len; r++)
    {
      const char **cells = g_ptr_array_index (table->rows, r);
      double height = doc_table_row (doc, table, cells, FALSE, FALSE, FALSE);

      if (r == 0)
        doc_need (doc, header + height);
      else if (doc->y + height > doc->bottom)
        doc_new_page (doc);
      if (has_header && (r == 0 || doc->y == doc->top))
        doc->y += doc_table_row (doc, table, table->header, TRUE, FALSE, TRUE);
      doc->y += doc_table_row (doc, table, cells, FALSE, r % 2 == 1, TRUE);
    }
}

void
doc_table_init (DocTable *table,
                guint     n_columns)
{
  memset (table, 0, sizeof *table);
  g_assert (n_columns <= G_N_ELEMENTS (table->header));
  table->n_columns = n_columns;
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

void
doc_table_clear (DocTable *table)
{
  g_clear_pointer (&table->rows, g_ptr_array_unref);
}

static cairo_status_t
discard_bytes (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  return CAIRO_STATUS_SUCCESS;
}

/* One pass that only counts, onto a surface that discards its bytes. */
static gboolean
count_pages (DocDrawFunc     draw,
             gpointer        data,
             const PdfPass  *pass,
             guint          *out_pages,
             double         *out_last_fill,
             GError        **error)
{
  cairo_surface_t *surface = cairo_pdf_surface_create_for_stream (discard_bytes, NULL,
                                                                  A4_WIDTH_PT, A4_HEIGHT_PT);
  cairo_status_t status;

  *out_pages = draw (data, surface, pass, out_last_fill, NULL);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return rp_export_check_status (status, "PDF", error);
}

/* The footers say "of N": count the pages first. A last page filled less
 * than MIN_LAST_PAGE_FILL takes lines from the page before it, which ends
 * early by what is missing (widow control, as a typesetter does): the
 * pages before stay as they were, so the count does not change; a second
 * count confirms it. */
static gboolean
plan_pages (DocDrawFunc  draw,
            gpointer     data,
            PdfPass     *out_pass,
            double      *out_last_fill,
            GError     **error)
{
  PdfPass pass = { 0, 0, 0 };
  PdfPass shortened;
  guint n_pages, n_shortened;
  double fill, shortened_fill, content = A4_HEIGHT_PT / PT_PER_PX - 2 * PAGE_MARGIN;

  if (!count_pages (draw, data, &pass, &n_pages, &fill, error))
    return FALSE;
  pass.n_pages = n_pages;
  *out_pass = pass;
  *out_last_fill = fill;
  if (n_pages < 2 || fill >= MIN_LAST_PAGE_FILL)
    return TRUE;

  /* The page before ended with some slack (a row that did not fit), so
   * ending it earlier by the deficit may move less than the deficit: end it
   * earlier again by what is still missing, a few times at most. */
  shortened = pass;
  shortened.n_pages = 0;
  shortened.short_page = n_pages - 1;
  shortened_fill = fill;
  for (guint attempt = 0; attempt < 4 && shortened_fill < MIN_LAST_PAGE_FILL; attempt++)
    {
      shortened.shorten += (MIN_LAST_PAGE_FILL - shortened_fill) * content + 1;
      if (!count_pages (draw, data, &shortened, &n_shortened, &shortened_fill, error))
        return FALSE;
      /* A block taller than what the short page lost (a chart) may move
       * whole: still one page, fuller. A layout with another page count
       * is not taken. */
      if (n_shortened != n_pages)
        return TRUE;
    }
  shortened.n_pages = n_pages;
  *out_pass = shortened;
  *out_last_fill = shortened_fill;
  return TRUE;
}

/* How @draw pages its document, for tests (see rp_report_pdf_layout()):
 * returns the number of pages, 0 on a cairo error. */
guint
doc_layout (DocDrawFunc  draw,
            gpointer     data,
            double      *out_last_fill,
            double      *out_min_fill)
{
  PdfPass pass;
  cairo_surface_t *surface;
  double last;

  if (!plan_pages (draw, data, &pass, out_last_fill, NULL))
    return 0;
  if (out_min_fill != NULL)
    {
      /* The planned pass once more, to measure its every page. */
      surface = cairo_pdf_surface_create_for_stream (discard_bytes, NULL, A4_WIDTH_PT, A4_HEIGHT_PT);
      draw (data, surface, &pass, &last, out_min_fill);
      cairo_surface_finish (surface);
      cairo_surface_destroy (surface);
    }
  return pass.n_pages;
}

/* The document @draw lays out, in memory, with @title and the date
 * @created in its metadata; %NULL with @error when cairo fails. */
GBytes *
doc_render (DocDrawFunc   draw,
            gpointer      data,
            const char   *title,
            GDateTime    *created,
            GError      **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GDateTime) utc = g_date_time_to_utc (created);
  g_autofree char *date = g_date_time_format (utc, "%Y-%m-%dT%H:%M:%SZ");
  cairo_surface_t *surface;
  cairo_status_t status;
  PdfPass pass;
  double fill;

  if (!plan_pages (draw, data, &pass, &fill, error))
    return NULL;

  surface = cairo_pdf_surface_create_for_stream (rp_export_append_bytes, bytes, A4_WIDTH_PT, A4_HEIGHT_PT);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "resprobe " PACKAGE_VERSION);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
  draw (data, surface, &pass, &fill, NULL);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (!rp_export_check_status (status, "PDF", error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/* @text (several lines) in a tinted box with an accent bar: the one thing
 * to read on a first page. */
void
doc_box (Doc        *doc,
         const char *text)
{
  const RpPlotStyle *style = doc->pen.style;
  double inset = GAP + 4;
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, text, 1.2, FALSE,
                                                        doc_width (doc) - 2 * inset, PANGO_ALIGN_LEFT);
  double height = rp_export_layout_height (layout) + 2 * GAP;

  doc_need (doc, height);
  set_source (doc->pen.cr, &style->palette[0], 0.08);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, doc_width (doc), height);
  cairo_fill (doc->pen.cr);
  set_source (doc->pen.cr, &style->palette[0], 1);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, 4, height);
  cairo_fill (doc->pen.cr);
  rp_export_show_layout (&doc->pen, layout, doc->left + inset, doc->y + GAP, &style->foreground, 1);
  doc->y += height;
}
