/* rp-sysinfo.c: the system snapshot: its fields, copies, and their display. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "rp-sysinfo.h"
#include "rp-sysinfo-fields.h"
#include "rp-sysinfo-private.h"
#include "rp-units.h"

G_DEFINE_BOXED_TYPE (RpSysinfo, rp_sysinfo, rp_sysinfo_copy, rp_sysinfo_free)

const FieldSpec rp_sysinfo_field_specs[] = {
  FIELD (kernel_release, N_("Kernel release"), KIND_STRING, SHOW_PLAIN),
  FIELD (machine, N_("Machine"), KIND_STRING, SHOW_PLAIN),
  FIELD (userspace_bits, N_("User space"), KIND_UINT, SHOW_BITS),
  FIELD (distribution, N_("Distribution"), KIND_STRING, SHOW_PLAIN),
  FIELD (cpu_model, N_("CPU"), KIND_STRING, SHOW_PLAIN),
  FIELD (cpu_count, N_("CPUs online"), KIND_UINT, SHOW_PLAIN),
  FIELD (ram_bytes, N_("RAM"), KIND_UINT64, SHOW_SIZE),
  FIELD (target_directory, N_("Target directory"), KIND_STRING, SHOW_PLAIN),
  FIELD (mount_point, N_("Mount point"), KIND_STRING, SHOW_PLAIN),
  FIELD (fs_type, N_("File system"), KIND_STRING, SHOW_PLAIN),
  FIELD (mount_options, N_("Mount options"), KIND_STRING, SHOW_PLAIN),
  FIELD (journal_mode, N_("Journal mode"), KIND_STRING, SHOW_PER_FS),
  FIELD (source_device, N_("Device"), KIND_STRING, SHOW_PLAIN),
  DISK_FIELD (whole_disk, N_("Disk"), KIND_STRING, SHOW_PLAIN),
  DISK_FIELD (scheduler, N_("I/O scheduler"), KIND_STRING, SHOW_PLAIN),
  DISK_FIELD (available_schedulers, N_("Available I/O schedulers"), KIND_STRING, SHOW_PLAIN),
  DISK_FIELD (rotational, N_("Rotational disk"), KIND_TRISTATE, SHOW_YES_NO),
  DISK_FIELD (raid_level, N_("RAID level"), KIND_STRING, SHOW_PER_DISK),
  DISK_FIELD (dm_name, N_("Device-mapper name"), KIND_STRING, SHOW_PER_DISK),
  DISK_FIELD (wbt_lat_usec, N_("Writeback throttling latency (wbt_lat_usec, µs)"), KIND_STRING, SHOW_PLAIN),
  DISK_FIELD (read_ahead_kb, N_("Read-ahead (read_ahead_kb, KiB)"), KIND_STRING, SHOW_PLAIN),
  DISK_FIELD (loop_backing_file, N_("Loop device’s backing file"), KIND_STRING, SHOW_PER_LOOP),
  DISK_FIELD (loop_direct_io, N_("Loop device’s direct I/O"), KIND_TRISTATE, SHOW_PER_LOOP),
  DISK_FIELD (backing_fs_type, N_("Backing file’s file system"), KIND_STRING, SHOW_PER_LOOP),
  DISK_FIELD (backing_mount_point, N_("Backing file’s mount point"), KIND_STRING, SHOW_PER_LOOP),
  DISK_FIELD (backing_disk, N_("Backing disk"), KIND_STRING, SHOW_PER_LOOP),
  DISK_FIELD (backing_scheduler, N_("Backing disk’s I/O scheduler"), KIND_STRING, SHOW_PER_LOOP),
  DISK_FIELD (backing_rotational, N_("Backing disk rotational"), KIND_TRISTATE, SHOW_PER_LOOP),
  DISK_FIELD (backing_wbt_lat_usec, N_("Backing disk’s wbt_lat_usec (µs)"), KIND_STRING, SHOW_PER_LOOP),
  DISK_FIELD (backing_read_ahead_kb, N_("Backing disk’s read_ahead_kb (KiB)"), KIND_STRING, SHOW_PER_LOOP),
  DISK_FIELD (settings_not_default, N_("Queue settings not the kernel’s default"), KIND_STRING, SHOW_PER_DISK),
  FIELD (load_directory, N_("Load directory"), KIND_STRING, SHOW_PER_LOAD),
  FIELD (load_mount_point, N_("Load mount point"), KIND_STRING, SHOW_PER_LOAD),
  FIELD (load_fs_type, N_("Load file system"), KIND_STRING, SHOW_PER_LOAD),
  FIELD (load_mount_options, N_("Load mount options"), KIND_STRING, SHOW_PER_LOAD),
  FIELD (load_journal_mode, N_("Load journal mode"), KIND_STRING, SHOW_PER_LOAD),
  FIELD (load_source_device, N_("Load device"), KIND_STRING, SHOW_PER_LOAD),
  FIELD (load_whole_disk, N_("Load disk"), KIND_STRING, SHOW_PER_LOAD),
  FIELD (load_scheduler, N_("Load disk’s I/O scheduler"), KIND_STRING, SHOW_PER_LOAD),
  DISK_FIELD (bdi, N_("Load disk’s writeback device (bdi)"), KIND_STRING, SHOW_PLAIN),
  /* The sysfs names stay: they are what one writes to change them. */
  DISK_FIELD (bdi_min_ratio, N_("Load device’s minimum share of the dirty limit (min_ratio, %)"), KIND_STRING,
              SHOW_PLAIN),
  DISK_FIELD (bdi_max_ratio, N_("Load device’s maximum share of the dirty limit (max_ratio, %)"), KIND_STRING,
              SHOW_PLAIN),
  DISK_FIELD (bdi_max_bytes, N_("Load device’s dirty limit (max_bytes)"), KIND_STRING, SHOW_BYTES),
  DISK_FIELD (bdi_strict_limit, N_("Load device held to its share (strict_limit)"), KIND_STRING, SHOW_FLAG),
  FIELD (dirty_ratio, N_("Dirty ratio (vm.dirty_ratio, %)"), KIND_STRING, SHOW_PLAIN),
  FIELD (dirty_background_ratio, N_("Dirty background ratio (vm.dirty_background_ratio, %)"), KIND_STRING, SHOW_PLAIN),
  FIELD (dirty_bytes, N_("Dirty bytes (vm.dirty_bytes)"), KIND_STRING, SHOW_PLAIN),
  FIELD (dirty_background_bytes, N_("Dirty background bytes (vm.dirty_background_bytes)"), KIND_STRING, SHOW_PLAIN),
  FIELD (dirty_expire_centisecs, N_("Dirty expire (vm.dirty_expire_centisecs, 1/100 s)"), KIND_STRING, SHOW_PLAIN),
  FIELD (dirty_writeback_centisecs, N_("Writeback interval (vm.dirty_writeback_centisecs, 1/100 s)"), KIND_STRING, SHOW_PLAIN),
  FIELD (fsync_is_noop, N_("fsync() does nothing"), KIND_BOOLEAN, SHOW_YES_NO),
  FIELD (is_network_fs, N_("Network file system"), KIND_BOOLEAN, SHOW_YES_NO),
  FIELD (is_fuse, N_("FUSE file system"), KIND_BOOLEAN, SHOW_YES_NO),
  FIELD (in_document_portal, N_("Inside the document portal"), KIND_BOOLEAN, SHOW_YES_NO),
};

#undef FIELD
#undef DISK_FIELD

const guint rp_sysinfo_n_field_specs = G_N_ELEMENTS (rp_sysinfo_field_specs);

/**
 * rp_sysinfo_new:
 *
 * Returns: (transfer full): a snapshot with every field unknown
 */
RpSysinfo *
rp_sysinfo_new (void)
{
  RpSysinfo *self = g_new0 (RpSysinfo, 1);

  for (guint i = 0; i < rp_sysinfo_n_field_specs; i++)
    if (rp_sysinfo_field_specs[i].kind == KIND_TRISTATE)
      INT_MEMBER (self, &rp_sysinfo_field_specs[i]) = -1;
  return self;
}
/* Reports are JSON, and JSON strings must be UTF-8; a mount point may be any bytes. */
void
rp_sysinfo_make_strings_valid (RpSysinfo *self)
{
  for (guint i = 0; i < rp_sysinfo_n_field_specs; i++)
    {
      char **member;
      char *valid;

      if (rp_sysinfo_field_specs[i].kind != KIND_STRING)
        continue;
      member = &STRING_MEMBER (self, &rp_sysinfo_field_specs[i]);
      if (*member == NULL || g_utf8_validate (*member, -1, NULL))
        continue;
      valid = g_utf8_make_valid (*member, -1);
      g_free (*member);
      *member = valid;
    }
}

/**
 * rp_sysinfo_copy:
 * @self: a snapshot
 *
 * Returns: (transfer full): a deep copy
 */
RpSysinfo *
rp_sysinfo_copy (const RpSysinfo *self)
{
  RpSysinfo *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self);
  for (guint i = 0; i < rp_sysinfo_n_field_specs; i++)
    if (rp_sysinfo_field_specs[i].kind == KIND_STRING)
      STRING_MEMBER (copy, &rp_sysinfo_field_specs[i]) = g_strdup (STRING_MEMBER (self, &rp_sysinfo_field_specs[i]));
  return copy;
}

/**
 * rp_sysinfo_free:
 * @self: (nullable): a snapshot
 *
 * Frees @self and its strings.
 */
void
rp_sysinfo_free (RpSysinfo *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < rp_sysinfo_n_field_specs; i++)
    if (rp_sysinfo_field_specs[i].kind == KIND_STRING)
      g_free (STRING_MEMBER (self, &rp_sysinfo_field_specs[i]));
  g_free (self);
}

gboolean
rp_sysinfo_field_is_known (const RpSysinfo *self,
                           const FieldSpec *spec)
{
  switch (spec->kind)
    {
    case KIND_STRING:
      return STRING_MEMBER (self, spec) != NULL;
    case KIND_UINT:
      return UINT_MEMBER (self, spec) != 0;
    case KIND_UINT64:
      return UINT64_MEMBER (self, spec) != 0;
    case KIND_TRISTATE:
      return INT_MEMBER (self, spec) == 0 || INT_MEMBER (self, spec) == 1;
    case KIND_BOOLEAN:
    default:
      return TRUE;
    }
}

/* An empty field says "unknown" unless the rest of the snapshot tells why it is empty. */
static const char *
unknown_text (const RpSysinfo *self,
              const FieldSpec *spec)
{
  gboolean has_no_disk = self->fs_type != NULL && (self->fsync_is_noop || self->is_network_fs);

  if ((spec->show == SHOW_PER_FS && self->fs_type != NULL) || (spec->of_disk && has_no_disk))
    /* TRANSLATORS: a field the file system does not have: the journal mode of xfs, the disk of tmpfs */
    return _("not applicable");
  if (spec->show == SHOW_PER_LOOP && self->whole_disk != NULL && self->loop_backing_file == NULL)
    return _("not applicable");
  if (spec->show == SHOW_PER_LOAD && self->load_directory == NULL)
    /* TRANSLATORS: where the loads wrote: in the target directory, like the probes */
    return g_str_equal (spec->key, "load_directory") ? _("the target directory") : _("not applicable");
  if (spec->show == SHOW_PER_DISK && self->whole_disk != NULL)
    /* TRANSLATORS: no RAID or device-mapper layer under the file system */
    return _("none");
  return _("unknown");
}

/* The report keeps the kernel's defaults in English, stable for scripts:
 * the journal mode the kernel chose, "ordered (default)", and the queue
 * settings that differ from theirs, "loop0 scheduler bfq (default none)".
 * Shown in the user's language; the sysfs names and values stay as they
 * are (what one types). */
static char *
in_user_language (const char *value)
{
  GString *text;
  const char *rest;

  if (value == NULL)
    return NULL;
  if (g_str_has_suffix (value, " (default)"))
    {
      g_autofree char *mode = g_strndup (value, strlen (value) - strlen (" (default)"));

      /* TRANSLATORS: a setting the kernel chose by default, e.g. "ordered (default)" */
      return g_strdup_printf (_("%s (default)"), mode);
    }
  text = g_string_new (NULL);
  for (rest = value; strstr (rest, "(default ") != NULL;)
    {
      const char *start = strstr (rest, "(default ") + strlen ("(default ");
      const char *end = strchr (start, ')');
      g_autofree char *setting = NULL;

      if (end == NULL)
        break;
      g_string_append_len (text, rest, start - strlen ("default ") - rest);
      setting = g_strndup (start, end - start);
      /* TRANSLATORS: the kernel's default of a queue setting, in brackets
       * after the run's: "loop0 scheduler bfq (default none)" */
      g_string_append_printf (text, _("default %s"), setting);
      rest = end;
    }
  g_string_append (text, rest);
  return g_string_free (text, FALSE);
}

/* A size sysfs gives in bytes ("4938858496"), in IEC units; anything else
 * (a stranger's report) as it is. */
static char *
format_bytes_text (const char *value)
{
  guint64 bytes;

  if (!g_ascii_string_to_unsigned (value, 10, 0, G_MAXUINT64, &bytes, NULL))
    return g_strdup (value);
  return rp_format_size (bytes);
}

/* A sysfs flag, "0" or "1", as "no" or "yes"; anything else as it is. */
static char *
format_flag_text (const char *value)
{
  if (g_str_equal (value, "0") || g_str_equal (value, "1"))
    return g_strdup (g_str_equal (value, "1") ? _("yes") : _("no"));
  return g_strdup (value);
}

static char *
field_value_text (const RpSysinfo *self,
                  const FieldSpec *spec)
{
  if (!rp_sysinfo_field_is_known (self, spec))
    return g_strdup (unknown_text (self, spec));

  switch (spec->show)
    {
    case SHOW_BITS:
      /* TRANSLATORS: word size of user space, e.g. "64-bit" */
      return g_strdup_printf (_("%u-bit"), UINT_MEMBER (self, spec));
    case SHOW_SIZE:
      return rp_format_size (UINT64_MEMBER (self, spec));
    case SHOW_YES_NO:
      if (spec->kind == KIND_TRISTATE)
        return g_strdup (INT_MEMBER (self, spec) ? _("yes") : _("no"));
      return g_strdup (BOOLEAN_MEMBER (self, spec) ? _("yes") : _("no"));
    case SHOW_BYTES:
      return format_bytes_text (STRING_MEMBER (self, spec));
    case SHOW_FLAG:
      return format_flag_text (STRING_MEMBER (self, spec));
    case SHOW_PLAIN:
    case SHOW_PER_FS:
    case SHOW_PER_DISK:
    case SHOW_PER_LOOP:
    case SHOW_PER_LOAD:
    default:
      break;
    }

  switch (spec->kind)
    {
    case KIND_UINT:
      return g_strdup_printf ("%u", UINT_MEMBER (self, spec));
    case KIND_UINT64:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, UINT64_MEMBER (self, spec));
    case KIND_STRING:
      return in_user_language (STRING_MEMBER (self, spec));
    case KIND_TRISTATE:
      /* a loop device's direct I/O, a backing disk's rotational flag */
      return g_strdup (INT_MEMBER (self, spec) ? _("yes") : _("no"));
    case KIND_BOOLEAN:
    default:
      return g_strdup (STRING_MEMBER (self, spec));
    }
}

/**
 * rp_sysinfo_get_fields:
 * @self: a snapshot
 *
 * Every field for display, machine first, then the target's storage stack
 * from mount down to disk, then the vm sysctls and the caveats. Labels are
 * translated; values are text ("unknown" where unknown, sizes formatted).
 *
 * Returns: (transfer container) (element-type RpSysinfoField): the fields,
 *   freeing the array frees them
 */
GPtrArray *
rp_sysinfo_get_fields (const RpSysinfo *self)
{
  GPtrArray *fields;

  g_return_val_if_fail (self != NULL, NULL);

  fields = g_ptr_array_new_full (rp_sysinfo_n_field_specs, (GDestroyNotify) rp_field_free);
  for (guint i = 0; i < rp_sysinfo_n_field_specs; i++)
    g_ptr_array_add (fields, rp_field_new (rp_sysinfo_field_specs[i].key, _(rp_sysinfo_field_specs[i].label),
                                           field_value_text (self, &rp_sysinfo_field_specs[i])));
  return fields;
}

static void add_warning (GPtrArray  *warnings,
                         const char *format,
                         ...) G_GNUC_PRINTF (2, 3);

static void
add_warning (GPtrArray  *warnings,
             const char *format,
             ...)
{
  va_list args;

  va_start (args, format);
  g_ptr_array_add (warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/**
 * rp_sysinfo_get_warnings:
 * @self: a snapshot
 *
 * Plain-language warnings about measurements that mean little on this
 * target: tmpfs/ramfs (fsync does nothing), network and FUSE file systems,
 * the document portal, a file system that could not be identified, or
 * queue settings that are not the kernel's default for the device.
 *
 * Returns: (transfer full): a %NULL-terminated array of translated
 *   sentences, empty when there is nothing to say
 */
char **
rp_sysinfo_get_warnings (const RpSysinfo *self)
{
  g_autoptr(GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *changed = NULL;
  const char *target;
  const char *fs_type;

  g_return_val_if_fail (self != NULL, NULL);

  target = self->target_directory != NULL ? self->target_directory : "";
  fs_type = self->fs_type != NULL ? self->fs_type : "";

  if (self->target_directory != NULL && self->fs_type == NULL)
    add_warning (warnings,
                 _("The file system of “%s” could not be identified, so the report lacks its settings."),
                 target);
  if (self->fsync_is_noop)
    /* TRANSLATORS: the first %s is a directory, the second a file system type such as "tmpfs" */
    add_warning (warnings,
                 _("“%s” is on %s: fsync() does nothing there, so fsync latency means little."),
                 target, fs_type);
  if (self->in_document_portal)
    add_warning (warnings,
                 _("“%s” is inside the document portal: every write passes through the portal’s "
                   "FUSE process, so latencies measure the portal as much as the disk."),
                 target);
  else if (self->is_fuse)
    /* TRANSLATORS: the first %s is a directory, the second a file system type such as "fuse.sshfs" */
    add_warning (warnings,
                 _("“%s” is on a FUSE file system (%s): every write passes through a user-space "
                   "process, so latencies measure that process as much as the disk."),
                 target, fs_type);
  if (self->is_network_fs)
    /* TRANSLATORS: the first %s is a directory, the second a file system type such as "nfs4" */
    add_warning (warnings,
                 _("“%s” is on a network file system (%s): latencies include the network and the "
                   "server, not only this machine’s disk."),
                 target, fs_type);

  if (self->settings_not_default != NULL)
    changed = in_user_language (self->settings_not_default);
  if (changed != NULL)
    /* TRANSLATORS: %s lists sysfs settings, e.g. "loop3 scheduler bfq (default none)" */
    add_warning (warnings,
                 _("Queue settings differ from what the kernel gives these devices: %s. The run "
                   "measured that configuration, not the default one."),
                 changed);

  g_ptr_array_add (warnings, NULL);
  return (char **) g_ptr_array_free (g_steal_pointer (&warnings), FALSE);
}

/* A part of the one-line description, at most DESCRIBE_MAX_CHARS characters:
 * real values are short ("ext4", "/dev/sda2"), and an edited report's
 * 8 000-character one made the window wider than the X server could
 * allocate. */
#define DESCRIBE_MAX_CHARS 64

static char *
shorten (const char *value)
{
  if (value == NULL)
    return NULL;
  if (g_utf8_strlen (value, -1) <= DESCRIBE_MAX_CHARS)
    return g_strdup (value);
  {
    g_autofree char *head = g_utf8_substring (value, 0, DESCRIBE_MAX_CHARS - 1);

    return g_strconcat (head, "…", NULL);
  }
}

/**
 * rp_sysinfo_describe:
 * @sysinfo: a snapshot
 *
 * The one-line summary of the target's storage stack that the window and the
 * exported images show, e.g. "ext4 on /dev/sda2 · journal ordered · I/O
 * scheduler mq-deadline · rotational disk · Linux 6.1.0 · x86_64"; on a
 * loop device also the file system and disk under its image, with that
 * disk's scheduler and wbt_lat_usec, and its direct I/O when on.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_sysinfo_describe (const RpSysinfo *sysinfo)
{
  g_autoptr(GString) text = g_string_new (NULL);
  const char *unknown = _("unknown");
  g_autofree char *fs_type = shorten (sysinfo->fs_type ? sysinfo->fs_type : unknown);
  g_autofree char *device = shorten (sysinfo->source_device ? sysinfo->source_device : unknown);
  g_autofree char *journal_mode = in_user_language (sysinfo->journal_mode);
  g_autofree char *journal = shorten (journal_mode);
  g_autofree char *scheduler = shorten (sysinfo->scheduler);
  g_autofree char *kernel = shorten (sysinfo->kernel_release);
  g_autofree char *machine = shorten (sysinfo->machine);

  /* TRANSLATORS: e.g. "ext4 on /dev/sda2" */
  g_string_append_printf (text, _("%s on %s"), fs_type, device);
  if (journal != NULL)
    g_string_append_printf (text, _(" · journal %s"), journal);
  if (scheduler != NULL)
    g_string_append_printf (text, _(" · I/O scheduler %s"), scheduler);
  if (sysinfo->rotational == 1)
    g_string_append (text, _(" · rotational disk"));
  else if (sysinfo->rotational == 0)
    g_string_append (text, _(" · solid-state or virtual disk"));
  if (sysinfo->loop_direct_io == 1)
    g_string_append (text, _(" · direct I/O"));
  /* A loop device's image: what lies under it decides as much as the loop device. */
  if (sysinfo->loop_backing_file != NULL)
    {
      g_autofree char *backing_fs = shorten (sysinfo->backing_fs_type ? sysinfo->backing_fs_type : unknown);
      g_autofree char *backing_disk = shorten (sysinfo->backing_disk ? sysinfo->backing_disk : unknown);
      g_autofree char *backing_scheduler = shorten (sysinfo->backing_scheduler ? sysinfo->backing_scheduler : unknown);
      g_autofree char *backing_wbt = shorten (sysinfo->backing_wbt_lat_usec ? sysinfo->backing_wbt_lat_usec : unknown);

      /* TRANSLATORS: the file system and the disk under a loop device's image, that disk's
       * I/O scheduler and wbt_lat_usec, e.g. " · image on ext4 on sda (mq-deadline, wbt_lat_usec 75000)" */
      g_string_append_printf (text, _(" · image on %s on %s (%s, wbt_lat_usec %s)"),
                              backing_fs, backing_disk, backing_scheduler, backing_wbt);
    }
  if (kernel != NULL)
    g_string_append_printf (text, _(" · Linux %s"), kernel);
  if (machine != NULL)
    g_string_append_printf (text, " · %s", machine);
  return g_string_free (g_steal_pointer (&text), FALSE);
}
