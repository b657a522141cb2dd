/* rp-load-host.c: the run as the loads see it when they write to a folder of their own. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-load-host.h"
#include "rp-target.h"

/* "Copying to a USB stick freezes the desktop": the load writes to one file
 * system (the stick) while the probes measure another (the home folder).
 * The parts ask their host for "the directory" and never know which role
 * they play, so the session hands its loads this host instead of itself:
 * the same run in every respect but the folder, its anonymous files and the
 * spare space there. Everything else is forwarded to @run. */

struct _RpLoadHost
{
  GObject     parent_instance;

  RpPartHost *run;             /* the session; it outlives its workers and so this */
  char       *directory;       /* resolved load folder */
  guint64     spare_bytes;     /* rp_target_check_free_space() there */
};

static void rp_load_host_part_host_init (RpPartHostInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (RpLoadHost, rp_load_host, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (RP_TYPE_PART_HOST, rp_load_host_part_host_init))

static void
rp_load_host_finalize (GObject *object)
{
  RpLoadHost *self = RP_LOAD_HOST (object);

  g_free (self->directory);
  G_OBJECT_CLASS (rp_load_host_parent_class)->finalize (object);
}

static void
rp_load_host_class_init (RpLoadHostClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rp_load_host_finalize;
}

static void
rp_load_host_init (RpLoadHost *self)
{
}

/* The methods it leaves out are the run's (rp-part-host.c forwards them). */
static RpPartHost *
host_get_run (RpPartHost *host)
{
  return RP_LOAD_HOST (host)->run;
}

static const char *
host_get_directory (RpPartHost *host)
{
  return RP_LOAD_HOST (host)->directory;
}

static guint64
host_get_spare_bytes (RpPartHost *host)
{
  return RP_LOAD_HOST (host)->spare_bytes;
}

static int
host_open_tmpfile (RpPartHost  *host,
                   int          extra_flags,
                   GError     **error)
{
  return rp_target_open_tmpfile (RP_LOAD_HOST (host)->directory, extra_flags, error);
}

static void
rp_load_host_part_host_init (RpPartHostInterface *iface)
{
  iface->get_run = host_get_run;
  iface->get_directory = host_get_directory;
  iface->get_spare_bytes = host_get_spare_bytes;
  iface->open_tmpfile = host_open_tmpfile;
}

/**
 * rp_load_host_new:
 * @run: (transfer none): the session the loads belong to; it must outlive
 *   the returned host (the session frees its workers, and so their host,
 *   before itself)
 * @load_directory: the resolved folder the loads write to (rp_target_resolve())
 * @spare_bytes: what loads that write until stopped may keep there at once,
 *   from rp_target_check_free_space() on that folder
 *
 * Returns: (transfer full): a host that is @run except for the folder, its
 *   anonymous files (rp_target_open_tmpfile()) and its spare bytes
 */
RpLoadHost *
rp_load_host_new (RpPartHost *run,
                  const char *load_directory,
                  guint64     spare_bytes)
{
  RpLoadHost *self;

  g_return_val_if_fail (RP_IS_PART_HOST (run), NULL);
  g_return_val_if_fail (load_directory != NULL, NULL);

  self = g_object_new (RP_TYPE_LOAD_HOST, NULL);
  self->run = run;
  self->directory = g_strdup (load_directory);
  self->spare_bytes = spare_bytes;
  return self;
}
