/* rp-part-host.h: what a load or probe may ask of the run it is part of. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "rp-series.h"
#include "rp-timed-call.h"

G_BEGIN_DECLS

typedef struct _RpParams RpParams;

#define RP_TYPE_PART_HOST (rp_part_host_get_type ())
G_DECLARE_INTERFACE (RpPartHost, rp_part_host, RP, PART_HOST, GObject)

/**
 * RpPartHostInterface:
 *
 * Implemented by the session (run/rp-session.c), so that parts depend on
 * this interface and not on the session: the parts library sits below the
 * run library. Every method may be called from a worker thread unless it
 * says otherwise. Times are seconds.
 *
 * A host that stands in for another in a few respects (RpLoadHost: the run
 * with the loads' folder) implements get_run, which returns that other host
 * (transfer none); every method it leaves %NULL is then that host's, except
 * get_load_directory, which is always the stand-in's own get_directory.
 */
struct _RpPartHostInterface
{
  GTypeInterface parent_iface;

  const RpParams *(*get_params)          (RpPartHost  *self);
  const char     *(*get_directory)       (RpPartHost  *self);
  double          (*now)                 (RpPartHost  *self);
  double          (*time_from_monotonic) (RpPartHost  *self,
                                          double       monotonic_seconds);
  gboolean        (*should_stop)         (RpPartHost  *self);
  gboolean        (*sleep)               (RpPartHost  *self,
                                          double       seconds);
  void            (*fail)                (RpPartHost  *self,
                                          GError      *error);
  void            (*load_done)           (RpPartHost  *self);
  void            (*changed)             (RpPartHost  *self);
  guint64         (*get_spare_bytes)     (RpPartHost  *self);
  int             (*open_tmpfile)        (RpPartHost  *self,
                                          int          extra_flags,
                                          GError     **error);
  RpSeries       *(*ensure_series)       (RpPartHost  *self,
                                          const char  *name,
                                          const char  *unit,
                                          const char  *title);
  void            (*set_note)            (RpPartHost  *self,
                                          const char  *key,
                                          const char  *value);
  RpCallRegistry *(*get_calls)           (RpPartHost  *self);
  const char     *(*get_load_directory)  (RpPartHost  *self);
  RpPartHost     *(*get_run)             (RpPartHost  *self);
};

const RpParams *rp_part_host_get_params          (RpPartHost  *self);
const char     *rp_part_host_get_directory       (RpPartHost  *self);
const char     *rp_part_host_get_load_directory  (RpPartHost  *self);
double          rp_part_host_now                 (RpPartHost  *self);
double          rp_part_host_time_from_monotonic (RpPartHost  *self,
                                                  double       monotonic_seconds);
gboolean        rp_part_host_should_stop         (RpPartHost  *self);
gboolean        rp_part_host_sleep               (RpPartHost  *self,
                                                  double       seconds);
void            rp_part_host_fail                (RpPartHost  *self,
                                                  GError      *error);
void            rp_part_host_load_done           (RpPartHost  *self);
void            rp_part_host_changed             (RpPartHost  *self);
guint64         rp_part_host_get_spare_bytes     (RpPartHost  *self);
int             rp_part_host_open_tmpfile        (RpPartHost  *self,
                                                  int          extra_flags,
                                                  GError     **error);
RpSeries       *rp_part_host_ensure_series       (RpPartHost  *self,
                                                  const char  *name,
                                                  const char  *unit,
                                                  const char  *title);
void            rp_part_host_set_note            (RpPartHost  *self,
                                                  const char  *key,
                                                  const char  *value);
void            rp_part_host_set_number_note     (RpPartHost  *self,
                                                  const char  *key,
                                                  const char  *format,
                                                  double       value);
RpCallRegistry *rp_part_host_get_calls           (RpPartHost  *self);
RpTimedCall    *rp_part_host_open_call           (RpPartHost  *self);

G_END_DECLS
