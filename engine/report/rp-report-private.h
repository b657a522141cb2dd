/* rp-report-private.h: what the report's files (model, JSON, text, comparison) share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "rp-report.h"
#include "rp-stream-stats.h"
#include "rp-comparison.h"
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
  double      baseline;       /* seconds from the start before the loads: 0 none */
  RpReportConfiguration configuration;  /* key NULL: not one of several runs */
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

/* rp-report-configuration.c */
JsonNode   *rp_report_configuration_to_json   (RpReport               *self);
gboolean    rp_report_configuration_from_json (JsonObject             *root,
                                               RpReportConfiguration  *out,
                                               GError                **error);
/* rp-report-stalls-json.c: the "stalls" member */
JsonArray  *rp_report_stalls_to_json    (RpReport   *self);
gboolean    rp_report_read_stalls       (JsonObject *root,
                                         GPtrArray  *out,
                                         GError    **error);
void        rp_report_take_stalls       (RpReport   *self,
                                         GPtrArray  *stalls);

/* rp-report-notes.c: a note's label and value for people (the PDF) */
char       *rp_report_note_label        (const char *key);
char       *rp_report_note_value        (const char *key,
                                         const char *value);

/* rp-report-text.c: units as the text shows them, also for the comparison and the PDF */
char       *rp_text_format_duration     (double      seconds);
char       *rp_text_format_created      (GDateTime  *created);

/* rp-comparison.c: the settings a comparison lists and a configuration
 * consists of (rp_compare_get_settings()). */
extern const RpCompareSetting rp_compare_settings[];
extern const guint            rp_n_compare_settings;

/* Limits of the loader beyond the public ones in rp-report.h. Our own reports
 * nest five levels deep; a string is a path or a note; names and units end
 * up in table cells and CSV rows. */
#define RP_REPORT_JSON_MAX_DEPTH      64
#define RP_REPORT_JSON_MAX_STRING     (1024 * 1024)
#define RP_REPORT_JSON_MAX_NAME_BYTES 200
#define RP_REPORT_JSON_MAX_UNIT_BYTES 32

/* json-glib 1.6 builds about 100 bytes of tree per array element and 300 per
 * object or member (measured). The pre-check counts 1 per '[' and ',' and 3
 * per '{' and ':', enough for RP_REPORT_MAX_JSON_SAMPLES samples written as
 * JSON arrays (version 1: 3 each) and a million other values, and so keeps
 * the tree under about 1.8 GB whatever the shape of the file. A version 2
 * report's samples are in blocks, one string per 4096 samples: its tree is
 * small, and only RP_REPORT_MAX_SAMPLES bounds them. */
#define RP_REPORT_JSON_MAX_TREE_UNITS (3 * (guint64) RP_REPORT_MAX_JSON_SAMPLES + 1000000)

/* rp-report-full-stats.c: statistics of every sample of a thinned series */
JsonObject *rp_report_full_stats_to_json (RpStreamStats *stats);
/* The disk sampler's samples close a period of 0.5 s: the one that ends
 * just after a stall still covers its end. A stall's window for what ran
 * meanwhile is [start, end + this] (rp-report-stalls.c, rp-report-causes.c),
 * and so are the slots a report keeps (rp_report_stall_windows()). */
#define RP_REPORT_PERIOD_SLACK 0.5

/* rp-report-windows.c: the window histograms (`window_histograms`). */
GArray     *rp_report_stall_windows     (RpReport        *self);
JsonObject *rp_report_windows_to_json   (RpTimeHistogram *histograms,
                                         GArray          *windows);
gboolean    rp_report_read_windows      (const char      *shown,
                                         JsonNode        *node,
                                         RpSeries        *series,
                                         GError         **error);
gboolean    rp_report_json_get_number    (JsonNode      *node,
                                          double        *out);
gboolean    rp_report_read_full_stats    (const char    *shown,
                                          JsonNode      *node,
                                          RpSeries      *series,
                                          gboolean       never_negative,
                                          GError       **error);

/* rp-report-blocks.c: samples of a version 2 report, in blocks of at most
 * this many (a series' chunk, 4096: a block's base64 then stays under 110 KB,
 * far below the loader's 1 MiB a string) */
#define RP_REPORT_BLOCK_SAMPLES 4096

GPtrArray  *rp_report_blocks_encode     (const RpPoint *points,
                                         guint          n_points);
gboolean    rp_report_blocks_decode     (const char    *text,
                                         gsize          length,
                                         const char    *shown,
                                         guint          index,
                                         GArray        *points,
                                         GError       **error);

/* rp-report-file.c: %RP_ERROR_FAILED saying which limit a JSON report of
 * @n_samples samples and @n_bytes bytes is over */
gboolean    rp_report_check_savable     (guint64      n_samples,
                                         guint64      n_bytes,
                                         GError     **error);

/* rp-report-json-read.c: takes @bytes */
RpReport   *rp_report_load_from_bytes   (GByteArray  *bytes,
                                         GError     **error);

gboolean    rp_report_json_precheck     (const char  *data,
                                         gsize        length,
                                         GError     **error);

G_END_DECLS
