/* rp-device-profile.c: the slow devices the matrix can emulate, with their figures and sources. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "rp-device-profile.h"
#include "rp-error.h"
#include "rp-units.h"

/* The reports of docs/SCENARIOS.md came from laptop disks, RAID5 arrays and
 * USB sticks. Each profile gives the figures of one such device to the
 * nbdkit filter (app/nbdkit/rp-nbdkit-disk-filter.c). Rates are bytes per
 * second, durations seconds. The seek is over the whole emulated device, and
 * the mean seek between two uniformly random places is 8/15 of it
 * (E[sqrt|x−y|] for x, y uniform on [0, 1]), so a datasheet's average seek
 * S becomes a full seek of 15/8 × S. bench/bench-device.c checks with fio
 * that the emulation gives these figures (docs/PERFORMANCE.md). */

#define MB 1e6
#define MiB 1048576.0

static const RpDeviceProfile profiles[] = {
  { "native", N_("the plain loop image on this machine's disk"),
    0, 0, 0, -1, 0, 0, 0, 0, 0, NULL },
  /* USB 2.0 high speed carries at most 13 bulk packets of 512 bytes per
   * 125 µs microframe (USB 2.0 specification, table 5-10): 53 MB/s on the
   * bus, about 30 MB/s through usb-storage's bulk-only transport. Writes of
   * 5–10 MB/s, milliseconds per request and a slow cache flush are issue 20's
   * figures for cheap sticks; the values here are chosen inside those ranges. */
  { "usb2-stick", N_("a cheap USB 2 stick"),
    30 * MiB, 8 * MiB, 0.002, -1, 0, 0.050, 0, 0, 0,
    "USB 2.0 specification, table 5-10 (53 MB/s bulk on the bus); issue 20 (writes 5-10 MB/s, ms per request, slow flush)" },
  /* A 5400 rpm laptop disk: half a turn is 60 / 5400 / 2 = 5.6 ms of
   * rotational latency; 8 ms mean seek over the emulated part of the disk
   * (datasheets give ~12 ms over the whole platter), so a random 4 KiB read
   * takes 13.7 ms, inside issue 20's 12–15 ms; 70 MB/s sequential (issue 20:
   * 60–80 MB/s); 8 MB write cache (WD Scorpio Blue WD5000BEVT datasheet);
   * a flush waits for the cache to drain and one more turn (11 ms). */
  { "hdd-laptop", N_("a 5400 rpm laptop disk"),
    70 * MB, 70 * MB, 0.0056, -1, 0.015, 0.011, 8 * 1000 * 1000, 0, 0,
    "5400 rpm: 5.6 ms rotational latency; WD5000BEVT datasheet (8 MB cache); issue 20 (60-80 MB/s, 12-15 ms random)" },
  /* The R3 seed (LKML 2006): md RAID5 of four 7200 rpm disks. Each disk:
   * 4.2 ms rotational latency (60 / 7200 / 2), 8.5 ms average seek
   * (Seagate Barracuda 7200.10 datasheet), so a full seek of 16 ms here.
   * Three data disks of that era read about 3 × 60 MB/s; md's single raid5d
   * thread wrote less (100 MB/s chosen). Stripe: a 64 KiB chunk (mdadm's
   * default before 3.1) × 3 data disks; a write smaller than a stripe reads
   * the old data and parity and writes both one turn later (8.3 ms). */
  { "raid5-4x7200", N_("md RAID5 of four 7200 rpm disks (the R3 report)"),
    150 * MB, 100 * MB, 0.0042, -1, 0.016, 0.0083, 0, 192 * 1024, 0.0083,
    "7200 rpm: 4.2 ms rotational latency; Seagate Barracuda 7200.10 datasheet (8.5 ms seek); mdadm < 3.1 64 KiB chunk" },
  /* An SD card of Application Performance Class A1 and Speed Class 10 (SD
   * Association, Physical Layer Simplified Specification 6.00): at least
   * 1500 random 4 KiB reads and 500 random writes per second (0.67 ms and
   * 2 ms each), 10 MB/s sequential writes; reads 20 MB/s, under the High
   * Speed bus's 25 MB/s. */
  { "sd-card", N_("an SD card, class A1 / speed class 10"),
    20 * MB, 10 * MB, 0.00067, 0.002, 0, 0, 0, 0, 0,
    "SD Physical Layer Simplified Specification 6.00: A1 (1500/500 IOPS), Class 10 (10 MB/s), High Speed bus 25 MB/s" },
};

struct _RpDeviceChoice
{
  RpDeviceProfile profile;
  char           *name;      /* owned name of a custom profile */
};

/**
 * rp_device_profile_get_table:
 * @n_profiles: (out): how many
 *
 * Returns: (transfer none) (array length=n_profiles): the built-in
 *   profiles, `native` first
 */
const RpDeviceProfile *
rp_device_profile_get_table (guint *n_profiles)
{
  g_return_val_if_fail (n_profiles != NULL, NULL);

  *n_profiles = G_N_ELEMENTS (profiles);
  return profiles;
}

/**
 * rp_device_profile_is_native:
 *
 * Returns: %TRUE for a profile that emulates nothing (no nbdkit needed)
 */
gboolean
rp_device_profile_is_native (const RpDeviceProfile *profile)
{
  g_return_val_if_fail (profile != NULL, TRUE);

  return profile->read_rate == 0 && profile->write_rate == 0 && profile->latency == 0 &&
         profile->write_latency <= 0 && profile->seek == 0 && profile->flush == 0 &&
         profile->stripe == 0;
}

/**
 * rp_device_profile_is_rotational:
 *
 * Whether the profile is a spinning disk: one with a seek time (a disk
 * arm), as `hdd-laptop` and `raid5-4x7200`, or a custom profile with
 * `seek=`. Its loop device is then marked rotational (queue/rotational 1),
 * as the kernel marks a real one: bfq idles on a rotational disk's sync
 * queues and raises an interactive program's weight against sequential
 * readers by that flag (block/bfq-iosched.c), and writeback throttling's
 * default target follows it. A loop device on the emulated device's FUSE
 * file is not rotational by itself (seen: queue/rotational 0 on Linux 6.18).
 *
 * Returns: %TRUE for a disk with a seek time
 */
gboolean
rp_device_profile_is_rotational (const RpDeviceProfile *profile)
{
  g_return_val_if_fail (profile != NULL, FALSE);

  return profile->seek > 0;
}

static gboolean
parse_custom_pair (RpDeviceProfile  *profile,
                   const char       *key,
                   const char       *value,
                   GError          **error)
{
  guint64 bytes = 0;
  g_autofree char *field = g_strdup_printf ("--device custom:%s", key);

  if (g_str_equal (key, "read") || g_str_equal (key, "write") ||
      g_str_equal (key, "cache") || g_str_equal (key, "stripe"))
    {
      if (!rp_parse_size (value, field, &bytes, error))
        return FALSE;
      if (g_str_equal (key, "read"))
        profile->read_rate = (double) bytes;
      else if (g_str_equal (key, "write"))
        profile->write_rate = (double) bytes;
      else if (g_str_equal (key, "cache"))
        profile->cache = bytes;
      else
        profile->stripe = bytes;
      return TRUE;
    }
  if (g_str_equal (key, "latency"))
    return rp_parse_duration (value, field, &profile->latency, error);
  if (g_str_equal (key, "write-latency"))
    return rp_parse_duration (value, field, &profile->write_latency, error);
  if (g_str_equal (key, "seek"))
    return rp_parse_duration (value, field, &profile->seek, error);
  if (g_str_equal (key, "flush"))
    return rp_parse_duration (value, field, &profile->flush, error);
  if (g_str_equal (key, "rmw"))
    return rp_parse_duration (value, field, &profile->rmw, error);
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               /* TRANSLATORS: the parameter, then the ones there are (not translated) */
               _("--device custom: unknown parameter “%s” (choose from %s)"), key,
               "read, write, latency, write-latency, seek, flush, cache, stripe, rmw");
  return FALSE;
}

/* "custom:write=8M,read=30M" → "custom-write8M-read30M": a name that can be
 * a file name and a configuration key. */
static char *
custom_name (const char *parameters)
{
  GString *name = g_string_new ("custom");

  g_string_append_c (name, '-');
  for (const char *c = parameters; *c != '\0'; c++)
    if (g_ascii_isalnum (*c) || *c == '.')
      g_string_append_c (name, *c);
    else if (*c == ',')
      g_string_append_c (name, '-');
  return g_string_free (name, FALSE);
}

static RpDeviceChoice *
parse_custom (const char  *parameters,
              GError     **error)
{
  g_autoptr(RpDeviceChoice) choice = g_new0 (RpDeviceChoice, 1);
  g_auto(GStrv) pairs = g_strsplit (parameters, ",", -1);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  choice->profile.write_latency = -1;
  for (guint i = 0; pairs[i] != NULL; i++)
    {
      const char *equals = strchr (pairs[i], '=');
      g_autofree char *key = equals ? g_strndup (pairs[i], equals - pairs[i]) : NULL;

      if (key == NULL || *key == '\0' || equals[1] == '\0')
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("--device custom: “%s” is not KEY=VALUE (e.g. custom:write=8M,read=30M,latency=2ms,flush=50ms)"),
                       pairs[i]);
          return NULL;
        }
      /* write=5M,write=6M: which one was meant? The last would win silently. */
      if (!g_hash_table_add (seen, g_strdup (key)))
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: the parameter, then the custom profile as given */
                       _("--device custom: “%s” is given twice in “%s”; give each parameter once"),
                       key, parameters);
          return NULL;
        }
      if (!parse_custom_pair (&choice->profile, key, equals + 1, error))
        return NULL;
    }
  if (rp_device_profile_is_native (&choice->profile))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--device custom: “%s” slows nothing down; give at least one of read, write, latency, seek, flush"),
                   parameters);
      return NULL;
    }
  choice->name = custom_name (parameters);
  choice->profile.name = choice->name;
  return g_steal_pointer (&choice);
}

/**
 * rp_device_choice_parse:
 * @text: a profile's name ("usb2-stick") or "custom:KEY=VALUE,…" with the
 *   keys read, write (rates, bytes per second: "8M"), latency,
 *   write-latency, seek, flush, rmw (durations: "2ms"), cache, stripe (sizes)
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the unknown profile or the bad
 *   parameter
 *
 * Returns: (transfer full) (nullable): the profile chosen
 */
RpDeviceChoice *
rp_device_choice_parse (const char  *text,
                        GError     **error)
{
  g_autoptr(GString) names = g_string_new (NULL);
  RpDeviceChoice *choice;

  g_return_val_if_fail (text != NULL, NULL);

  if (g_str_has_prefix (text, "custom:"))
    return parse_custom (text + strlen ("custom:"), error);
  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      if (g_str_equal (text, profiles[i].name))
        {
          choice = g_new0 (RpDeviceChoice, 1);
          choice->profile = profiles[i];
          return choice;
        }
      g_string_append_printf (names, "%s, ", profiles[i].name);
    }
  g_string_append (names, "custom:KEY=VALUE,…");
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("--device: unknown profile “%s” (choose from %s)"), text, names->str);
  return NULL;
}

/**
 * rp_device_choice_get_profile:
 *
 * Returns: (transfer none): the profile; lives as long as @self
 */
const RpDeviceProfile *
rp_device_choice_get_profile (RpDeviceChoice *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return &self->profile;
}

/**
 * rp_device_choice_free:
 */
void
rp_device_choice_free (RpDeviceChoice *self)
{
  if (self == NULL)
    return;
  g_free (self->name);
  g_free (self);
}

/* Appends ", WHAT FIGURE" (no comma first) with VALUE in FORMAT's words
 * (rp_format_rate() for bytes per second, rp_format_latency() for seconds);
 * a VALUE of 0 or less is a figure the profile does not set: nothing. */
static void
append_figure (GString    *text,
               const char *what,
               double      value,
               char      *(*format) (double))
{
  g_autofree char *formatted = NULL;

  if (value <= 0)
    return;
  formatted = format (value);
  g_string_append_printf (text, "%s%s %s", text->len ? ", " : "", what, formatted);
}

/**
 * rp_device_profile_describe:
 *
 * Returns: (transfer full): the figures in words, "read 30 MiB/s, write
 *   8 MiB/s, latency 2 ms, flush 50 ms"; the parameter names are those of
 *   `custom:` and stay untranslated
 */
char *
rp_device_profile_describe (const RpDeviceProfile *profile)
{
  GString *text = g_string_new (NULL);

  g_return_val_if_fail (profile != NULL, NULL);

  append_figure (text, "read", profile->read_rate, rp_format_rate);
  append_figure (text, "write", profile->write_rate, rp_format_rate);
  append_figure (text, "latency", profile->latency, rp_format_latency);
  append_figure (text, "write-latency", profile->write_latency, rp_format_latency);
  append_figure (text, "seek", profile->seek, rp_format_latency);
  append_figure (text, "flush", profile->flush, rp_format_latency);
  if (profile->cache > 0)
    {
      g_autofree char *size = rp_format_size (profile->cache);
      g_string_append_printf (text, ", cache %s", size);
    }
  if (profile->stripe > 0)
    {
      g_autofree char *size = rp_format_size (profile->stripe);
      g_string_append_printf (text, ", stripe %s", size);
    }
  append_figure (text, "rmw", profile->rmw, rp_format_latency);
  return g_string_free (text, FALSE);
}

/**
 * rp_device_profile_filter_arguments:
 *
 * Returns: (transfer full) (element-type utf8): the filter's KEY=VALUE
 *   arguments for nbdkit's command line (rates and sizes in bytes,
 *   durations in seconds)
 */
GPtrArray *
rp_device_profile_filter_arguments (const RpDeviceProfile *profile)
{
  GPtrArray *arguments = g_ptr_array_new_with_free_func (g_free);
  char number[G_ASCII_DTOSTR_BUF_SIZE];

  g_return_val_if_fail (profile != NULL, arguments);

#define ADD_BYTES(key, value) \
  if ((value) > 0) g_ptr_array_add (arguments, g_strdup_printf ("%s=%" G_GUINT64_FORMAT, key, (guint64) (value)))
#define ADD_SECONDS(key, value) \
  if ((value) > 0) g_ptr_array_add (arguments, g_strdup_printf ("%s=%s", key, g_ascii_dtostr (number, sizeof number, value)))
  ADD_BYTES ("rp-read", profile->read_rate);
  ADD_BYTES ("rp-write", profile->write_rate);
  ADD_BYTES ("rp-cache", profile->cache);
  ADD_BYTES ("rp-stripe", profile->stripe);
  ADD_SECONDS ("rp-latency", profile->latency);
  ADD_SECONDS ("rp-write-latency", profile->write_latency);
  ADD_SECONDS ("rp-seek", profile->seek);
  ADD_SECONDS ("rp-flush", profile->flush);
  ADD_SECONDS ("rp-rmw", profile->rmw);
#undef ADD_BYTES
#undef ADD_SECONDS
  return arguments;
}

/**
 * rp_device_profile_random_read_latency:
 *
 * Returns: seconds of a 4 KiB read at a uniformly random place after
 *   another: latency, the mean seek (8/15 of a full one) and the transfer
 */
double
rp_device_profile_random_read_latency (const RpDeviceProfile *profile)
{
  g_return_val_if_fail (profile != NULL, 0);

  return profile->latency + profile->seek * 8 / 15 +
         (profile->read_rate > 0 ? 4096 / profile->read_rate : 0);
}

/**
 * rp_device_profile_random_write_latency:
 *
 * Returns: seconds of a 4 KiB write at a uniformly random place, without a
 *   write cache: access, mean seek, transfer and a RAID5 read-modify-write
 */
double
rp_device_profile_random_write_latency (const RpDeviceProfile *profile)
{
  g_return_val_if_fail (profile != NULL, 0);

  return (profile->write_latency >= 0 ? profile->write_latency : profile->latency) +
         profile->seek * 8 / 15 + (profile->write_rate > 0 ? 4096 / profile->write_rate : 0) +
         (profile->stripe > 0 ? profile->rmw : 0);
}

/**
 * rp_device_profile_help:
 *
 * Returns: (transfer full): the profiles and their figures, one a line, for
 *   `matrix --help` (translated descriptions)
 */
char *
rp_device_profile_help (void)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *figures = rp_device_profile_describe (&profiles[i]);

      g_string_append_printf (text, "  %-14s %s%s%s\n", profiles[i].name, _(profiles[i].description),
                              *figures ? ": " : "", figures);
    }
  return g_string_free (text, FALSE);
}
