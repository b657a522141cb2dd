/* rp-kernel-features.h: what this kernel offers the block layer's settings, discovered, never assumed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _RpKernelFeatures RpKernelFeatures;

RpKernelFeatures   *rp_kernel_features_new                 (void);
RpKernelFeatures   *rp_kernel_features_new_at              (const char             *sys_root,
                                                            const char             *modules_dir);
void                rp_kernel_features_free                (RpKernelFeatures       *self);

const char * const *rp_kernel_features_get_schedulers      (const RpKernelFeatures *self);
gboolean            rp_kernel_features_has_scheduler       (const RpKernelFeatures *self,
                                                            const char             *name);
gboolean            rp_kernel_features_has_setting         (const RpKernelFeatures *self,
                                                            const char             *setting);
gboolean            rp_kernel_features_check_schedulers    (const RpKernelFeatures *self,
                                                            const char             *option,
                                                            GPtrArray              *names,
                                                            GError                **error);
gboolean            rp_kernel_features_check_setting       (const RpKernelFeatures *self,
                                                            const char             *option,
                                                            const char             *file,
                                                            GError                **error);

char               *rp_kernel_modules_dir                  (void);
GPtrArray          *rp_kernel_module_aliases               (const char             *modules_dir,
                                                            const char             *prefix,
                                                            const char             *suffix);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpKernelFeatures, rp_kernel_features_free)

G_END_DECLS
