/* rp-disk-sampler.c: what the target's device did (/proc/diskstats) and the kernel's dirty limits (/proc/vmstat). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-proc.h"
#include "rp-proc-wait.h"

/* The writer's rate is the page cache's: 4 GiB in 6 s, then nothing while
 * the disk writes for 30 s more. The device's own counters say what
 * reached the disk, how long its requests took and how busy it was; the
 * dirty thresholds say when the kernel throttles writers
 * (balance_dirty_pages) and when background writeback starts. Counters of
 * the device of the target's file system (st_dev of the folder: a
 * partition, a loop device, a dm device), every sample_period. */

/* How long the last look waits for calls in flight at the stop, seconds. */
#define FINAL_WAIT 60.0

typedef struct {
  RpSeries *reads, *writes, *discards, *flushes;
  RpSeries *read_bytes, *write_bytes, *in_flight, *await, *utilization;
} DiskSeries;

/* One block device watched: the target's, and the loads' when they write
 * to a folder on another device (R6: a copy to a USB stick while the
 * probes run on the fast disk). */
typedef struct {
  const char    *prefix;         /* of its series' and notes' names: "" or "load_" */
  guint          major, minor;
  char          *device;         /* kernel name; NULL: no device behind the folder */
  RpDiskCounters previous;
  RpDiskCounters total;          /* since prepare: the deltas of every look summed */
  DiskSeries     series;
} Disk;

typedef struct {
  RpPartHost    *host;           /* unowned: the run outlives its workers */
  gboolean       ran;
  int            diskstats_fd;
  int            vmstat_fd;
  Disk           target;
  Disk           load;           /* device NULL unless the loads' is another */
  double         period;
  guint64        allocstall_last, compact_stall_last;
} DiskSampler;

static gboolean read_counters (DiskSampler *sampler, const Disk *disk, RpDiskCounters *out);
static void note_totals (RpPartHost *host, const Disk *disk);
static void add_to_totals (Disk *disk, const RpDiskCounters *current);

/* The session frees its workers in start order once every thread is joined:
 * the disk sampler starts last (start_rank 3), so it is freed after the
 * loads closed their files, which waits for their pages under writeback.
 * Those requests belong to the run: the totals take one last look here. */
static void
disk_sampler_free (gpointer data)
{
  DiskSampler *sampler = data;
  RpDiskCounters last;

  if (sampler->ran && sampler->target.device != NULL && read_counters (sampler, &sampler->target, &last))
    {
      add_to_totals (&sampler->target, &last);
      note_totals (sampler->host, &sampler->target);
    }
  if (sampler->ran && sampler->load.device != NULL && read_counters (sampler, &sampler->load, &last))
    {
      add_to_totals (&sampler->load, &last);
      note_totals (sampler->host, &sampler->load);
    }

  if (sampler->diskstats_fd >= 0)
    close (sampler->diskstats_fd);
  if (sampler->vmstat_fd >= 0)
    close (sampler->vmstat_fd);
  g_free (sampler->target.device);
  g_free (sampler->load.device);
  g_free (sampler);
}

static gboolean
read_counters (DiskSampler    *sampler,
               const Disk     *disk,
               RpDiskCounters *out)
{
  char buffer[65536];

  return sampler->diskstats_fd >= 0 &&
         rp_proc_read_fd (sampler->diskstats_fd, buffer, sizeof buffer) &&
         rp_proc_parse_diskstats (buffer, disk->major, disk->minor, NULL, out);
}

/* The device behind @directory (st_dev), and its counters before the run:
 * of a partition, its whole disk (rp_block_whole_disk()), whose queue its
 * requests wait in with every other partition's, as the kernel events'
 * block requests are the disk's; a loop, dm or md device is itself. */
static void
find_disk (DiskSampler *sampler,
           Disk        *disk,
           const char  *directory)
{
  char buffer[65536];
  struct stat st;

  if (stat (directory, &st) != 0)
    return;
  rp_block_whole_disk (major (st.st_dev), minor (st.st_dev), &disk->major, &disk->minor);
  if (sampler->diskstats_fd >= 0 && rp_proc_read_fd (sampler->diskstats_fd, buffer, sizeof buffer))
    rp_proc_parse_diskstats (buffer, disk->major, disk->minor, &disk->device, &disk->previous);
  memset (&disk->total, 0, sizeof disk->total);
}

static gpointer
disk_sampler_prepare (RpPartHost *host,
                      GError    **error)
{
  DiskSampler *sampler = g_new0 (DiskSampler, 1);
  const char *load_directory = rp_part_host_get_load_directory (host);

  sampler->host = host;
  sampler->target.prefix = "";
  sampler->load.prefix = "load_";

  sampler->period = rp_params_get_seconds (rp_part_host_get_params (host), "disk_period");
  sampler->diskstats_fd = open ("/proc/diskstats", O_RDONLY | O_CLOEXEC);
  sampler->vmstat_fd = open ("/proc/vmstat", O_RDONLY | O_CLOEXEC);
  /* No device behind the folder (tmpfs, NFS, an anonymous btrfs
   * subvolume device) leaves the disk series out; the note says so. */
  find_disk (sampler, &sampler->target, rp_part_host_get_directory (host));
  rp_part_host_set_note (host, "disk_device", sampler->target.device != NULL ? sampler->target.device : "unknown");
  /* The loads on a device of their own: the one they fill may be the
   * bottleneck that the probes' device only feels through the dirty limit. */
  if (load_directory != NULL && g_strcmp0 (load_directory, rp_part_host_get_directory (host)) != 0)
    {
      find_disk (sampler, &sampler->load, load_directory);
      if (sampler->load.device != NULL && sampler->load.major == sampler->target.major &&
          sampler->load.minor == sampler->target.minor)
        g_clear_pointer (&sampler->load.device, g_free);
      if (sampler->load.device != NULL)
        rp_part_host_set_note (host, "load_disk_device", sampler->load.device);
    }
  return sampler;
}

typedef struct {
  RpSeries *dirty_threshold, *dirty_background_threshold, *allocstall, *compact_stall;
} VmSeries;

/* A series the device has (the loads' device has fewer). */
static void
append (RpSeries *series,
        double    t,
        double    value)
{
  if (series != NULL)
    rp_series_append (series, t, value);
}

static double
per_second (guint64 after,
            guint64 before,
            double  dt)
{
  return after >= before ? (double) (after - before) / dt : 0;
}

/* The series of one look, from the counters' growth @d over @dt seconds
 * (rp_disk_counters_delta(): across the kernel's 32-bit wraps). */
static void
append_disk (DiskSeries           *s,
             const RpDiskCounters *d,
             double                now,
             double                dt)
{
  double await = rp_disk_counters_await (d);

  append (s->reads, now, (double) d->reads / dt);
  append (s->writes, now, (double) d->writes / dt);
  append (s->discards, now, (double) d->discards / dt);
  append (s->flushes, now, (double) d->flushes / dt);
  /* Sectors of /proc/diskstats are 512 bytes whatever the device's. */
  append (s->read_bytes, now, (double) d->read_sectors * 512 / dt);
  append (s->write_bytes, now, (double) d->write_sectors * 512 / dt);
  append (s->in_flight, now, (double) d->in_flight);
  /* iostat's await: time per completed request, queueing included. */
  if (!isnan (await))
    append (s->await, now, await);
  /* io_ticks: ms the device had requests in flight; the share of the period. */
  append (s->utilization, now, MIN (1.0, (double) d->io_ticks_ms / 1000.0 / dt));
}

/* Adds what @disk's counters grew by since its last look, and makes
 * @current the last look. */
static void
add_to_totals (Disk                 *disk,
               const RpDiskCounters *current)
{
  RpDiskCounters delta;

  rp_disk_counters_delta (&disk->previous, current, &delta);
  rp_disk_counters_add (&disk->total, &delta);
  disk->previous = *current;
}

static void
append_vmstat (DiskSampler *sampler,
               VmSeries    *s,
               double       now,
               double       dt)
{
  static const char *const allocstalls[] = {
    "allocstall_dma", "allocstall_dma32", "allocstall_normal", "allocstall_movable",
    "allocstall_device",
  };
  double page = (double) sysconf (_SC_PAGESIZE);
  char buffer[16384];
  guint64 value, allocstall = 0, compact;

  if (sampler->vmstat_fd < 0 || !rp_proc_read_fd (sampler->vmstat_fd, buffer, sizeof buffer))
    return;
  if (rp_proc_parse_vmstat (buffer, "nr_dirty_threshold", &value))
    rp_series_append (s->dirty_threshold, now, value * page);
  if (rp_proc_parse_vmstat (buffer, "nr_dirty_background_threshold", &value))
    rp_series_append (s->dirty_background_threshold, now, value * page);
  for (guint i = 0; i < G_N_ELEMENTS (allocstalls); i++)
    if (rp_proc_parse_vmstat (buffer, allocstalls[i], &value))
      allocstall += value;
  if (dt > 0)
    rp_series_append (s->allocstall, now, per_second (allocstall, sampler->allocstall_last, dt));
  sampler->allocstall_last = allocstall;
  if (rp_proc_parse_vmstat (buffer, "compact_stall", &compact))
    {
      if (dt > 0)
        rp_series_append (s->compact_stall, now, per_second (compact, sampler->compact_stall_last, dt));
      sampler->compact_stall_last = compact;
    }
}

static void
note_total (RpPartHost *host,
            const Disk *disk,
            const char *name,
            double      value)
{
  g_autofree char *key = g_strconcat (disk->prefix, name, NULL);

  rp_part_host_set_number_note (host, key, "%.0f", value);
}

static void
note_totals (RpPartHost *host,
             const Disk *disk)
{
  const RpDiskCounters *t = &disk->total;

  note_total (host, disk, "disk_reads_total", (double) t->reads);
  note_total (host, disk, "disk_writes_total", (double) t->writes);
  note_total (host, disk, "disk_discards_total", (double) t->discards);
  note_total (host, disk, "disk_flushes_total", (double) t->flushes);
  note_total (host, disk, "disk_read_bytes_total", (double) t->read_sectors * 512);
  note_total (host, disk, "disk_write_bytes_total", (double) t->write_sectors * 512);
}

#define SERIES(field, name) s.field = rp_part_host_ensure_series (host, name, series_unit (name), _(series_title (name)))

static const RpSeriesInfo *find_info (const char *name);

static const char *
series_unit (const char *name)
{
  return find_info (name)->unit;
}

static const char *
series_title (const char *name)
{
  return find_info (name)->title;
}

/* The series of @disk that the table has (the loads' device: no request
 * rates by kind). */
static void
ensure_disk_series (RpPartHost *host,
                    Disk       *disk)
{
  static const char *const names[] = {
    "disk_reads", "disk_writes", "disk_discards", "disk_flushes", "disk_read_throughput",
    "disk_write_throughput", "disk_in_flight", "disk_await", "disk_utilization",
  };
  RpSeries **fields[] = {
    &disk->series.reads, &disk->series.writes, &disk->series.discards, &disk->series.flushes,
    &disk->series.read_bytes, &disk->series.write_bytes, &disk->series.in_flight,
    &disk->series.await, &disk->series.utilization,
  };

  G_STATIC_ASSERT (G_N_ELEMENTS (names) == G_N_ELEMENTS (fields));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *name = g_strconcat (disk->prefix, names[i], NULL);
      const RpSeriesInfo *info = find_info (name);

      if (info != NULL)
        *fields[i] = rp_part_host_ensure_series (host, name, info->unit, _(info->title));
    }
}

/* One look at @disk's counters: rates since the last, totals since the first. */
static void
sample_disk (DiskSampler *sampler,
             Disk        *disk,
             double       now,
             double       last)
{
  RpDiskCounters current, delta;

  if (disk->device == NULL || !read_counters (sampler, disk, &current))
    return;
  rp_disk_counters_delta (&disk->previous, &current, &delta);
  if (last >= 0 && now > last)
    append_disk (&disk->series, &delta, now, now - last);
  add_to_totals (disk, &current);
  note_totals (sampler->host, disk);
}

static void
disk_sampler_run (RpPartHost *host,
                  gpointer    state)
{
  DiskSampler *sampler = state;
  VmSeries s = { 0 };
  double last = -1;

  sampler->ran = TRUE;

  SERIES (dirty_threshold, "dirty_threshold_bytes");
  SERIES (dirty_background_threshold, "dirty_background_threshold_bytes");
  SERIES (allocstall, "allocstall");
  SERIES (compact_stall, "compact_stall");
  if (sampler->target.device != NULL)
    ensure_disk_series (host, &sampler->target);
  if (sampler->load.device != NULL)
    ensure_disk_series (host, &sampler->load);

  /* Rates need two reads: the first look gives none. The totals count from
   * prepare, before any load started, to a last look after the stop, so
   * that they cover the whole run. */
  for (gboolean running = TRUE; ; running = rp_part_host_sleep (host, sampler->period))
    {
      double now;

      /* The last look waits for the calls still in flight at the stop (an
       * fsync() that flushes the writer's dirty pages can take seconds):
       * their requests belong to the run. At most FINAL_WAIT seconds. */
      if (!running)
        for (double waited = 0; waited < FINAL_WAIT &&
             rp_call_registry_any_in_flight (rp_part_host_get_calls (host), rp_clock_now (), 0);
             waited += 0.01)
          g_usleep (10000);
      now = rp_part_host_now (host);

      append_vmstat (sampler, &s, now, last >= 0 ? now - last : 0);
      sample_disk (sampler, &sampler->target, now, last);
      sample_disk (sampler, &sampler->load, now, last);
      last = now;
      rp_part_host_changed (host);
      if (!running)
        break;
    }
  /* What sampling cost (bench/, issue 18 acceptance 3). */
  rp_part_host_set_number_note (host, "disk_sampler_cpu_seconds", "%.4f", rp_clock_thread_cpu_seconds ());
}

static const RpWorkerClass worker = {
  .name = "disk-sampler",
  .prepare = disk_sampler_prepare,
  .run = disk_sampler_run,
  .free_state = disk_sampler_free,
};

static const RpParamInfo params[] = {
  { "disk_period", "disk-period", "disk-period", RP_PARAM_SECONDS, 0.05, 60, 0.5, NULL,
    N_("Disk sampler: seconds between samples of /proc/diskstats (default 0.5)"), N_("SECONDS") },
};

#define RATE(name, title, legend, rank) \
  { name, "ops/s", title, "disk", legend, NULL, NULL, rank, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE }

/* Requests per second in the chart "Disk"; the device's byte rates beside
 * the writer's page-cache rate in "Throughput"; its time per request
 * beside the calls' latency; the dirty limits over the dirty memory. */
static const RpSeriesInfo series[] = {
  RATE ("disk_writes", N_("Device writes"), N_("writes/s"), 90),
  RATE ("disk_reads", N_("Device reads"), N_("reads/s"), 91),
  RATE ("disk_flushes", N_("Device flushes"), N_("flushes/s"), 92),
  RATE ("disk_discards", N_("Device discards"), N_("discards/s"), 93),
  { "disk_write_throughput", "B/s", N_("Device write rate"), "throughput", N_("device writes"),
    N_("Device write rate"), N_("Bytes per second the target's device wrote (/proc/diskstats, system-wide)"),
    94, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "disk_read_throughput", "B/s", N_("Device read rate"), "throughput", N_("device reads"), NULL, NULL,
    95, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "disk_await", "s", N_("Device time per request"), "disk-latency", N_("device, per request"),
    N_("Device time per request"),
    N_("Average time of the target's device per completed request, queueing included (iostat's await, system-wide)"),
    96, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE },
  { "disk_in_flight", "requests", N_("Device requests in flight"), NULL, NULL, NULL, NULL,
    97, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  { "disk_utilization", "ratio", N_("Device utilisation"), NULL, NULL, NULL, NULL,
    98, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  { "dirty_threshold_bytes", "B", N_("Dirty limit"), "memory", N_("dirty limit"), NULL, NULL,
    82, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  { "dirty_background_threshold_bytes", "B", N_("Background writeback limit"), "memory",
    N_("background limit"), NULL, NULL, 83, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  /* The loads' device when it is another (R6's USB stick): how busy it is
   * and how long its requests wait say whether it is the bottleneck. */
  { "load_disk_write_throughput", "B/s", N_("Load device write rate"), "throughput", N_("load device writes"),
    N_("Load device write rate"), N_("Bytes per second the device of the loads’ folder wrote, when it is not the target’s (/proc/diskstats, system-wide)"),
    101, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "load_disk_read_throughput", "B/s", N_("Load device read rate"), NULL, NULL, NULL, NULL,
    102, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "load_disk_await", "s", N_("Load device time per request"), "disk-latency", N_("load device, per request"),
    N_("Load device time per request"), NULL, 103, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE },
  { "load_disk_in_flight", "requests", N_("Load device requests in flight"), NULL, NULL, NULL, NULL,
    104, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  { "load_disk_utilization", "ratio", N_("Load device utilisation"), NULL, NULL, NULL, NULL,
    105, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  { "allocstall", "ops/s", N_("Direct reclaim stalls"), NULL, NULL, NULL, NULL,
    99, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  { "compact_stall", "ops/s", N_("Compaction stalls"), NULL, NULL, NULL, NULL,
    100, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
};

#undef RATE

static const RpSeriesInfo *
find_info (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (series); i++)
    if (g_str_equal (series[i].name, name))
      return &series[i];
  return NULL;
}

static char *
disk_sampler_describe (const RpParams *p)
{
  /* TRANSLATORS: "every 0.5 s" */
  return g_strdup_printf (_("every %g s"), rp_params_get_seconds (p, "disk_period"));
}

/* /proc/diskstats of the target's device and /proc/vmstat, sampled. */
const RpPartInfo rp_disk_part = {
  .id = "disk",
  .role = RP_PART_PROBE,
  .label = N_("Disk sampler"),
  /* TRANSLATORS: %s is e.g. "every 0.5 s" */
  .sentence = N_("disk sampler %s"),
  /* After the loads: its first look is the run's start, and its state is
   * freed after their files are closed (disk_sampler_free()). */
  .start_rank = 3,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .in_baseline = TRUE,
  .describe = disk_sampler_describe,
};
