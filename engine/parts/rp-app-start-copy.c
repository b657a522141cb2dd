/* rp-app-start-copy.c: a program and its libraries copied into the folder under test. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-app-start-copy.h"
#include "rp-error.h"
#include "rp-io.h"
#include "rp-run-folder.h"

/* A program lives on the system's disk, not in the folder under test: in a
 * loop-mounted matrix cell its cold start would never meet the load. So the
 * program and every shared object it mapped are copied into a folder of our
 * own in the target (`resprobe-app-PID-START-XXXXXX`, removed when the probe ends; only
 * a kill -9 can leave it), and started through the copied dynamic loader,
 * `ld.so --library-path DIR/lib DIR/PROGRAM`, as ld.so(8) allows. Modules
 * the program opens by a full path (GIO modules, pixbuf loaders) and its data
 * files stay where they are, evicted in place. Each copy is flushed, so
 * that its pages are clean and can be evicted. */

#define COPY_CHUNK (1024 * 1024)

struct _RpAppStartCopy
{
  char      *directory;
  char      *lib_directory;
  GPtrArray *copies;      /* paths of the files we wrote, to remove */
  GPtrArray *files;       /* what the copy maps: copies and the rest in place */
  GStrv      argv;
};

/* Shared objects by name and content: a mapped font or cache is no library. */
static gboolean
is_shared_object (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);
  char magic[4] = { 0 };
  int fd;
  gboolean elf;

  if (strstr (base, ".so") == NULL)
    return FALSE;
  fd = open (path, O_RDONLY | O_CLOEXEC);
  elf = fd >= 0 && read (fd, magic, 4) == 4 && memcmp (magic, "\177ELF", 4) == 0;
  if (fd >= 0)
    close (fd);
  return elf;
}

/* The dynamic loader's names on the architectures Debian builds (ld.so(8)). */
static gboolean
is_dynamic_loader (const char *path)
{
  g_autofree char *base = g_path_get_basename (path);

  return g_str_has_prefix (base, "ld-linux") || g_str_has_prefix (base, "ld64.so") ||
         g_str_has_prefix (base, "ld.so");
}

static gboolean
copy_file (const char  *from,
           const char  *to,
           GError     **error)
{
  g_autofree char *buffer = rp_buffer_try_new (COPY_CHUNK, _("App-start probe"), error);
  int in = buffer == NULL ? -1 : open (from, O_RDONLY | O_CLOEXEC);
  int out = in < 0 ? -1 : open (to, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700);
  gboolean ok = out >= 0;
  ssize_t n = 0;

  if (buffer == NULL)
    return FALSE;

  while (ok && (n = read (in, buffer, COPY_CHUNK)) != 0)
    ok = (n > 0 && rp_write_all (out, buffer, (gsize) n)) || (n < 0 && errno == EINTR);
  ok = ok && fdatasync (out) == 0;
  if (!ok)
    rp_error_set_from_errno (error, errno, _("App-start probe: copying the program to"), to);
  if (in >= 0)
    close (in);
  if (out >= 0)
    close (out);
  return ok;
}

/* Copies @from into @folder unless a file of that name is there already
 * (two modules of one name in different folders: the first is taken).
 * Returns the copy's path, or %NULL with @error set. */
static char *
copy_into (RpAppStartCopy  *self,
           const char      *folder,
           const char      *from,
           GError         **error)
{
  g_autofree char *base = g_path_get_basename (from);
  g_autofree char *to = g_build_filename (folder, base, NULL);

  if (g_file_test (to, G_FILE_TEST_EXISTS))
    return g_steal_pointer (&to);
  /* Listed before copying: a half-written copy is removed too. */
  g_ptr_array_add (self->copies, g_strdup (to));
  if (!copy_file (from, to, error))
    return NULL;
  return g_steal_pointer (&to);
}

static gboolean
copy_all (RpAppStartCopy      *self,
          GPtrArray           *mapped,
          const char * const  *argv,
          GError             **error)
{
  g_autoptr(GPtrArray) new_argv = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *program = copy_into (self, self->directory, g_ptr_array_index (mapped, 0), error);
  g_autofree char *loader = NULL;

  if (program == NULL)
    return FALSE;
  g_ptr_array_add (self->files, g_strdup (program));
  for (guint i = 1; i < mapped->len; i++)
    {
      const char *path = g_ptr_array_index (mapped, i);
      g_autofree char *copy = NULL;

      if (!is_shared_object (path))
        {
          g_ptr_array_add (self->files, g_strdup (path));
          continue;
        }
      copy = copy_into (self, self->lib_directory, path, error);
      if (copy == NULL)
        return FALSE;
      g_ptr_array_add (self->files, g_strdup (copy));
      if (loader == NULL && is_dynamic_loader (path))
        loader = g_steal_pointer (&copy);
    }

  if (loader != NULL)
    {
      g_ptr_array_add (new_argv, g_steal_pointer (&loader));
      g_ptr_array_add (new_argv, g_strdup ("--library-path"));
      g_ptr_array_add (new_argv, g_strdup (self->lib_directory));
    }
  g_ptr_array_add (new_argv, g_steal_pointer (&program));
  for (guint i = 1; argv[i] != NULL; i++)
    g_ptr_array_add (new_argv, g_strdup (argv[i]));
  g_ptr_array_add (new_argv, NULL);
  self->argv = (GStrv) g_ptr_array_free (g_steal_pointer (&new_argv), FALSE);
  return TRUE;
}

/**
 * rp_app_start_copy_new:
 * @directory: the target folder
 * @mapped: (element-type utf8): the files the program mapped, the program
 *   first (rp_program_start_list_mapped_files())
 * @argv: the program's arguments (argv[0] is replaced)
 * @error: the folder or a copy could not be made; nothing is left behind
 *
 * Returns: (transfer full) (nullable): the copy; rp_app_start_copy_free()
 *   removes it
 */
RpAppStartCopy *
rp_app_start_copy_new (const char          *directory,
                       GPtrArray           *mapped,
                       const char * const  *argv,
                       GError             **error)
{
  RpAppStartCopy *self = g_new0 (RpAppStartCopy, 1);

  g_return_val_if_fail (mapped != NULL && mapped->len > 0, NULL);

  self->copies = g_ptr_array_new_with_free_func (g_free);
  self->files = g_ptr_array_new_with_free_func (g_free);
  self->directory = rp_run_folder_template (directory, "app");
  if (g_mkdtemp_full (self->directory, 0700) == NULL)
    {
      rp_error_set_from_errno (error, errno, _("App-start probe: creating a folder in"), directory);
      g_clear_pointer (&self->directory, g_free);
      rp_app_start_copy_free (self);
      return NULL;
    }
  self->lib_directory = g_build_filename (self->directory, "lib", NULL);
  if (g_mkdir (self->lib_directory, 0700) != 0)
    {
      rp_error_set_from_errno (error, errno, _("App-start probe: creating a folder in"), self->directory);
      g_clear_pointer (&self->lib_directory, g_free);
      rp_app_start_copy_free (self);
      return NULL;
    }
  if (!copy_all (self, mapped, argv, error))
    {
      rp_app_start_copy_free (self);
      return NULL;
    }
  return self;
}

/**
 * rp_app_start_copy_free:
 *
 * Removes every copy and both folders.
 */
void
rp_app_start_copy_free (RpAppStartCopy *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; self->copies != NULL && i < self->copies->len; i++)
    g_unlink (g_ptr_array_index (self->copies, i));
  if (self->lib_directory != NULL)
    g_rmdir (self->lib_directory);
  if (self->directory != NULL)
    g_rmdir (self->directory);
  g_free (self->directory);
  g_free (self->lib_directory);
  g_clear_pointer (&self->copies, g_ptr_array_unref);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_strfreev (self->argv);
  g_free (self);
}

/**
 * rp_app_start_copy_get_argv:
 *
 * Returns: (transfer none): what starts the copy: the copied dynamic
 *   loader with --library-path, the copied program and its arguments
 */
const char * const *
rp_app_start_copy_get_argv (RpAppStartCopy *self)
{
  return (const char * const *) self->argv;
}

/**
 * rp_app_start_copy_get_directory:
 *
 * Returns: (transfer none): the folder of the copy
 */
const char *
rp_app_start_copy_get_directory (RpAppStartCopy *self)
{
  return self->directory;
}

/**
 * rp_app_start_copy_get_files:
 *
 * Returns: (transfer full) (element-type utf8): the files the copy maps:
 *   the copies, and the program's other files in place
 */
GPtrArray *
rp_app_start_copy_get_files (RpAppStartCopy *self)
{
  return g_ptr_array_ref (self->files);
}
