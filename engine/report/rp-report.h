/* rp-report.h: a finished run (or a loaded one): snapshot, scenario, series, summary. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-parts.h"
#include "rp-run-summary.h"
#include "rp-scenario.h"
#include "rp-series.h"
#include "rp-session.h"
#include "rp-sysinfo.h"
#include "rp-report-enums.h"

G_BEGIN_DECLS

/* JSON format identity; see docs/REPORT-FORMAT.md. Version 2 keeps samples
 * in compact blocks (rp-report-blocks.c); version 1 reports, with a JSON
 * array per sample, still load. */
#define RP_REPORT_FORMAT  "resprobe-report"
#define RP_REPORT_VERSION 2

/* What a loader accepts from a file of unknown origin: more is an error.
 * A version 2 report takes about 4 to 7 bytes of file per sample (a day of
 * the CLI's default probes, 3.8 million samples at 44 a second, about 20
 * MB), and a loaded sample 14 bytes of memory (RpSeries), so 150 million
 * samples (30 days at 44 a second are 114 million) load in about 3 GB with
 * the file's text. Version 1 reports, whose samples json-glib builds a tree
 * of, stay limited to 5 million samples (RP_REPORT_MAX_JSON_SAMPLES).
 * rp_report_save() refuses a JSON report over either limit (CSV has none). */
#define RP_REPORT_MAX_FILE_SIZE (G_GUINT64_CONSTANT (1) << 30)
#define RP_REPORT_MAX_SAMPLES   150000000u
#define RP_REPORT_MAX_JSON_SAMPLES 5000000u
/* Series a loader accepts. A run writes about a hundred at most (64 writer
 * threads' write_latency_N and the probes'), and each loaded series costs
 * its first chunk of samples, about 56 KB of address space and 16 KB
 * resident however few samples it has (RpSeries, 4096 points a chunk): 80 000
 * one-sample series took 1.3 GB (issue 33). At this limit they take at most
 * 56 MB, within the bound the samples' limits keep. */
#define RP_REPORT_MAX_SERIES    1000u
/* The largest time (seconds) and magnitude of a value that a report may
 * hold: a year, where runs last 30 days at most (rp_scenario_validate()),
 * and 10^21 (a zettabyte; no counter of a machine gets there). Beyond them
 * times lose the precision that series and axes need, and figures no
 * longer fit a table. */
#define RP_REPORT_MAX_SECONDS   (366 * 24 * 3600.0)
/* The most commands a report's command load may have had (`--command`
 * given again; notes command_count, command_K_*): no run has more than a
 * few, and readers loop over them. */
#define RP_REPORT_MAX_COMMANDS  1000
#define RP_REPORT_MAX_VALUE     1e21

/* Note a loader adds: how many samples it dropped for a time before the
 * run's start (t < 0), which no run's series holds. */
#define RP_NOTE_SAMPLES_BEFORE_START "samples_dropped_before_start"

/* Series names the verdict and the comparison look for. */

#define RP_TYPE_REPORT (rp_report_get_type ())
G_DECLARE_FINAL_TYPE (RpReport, rp_report, RP, REPORT, GObject)

RpReport         *rp_report_new              (const RpSysinfo  *sysinfo,
                                              const RpScenario *scenario,
                                              GPtrArray        *series,
                                              GHashTable       *notes);
RpReport         *rp_report_new_from_session (RpSession     *session);
RpReport         *rp_report_load             (GFile         *file,
                                              GError       **error);
RpReport         *rp_report_load_from_data   (const char    *data,
                                              gssize         length,
                                              GError       **error);

GDateTime        *rp_report_get_created      (RpReport      *self);
const RpSysinfo  *rp_report_get_sysinfo      (RpReport      *self);
const RpScenario *rp_report_get_scenario     (RpReport      *self);
GPtrArray        *rp_report_get_series       (RpReport      *self);
RpSeries         *rp_report_lookup_series    (RpReport      *self,
                                              const char    *name);
GHashTable       *rp_report_get_notes        (RpReport      *self);
const char       *rp_report_get_error_message (RpReport     *self);
double            rp_report_get_duration     (RpReport      *self);
double            rp_report_get_baseline     (RpReport      *self);
gboolean          rp_report_get_stats        (RpReport      *self,
                                              const char    *name,
                                              RpStats       *out_stats);
char             *rp_report_get_verdict      (RpReport      *self);
char             *rp_report_get_short_verdict (RpReport     *self);
guint             rp_report_notes_command_count  (GHashTable *notes);
const char       *rp_report_notes_command_note   (GHashTable *notes,
                                                  guint       number,
                                                  const char *name);
gboolean          rp_report_notes_command_failed (GHashTable *notes,
                                                  guint       number);
RpRunSummary     *rp_report_get_summary      (RpReport      *self);

/**
 * RpReportEncoding:
 * @RP_REPORT_ENCODING_BLOCKS: version 2: each series' samples in compact
 *   blocks (docs/REPORT-FORMAT.md, "Sample blocks"); what reports are saved in
 * @RP_REPORT_ENCODING_ARRAYS: version 1: every sample a JSON array
 *   `[t, value]`, for readers of version 1 and for tools without a block
 *   decoder; at most %RP_REPORT_MAX_JSON_SAMPLES samples load back
 *
 * How rp_report_to_json_encoded() writes the samples.
 */
typedef enum {
  RP_REPORT_ENCODING_BLOCKS,
  RP_REPORT_ENCODING_ARRAYS,
} RpReportEncoding;

char             *rp_report_to_json          (RpReport      *self,
                                              gsize         *out_length);
char             *rp_report_to_json_encoded  (RpReport      *self,
                                              RpReportEncoding encoding,
                                              gsize         *out_length);
char             *rp_report_to_text          (RpReport      *self);
char             *rp_report_to_summary_text  (RpReport      *self);
char             *rp_report_format_duration  (RpReport      *self);
char             *rp_report_format_baseline  (RpReport      *self);
char             *rp_report_to_csv           (RpReport      *self);
gboolean          rp_report_save_contents    (GFile         *file,
                                              const char    *data,
                                              gsize          length,
                                              GError       **error);
gboolean          rp_report_save             (RpReport      *self,
                                              GFile         *file,
                                              const char    *format,
                                              GError       **error);

/**
 * RpReportConfiguration:
 * @key: a stable id of the configuration, the same in each of its repeats
 *   (a matrix cell's name, e.g. "ext3-ordered-none")
 * @label: the configuration for people
 * @repeat: which run of the configuration the report is, from 1
 * @repeats: how many runs of it were asked for
 *
 * Which configuration a run measured, when it was one of several runs of it
 * (`--repeat`): reports with the same @key belong together.
 */
typedef struct {
  char  *key;
  char  *label;
  guint  repeat;
  guint  repeats;
} RpReportConfiguration;

void              rp_report_set_configuration (RpReport     *self,
                                               const char   *key,
                                               const char   *label,
                                               guint         repeat,
                                               guint         repeats);
const RpReportConfiguration *rp_report_get_configuration (RpReport *self);

/**
 * RpMetricKind:
 * @RP_METRIC_LATENCY: seconds, lower is better
 * @RP_METRIC_COUNT: a number of stalls, lower is better
 * @RP_METRIC_RATE: bytes per second, higher is better
 * @RP_METRIC_SAMPLES: a number of samples, neither better nor worse (it
 *   says how much the other figures rest on)
 */
typedef enum {
  RP_METRIC_LATENCY,
  RP_METRIC_COUNT,
  RP_METRIC_RATE,
  RP_METRIC_SAMPLES,
} RpMetricKind;

/**
 * RpMetricStat:
 * @RP_METRIC_P50: the median
 * @RP_METRIC_P99: the 99th percentile
 * @RP_METRIC_MAX: the worst value
 * @RP_METRIC_OVER_INSTANT: how many values are over %RP_LIMIT_INSTANT
 * @RP_METRIC_OVER_FLOW: how many are over %RP_LIMIT_FLOW
 * @RP_METRIC_OVER_ATTENTION: how many are over %RP_LIMIT_ATTENTION
 * @RP_METRIC_MEAN: the mean
 * @RP_METRIC_N: how many samples
 *
 * Which figure of a series a comparison shows (rp_report_get_metric()).
 */
typedef enum {
  RP_METRIC_P50,
  RP_METRIC_P99,
  RP_METRIC_MAX,
  RP_METRIC_OVER_INSTANT,
  RP_METRIC_OVER_FLOW,
  RP_METRIC_OVER_ATTENTION,
  RP_METRIC_MEAN,
  RP_METRIC_N,
} RpMetricStat;

double            rp_report_get_metric       (RpReport      *self,
                                              const char    *series_name,
                                              RpMetricStat   stat);
char             *rp_report_format_metric    (RpMetricKind   kind,
                                              double         value);
char             *rp_report_format_change    (RpMetricKind   kind,
                                              double         base,
                                              double         value,
                                              int           *out_verdict);
char             *rp_report_compare_text     (GPtrArray     *reports);

G_END_DECLS
