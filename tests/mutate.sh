#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Mutation testing of the engine's measuring and judging code (issue 23): each
# mutant is one small textual change (FILE, exact OLD text, NEW text) applied
# to a scratch copy of this tree, built, and run against the engine and cli
# suites. A mutant the tests fail on is killed; one they pass is a survivor,
# a gap in the tests. Not part of CI: it takes half an hour or so (a build
# and up to ~90 s of tests per mutant).
#
#   tests/mutate.sh                 every mutant
#   tests/mutate.sh stats json      only mutants whose name contains a word
#   MUTATE_JOBS=2 MUTATE_KEEP=1     parallel tests; keep the scratch copy
#   MUTATE_TESTS="judge stalls"     only these tests (and only their programs
#                                   built): a quick first pass on a busy
#                                   machine; a mutant killed there is killed,
#                                   a survivor may yet die in the full suites
#   MUTATE_FAST=1                   each mutant against the tests of its file
#                                   (fast_tests below), the others against
#                                   MUTATE_TESTS or the suites
#
# Prints each mutant killed (by which test) or SURVIVED, then the kill rate
# and the survivors; exits 1 when the rate is below 90 % or a mutant is stale
# (its OLD text is not found exactly once: the code changed, update the entry).
# The copy includes uncommitted changes (git ls-files plus untracked files).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
jobs=${MUTATE_JOBS:-2}

# --- the mutants: m NAME FILE OLD NEW ---------------------------------------------
# OLD must occur exactly once in FILE. Keep each change small and such that it
# still builds: a mutant that does not build tells nothing.
names=(); files=(); olds=(); news=()
m() { names+=("$1"); files+=("$2"); olds+=("$3"); news+=("$4"); }

# Statistics and the stall limits (base/rp-stats.c)
f=engine/base/rp-stats.c
m stats-instant-limit-inclusive $f 'if (sorted[i] > RP_LIMIT_INSTANT)' 'if (sorted[i] >= RP_LIMIT_INSTANT)'
m stats-flow-limit-inclusive    $f 'if (sorted[i] > RP_LIMIT_FLOW)' 'if (sorted[i] >= RP_LIMIT_FLOW)'
m stats-attention-limit-inclusive $f 'if (sorted[i] > RP_LIMIT_ATTENTION)' 'if (sorted[i] >= RP_LIMIT_ATTENTION)'
m stats-percentile-no-interpolation $f 'return sorted[i] + (h - lower) * (sorted[i + 1] - sorted[i]);' 'return sorted[i];'
m stats-stddev-population      $f 'sqrt (m2 / (double) (n - 1))' 'sqrt (m2 / (double) n)'
m stats-p99-is-p90             $f 'rp_stats_percentile (sorted, n, 0.99)' 'rp_stats_percentile (sorted, n, 0.90)'
m stats-mean-off-by-one        $f 'out_stats->mean = sum / (double) n;' 'out_stats->mean = sum / (double) (n + 1);'
m stats-infinity-kept          $f 'if (isfinite (values[i]))' 'if (!isnan (values[i]))'
m stats-max-second-largest     $f 'out_stats->max = sorted[n - 1];' 'out_stats->max = sorted[n > 1 ? n - 2 : 0];'

# Running statistics and their histogram (model/rp-stream-stats.c, base/rp-histogram.c)
f=engine/model/rp-stream-stats.c
m stream-flow-limit-inclusive  $f 'self->over_flow += v > RP_LIMIT_FLOW;' 'self->over_flow += v >= RP_LIMIT_FLOW;'
m stream-attention-limit-inclusive $f 'self->over_attention += v > RP_LIMIT_ATTENTION;' 'self->over_attention += v >= RP_LIMIT_ATTENTION;'
m stream-stddev-population     $f 'sqrt (self->m2 / (double) (n - 1))' 'sqrt (self->m2 / (double) n)'
m stream-follow-rereads        $f 'self->cursor += n;' 'self->cursor += n / 2;'
m histogram-bucket-floor       engine/base/rp-histogram.c 'i = ceil (log (value / RP_HISTOGRAM_LOWEST) * s->inv_ln_gamma);' 'i = floor (log (value / RP_HISTOGRAM_LOWEST) * s->inv_ln_gamma);'

# The snapshot's caveats (model/rp-sysinfo.c)
f=engine/model/rp-sysinfo-collect.c
m sysinfo-tmpfs-not-memory     $f '{ "tmpfs", "ramfs", "devtmpfs", NULL }' '{ "ramfs", "devtmpfs", NULL }'
m sysinfo-fuse-not-detected    $f 'self->is_fuse = fs_type != NULL && g_str_has_prefix (fs_type, "fuse");' 'self->is_fuse = FALSE;'

# Text width: lines of 80 (base/rp-text.c) and units (base/rp-units.c)
f=engine/base/rp-text.c
m text-line-one-short          $f 'if (length + char_length (c) > width)' 'if (length + char_length (c) >= width)'
m text-latin-bytes-ignored     $f 'return MAX (bytes, char_width (c));' 'return char_width (c);'
m text-wide-is-narrow          $f 'return g_unichar_iswide (c) ? 2 : 1;' 'return 1;'
m units-kb-is-kib              engine/base/rp-units.c '{ "KB", 1000 }' '{ "KB", RP_KiB }'
m units-latency-ms-from-10ms   engine/base/rp-units.c 'if (seconds < 0.01)' 'if (seconds < 0.001)'

# The report loader's limits (report/rp-report-json.c)
f=engine/report/rp-report-json-read.c
m json-sample-limit-inclusive  $f 'if (*n_samples > limit)' 'if (*n_samples >= limit)'
m json-future-version-read     $f 'if (v > RP_REPORT_VERSION)' 'if (v > RP_REPORT_VERSION + 1)'
m json-negative-latency-read   $f 'if (never_negative && point->v < 0)' 'if (never_negative && point->v < -1)'
m json-unsorted-kept           $f 'unsorted = TRUE;' 'unsorted = FALSE;'
m json-duration-over-a-year    $f 'if (*out > RP_REPORT_MAX_SECONDS)' 'if (*out > 1e308)'
m json-depth-limit-4x          engine/report/rp-report-json-check.c 'if (++depth > RP_REPORT_JSON_MAX_DEPTH)' 'if (++depth > 4 * RP_REPORT_JSON_MAX_DEPTH)'
m json-huge-values-read        $f 'fabs (out->v) <= RP_REPORT_MAX_VALUE;' 'fabs (out->v) <= 1e300;'

# The verdict (report/rp-report-text.c)
f=engine/run/rp-run-summary.c
m verdict-tmpfs-sentence-removed $f 'if (measured > 0 && sysinfo != NULL && sysinfo->fsync_is_noop)' 'if (FALSE)'
m verdict-always-instant-limit $f 'double limit = stats->over_flow > 0 ? RP_LIMIT_FLOW : RP_LIMIT_INSTANT;' 'double limit = RP_LIMIT_INSTANT;'
m verdict-attention-sentence-removed $f 'if (stats->over_attention == 0)' 'if (TRUE)'
m verdict-stalled-only-over-1s $f 'stalls = self->stats[i].over_instant > 0;' 'stalls = self->stats[i].over_flow > 0;'
m verdict-only-felt-series $f 'return (rp_run_summary_get_row_info (i)->flags & RP_SERIES_FLAG_JUDGED) &&' 'return (rp_run_summary_get_row_info (i)->flags & RP_SERIES_FLAG_FELT) &&'

# Significance (base/rp-significance.c) and the comparison (report/rp-comparison.c)
f=engine/base/rp-significance.c
m mwu-no-tie-correction $f 'ties += t * t * t - t;' 'ties += 0;'
m mwu-no-continuity-correction $f 'z = MAX (fabs (u - mean) - 0.5, 0) / sqrt (variance);' 'z = fabs (u - mean) / sqrt (variance);'
m holm-is-bonferroni $f 'double adjusted = MIN (1.0, (double) (m - i) * p[order[i]]);' 'double adjusted = MIN (1.0, (double) m * p[order[i]]);'
m holm-not-monotone $f 'running = MAX (running, adjusted);' 'running = adjusted;'
m bootstrap-one-sided-level $f '*out_low = percentile (figures, n_resamples, (1 - level) / 2);' '*out_low = percentile (figures, n_resamples, 1 - level);'
f=engine/report/rp-comparison.c
m compare-every-test-significant $f 'significant = row->p[g] < RP_SIGNIFICANCE_ALPHA;' 'significant = TRUE;'
m compare-no-holm $f 'rp_holm_adjust (raw, builder->tests->len, adjusted);' 'memcpy (adjusted, raw, builder->tests->len * sizeof *raw);'
m compare-no-grouping $f 'g_autofree char *key = (flags & RP_COMPARE_GROUP)' 'g_autofree char *key = FALSE'

# The fsync probe (parts/rp-fsync-probe.c; being rewritten around a parts
# table: update OLD when it changes)
f=engine/parts/rp-fsync-probe.c
m fsync-timed-from-pwrite      $f 't_done - t_sync);' 't_done - t_write);'
m fsync-stamped-at-pwrite      $f 'rp_series_append (fsync_series, rp_part_host_time_from_monotonic (host, t_sync),' 'rp_series_append (fsync_series, rp_part_host_time_from_monotonic (host, t_write),'
m fsync-wrong-offset           $f 'probe->buffer, probe->size, 0))' 'probe->buffer, probe->size, 4096))'
m fsync-half-size              $f 'probe->size = rp_params_get_size (params, "fsync_size");' 'probe->size = rp_params_get_size (params, "fsync_size") / 2;'
m fsync-wrong-byte             $f "memset (probe->buffer, 'a', probe->size);" "memset (probe->buffer, 'b', probe->size);"
m fsync-no-interval            $f 'while (rp_part_host_sleep (host, probe->interval));' 'while (rp_part_host_sleep (host, probe->interval / 10));'

# Issue 31: the figures of kernel events and device statistics (k31-…)
f=engine/parts/rp-trace-block.c
m k31-pause-divided-by-hz      $f 'return (double) pause_ms / 1000.0;' 'return (double) pause_ms / 250.0;'
m k31-pause-zero-counted       $f 'if (pause <= 0)' 'if (pause < 0)'
m k31-own-pause-as-other       $f 'if (task->kind == RP_TRACE_TASK_OTHER)
    rp_series_append (sink->writer_pause_other' 'if (task->kind != RP_TRACE_TASK_THREAD)
    rp_series_append (sink->writer_pause_other'
m k31-stats-only-long-requests $f 'rp_stream_stats_add (stats->all, &latency, 1);' 'if (latency > WINDOW) rp_stream_stats_add (stats->all, &latency, 1);'
f=engine/parts/rp-trace-tasks.c
m k31-child-process-as-thread  $f 'if (flags & RP_CLONE_THREAD)' 'if (flags & 0x100)'
m k31-reused-number-kept       $f 'g_hash_table_remove (sink->own_tasks, GINT_TO_POINTER (child));' '(void) child;'
m k31-created-tasks-forgotten  $f '  add_task (sink, child, kind, comm);
}' '  (void) kind;
}'
m k31-child-of-child-other     $f '  else if (by->kind != RP_TRACE_TASK_THREAD)
    kind = by->kind;' '  else if (by->kind != RP_TRACE_TASK_THREAD)
    kind = RP_TRACE_TASK_OTHER;'
f=engine/model/rp-series.c
m k31-series-stats-of-points   $f 'if (self->full_stats != NULL)
    {' 'if (self->full_stats == NULL && FALSE)
    {'
f=engine/model/rp-stream-stats.c
m k31-follow-ignores-full      $f 'full = self->series != NULL ? rp_series_get_full_stats (self->series) : NULL;' 'full = NULL;'
m k31-sorted-max-not-exact     $f 'values[n - 1] = rp_histogram_get_max (h);' '(void) h;'
m k31-histogram-bucket-count-1 engine/base/rp-histogram.c 'self->n += count;' 'self->n += 1;'
f=engine/report/rp-report-full-stats.c
m k31-full-fewer-than-points   $f 'if (n > m->n)' 'if (n > m->n + 1000000)'
m k31-full-buckets-unchecked   $f 'if (rp_histogram_get_count (histogram) != m->n)' 'if (FALSE)'
m k31-full-not-saved           engine/report/rp-report-json.c 'if (rp_series_get_full_stats (series) != NULL)
        {' 'if (FALSE)
        {'
f=engine/base/rp-proc-wait.c
m k31-diskstats-no-32bit-wrap  $f 'return (after - before) & G_MAXUINT32;' 'return after - before;'
m k31-diskstats-reset-zero     $f '  return after;
}' '  return 0;
}'
m k31-diskstats-total-last     $f 'total->write_ms += delta->write_ms;' 'total->write_ms = delta->write_ms;'

# Issue 31, the rest (j3): attribution, kernel events, device figures, the
# monitor's exposition and the matrix's restore (c31-…)
f=engine/model/rp-cause.c
m c31-read-never-behind-writes  $f 'return evidence->device_writing == RP_EVIDENCE_YES ? RP_CAUSE_BEHIND_WRITES : RP_CAUSE_DISK_READ;' 'return RP_CAUSE_DISK_READ;'
m c31-read-waits-writeback      $f '      return reads (evidence) ? RP_CAUSE_UNKNOWN : RP_CAUSE_OWN_WRITEBACK;' '      return RP_CAUSE_OWN_WRITEBACK;'
m c31-flush-buffer-is-writeback $f 'return site_class == SITE_PAGE_IO ? RP_CAUSE_OWN_WRITEBACK : RP_CAUSE_DISK_WRITE;' 'return RP_CAUSE_OWN_WRITEBACK;'
m c31-read-page-never-behind    $f '    case RP_CALL_KIND_READ:
      return read_cause (evidence);' '    case RP_CALL_KIND_READ:
      return RP_CAUSE_DISK_READ;'
m c31-qos-wbt-inverted          $f 'return evidence->wbt == RP_EVIDENCE_NO ? RP_CAUSE_DISK_QUEUE : RP_CAUSE_WBT;' 'return evidence->wbt == RP_EVIDENCE_YES ? RP_CAUSE_DISK_QUEUE : RP_CAUSE_WBT;'
m c31-tag-always-behind         $f 'return reads (evidence) && evidence->device_writing == RP_EVIDENCE_YES ? RP_CAUSE_BEHIND_WRITES' 'return reads (evidence) ? RP_CAUSE_BEHIND_WRITES'
m c31-folio-wait-is-writeback   $f '{ "folio_wait_bit_common", SITE_PAGE_IO },' '{ "folio_wait_bit_common", SITE_WRITEBACK },'
m c31-reclaim-site-unknown      $f '{ "shrink_folio_list", SITE_RECLAIM },' '{ "shrink_folio_list", SITE_UNKNOWN },'
m c31-commit-not-whole          $f '{ "jbd2_log_wait_commit", SITE_JOURNAL, TRUE },' '{ "jbd2_log_wait_commit", SITE_JOURNAL, FALSE },'
m c31-ordered-said-writeback    $f 'if (g_str_has_prefix (journal_mode, "ordered"))' 'if (g_str_has_prefix (journal_mode, "writeback"))'
m c31-behind-not-disk           $f 'cause == RP_CAUSE_DISK_QUEUE || cause == RP_CAUSE_BEHIND_WRITES;' 'cause == RP_CAUSE_DISK_QUEUE;'
m c31-bio-not-ambiguous         $f '                        sites[index].site_class == SITE_BIO);' '                        FALSE);'
m c31-reclaim-not-reclaim       $f 'return index >= 0 && sites[index].site_class == SITE_RECLAIM;' 'return FALSE;'
m c31-stopped-is-sleep          $f '      return RP_CAUSE_STOPPED;' '      return RP_CAUSE_SLEEP;'
f=engine/report/rp-report-causes.c
m c31-writing-rate-1k           $f '#define WRITING_MIN_RATE (1024.0 * 1024.0)' '#define WRITING_MIN_RATE (1024.0)'
m c31-device-always-writing     $f 'return mean >= WRITING_MIN_RATE ? RP_EVIDENCE_YES : RP_EVIDENCE_NO;' 'return RP_EVIDENCE_YES;'
m c31-wbt-zero-is-on            $f '> 0 ? RP_EVIDENCE_YES : RP_EVIDENCE_NO;' '>= 0 ? RP_EVIDENCE_YES : RP_EVIDENCE_NO;'
m c31-share-of-twice            $f 'MIN (share->seconds / stall->duration, 1.0)' 'MIN (share->seconds / (2 * stall->duration), 1.0)'
m c31-cause-seconds-last        $f 'seconds[share->cause] += share->seconds;' 'seconds[share->cause] = share->seconds;'
m c31-dominant-is-least         $f '(best == RP_N_CAUSES || seconds[c] > seconds[best])' '(best == RP_N_CAUSES || seconds[c] < seconds[best])'
m c31-call-share-halved         $f '100 * MIN (share.seconds / sampled, 1.0)' '50 * MIN (share.seconds / sampled, 1.0)'
m c31-dominant-series-last      $f '*total += stall->duration;' '*total = stall->duration;'
f=engine/run/rp-run-verdict.c
m c31-verdict-total-windows     $f '    total = (gulong) MIN (calls, G_MAXULONG);' '    (void) calls;'
m c31-short-total-windows       $f 'total = (gulong) MIN (info->count_note != NULL ? self->calls[worst] : stats->n, G_MAXULONG);' 'total = (gulong) MIN (stats->n, G_MAXULONG);'
m c31-short-count-instant       $f 'count = (gulong) MIN (stats->over_flow > 0 ? stats->over_flow : stats->over_instant, G_MAXULONG);' 'count = (gulong) MIN (stats->over_instant, G_MAXULONG);'
m c31-short-other-cause         $f '  if (self->row_causes[worst] == NULL)
    return stall_sentence' '  if (FALSE)
    return stall_sentence'
m c31-verdict-felt-not-first    $f 'if (stalls != (pass < 2) || felt != (pass % 2 == 0))' 'if (stalls != (pass < 2) || felt != (pass % 2 == 1))'
f=engine/parts/rp-trace-block.c
m c31-flush-op-is-write         $f '    case '"'"'F'"'"':
      return RP_TRACE_OP_FLUSH;' '    case '"'"'F'"'"':
      return RP_TRACE_OP_WRITE;'
m c31-request-latency-ms        $f '(double) (record->ts - *issued) * 1e-9);' '(double) (record->ts - *issued) * 1e-6);'
m c31-empty-write-counted-twice $f '      if (!g_hash_table_remove (sink->data_completed, sector))
        sink->ops[op].completed++;' '      g_hash_table_remove (sink->data_completed, sector);
        sink->ops[op].completed++;'
m c31-pause-max-last            $f 'sink->pause_max = MAX (sink->pause_max, seconds);' 'sink->pause_max = seconds;'
m c31-pause-seconds-count       $f 'sink->pause_seconds += seconds;' 'sink->pause_seconds += 1;'
m c31-long-request-not-own      $f '      rp_series_append (stats->series, issued, latency);
      return;' '      return;'
f=engine/parts/rp-trace-journal.c
m c31-commit-ms                 $f '*out_seconds = (double) (record->ts - *start) * 1e-9;' '*out_seconds = (double) (record->ts - *start) * 1e-6;'
m c31-commit-seconds-last       $f 'sink->commit_seconds += seconds;' 'sink->commit_seconds = seconds;'
m c31-sync-max-last             $f 'sink->sync_max = MAX (sink->sync_max, seconds);' 'sink->sync_max = seconds;'
m c31-phase-not-per-hz          $f '/ sink->hz;' '/ 1000.0;'
f=engine/parts/rp-trace-tasks.c
m c31-live-thread-not-own       $f '  if (g_file_test (own, G_FILE_TEST_IS_DIR))
    return RP_TRACE_TASK_THREAD;' '  if (FALSE)
    return RP_TRACE_TASK_THREAD;'
f=engine/parts/rp-disk-sampler.c
m c31-disk-bytes-per-kib        $f 'append (s->write_bytes, now, (double) d->write_sectors * 512 / dt);' 'append (s->write_bytes, now, (double) d->write_sectors * 1024 / dt);'
m c31-disk-await-seconds-ms     engine/base/rp-proc-wait.c 'return requests > 0 ? (double) ms / 1000.0 / (double) requests : NAN;' 'return requests > 0 ? (double) ms / (double) requests : NAN;'
m c31-disk-total-bytes-sectors  $f 'note_total (host, disk, "disk_read_bytes_total", (double) t->read_sectors * 512);' 'note_total (host, disk, "disk_read_bytes_total", (double) t->read_sectors);'
f=engine/base/rp-proc-wait.c
m c31-diskstats-flush-ms-wrong  $f 'out_counters->flush_ms = n >= 20 ? f[0] : 0;' 'out_counters->flush_ms = n >= 20 ? f[19] : 0;'
m c31-diskstats-read-ms-lost    $f 'total->read_ms += delta->read_ms;' 'total->read_ms = delta->read_ms;'
f=engine/report/rp-metrics.c
m c31-metrics-sum-counts        $f 'latency->sum += v;' 'latency->sum += 1;'
m c31-metrics-sum-last          $f '  append_double (out, latency->sum);' '  append_double (out, latency->sum / MAX (latency->count, 1));'
m c31-metrics-count-buckets     $f 'latency->count++;' 'latency->count += latency->count == 0;'
m c31-metrics-stall-inclusive   $f 'if (v > stall_limits[k])' 'if (v >= stall_limits[k])'
f=app/cli/rp-cli-matrix.c
m restore-dirty-bytes-not-back  $f '  if (bytes != NULL && g_strcmp0 (bytes, "0") != 0)
    write_sysctl (bytes_name, bytes, &error);' '  if (FALSE)
    write_sysctl (bytes_name, bytes, &error);'
m restore-dirty-background-kept $f '  restore_pair ("dirty_background_ratio", saved->background_ratio,
                "dirty_background_bytes", saved->background_bytes);' '  (void) restore_pair;'
m restore-dirty-ratio-kept      $f '  else if (ratio != NULL)
    write_sysctl (ratio_name, ratio, &error);' '  else if (FALSE)
    write_sysctl (ratio_name, ratio, &error);'

# Writers and cleanup paths
m writer-whole-last-block      engine/parts/rp-seq-writer.c 'guint64 length = MIN (writer->block_size, writer->total_size - bytes);' 'guint64 length = writer->block_size;'
m tmpfile-fallback-not-unlinked engine/run/rp-target.c 'if (unlink (path) != 0)' 'if (0)'

# fast_tests FILE: with MUTATE_FAST=1, the tests that check FILE's figures
# by value (a first pass: a survivor here is run again without it).
fast_tests() {
  case $1 in
    engine/model/rp-cause.c|engine/report/rp-report-causes.c) echo "stalls judge" ;;
    engine/run/rp-run-verdict.c) echo "judge report" ;;
    engine/parts/rp-trace-*.c) echo "trace-events" ;;
    engine/parts/rp-disk-sampler.c) echo "probes" ;;
    engine/base/rp-proc-wait.c) echo "stalls" ;;
    engine/report/rp-metrics.c) echo "metrics" ;;
    app/cli/rp-cli-matrix.c) echo "root-only" ;;   # its restore: matrix-restore
    *) echo "" ;;
  esac
}

# --- the scratch copy ------------------------------------------------------------
filters=("$@")
selected=()
for i in "${!names[@]}"; do
  if [ ${#filters[@]} -eq 0 ]; then selected+=("$i"); continue; fi
  for w in "${filters[@]}"; do
    case "${names[$i]}" in *"$w"*) selected+=("$i"); break ;; esac
  done
done
[ ${#selected[@]} -gt 0 ] || { echo "no mutant matches: ${filters[*]}" >&2; exit 2; }

scratch=$(mktemp -d "${MUTATE_DIR:-/var/tmp}/resprobe-mutate-XXXXXX")
# mktemp's 0700 keeps nobody out of the build: the fault matrix's rows as
# nobody (run as root) then fail the unmutated copy.
chmod 755 "$scratch"
cleanup() { [ "${MUTATE_KEEP:-0}" = 1 ] && echo "# kept $scratch" || rm -rf "$scratch"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
mkdir -p "$scratch/src" "$scratch/logs"
git -C "$src" ls-files -z --cached --others --exclude-standard |
  tar -C "$src" --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$scratch/src" -xf -
build=$scratch/build
echo "# scratch copy in $scratch; building (no GUI)"
if [ "${MUTATE_FAST:-0}" = 1 ] && [ -z "${MUTATE_TESTS:-}" ]; then
  MUTATE_TESTS=$(for i in "${selected[@]}"; do fast_tests "${files[$i]}"; done | tr ' ' '\n' | grep -v root-only | sort -u | tr '\n' ' ')
fi
# With MUTATE_TESTS, only their programs and the CLI are built, each time.
targets=()
if [ -n "${MUTATE_TESTS:-}" ]; then
  targets=(app/cli/resprobe-cli)
  for t in $MUTATE_TESTS; do
    [ -f "$src/tests/test-$t.c" ] && targets+=("tests/test-$t")
  done
fi
if ! nice meson setup "$build" "$scratch/src" -Dgui=false >"$scratch/logs/setup.log" 2>&1 ||
   ! nice ninja -C "$build" "${targets[@]}" >"$scratch/logs/build.log" 2>&1; then
  echo "the unmutated copy does not build: $scratch/logs" >&2; MUTATE_KEEP=1; exit 2
fi

# The engine and cli suites, the quick tests first: most mutants die there.
slow=(session loads cli faults)
quick=()
while read -r t; do
  t=${t##* / }
  [[ " ${slow[*]} " == *" $t "* ]] || quick+=("$t")
done < <(meson test -C "$build" --no-rebuild --list --suite engine --suite cli 2>/dev/null | grep ' / ')
if [ -n "${MUTATE_TESTS:-}" ]; then
  read -r -a quick <<<"$MUTATE_TESTS"
  slow=()
fi

# What the engine and cli suites cannot reach: the matrix's restore of
# vm.dirty_* runs as root only (test matrix-restore, which puts back what it
# changes). Mutants named restore-… are also run against it; without root
# they are not judged (the test skips).
root_tests=()
[ "$(id -u)" = 0 ] && root_tests=(matrix-restore)

# run_suite LOG [root]: 0 when every test passed; else prints the tests that
# failed. With "root", the root tests above run too.
run_suite() {
  local log=$1 sets=(quick slow) set
  local -a only=()
  if [ "${3:-}" = root-only ]; then sets=()
  elif [ -n "${3:-}" ]; then read -r -a only <<<"$3"; sets=(only); fi
  [ "${2:-}" = root ] && [ ${#root_tests[@]} -gt 0 ] && sets+=(root_tests)
  for set in "${sets[@]}"; do
    local -n tests=$set
    [ ${#tests[@]} -gt 0 ] || continue
    if ! nice meson test -C "$build" --no-rebuild --num-processes "$jobs" --maxfail 1 --print-errorlogs \
         "${tests[@]}" >>"$log" 2>&1; then
      python3 - "$build/meson-logs/testlog.json" <<'PY'
import json, sys
# Not the tests --maxfail interrupted: the ones that failed.
bad = [json.loads(l)["name"].split(" / ")[-1] for l in open(sys.argv[1])
       if json.loads(l)["result"] not in ("OK", "SKIP", "EXPECTEDFAIL", "INTERRUPT")]
print(",".join(bad) or "?")
PY
      return 1
    fi
  done
  return 0
}

echo "# the unmutated copy against the engine and cli suites"
baseline_root=""
for i in "${selected[@]}"; do [[ ${names[$i]} == restore-* ]] && baseline_root=root; done
if ! failed=$(run_suite "$scratch/logs/baseline.log" $baseline_root); then
  echo "the unmutated copy fails: $failed ($scratch/logs/baseline.log); fix that first" >&2
  MUTATE_KEEP=1; exit 2
fi

# --- each mutant -----------------------------------------------------------------
killed=0; survived=(); stale=(); unbuilt=(); n=0
for i in "${selected[@]}"; do
  n=$((n + 1))
  name=${names[$i]} file=$scratch/src/${files[$i]} log=$scratch/logs/${names[$i]}.log
  tag=$(printf '[%2d/%d]' "$n" "${#selected[@]}")
  count=$(python3 - "$file" "${olds[$i]}" "${news[$i]}" <<'PY'
import sys
path, old, new = sys.argv[1:]
try:
    text = open(path).read()
except OSError:
    print(0); sys.exit()
count = text.count(old)
if count == 1:
    open(path + ".mutate-orig", "w").write(text)
    open(path, "w").write(text.replace(old, new))
print(count)
PY
)
  if [ "$count" != 1 ]; then
    echo "$tag STALE    $name: “${olds[$i]}” found $count times in ${files[$i]}"
    stale+=("$name"); continue
  fi
  if ! nice ninja -C "$build" "${targets[@]}" >"$log" 2>&1; then
    echo "$tag UNBUILT  $name (see $log)"
    unbuilt+=("$name")
  elif [[ $name == restore-* ]] && [ ${#root_tests[@]} -eq 0 ]; then
    echo "$tag NOT ROOT $name: its test (matrix-restore) runs as root only"
    unbuilt+=("$name")
  elif failed=$(run_suite "$log" "$([[ $name == restore-* ]] && echo root)" \
                  "$([ "${MUTATE_FAST:-0}" = 1 ] && fast_tests "${files[$i]}")"); then
    echo "$tag SURVIVED $name: ${files[$i]}: ${olds[$i]} -> ${news[$i]}"
    survived+=("$name")
  else
    echo "$tag killed   $name (by $failed)"
    killed=$((killed + 1))
  fi
  # Restored with a new time: mv keeps the copy's, older than the mutant's
  # objects, and ninja would keep the mutant built in.
  mv "$file.mutate-orig" "$file" && touch "$file"
done
# Leave the build as the source is (for MUTATE_KEEP).
nice ninja -C "$build" "${targets[@]}" >/dev/null 2>&1

judged=$((killed + ${#survived[@]}))
rate=$(python3 -c "print(f'{100 * $killed / $judged:.1f}' if $judged else '0.0')")
echo "Mutants: ${#selected[@]}; killed $killed, survived ${#survived[@]}, stale ${#stale[@]}, not built ${#unbuilt[@]}"
echo "Kill rate: $rate % ($killed of $judged)"
[ ${#survived[@]} -eq 0 ] || echo "Survivors: ${survived[*]}"
[ ${#stale[@]} -eq 0 ] || echo "Stale (update their OLD text): ${stale[*]}"
[ ${#stale[@]} -eq 0 ] && python3 -c "import sys; sys.exit(0 if $judged and $killed * 10 >= $judged * 9 else 1)"
