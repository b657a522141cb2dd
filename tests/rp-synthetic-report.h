/* rp-synthetic-report.h: a long run's report without the wait, for the long-report test and benchmark. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-report.h"

G_BEGIN_DECLS

RpReport *rp_synthetic_report_new (double hours,
                                   guint  seed);

G_END_DECLS
