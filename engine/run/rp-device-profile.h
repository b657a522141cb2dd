/* rp-device-profile.h: the slow devices the matrix can emulate, with their figures and sources. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The note a matrix cell's report carries: the name of its device profile
 * ("usb2-stick", "native"), which a comparison names the runs by. */
#define RP_NOTE_DEVICE_PROFILE "device_profile"

/**
 * RpDeviceProfile:
 * @name: the profile's name on the command line and in cell names
 *   ("usb2-stick"; "custom-…" for a custom one)
 * @description: (nullable): what it emulates, untranslated (N_()); %NULL
 *   for a custom one
 * @read_rate: sequential read, bytes per second; 0 no limit
 * @write_rate: sequential write, bytes per second; 0 no limit
 * @latency: seconds of a read that does not go on where the last request
 *   ended (rotation, or a flash controller's command time)
 * @write_latency: the same for a write; < 0 as @latency
 * @seek: seconds of a seek over the whole device; shorter seeks cost
 *   @seek × sqrt(distance / size)
 * @flush: seconds of a cache flush, after the write cache is empty; 0 none
 * @cache: bytes of write cache (writes return before they reach the media)
 * @stripe: bytes of a RAID5 stripe's data; 0 no RAID
 * @rmw: seconds more for a write that is not made of whole stripes
 * @source: (nullable): where the figures come from (datasheet, standard,
 *   published measurement), untranslated
 *
 * One emulated device: the parameters of the nbdkit filter
 * (app/nbdkit/rp-nbdkit-disk-filter.c, which explains the model). The
 * profile `native` has every figure 0 and is the plain loop image.
 */
typedef struct {
  const char *name;
  const char *description;
  double      read_rate;
  double      write_rate;
  double      latency;
  double      write_latency;
  double      seek;
  double      flush;
  guint64     cache;
  guint64     stripe;
  double      rmw;
  const char *source;
} RpDeviceProfile;

typedef struct _RpDeviceChoice RpDeviceChoice;

const RpDeviceProfile *rp_device_profile_get_table        (guint                  *n_profiles);
RpDeviceChoice        *rp_device_choice_parse             (const char             *text,
                                                           GError                **error);
const RpDeviceProfile *rp_device_choice_get_profile       (RpDeviceChoice         *self);
void                   rp_device_choice_free              (RpDeviceChoice         *self);
gboolean               rp_device_profile_is_native        (const RpDeviceProfile  *profile);
gboolean               rp_device_profile_is_rotational    (const RpDeviceProfile  *profile);
char                  *rp_device_profile_describe         (const RpDeviceProfile  *profile);
GPtrArray             *rp_device_profile_filter_arguments (const RpDeviceProfile  *profile);
double                 rp_device_profile_random_read_latency  (const RpDeviceProfile *profile);
double                 rp_device_profile_random_write_latency (const RpDeviceProfile *profile);
char                  *rp_device_profile_help             (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpDeviceChoice, rp_device_choice_free)

G_END_DECLS
