/* rp-report-doc-private.h: A4 PDF documents of the exports: pages, paragraphs, headings, tables, page fill. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-report-export-private.h"

G_BEGIN_DECLS

/* A4 in points. The PDF is laid out in pixels at 96 dpi and scaled to
 * points, so that "Sans 9" is 9 pt on paper and the charts keep the
 * proportions of the screen. */
#define A4_WIDTH_PT   595.2756
#define A4_HEIGHT_PT  841.8898
#define PT_PER_PX     (72.0 / 96.0)
#define PAGE_MARGIN   60.0    /* 16 mm */
#define CELL_PAD_X    6.0
#define CELL_PAD_Y    3.0
/* The most columns a table has: a comparison's figure and its 8 runs. */
#define DOC_MAX_COLUMNS 9

typedef struct {
  Pen       pen;
  RpPlotStyle style;         /* the light style of the exported files, the pen's */
  RpReport *report;          /* a run's PDF: the run; NULL in a comparison's */
  double    page_width;      /* px */
  double    page_height;
  double    left;            /* the content box */
  double    right;
  double    top;
  double    bottom;          /* of this page's content */
  double    full_bottom;     /* of a page's content, but for the short page */
  guint     short_page;      /* the page that ends early, 0: none */
  double    short_bottom;    /* where it ends */
  double    y;               /* where the next block goes */
  guint     page;            /* 1-based; 0 before the first */
  guint     n_pages;         /* 0 while counting */
  double    min_fill;        /* the emptiest finished page's share of its content box */
  char     *footer;
} Doc;

/* A table: cells wrap inside their column; a row that does not fit starts a
 * new page, which repeats the header. */
typedef struct {
  guint        n_columns;
  const char  *header[DOC_MAX_COLUMNS];     /* NULL first cell: no header row */
  gboolean     right[DOC_MAX_COLUMNS];      /* right-aligned columns (numbers) */
  GPtrArray   *rows;          /* char **, n_columns cells each */
  gboolean     equal;         /* the columns after the first share the width equally (runs) */
  double       widths[DOC_MAX_COLUMNS];
} DocTable;

/* A last page is filled at least this much (a share of its content box)
 * when the document has two pages or more: a page of nine lines after a
 * full one looks like a mistake. */
#define MIN_LAST_PAGE_FILL (1.0 / 3)

/* How a pass lays the pages out: @n_pages 0 (unknown) while counting (the
 * footers say "Page N of N"); the page that ends early to give the last
 * page its share (@short_page, 0: none) and by how much. */
typedef struct {
  guint  n_pages;
  guint  short_page;
  double shorten;
} PdfPass;

/* Draws a whole document onto @surface in the pages @pass plans (its
 * bodies begin with doc_begin() and end with doc_end()); returns the
 * number of pages and, through doc_end(), the fill of the last and of the
 * emptiest other page. */
typedef guint (*DocDrawFunc) (gpointer         data,
                              cairo_surface_t *surface,
                              const PdfPass   *pass,
                              double          *out_last_fill,
                              double          *out_min_fill);

void     doc_begin        (Doc               *doc,
                           cairo_surface_t   *surface,
                           const PdfPass     *pass,
                           char              *footer);
guint    doc_end          (Doc               *doc,
                           double            *out_last_fill,
                           double            *out_min_fill);
double   doc_fill         (Doc               *doc);
double   doc_width        (Doc               *doc);
void     doc_draw_footer  (Doc               *doc);
void     doc_new_page     (Doc               *doc);
void     doc_need         (Doc               *doc,
                           double             height);
void     doc_paragraph    (Doc               *doc,
                           const char        *text,
                           double             scale,
                           gboolean           bold,
                           const RpRgba      *color,
                           double             alpha);
void     doc_heading      (Doc               *doc,
                           const char        *title,
                           double             keep_with_next);
void     doc_box          (Doc               *doc,
                           const char        *text);
void     doc_table_init   (DocTable          *table,
                           guint              n_columns);
void     doc_table_add    (DocTable          *table,
                           const char        *first,
                           ...) G_GNUC_NULL_TERMINATED;
void     doc_table        (Doc               *doc,
                           DocTable          *table,
                           gboolean           key_value);
void     doc_table_clear  (DocTable          *table);
guint    doc_layout       (DocDrawFunc        draw,
                           gpointer           data,
                           double            *out_last_fill,
                           double            *out_min_fill);
GBytes  *doc_render       (DocDrawFunc        draw,
                           gpointer           data,
                           const char        *title,
                           GDateTime         *created,
                           GError           **error);

G_END_DECLS
