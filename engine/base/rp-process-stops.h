/* rp-process-stops.h: when this process was continued after a stop (SIGSTOP, Ctrl-Z), for stall attribution. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void     rp_process_stops_watch      (void);
gboolean rp_process_stops_continued  (double  after,
                                      double  until,
                                      double *out_continued);
gboolean rp_process_stops_continuing (void);

G_END_DECLS
