/* rp-emulated-device.h: a slow block device emulated by nbdkit, served as a file by nbdfuse (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-device-profile.h"

G_BEGIN_DECLS

typedef struct _RpEmulatedDevice RpEmulatedDevice;

gboolean          rp_emulated_device_check_tools       (const RpDeviceProfile  *profile,
                                                        GError                **error);
RpEmulatedDevice *rp_emulated_device_create            (const char             *work_directory,
                                                        const RpDeviceProfile  *profile,
                                                        guint64                 image_size,
                                                        const char             *fs_type,
                                                        GError                **error);
const char       *rp_emulated_device_get_path          (RpEmulatedDevice       *self);
const char       *rp_emulated_device_get_directory     (RpEmulatedDevice       *self);
gboolean          rp_emulated_device_drain             (RpEmulatedDevice       *self,
                                                        GError                **error);
gboolean          rp_emulated_device_destroy           (RpEmulatedDevice       *self,
                                                        GError                **error);
guint             rp_emulated_device_remove_leftovers  (const char             *work_directory,
                                                        GError                **error);

G_END_DECLS
