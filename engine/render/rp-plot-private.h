/* rp-plot-private.h: what the tests may change in RpPlot that users may not. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-plot.h"

G_BEGIN_DECLS

void rp_plot_set_force_vector (RpPlot   *self,
                               gboolean  force_vector);

G_END_DECLS
