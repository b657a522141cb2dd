/* rp-stall.c: a stall's breakdown into wait sites (their causes: rp-cause.c). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-stall.h"

G_DEFINE_BOXED_TYPE (RpStall, rp_stall, rp_stall_copy, rp_stall_free)

static void
share_clear (gpointer data)
{
  RpWaitShare *share = data;

  g_free (share->site);
}

/**
 * rp_stall_new:
 * @series: the series of the call, e.g. "fsync_latency"
 * @start: run time of its start, seconds
 * @duration: seconds
 *
 * Returns: (transfer full): a stall without samples (@source %NULL,
 *   @blkio_delay unknown)
 */
RpStall *
rp_stall_new (const char *series,
              double      start,
              double      duration)
{
  RpStall *self = g_new0 (RpStall, 1);

  g_return_val_if_fail (series != NULL, NULL);

  self->series = g_strdup (series);
  self->start = start;
  self->duration = duration;
  self->blkio_delay = -1;
  self->breakdown = g_array_new (FALSE, FALSE, sizeof (RpWaitShare));
  g_array_set_clear_func (self->breakdown, share_clear);
  return self;
}

/**
 * rp_stall_copy:
 *
 * Returns: (transfer full): a deep copy
 */
RpStall *
rp_stall_copy (const RpStall *self)
{
  RpStall *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = rp_stall_new (self->series, self->start, self->duration);
  copy->source = g_strdup (self->source);
  copy->blkio_delay = self->blkio_delay;
  for (guint i = 0; i < self->breakdown->len; i++)
    {
      const RpWaitShare *share = &g_array_index (self->breakdown, RpWaitShare, i);

      rp_stall_add_wait (copy, share->site, share->seconds);
    }
  return copy;
}

void
rp_stall_free (RpStall *self)
{
  if (self == NULL)
    return;
  g_free (self->series);
  g_free (self->source);
  g_array_unref (self->breakdown);
  g_free (self);
}

/**
 * rp_stall_add_wait:
 * @site: a kernel symbol, %RP_WAIT_SITE_RUNNING or %RP_WAIT_SITE_UNKNOWN
 * @seconds: time to add to it
 *
 * Adds @seconds to @site's share, creating it on first use.
 */
void
rp_stall_add_wait (RpStall    *self,
                   const char *site,
                   double      seconds)
{
  RpWaitShare share;

  g_return_if_fail (self != NULL && site != NULL);

  for (guint i = 0; i < self->breakdown->len; i++)
    {
      RpWaitShare *known = &g_array_index (self->breakdown, RpWaitShare, i);

      if (g_str_equal (known->site, site))
        {
          known->seconds += seconds;
          return;
        }
    }
  share.site = g_strdup (site);
  share.seconds = seconds;
  g_array_append_val (self->breakdown, share);
}

static int
compare_seconds (gconstpointer a,
                 gconstpointer b)
{
  const RpWaitShare *sa = a, *sb = b;

  if (sa->seconds != sb->seconds)
    return sa->seconds > sb->seconds ? -1 : 1;
  return g_strcmp0 (sa->site, sb->site);
}

/**
 * rp_stall_sort:
 *
 * Orders the breakdown by seconds, most first (then by name, so that equal
 * shares come out the same in every report).
 */
void
rp_stall_sort (RpStall *self)
{
  g_return_if_fail (self != NULL);
  g_array_sort (self->breakdown, compare_seconds);
}

/**
 * rp_stall_get_sampled:
 *
 * Returns: seconds the samples account for (the sum of the breakdown)
 */
double
rp_stall_get_sampled (const RpStall *self)
{
  double sum = 0;

  for (guint i = 0; i < self->breakdown->len; i++)
    sum += g_array_index (self->breakdown, RpWaitShare, i).seconds;
  return sum;
}

/**
 * rp_stall_get_named:
 *
 * Returns: seconds attributed to named wait sites: the breakdown without
 *   %RP_WAIT_SITE_RUNNING and %RP_WAIT_SITE_UNKNOWN
 */
double
rp_stall_get_named (const RpStall *self)
{
  double sum = 0;

  for (guint i = 0; i < self->breakdown->len; i++)
    {
      const RpWaitShare *share = &g_array_index (self->breakdown, RpWaitShare, i);

      if (!g_str_equal (share->site, RP_WAIT_SITE_RUNNING) &&
          !g_str_equal (share->site, RP_WAIT_SITE_UNKNOWN))
        sum += share->seconds;
    }
  return sum;
}

/**
 * rp_stall_get_dominant:
 *
 * Returns: (transfer none) (nullable): the share with the most seconds,
 *   %NULL without samples
 */
const RpWaitShare *
rp_stall_get_dominant (const RpStall *self)
{
  const RpWaitShare *best = NULL;

  for (guint i = 0; i < self->breakdown->len; i++)
    {
      const RpWaitShare *share = &g_array_index (self->breakdown, RpWaitShare, i);

      if (best == NULL || compare_seconds (share, best) < 0)
        best = share;
    }
  return best;
}

static int
compare_cause_seconds (gconstpointer a,
                       gconstpointer b)
{
  const RpCauseShare *sa = a, *sb = b;

  if (sa->seconds != sb->seconds)
    return sa->seconds > sb->seconds ? -1 : 1;
  return (int) sa->cause - (int) sb->cause;
}

/**
 * rp_stall_get_causes:
 * @evidence: (nullable): what decides the causes its sites leave open
 *   (rp_cause_of_site())
 *
 * The stall's breakdown by cause: the seconds of its wait sites added up
 * per cause, each with the site that had most of them.
 *
 * Returns: (transfer full) (element-type RpCauseShare): most seconds first
 *   (then by cause, the same order in every report); the sites point into
 *   the stall, valid while it lives
 */
GArray *
rp_stall_get_causes (const RpStall         *self,
                     const RpCauseEvidence *evidence)
{
  GArray *shares = g_array_new (FALSE, FALSE, sizeof (RpCauseShare));
  double best[RP_N_CAUSES] = { 0 };

  g_return_val_if_fail (self != NULL, shares);

  for (guint i = 0; i < self->breakdown->len; i++)
    {
      const RpWaitShare *wait = &g_array_index (self->breakdown, RpWaitShare, i);
      RpCause cause = rp_cause_of_site (wait->site, evidence);
      guint k;

      for (k = 0; k < shares->len; k++)
        if (g_array_index (shares, RpCauseShare, k).cause == cause)
          break;
      if (k == shares->len)
        {
          RpCauseShare share = { cause, 0, wait->site };

          g_array_append_val (shares, share);
        }
      g_array_index (shares, RpCauseShare, k).seconds += wait->seconds;
      if (wait->seconds > best[cause])
        {
          best[cause] = wait->seconds;
          g_array_index (shares, RpCauseShare, k).site = wait->site;
        }
    }
  g_array_sort (shares, compare_cause_seconds);
  return shares;
}
