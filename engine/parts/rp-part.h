/* rp-part.h: what the program knows about one load or probe, in one record. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-cause.h"
#include "rp-part-host.h"
#include "rp-parts-enums.h"

G_BEGIN_DECLS

/**
 * RpPartRole:
 * @RP_PART_LOAD: makes the disk (or the CPU) busy: the `dd` of the reports
 * @RP_PART_PROBE: measures what a user feels while the loads run
 * @RP_PART_FRONT_END: series a front end appends itself (the window's
 *   main loop, frames and input need GDK); no worker, never in a scenario
 *
 * What a part is for. The order of the parts table is the order in which
 * descriptions, JSON arrays and the CLI's `--help` name them.
 */
typedef enum {
  RP_PART_LOAD,
  RP_PART_PROBE,
  RP_PART_FRONT_END,
} RpPartRole;

/**
 * RpSummaryRole:
 * @RP_SUMMARY_NONE: shown in charts, not judged
 * @RP_SUMMARY_LATENCY: a latency in seconds, judged against the response-time
 *   limits 0.1 s, 1 s and 10 s (Nielsen, "Usability Engineering", 1993, ch. 5)
 * @RP_SUMMARY_THROUGHPUT: a rate (bytes or work units per second): its mean
 *   is the figure
 * @RP_SUMMARY_LEVEL: a level (ratio, bytes): its mean and peak are the figures
 *
 * How a run summary, the verdict and a comparison read a series.
 */
typedef enum {
  RP_SUMMARY_NONE,
  RP_SUMMARY_LATENCY,
  RP_SUMMARY_THROUGHPUT,
  RP_SUMMARY_LEVEL,
} RpSummaryRole;

/**
 * RpSeriesFlags:
 * @RP_SERIES_FLAG_NONE: nothing special
 * @RP_SERIES_FLAG_FELT: a user waits for it directly (saving a file, a
 *   write, the window itself): the verdict names it before the others
 * @RP_SERIES_FLAG_STACKED: drawn as a stacked area (the CPU split)
 * @RP_SERIES_FLAG_PER_THREAD: @name is a prefix; the series are name0, name1 …
 *   one per thread (the parallel writers' write_latency_N)
 * @RP_SERIES_FLAG_IN_SUMMARY: a row of the summary table (text report, CLI,
 *   window) when the run has samples of it
 * @RP_SERIES_FLAG_JUDGED: a latency whose stalls count in the severity and
 *   the verdict (named by the series' @subject) and in the comparison's
 *   significance tests; needs %RP_SERIES_FLAG_IN_SUMMARY
 * @RP_SERIES_FLAG_CAUSE: a kernel series that says why others stalled
 *   (journal commits, device requests, writer pauses): a cause, never the
 *   subject of the judgement, which names what a user waited for
 */
typedef enum {
  RP_SERIES_FLAG_NONE       = 0,
  RP_SERIES_FLAG_FELT       = 1 << 0,
  RP_SERIES_FLAG_STACKED    = 1 << 1,
  RP_SERIES_FLAG_PER_THREAD = 1 << 2,
  RP_SERIES_FLAG_IN_SUMMARY = 1 << 3,
  RP_SERIES_FLAG_JUDGED     = 1 << 4,
  RP_SERIES_FLAG_CAUSE      = 1 << 5,
} RpSeriesFlags;

/**
 * RpSeriesInfo:
 * @name: the series' stable name in reports, e.g. "fsync_latency"
 * @unit: "s", "B/s", "B", "ratio" (0..1) or "ops/s"
 * @title: translatable (N_()) title, e.g. "fsync latency"
 * @chart: id of the chart that shows it (render/rp-plot-catalog.c), or %NULL
 * @legend: translatable (N_()) short label in that chart's legend
 * @label: translatable (N_()) label of its row in the window's summary
 *   table, or %NULL
 * @description: translatable (N_()) sentence saying what it measures, for
 *   tooltips, or %NULL
 * @rank: where it goes among the series: a chart's legend (and so its
 *   colours) and the summary table list them by rank
 * @role: how summaries read it
 * @flags: #RpSeriesFlags
 * @subject: translatable (N_()) plain words for what stalls, as the
 *   subject of the verdict's sentences ("%s stalled 7 of 60 times over
 *   0.1 s"), e.g. "Cold reads"; %NULL unless %RP_SERIES_FLAG_JUDGED
 * @count_note: (nullable): for a series that keeps one sample per window
 *   (the longest call of every 0.1 s; a stall always its own sample), the
 *   note holding the exact number of calls, e.g. "write_calls": the verdict
 *   counts calls, not windows; %NULL when every call is a sample
 * @call_kind: for the series of a timed call (its stalls carry its name),
 *   what the call does: the evidence that decides a stall's cause among
 *   those its wait site leaves open (rp_cause_of_site())
 * @call_name: translatable (N_()) name of one such call as a sentence
 *   opens with it, e.g. "A cold read" ("A cold read took 2.1 s at 3.0 s");
 *   %NULL for a series of no timed call
 *
 * One series a part produces. Units are the data model's: seconds, bytes,
 * ratios; percent and milliseconds appear only at the display edge.
 */
typedef struct {
  const char    *name;
  const char    *unit;
  const char    *title;
  const char    *chart;
  const char    *legend;
  const char    *label;
  const char    *description;
  guint          rank;
  RpSummaryRole  role;
  RpSeriesFlags  flags;
  const char    *subject;
  const char    *count_note;
  RpCallKind     call_kind;
  const char    *call_name;
} RpSeriesInfo;

/**
 * RpParamKind:
 * @RP_PARAM_SIZE: bytes (guint64), typed as "64K", "1.5G"
 * @RP_PARAM_SECONDS: seconds (double), typed as "0.5", "2m"
 * @RP_PARAM_COUNT: a whole number (guint64)
 * @RP_PARAM_FLAG: on or off (gboolean)
 * @RP_PARAM_ARGV: a program and its arguments (char **, %NULL-terminated)
 * @RP_PARAM_CHOICE: one of the words of #RpParamInfo's @choices, e.g.
 *   "auto", "on", "off" (stored as its index; a string in JSON)
 */
typedef enum {
  RP_PARAM_SIZE,
  RP_PARAM_SECONDS,
  RP_PARAM_COUNT,
  RP_PARAM_FLAG,
  RP_PARAM_ARGV,
  RP_PARAM_CHOICE,
} RpParamKind;

/**
 * RpParamInfo:
 * @key: stable key in the scenario's JSON, e.g. "fsync_interval"
 * @name: the name an error message gives, which is the CLI option's where
 *   there is one, e.g. "interval"
 * @option: the `resprobe-cli run` long option without "--", or %NULL when
 *   the parameter has none (or a front end sets it by a rule of its own, as
 *   `--size` does)
 * @kind: #RpParamKind
 * @min: smallest value (bytes, seconds, count)
 * @max: largest value
 * @default_value: the value of a new scenario (for a flag, 0 or 1)
 * @zero_means: translatable (N_()) meaning of 0 where 0 is allowed outside
 *   @min..@max, e.g. "until stopped"; %NULL where 0 is out of range
 * @help: translatable (N_()) `--help` text
 * @arg_description: translatable (N_()) placeholder, e.g. "SIZE"; %NULL for a flag
 * @choices: for %RP_PARAM_CHOICE, its words (%NULL-terminated, untranslated:
 *   they are typed and stored as they are); @min 0, @max their number − 1,
 *   @default_value an index
 * @cli_rule: where @option is %NULL, the `resprobe-cli run` option (without
 *   "--") that sets the parameter by a rule of its own: "size" (`--size`
 *   sets the main load's size, rp_scenario_get_size_key()), "command" (a
 *   second `--command` is the first of the further commands); %NULL
 *   otherwise. Every parameter has one or the other (tests/test-cli-options.c)
 *
 * One parameter of a part. Ranges are checked by rp_params_validate(); rules
 * between parameters are the part's @validate.
 */
typedef struct {
  const char  *key;
  const char  *name;
  const char  *option;
  RpParamKind  kind;
  double       min;
  double       max;
  double       default_value;
  const char  *zero_means;
  const char  *help;
  const char  *arg_description;
  const char * const *choices;
  const char  *cli_rule;
} RpParamInfo;

typedef struct _RpParams RpParams;

/**
 * RpWorkerClass:
 * @name: short name for thread names and messages, e.g. "fsync-probe"
 * @prepare: runs on the starting thread before any worker starts; may do I/O
 *   (open files, create the copy source) but must not append samples: the
 *   session clock starts after every worker is prepared. Returns the
 *   worker's state, or %NULL with @error set, in which case nothing starts.
 * @run: the worker thread's body. Returns when rp_part_host_should_stop()
 *   says so, when its work is done, or after rp_part_host_fail().
 * @free_state: frees what @prepare returned (closing its files). May be %NULL.
 *
 * The code of a load or a probe. The session starts one thread per part.
 */
typedef struct {
  const char *name;
  gpointer  (*prepare)    (RpPartHost *host, GError **error);
  void      (*run)        (RpPartHost *host, gpointer state);
  void      (*free_state) (gpointer state);
} RpWorkerClass;

typedef struct _RpPartInfo RpPartInfo;

/**
 * RpPartInfo:
 * @id: stable id in reports and on the command line ("fsync", "seq-writer")
 * @role: #RpPartRole
 * @label: translatable (N_()) name, e.g. "fsync probe"
 * @sentence: translatable (N_()) clause of a one-line description with one
 *   %s for @describe's text, e.g. "fsync probe %s"
 * @start_rank: the session prepares and starts parts by rank, then in table
 *   order: probes (0) before loads (2) so that the first samples show the
 *   system at rest, as the reporters started fsync-tester before dd
 * @params: the part's parameters
 * @n_params: how many
 * @series: the series it produces
 * @n_series: how many
 * @worker: its code, %NULL for a front-end part
 * @validate: rules between its parameters beyond their ranges, or %NULL;
 *   @error names the parameter, as rp_params_validate() does
 * @write_budget: bytes it writes before or regardless of the run's length,
 *   for the free-space check, or %NULL for none
 * @describe: its settings as a short translated text, e.g. "1.0 MiB every
 *   1 s"; %NULL: the values of its parameters
 * @in_baseline: it starts with the run's baseline, the seconds before the
 *   loads and the other probes start (the system-wide samplers: CPU split,
 *   PSI, the device), so that activity from elsewhere shows as such; the
 *   other parts start after it
 *
 * Everything the program knows about one load or probe: scenario JSON,
 * validation, CLI options and `--help`, the chart catalog, the summaries and
 * the comparison read it from the one table, rp_parts_get_table(). A new
 * part is one file that defines its #RpPartInfo and one row in rp-parts.c.
 */
struct _RpPartInfo {
  const char          *id;
  RpPartRole           role;
  const char          *label;
  const char          *sentence;
  guint                start_rank;
  const RpParamInfo   *params;
  guint                n_params;
  const RpSeriesInfo  *series;
  guint                n_series;
  const RpWorkerClass *worker;
  gboolean           (*validate)     (const RpParams *params, GError **error);
  guint64            (*write_budget) (const RpParams *params);
  char              *(*describe)     (const RpParams *params);
  gboolean             in_baseline;
};

/* A part's arrays in its #RpPartInfo, each with its length. */
#define RP_PART_PARAMS(array) .params = (array), .n_params = G_N_ELEMENTS (array)
#define RP_PART_SERIES(array) .series = (array), .n_series = G_N_ELEMENTS (array)

G_END_DECLS
