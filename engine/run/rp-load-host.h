/* rp-load-host.h: the run as the loads see it when they write to a folder of their own. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-part-host.h"

G_BEGIN_DECLS

#define RP_TYPE_LOAD_HOST (rp_load_host_get_type ())
G_DECLARE_FINAL_TYPE (RpLoadHost, rp_load_host, RP, LOAD_HOST, GObject)

RpLoadHost *rp_load_host_new (RpPartHost *run,
                              const char *load_directory,
                              guint64     spare_bytes);

G_END_DECLS
