/* rp-sysinfo-defaults.h: the queue settings the kernel gives a block device, to tell changed ones. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What sysfs says of one request queue (/sys/block/DISK/queue and beside it). */
typedef struct {
  char  *scheduler;          /* selected, e.g. "mq-deadline"; NULL unknown */
  char  *available;          /* "none mq-deadline kyber bfq" */
  int    rotational;         /* 1, 0, -1 unknown */
  char  *wbt_lat_usec;       /* verbatim */
  char  *read_ahead_kb;      /* verbatim */
  guint  n_hw_queues;        /* entries of mq/; 0: not a blk-mq device or unknown */
  int    loop_direct_io;     /* loop/dio: 1, 0, -1 not a bound loop device */
} RpQueueSettings;

void  rp_queue_settings_clear           (RpQueueSettings *settings);
void  rp_queue_settings_append_changed  (const char            *disk,
                                         const RpQueueSettings *settings,
                                         GString               *out);

G_END_DECLS
