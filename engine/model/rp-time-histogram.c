/* rp-time-histogram.c: a sparse histogram of every sample per 0.1 s of a run, merged over any window. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-time-histogram.h"

/* The device latency series keep a point per 0.1 s to be drawn; a stall's
 * "what ran meanwhile" wants the percentiles of every request of its
 * window (issue 31, defect 5: 20 window maxima of 2 500 requests gave p50
 * 6.25 ms where the requests' was 3.00 ms). One dense RpHistogram per
 * 0.1 s would be 27 KiB each, 970 MiB an hour; so each 0.1 s keeps only its
 * non-empty buckets of the same scheme (rp-histogram.c: DDSketch's, α =
 * 0.5 %), four of them to one (COARSE), sorted, one 32-bit word each: the
 * bucket's index (12 bits) and its count (20 bits; a count that fills up
 * continues in a second word of the same index). A window's histogram is
 * the sum of its slots', so its percentiles are within
 * %RP_TIME_HISTOGRAM_RELATIVE_ERROR (2.5 %) of the exact ones of the
 * samples of those slots (rp_histogram_percentile(); the extremes are then
 * bucket representatives too, within the same). Memory follows how many distinct
 * buckets a 0.1 s holds, not how many requests: at most 3458, in practice
 * tens to a few hundred (bench/bench-window-latency.c). Locked: the
 * kernel-event reader adds while the main thread merges. */

/* Four buckets of rp-histogram's scheme to a stored one: at 20 000 requests a
 * second of a log-normal spread (σ 0.7), one bucket each took 51 MB an hour
 * (bench row 7b), four 14 MB. The cost is the bound: a stored bucket stands
 * for its second fine one, at most two fine buckets from any of its values,
 * so within (1 + α)·γ² − 1 ≈ 2.5 % (γ = (1 + α)/(1 − α), α = 0.5 %). */
#define COARSE       4
#define INDEX_BITS   12
#define COUNT_BITS   20
#define COUNT_MAX    ((1u << COUNT_BITS) - 1)
#define ENTRY_INDEX(e) ((e) >> COUNT_BITS)
#define ENTRY_COUNT(e) ((e) & COUNT_MAX)
/* A slot this far behind the newest is trimmed to its size: a request is
 * added by its issue time when it completes, and completions more than
 * 10 s late are rare (they still land: the slot grows again). */
#define TRIM_BEHIND  100

typedef struct {
  guint32 n;
  guint32 cap;
  guint32 e[];
} Slot;

struct _RpTimeHistogram
{
  GMutex     lock;
  GPtrArray *slots;     /* (element-type Slot) (nullable elements): slot k is [k·W, (k+1)·W) */
  guint64    count;
  /* (nullable) (element-type guint): pairs, first and last slot, ascending
   * and apart: the only slots this holds (a report keeps those of its
   * stalls' windows: rp_time_histogram_add_covered()); %NULL: every slot
   * (a run's own). */
  GArray    *covered;
};

/**
 * rp_time_histogram_new:
 *
 * An empty histogram per %RP_TIME_HISTOGRAM_WIDTH of run time. Thread-safe.
 *
 * Returns: (transfer full): free with rp_time_histogram_free()
 */
RpTimeHistogram *
rp_time_histogram_new (void)
{
  RpTimeHistogram *self = g_new0 (RpTimeHistogram, 1);

  /* Every bucket index must fit its bits. */
  g_assert (rp_histogram_get_n_buckets () <= (1u << INDEX_BITS));
  g_mutex_init (&self->lock);
  self->slots = g_ptr_array_new_with_free_func (g_free);
  return self;
}

/**
 * rp_time_histogram_free:
 * @self: (nullable): a time histogram
 */
void
rp_time_histogram_free (RpTimeHistogram *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->slots);
  g_clear_pointer (&self->covered, g_array_unref);
  g_mutex_clear (&self->lock);
  g_free (self);
}

/* How many stored buckets there are. */
static gsize
coarse_buckets (void)
{
  return (rp_histogram_get_n_buckets () + COARSE - 1) / COARSE;
}

/* The fine bucket (rp-histogram.c) stored bucket @c stands for: its second
 * one, clamped to the last. */
static gsize
fine_of (gsize c)
{
  return c == 0 ? 0 : MIN (c * COARSE + 1, rp_histogram_get_n_buckets () - 1);
}

static gsize
slot_size (guint cap)
{
  return sizeof (Slot) + cap * sizeof (guint32);
}

/**
 * rp_time_histogram_copy:
 *
 * Returns: (transfer full): an independent copy
 */
RpTimeHistogram *
rp_time_histogram_copy (RpTimeHistogram *self)
{
  RpTimeHistogram *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = rp_time_histogram_new ();
  g_mutex_lock (&self->lock);
  g_ptr_array_set_size (copy->slots, self->slots->len);
  for (guint k = 0; k < self->slots->len; k++)
    {
      const Slot *s = g_ptr_array_index (self->slots, k);

      if (s != NULL)
        {
          Slot *c = g_memdup2 (s, slot_size (s->n));

          c->cap = s->n;
          g_ptr_array_index (copy->slots, k) = c;
        }
    }
  copy->count = self->count;
  if (self->covered != NULL)
    {
      copy->covered = g_array_sized_new (FALSE, FALSE, sizeof (guint), self->covered->len);
      g_array_append_vals (copy->covered, self->covered->data, self->covered->len);
    }
  g_mutex_unlock (&self->lock);
  return copy;
}

/* The slot of @t; *@ok is %FALSE for a time no slot can hold. */
static guint
slot_of (double t,
         gboolean *ok)
{
  double k = floor (t / RP_TIME_HISTOGRAM_WIDTH);

  *ok = isfinite (t) && k >= 0 && k < (double) (G_MAXUINT / 2);
  return *ok ? (guint) k : 0;
}

static void
trim (RpTimeHistogram *self,
      guint            k)
{
  Slot *s = g_ptr_array_index (self->slots, k);

  if (s != NULL && s->cap > s->n)
    {
      s = g_realloc (s, slot_size (s->n));
      s->cap = s->n;
      g_ptr_array_index (self->slots, k) = s;
    }
}

/* Adds @count to bucket @index of slot @k. Called with the lock held. */
static void
add_locked (RpTimeHistogram *self,
            guint            k,
            gsize            index,
            guint64          count)
{
  Slot *s;
  guint lo = 0, hi;

  if (k >= self->slots->len)
    {
      guint old = self->slots->len;

      g_ptr_array_set_size (self->slots, k + 1);
      for (guint j = old > TRIM_BEHIND ? old - TRIM_BEHIND : 0; j + TRIM_BEHIND <= k && j < old; j++)
        trim (self, j);
    }
  s = g_ptr_array_index (self->slots, k);
  if (s == NULL)
    {
      s = g_malloc (slot_size (4));
      s->n = 0;
      s->cap = 4;
      g_ptr_array_index (self->slots, k) = s;
    }
  self->count += count;
  while (count > 0)
    {
      guint32 add;

      /* The first word of @index, then past the full ones. */
      for (lo = 0, hi = s->n; lo < hi;)
        {
          guint mid = (lo + hi) / 2;

          if (ENTRY_INDEX (s->e[mid]) < index)
            lo = mid + 1;
          else
            hi = mid;
        }
      while (lo < s->n && ENTRY_INDEX (s->e[lo]) == index && ENTRY_COUNT (s->e[lo]) == COUNT_MAX)
        lo++;
      if (lo < s->n && ENTRY_INDEX (s->e[lo]) == index)
        {
          add = (guint32) MIN (count, (guint64) (COUNT_MAX - ENTRY_COUNT (s->e[lo])));
          s->e[lo] += add;
          count -= add;
          continue;
        }
      if (s->n == s->cap)
        {
          s->cap *= 2;
          s = g_realloc (s, slot_size (s->cap));
          g_ptr_array_index (self->slots, k) = s;
        }
      memmove (s->e + lo + 1, s->e + lo, (s->n - lo) * sizeof (guint32));
      add = (guint32) MIN (count, (guint64) COUNT_MAX);
      s->e[lo] = (guint32) index << COUNT_BITS | add;
      s->n++;
      count -= add;
    }
}

/**
 * rp_time_histogram_add:
 * @t: run time of the sample, seconds (a request's issue); in any order
 * @value: the sample (a latency, seconds); non-finite ones are skipped, as
 *   are times before 0 or past 13 years
 *
 * O(log of the slot's buckets) plus a move of the words after it.
 */
void
rp_time_histogram_add (RpTimeHistogram *self,
                       double           t,
                       double           value)
{
  gboolean ok;
  guint k = slot_of (t, &ok);

  g_return_if_fail (self != NULL);

  if (!ok || !isfinite (value))
    return;
  g_mutex_lock (&self->lock);
  add_locked (self, k, rp_histogram_index_of (value) / COARSE, 1);
  g_mutex_unlock (&self->lock);
}

/**
 * rp_time_histogram_add_bucket:
 * @slot: a slot: run time [@slot·W, (@slot + 1)·W), W = %RP_TIME_HISTOGRAM_WIDTH
 * @index: a stored bucket (rp_time_histogram_copy_slot()): a fourth of
 *   rp_histogram_get_n_buckets(), rounded up
 * @count: samples to add, at least 1
 *
 * Restores a saved histogram (rp_time_histogram_copy_slot()).
 *
 * Returns: %FALSE (and changes nothing) for a slot past 13 years, an index
 *   out of range, a count of 0 or one that would overflow the total
 */
gboolean
rp_time_histogram_add_bucket (RpTimeHistogram *self,
                              guint            slot,
                              gsize            index,
                              guint64          count)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (slot >= G_MAXUINT / 2 || index >= coarse_buckets () || count == 0 ||
      count > G_MAXUINT64 - self->count)
    return FALSE;
  g_mutex_lock (&self->lock);
  add_locked (self, slot, index, count);
  g_mutex_unlock (&self->lock);
  return TRUE;
}

/**
 * rp_time_histogram_get_count:
 *
 * Returns: the samples added, in all slots
 */
guint64
rp_time_histogram_get_count (RpTimeHistogram *self)
{
  guint64 n;

  g_return_val_if_fail (self != NULL, 0);
  g_mutex_lock (&self->lock);
  n = self->count;
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * rp_time_histogram_get_n_slots:
 *
 * Returns: one more than the last slot that was touched (0 when empty)
 */
guint
rp_time_histogram_get_n_slots (RpTimeHistogram *self)
{
  guint n;

  g_return_val_if_fail (self != NULL, 0);
  g_mutex_lock (&self->lock);
  n = self->slots->len;
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * rp_time_histogram_copy_slot:
 * @slot: a slot
 * @out_n: (out): how many buckets
 *
 * Returns: (transfer full) (array length=out_n) (nullable): the slot's
 *   non-empty buckets in ascending order of index, each once; %NULL when
 *   it has none
 */
RpTimeBucket *
rp_time_histogram_copy_slot (RpTimeHistogram *self,
                             guint            slot,
                             guint           *out_n)
{
  RpTimeBucket *buckets = NULL;
  const Slot *s;
  guint n = 0;

  g_return_val_if_fail (self != NULL && out_n != NULL, NULL);

  g_mutex_lock (&self->lock);
  s = slot < self->slots->len ? g_ptr_array_index (self->slots, slot) : NULL;
  if (s != NULL && s->n > 0)
    {
      buckets = g_new (RpTimeBucket, s->n);
      for (guint i = 0; i < s->n; i++)
        {
          if (n > 0 && buckets[n - 1].index == ENTRY_INDEX (s->e[i]))
            buckets[n - 1].count += ENTRY_COUNT (s->e[i]);
          else
            buckets[n++] = (RpTimeBucket) { ENTRY_INDEX (s->e[i]), ENTRY_COUNT (s->e[i]) };
        }
    }
  g_mutex_unlock (&self->lock);
  *out_n = n;
  return buckets;
}

static int
compare_start (gconstpointer a,
               gconstpointer b)
{
  const guint *ra = a, *rb = b;

  return (ra[0] > rb[0]) - (ra[0] < rb[0]);
}

/* The slots @windows touch, as pairs of first and last slot, ascending
 * and apart (overlapping or adjacent ones joined). */
static GArray *
ranges_of (const double *windows,
           guint         n_windows)
{
  GArray *ranges = g_array_new (FALSE, FALSE, 2 * sizeof (guint));
  guint n = 0;

  for (guint w = 0; w < n_windows; w++)
    {
      gboolean ok_from, ok_to;
      guint range[2] = { slot_of (MAX (windows[2 * w], 0), &ok_from), slot_of (windows[2 * w + 1], &ok_to) };

      if (!isfinite (windows[2 * w]) || !ok_to || range[1] < range[0])
        continue;
      g_array_append_val (ranges, range);
    }
  g_array_sort (ranges, compare_start);
  for (guint r = 0; r < ranges->len; r++)
    {
      guint *range = &g_array_index (ranges, guint, 2 * r);

      if (n > 0 && range[0] <= g_array_index (ranges, guint, 2 * n - 1) + 1)
        g_array_index (ranges, guint, 2 * n - 1) = MAX (g_array_index (ranges, guint, 2 * n - 1), range[1]);
      else
        {
          g_array_index (ranges, guint, 2 * n) = range[0];
          g_array_index (ranges, guint, 2 * n + 1) = range[1];
          n++;
        }
    }
  g_array_set_size (ranges, n);
  return ranges;
}

/**
 * rp_time_histogram_add_covered:
 * @first: a slot
 * @last: a slot, at least @first
 *
 * For a reader of a report, which keeps only the slots of its stalls'
 * windows (rp_time_histogram_get_ranges()): the first call makes these the
 * only slots @self holds, each later one adds to them. A slot outside
 * them is missing, not empty: rp_time_histogram_covers() tells.
 *
 * Returns: %FALSE (and changes nothing) when @last is before @first or
 *   @first is not after the last slot of the previous call
 */
gboolean
rp_time_histogram_add_covered (RpTimeHistogram *self,
                               guint            first,
                               guint            last)
{
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);

  g_mutex_lock (&self->lock);
  if (self->covered == NULL)
    self->covered = g_array_new (FALSE, FALSE, sizeof (guint));
  ok = first <= last && (self->covered->len == 0 || first > g_array_index (self->covered, guint, self->covered->len - 1));
  if (ok && self->covered->len > 0 && first == g_array_index (self->covered, guint, self->covered->len - 1) + 1)
    g_array_index (self->covered, guint, self->covered->len - 1) = last;
  else if (ok)
    {
      g_array_append_val (self->covered, first);
      g_array_append_val (self->covered, last);
    }
  g_mutex_unlock (&self->lock);
  return ok;
}

/* @ranges (ranges_of()) cut to the slots @self holds. Lock held. */
static void
intersect_covered (RpTimeHistogram *self,
                   GArray          *ranges)
{
  g_autoptr(GArray) cut = NULL;
  guint c = 0;

  if (self->covered == NULL)
    return;
  cut = g_array_new (FALSE, FALSE, 2 * sizeof (guint));
  for (guint r = 0; r < ranges->len; r++)
    {
      const guint *range = &g_array_index (ranges, guint, 2 * r);

      /* The covered ranges that end before this one cannot meet a later one either. */
      while (c < self->covered->len && g_array_index (self->covered, guint, c + 1) < range[0])
        c += 2;
      for (guint d = c; d < self->covered->len && g_array_index (self->covered, guint, d) <= range[1]; d += 2)
        {
          guint piece[2] = { MAX (range[0], g_array_index (self->covered, guint, d)),
                             MIN (range[1], g_array_index (self->covered, guint, d + 1)) };

          g_array_append_val (cut, piece);
        }
    }
  g_array_set_size (ranges, 0);
  g_array_append_vals (ranges, cut->data, cut->len);
}

/**
 * rp_time_histogram_get_ranges:
 * @windows: (array length=n_windows): pairs of run times, from and to (s)
 * @n_windows: how many pairs
 *
 * The slots rp_time_histogram_merge() would read for @windows and @self
 * holds: what a report must keep for its stalls' figures to be those of
 * the run (rp-report-windows.c).
 *
 * Returns: (transfer full) (element-type guint): pairs, first and last
 *   slot, ascending and apart
 */
GArray *
rp_time_histogram_get_ranges (RpTimeHistogram *self,
                              const double    *windows,
                              guint            n_windows)
{
  GArray *ranges;

  g_return_val_if_fail (self != NULL && (windows != NULL || n_windows == 0), NULL);

  ranges = ranges_of (windows, n_windows);
  g_mutex_lock (&self->lock);
  intersect_covered (self, ranges);
  g_mutex_unlock (&self->lock);
  return ranges;
}

/**
 * rp_time_histogram_covers:
 * @windows: (array length=n_windows): pairs of run times, from and to (s)
 * @n_windows: how many pairs
 *
 * Returns: %TRUE when @self holds every slot the windows touch (always for
 *   a run's own; for one read from a report, when its stalls' windows
 *   include them), so that rp_time_histogram_merge() is of every sample of
 *   the windows, not of part of them
 */
gboolean
rp_time_histogram_covers (RpTimeHistogram *self,
                          const double    *windows,
                          guint            n_windows)
{
  g_autoptr(GArray) ranges = NULL;
  g_autoptr(GArray) held = NULL;
  gboolean all = TRUE;

  g_return_val_if_fail (self != NULL && (windows != NULL || n_windows == 0), FALSE);

  ranges = ranges_of (windows, n_windows);
  held = g_array_copy (ranges);
  g_mutex_lock (&self->lock);
  intersect_covered (self, held);
  g_mutex_unlock (&self->lock);
  /* Both are apart and ascending: equal exactly when nothing was cut. */
  all = held->len == ranges->len &&
        memcmp (held->data, ranges->data, (gsize) ranges->len * 2 * sizeof (guint)) == 0;
  return all;
}

/**
 * rp_time_histogram_merge:
 * @windows: (array length=n_windows): pairs of run times, from and to (s)
 * @n_windows: how many pairs
 *
 * The histogram of every sample of the slots the windows touch: a window
 * [from, to] is widened to whole slots, at most %RP_TIME_HISTOGRAM_WIDTH at
 * each end; a slot two windows touch counts once. Its percentiles
 * (rp_histogram_percentile()) are within %RP_TIME_HISTOGRAM_RELATIVE_ERROR
 * (2.5 %) of the exact ones of those samples; so are its minimum and
 * maximum (bucket representatives, the samples themselves are not kept).
 * Cost: the slots' words, and a dense histogram (27 KiB).
 *
 * Returns: (transfer full) (nullable): the histogram, %NULL when the
 *   windows hold no sample
 */
RpHistogram *
rp_time_histogram_merge (RpTimeHistogram *self,
                         const double    *windows,
                         guint            n_windows)
{
  g_autoptr(GArray) ranges = NULL;
  g_autoptr(RpHistogram) histogram = NULL;
  gsize lo = G_MAXSIZE, hi = 0;
  double min, max;
  guint done = 0;

  g_return_val_if_fail (self != NULL && (windows != NULL || n_windows == 0), NULL);

  ranges = ranges_of (windows, n_windows);
  g_mutex_lock (&self->lock);
  /* Two passes over the same slots: the extremes first, which every
   * rp_histogram_add_bucket() is given. */
  for (guint pass = 0; pass < 2; pass++)
    {
      done = 0;
      for (guint r = 0; r < ranges->len; r++)
        {
          const guint *range = &g_array_index (ranges, guint, 2 * r);

          for (guint k = MAX (range[0], done); k <= range[1] && k < self->slots->len; k++)
            {
              const Slot *s = g_ptr_array_index (self->slots, k);

              for (guint i = 0; s != NULL && i < s->n; i++)
                if (pass == 0)
                  {
                    lo = MIN (lo, fine_of (ENTRY_INDEX (s->e[i])));
                    hi = MAX (hi, fine_of (ENTRY_INDEX (s->e[i])));
                  }
                else
                  rp_histogram_add_bucket (histogram, fine_of (ENTRY_INDEX (s->e[i])), ENTRY_COUNT (s->e[i]), min, max);
            }
          done = MAX (done, range[1] + 1);
        }
      if (pass == 0)
        {
          if (lo == G_MAXSIZE)
            break;
          histogram = rp_histogram_new ();
          min = rp_histogram_index_value (lo);
          max = rp_histogram_index_value (hi);
        }
    }
  g_mutex_unlock (&self->lock);
  return g_steal_pointer (&histogram);
}

/**
 * rp_time_histogram_get_memory:
 *
 * Returns: bytes the histogram asked the allocator for (its slot table and
 *   slots; the allocator's own overhead is not counted)
 */
gsize
rp_time_histogram_get_memory (RpTimeHistogram *self)
{
  gsize bytes;

  g_return_val_if_fail (self != NULL, 0);
  g_mutex_lock (&self->lock);
  bytes = sizeof *self + self->slots->len * sizeof (gpointer);
  for (guint k = 0; k < self->slots->len; k++)
    {
      const Slot *s = g_ptr_array_index (self->slots, k);

      if (s != NULL)
        bytes += slot_size (s->cap);
    }
  g_mutex_unlock (&self->lock);
  return bytes;
}
