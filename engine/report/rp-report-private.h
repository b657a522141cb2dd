/* rp-report-private.h: what the report's files (model, JSON, text, comparison) share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "rp-report.h"
#include "rp-report-stalls.h"
#include "rp-stats.h"
#include "rp-text.h"

G_BEGIN_DECLS

struct _RpReport
{
  GObject     parent_instance;

  GDateTime  *created;        /* start of the run, UTC */
  char       *generator;      /* "resprobe 0.1.0" of whoever wrote it */
  RpSysinfo  *sysinfo;
  RpScenario *scenario;
  GPtrArray  *series;         /* RpSeries, owned; nobody appends to them */
  GHashTable *notes;          /* char * → char * */
  char       *error_message;  /* nullable */
  double      duration;       /* seconds */
  GPtrArray  *stalls;         /* RpStall, by start; empty before version 2 */

  /* Statistics of each series, computed on first use. A report never changes,
   * so they stay valid; sorting millions of samples once is enough. Locked:
   * a GUI saves a report on a worker thread while its main thread shows the
   * verdict. */
  GMutex      stats_lock;
  RpStats    *stats;
  gboolean   *stats_valid;
};

/* rp-report.c */
RpReport   *rp_report_new_take          (GDateTime  *created,
                                         char       *generator,
                                         RpSysinfo  *sysinfo,
                                         RpScenario *scenario,
                                         GPtrArray  *series,
                                         GHashTable *notes,
                                         char       *error_message,
                                         double      duration);
void        rp_report_stats_at          (RpReport   *self,
                                         guint       index,
                                         RpStats    *out_stats);
GHashTable *rp_report_notes_new         (void);
GPtrArray  *rp_report_notes_sorted_keys (GHashTable *notes);
guint64     rp_report_count_samples     (RpReport   *self);

/* rp-report-stalls-json.c: the "stalls" member */
JsonArray  *rp_report_stalls_to_json    (RpReport   *self);
gboolean    rp_report_read_stalls       (JsonObject *root,
                                         GPtrArray  *out,
                                         GError    **error);
void        rp_report_take_stalls       (RpReport   *self,
                                         GPtrArray  *stalls);

/* rp-report-text.c: units as the text shows them, also for the comparison and the PDF */
char       *rp_text_format_duration     (double      seconds);
char       *rp_text_format_created      (GDateTime  *created);

/* Limits of the loader beyond the public ones in rp-report.h. Our own reports
 * nest five levels deep; a string is a path or a note; names and units end
 * up in table cells and CSV rows. */
#define RP_REPORT_JSON_MAX_DEPTH      64
#define RP_REPORT_JSON_MAX_STRING     (1024 * 1024)
#define RP_REPORT_JSON_MAX_NAME_BYTES 200
#define RP_REPORT_JSON_MAX_UNIT_BYTES 32

/* json-glib 1.6 builds about 100 bytes of tree per array element and 300 per
 * object or member (measured). The pre-check counts 1 per '[' and ',' and 3
 * per '{' and ':', enough for RP_REPORT_MAX_SAMPLES samples (3 each) and a
 * million other values, and so keeps the tree under about 1.8 GB whatever
 * the shape of the file. */
#define RP_REPORT_JSON_MAX_TREE_UNITS (3 * (guint64) RP_REPORT_MAX_SAMPLES + 1000000)

gboolean    rp_report_json_precheck     (const char  *data,
                                         gsize        length,
                                         GError     **error);

G_END_DECLS
