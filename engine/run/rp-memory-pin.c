/* rp-memory-pin.c: a machine of less memory, emulated by pinning the rest (root). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib-unix.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-memory-pin.h"
#include "rp-proc-wait.h"
#include "rp-units.h"

/* The USB-stick reports came from machines of 1-4 GiB, where the kernel's
 * default dirty thresholds (vm.dirty_ratio 20 % and dirty_background_ratio
 * 10 % of the *dirtyable* memory: free pages plus the file cache,
 * mm/page-writeback.c global_dirtyable_memory()) were 200-800 MB; on a
 * machine of 24 GiB they are about 4.7 GiB, and a copy to a slow stick
 * never reaches them within a minute. Pinning MemTotal minus the emulated
 * size (mlock(), so that it can be neither reclaimed nor swapped) takes
 * those pages out of the free ones, and the allocation first reclaims the
 * file cache down to what fits: the kernel then computes its thresholds
 * from what a machine of that size would have. A cgroup's memory limit is
 * not the same here: cgroup v1 memory controllers have no dirty throttling
 * of their own (only v2's do, through the writeback of their inodes), so
 * the global thresholds would stay those of the whole machine.
 *
 * The memory is held by a child process that does nothing else: it dies
 * with the run (PR_SET_PDEATHSIG, also after SIGKILL), and its memory is
 * then freed by the kernel, so nothing can stay pinned; it is the first the
 * OOM killer picks (oom_score_adj 1000), so that a machine shared with
 * others loses the emulation rather than someone else's work; and it checks
 * MemAvailable before each step, so that it stops before the machine runs
 * short. */

/* Pinned in steps of this, with MemAvailable checked before each. */
#define PIN_STEP (G_GUINT64_CONSTANT (256) << 20)

typedef enum {
  PIN_DONE,
  PIN_FAILED_MMAP,
  PIN_FAILED_MLOCK,
  PIN_FAILED_AVAILABLE,
} PinStage;

/* What the child writes to its parent once, in one write() (atomic: smaller
 * than PIPE_BUF). */
typedef struct {
  int     stage;          /* PinStage */
  int     error_number;   /* errno of the failed call */
  guint64 pinned;         /* bytes pinned when it stopped */
  guint64 available;      /* MemAvailable, bytes, at the last check */
} PinStatus;

struct _RpMemoryPin
{
  guint64 machine_memory;   /* the size emulated, bytes */
  guint64 total;            /* MemTotal, bytes */
  guint64 pinned;
  guint64 available_after;  /* MemAvailable right after pinning */
  guint64 threshold[2];     /* nr_dirty_threshold (bytes): [0] before pinning, [1] after */
  guint64 background[2];    /* nr_dirty_background_threshold, the same */
  GPid    pid;              /* the child holding the memory; 0 once reaped */
  int     control_fd;       /* its stdin, in effect: closing it releases the memory */
  int     wait_status;      /* waitpid()'s, once reaped */
};

/* A field of /proc/meminfo in bytes ("MemAvailable:   1234 kB"), 0 when it
 * is missing. Allocates nothing: the child calls it. */
static guint64
meminfo_field (const char *text,
               const char *key)
{
  const char *p = strstr (text, key);
  guint64 kib = 0;

  if (p == NULL)
    return 0;
  for (p += strlen (key); *p == ' ' || *p == '\t'; p++)
    ;
  for (; *p >= '0' && *p <= '9'; p++)
    kib = kib * 10 + (guint64) (*p - '0');
  return kib * 1024;
}

/* MemAvailable with system calls only (async-signal-safe, for the child). */
static guint64
read_available_raw (void)
{
  char buffer[8192];
  ssize_t n = -1;
  int fd = open ("/proc/meminfo", O_RDONLY | O_CLOEXEC);

  if (fd >= 0)
    {
      n = read (fd, buffer, sizeof buffer - 1);
      close (fd);
    }
  if (n <= 0)
    return 0;
  buffer[n] = '\0';
  return meminfo_field (buffer, "MemAvailable:");
}

static void
report_status (int      status_fd,
               PinStage stage,
               int      error_number,
               guint64  pinned,
               guint64  available)
{
  PinStatus status = { stage, error_number, pinned, available };
  ssize_t ignored = write (status_fd, &status, sizeof status);

  (void) ignored;
}

/* The child: async-signal-safe calls only, since the parent has threads.
 * Pins @bytes, says so on @status_fd, and holds them until @control_fd
 * reads end of file (the parent closed it, or died). */
G_GNUC_NORETURN static void
pin_child (int     control_fd,
           int     status_fd,
           guint64 bytes,
           pid_t   parent)
{
  /* The run's own handlers would write to a pipe closed below. Ignored
   * rather than fatal: the memory stays pinned while the run stops after a
   * Ctrl-C (its writer's last writeback included), and goes when the run
   * releases it or dies (SIGKILL, which nothing ignores). */
  static const int quiet_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE };
  struct sigaction action = { 0 };
  sigset_t all;
  char *memory;
  int fd;
  char byte;

  /* Dies with the thread that forked it: the caller's main thread. */
  if (prctl (PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid () != parent)
    _exit (1);
  action.sa_handler = SIG_IGN;
  for (guint i = 0; i < G_N_ELEMENTS (quiet_signals); i++)
    sigaction (quiet_signals[i], &action, NULL);
  sigemptyset (&all);
  sigprocmask (SIG_SETMASK, &all, NULL);
  /* None of the run's files (a loop mount's, the reports'): they would keep
   * a mount busy for as long as the child lives. */
  close_range (3, (unsigned) MIN (control_fd, status_fd) - 1, 0);
  close_range ((unsigned) MIN (control_fd, status_fd) + 1, (unsigned) MAX (control_fd, status_fd) - 1, 0);
  close_range ((unsigned) MAX (control_fd, status_fd) + 1, ~0U, 0);
  fd = open ("/proc/self/oom_score_adj", O_WRONLY | O_CLOEXEC);
  if (fd >= 0)
    {
      ssize_t ignored = write (fd, "1000", 4);

      (void) ignored;
      close (fd);
    }

  memory = mmap (NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (memory == MAP_FAILED)
    {
      report_status (status_fd, PIN_FAILED_MMAP, errno, 0, read_available_raw ());
      _exit (2);
    }
  for (guint64 done = 0; done < bytes; done += PIN_STEP)
    {
      guint64 step = MIN (PIN_STEP, bytes - done);
      guint64 available = read_available_raw ();

      if (available < RP_MEMORY_PIN_MARGIN + step)
        {
          report_status (status_fd, PIN_FAILED_AVAILABLE, 0, done, available);
          _exit (2);
        }
      /* mlock() faults every page in and keeps it: MAP_LOCKED would not
       * say when it could not. Through syscall(): AddressSanitizer's
       * mlock() does nothing. */
      if (syscall (SYS_mlock, memory + done, (size_t) step) != 0)
        {
          report_status (status_fd, PIN_FAILED_MLOCK, errno, done, available);
          _exit (2);
        }
    }
  report_status (status_fd, PIN_DONE, 0, bytes, read_available_raw ());
  while (read (control_fd, &byte, 1) != 0)
    if (errno != EINTR)
      break;
  _exit (0);
}

static gboolean
read_meminfo (guint64  *out_total,
              guint64  *out_available,
              GError  **error)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents ("/proc/meminfo", &text, NULL, error))
    return FALSE;
  *out_total = meminfo_field (text, "MemTotal:");
  *out_available = meminfo_field (text, "MemAvailable:");
  if (*out_total == 0 || *out_available == 0)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                           _("/proc/meminfo has no MemTotal or MemAvailable: cannot emulate a machine’s memory here"));
      return FALSE;
    }
  return TRUE;
}

/* The kernel's global dirty thresholds of this moment, bytes: /proc/vmstat
 * computes them when it is read (global_dirty_limits()). */
static void
read_thresholds (guint64 *out_threshold,
                 guint64 *out_background)
{
  g_autofree char *text = NULL;
  guint64 page = (guint64) sysconf (_SC_PAGESIZE);
  guint64 pages;

  *out_threshold = *out_background = 0;
  if (!g_file_get_contents ("/proc/vmstat", &text, NULL, NULL))
    return;
  if (rp_proc_parse_vmstat (text, "nr_dirty_threshold", &pages))
    *out_threshold = pages * page;
  if (rp_proc_parse_vmstat (text, "nr_dirty_background_threshold", &pages))
    *out_background = pages * page;
}

/**
 * rp_memory_pin_judge:
 * @machine_memory: the memory of the machine to emulate, bytes
 * @total: this machine's MemTotal, bytes
 * @available: its MemAvailable now, bytes
 * @lock_limit: bytes this process may lock (RLIMIT_MEMLOCK), %G_MAXUINT64
 *   for root or no limit
 * @out_pinned: (out) (optional): what would be pinned, bytes (@total minus
 *   @machine_memory)
 * @error: as for rp_memory_pin_check()
 *
 * The decision of rp_memory_pin_check() on given figures, so that a test
 * can judge it without depending on what other programs hold right now.
 *
 * Returns: %TRUE when a machine of @machine_memory can be emulated
 */
gboolean
rp_memory_pin_judge (guint64   machine_memory,
                     guint64   total,
                     guint64   available,
                     guint64   lock_limit,
                     guint64  *out_pinned,
                     GError  **error)
{
  g_autofree char *asked = rp_format_size (machine_memory);
  g_autofree char *total_text = rp_format_size (total);
  g_autofree char *pin_text = NULL, *available_text = NULL, *margin_text = NULL;
  guint64 pin;

  if (machine_memory < RP_MEMORY_PIN_MIN_MACHINE)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--memory: %s is less than 1 GiB: the kernel, the desktop and the run itself do not fit in that"),
                   asked);
      return FALSE;
    }
  if (machine_memory >= total)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--memory: %s is not less than this machine’s memory (%s): there is nothing to take away"),
                   asked, total_text);
      return FALSE;
    }
  pin = total - machine_memory;
  pin_text = rp_format_size (pin);
  if (out_pinned != NULL)
    *out_pinned = pin;
  if (lock_limit < pin)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_PERMISSION,
                   _("--memory: emulating %s means locking %s of memory, more than this user may lock (ulimit -l); run it as root"),
                   asked, pin_text);
      return FALSE;
    }
  if (available < pin + RP_MEMORY_PIN_MARGIN)
    {
      available_text = rp_format_size (available);
      margin_text = rp_format_size (RP_MEMORY_PIN_MARGIN);
      g_set_error (error, RP_ERROR, RP_ERROR_NO_SPACE,
                   _("--memory: emulating %s means pinning %s of memory, but only %s is available and %s must stay so (other programs use the rest)"),
                   asked, pin_text, available_text, margin_text);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_memory_pin_check:
 * @machine_memory: the memory of the machine to emulate, bytes
 * @out_pinned: (out) (optional): what would be pinned, bytes (MemTotal
 *   minus @machine_memory)
 * @error: %RP_ERROR_INVALID_ARGUMENT when @machine_memory is below
 *   %RP_MEMORY_PIN_MIN_MACHINE or not below this machine's MemTotal;
 *   %RP_ERROR_PERMISSION when the process may not lock that much
 *   (RLIMIT_MEMLOCK, not root); %RP_ERROR_NO_SPACE when MemAvailable
 *   would keep less than %RP_MEMORY_PIN_MARGIN beside it. Messages are
 *   translated and name the option, `--memory`.
 *
 * Whether rp_memory_pin_new() can emulate a machine of @machine_memory
 * here, as of now (/proc/meminfo), without pinning anything:
 * rp_memory_pin_judge() of this machine's figures.
 *
 * Returns: %TRUE when it can
 */
gboolean
rp_memory_pin_check (guint64   machine_memory,
                     guint64  *out_pinned,
                     GError  **error)
{
  guint64 total, available, lock_limit = G_MAXUINT64;
  struct rlimit limit;

  if (!read_meminfo (&total, &available, error))
    return FALSE;
  if (geteuid () != 0)
    lock_limit = getrlimit (RLIMIT_MEMLOCK, &limit) != 0 ? 0
               : limit.rlim_cur == RLIM_INFINITY ? G_MAXUINT64 : (guint64) limit.rlim_cur;
  return rp_memory_pin_judge (machine_memory, total, available, lock_limit, out_pinned, error);
}

/* The child's word: PIN_DONE, or an error naming what failed. */
static gboolean
await_child (RpMemoryPin  *self,
             int           status_fd,
             GError      **error)
{
  g_autofree char *pin_text = rp_format_size (self->total - self->machine_memory);
  g_autofree char *done_text = NULL, *available_text = NULL;
  PinStatus status;
  ssize_t n;

  do
    n = read (status_fd, &status, sizeof status);
  while (n < 0 && errno == EINTR);
  if (n != sizeof status)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("--memory: the process pinning %s of memory ended before it was done (killed, or out of memory)"),
                   pin_text);
      return FALSE;
    }
  done_text = rp_format_size (status.pinned);
  available_text = rp_format_size (status.available);
  switch (status.stage)
    {
    case PIN_DONE:
      self->pinned = status.pinned;
      self->available_after = status.available;
      return TRUE;
    case PIN_FAILED_AVAILABLE:
      g_set_error (error, RP_ERROR, RP_ERROR_NO_SPACE,
                   _("--memory: stopped pinning %s of memory after %s: only %s stayed available (other programs took memory meanwhile)"),
                   pin_text, done_text, available_text);
      return FALSE;
    default:
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("--memory: pinning %s of memory failed after %s: %s"),
                   pin_text, done_text, g_strerror (status.error_number));
      return FALSE;
    }
}

/* The kernel's word that the child's memory is locked (VmLck of
 * /proc/PID/status), rather than the child's: an mlock() that a library
 * turns into a no-op would otherwise emulate nothing, silently. */
static gboolean
check_locked (RpMemoryPin  *self,
              GError      **error)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", (int) self->pid);
  g_autofree char *text = NULL;
  guint64 locked = 0;

  if (g_file_get_contents (path, &text, NULL, NULL))
    locked = meminfo_field (text, "VmLck:");
  if (locked < self->pinned)
    {
      g_autofree char *pin_text = rp_format_size (self->pinned);
      g_autofree char *locked_text = rp_format_size (locked);

      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("--memory: the kernel holds only %s of the %s pinned locked (VmLck): the emulation would not hold"),
                   locked_text, pin_text);
      return FALSE;
    }
  return TRUE;
}

/* Ends the child (it exits when its control pipe closes) and reaps it; its
 * memory goes back to the kernel on its exit. */
static void
release (RpMemoryPin *self)
{
  if (self->control_fd >= 0)
    close (self->control_fd);
  self->control_fd = -1;
  if (self->pid == 0)
    return;
  while (waitpid (self->pid, &self->wait_status, 0) < 0 && errno == EINTR)
    ;
  self->pid = 0;
}

/**
 * rp_memory_pin_new:
 * @machine_memory: the memory of the machine to emulate, bytes
 * @error: what rp_memory_pin_check() gives, or %RP_ERROR_NO_SPACE when
 *   MemAvailable fell below the margin while pinning, or %RP_ERROR_FAILED
 *   when fork(), mmap() or mlock() failed; nothing stays pinned then
 *
 * Pins (mlock()s) MemTotal minus @machine_memory in a child process, so
 * that the kernel's dirtyable memory, and with it its default dirty
 * thresholds, are those of a machine of @machine_memory, and returns once
 * it is pinned (seconds for gigabytes: the kernel zeroes every page and
 * reclaims the file cache to make room). The thresholds are read just
 * before and just after. Call it on the thread that stays for the whole run
 * (the main thread): the child is killed when the thread that forked it
 * ends (PR_SET_PDEATHSIG). The memory is released by rp_memory_pin_free(),
 * or by the kernel when this process dies, however it dies.
 *
 * Returns: (transfer full) (nullable): the pin, or %NULL
 */
RpMemoryPin *
rp_memory_pin_new (guint64   machine_memory,
                   GError  **error)
{
  g_autoptr(RpMemoryPin) self = g_new0 (RpMemoryPin, 1);
  int control[2], status[2];
  guint64 available, pin;
  pid_t parent = getpid ();

  self->control_fd = -1;
  if (!rp_memory_pin_check (machine_memory, &pin, error) ||
      !read_meminfo (&self->total, &available, error))
    return NULL;
  self->machine_memory = machine_memory;
  read_thresholds (&self->threshold[0], &self->background[0]);
  if (!g_unix_open_pipe (control, FD_CLOEXEC, error) ||
      !g_unix_open_pipe (status, FD_CLOEXEC, error))
    return NULL;
  self->pid = fork ();
  if (self->pid == 0)
    pin_child (control[0], status[1], pin, parent);
  close (control[0]);
  close (status[1]);
  self->control_fd = control[1];
  if (self->pid < 0)
    {
      int saved = errno;

      self->pid = 0;
      close (status[0]);
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("--memory: cannot start the process that pins memory: %s"),
                   g_strerror (saved));
      return NULL;
    }
  if (!await_child (self, status[0], error))
    {
      close (status[0]);
      return NULL;
    }
  close (status[0]);
  if (!check_locked (self, error))
    return NULL;
  read_thresholds (&self->threshold[1], &self->background[1]);
  return g_steal_pointer (&self);
}

/**
 * rp_memory_pin_get_pinned:
 *
 * Returns: the bytes pinned (MemTotal minus the emulated memory)
 */
guint64
rp_memory_pin_get_pinned (RpMemoryPin *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->pinned;
}

/**
 * rp_memory_pin_get_dirty_threshold:
 * @emulated: %TRUE for the threshold right after pinning, %FALSE for the
 *   one right before (the machine's own)
 *
 * Returns: the kernel's global dirty threshold (/proc/vmstat
 *   nr_dirty_threshold) in bytes, 0 when it could not be read
 */
guint64
rp_memory_pin_get_dirty_threshold (RpMemoryPin *self,
                                   gboolean     emulated)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->threshold[emulated ? 1 : 0];
}

/**
 * rp_memory_pin_is_held:
 *
 * Whether the memory is still pinned: %FALSE once its process ended (the
 * OOM killer, a SIGKILL) or was released.
 *
 * Returns: whether the pinning process is alive
 */
gboolean
rp_memory_pin_is_held (RpMemoryPin *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (self->pid != 0 && waitpid (self->pid, &self->wait_status, WNOHANG) == self->pid)
    self->pid = 0;
  return self->pid != 0;
}

static void
set_bytes_note (RpSession  *session,
                const char *key,
                guint64     bytes)
{
  g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);

  rp_session_set_note (session, key, text);
}

/**
 * rp_memory_pin_set_notes:
 * @session: the run measured under the pin
 *
 * Writes the emulation into the run's notes (bytes, as decimal text):
 * `memory_emulated_bytes`, `memory_total_bytes` (MemTotal),
 * `memory_pinned_bytes`, `memory_available_after_pin_bytes` (MemAvailable
 * right after pinning), `dirty_threshold_unemulated_bytes` and
 * `dirty_background_threshold_unemulated_bytes` (/proc/vmstat right before
 * pinning), `dirty_threshold_emulated_bytes` and
 * `dirty_background_threshold_emulated_bytes` (right after), and
 * `memory_pin_held` ("yes", or "no" when the pinning process ended before
 * this call). Call it before the run starts and again once it finished.
 */
void
rp_memory_pin_set_notes (RpMemoryPin *self,
                         RpSession   *session)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (RP_IS_SESSION (session));

  set_bytes_note (session, "memory_emulated_bytes", self->machine_memory);
  set_bytes_note (session, "memory_total_bytes", self->total);
  set_bytes_note (session, "memory_pinned_bytes", self->pinned);
  set_bytes_note (session, "memory_available_after_pin_bytes", self->available_after);
  set_bytes_note (session, "dirty_threshold_unemulated_bytes", self->threshold[0]);
  set_bytes_note (session, "dirty_background_threshold_unemulated_bytes", self->background[0]);
  set_bytes_note (session, "dirty_threshold_emulated_bytes", self->threshold[1]);
  set_bytes_note (session, "dirty_background_threshold_emulated_bytes", self->background[1]);
  rp_session_set_note (session, "memory_pin_held", rp_memory_pin_is_held (self) ? "yes" : "no");
}

/**
 * rp_memory_pin_free:
 *
 * Releases the memory (the child exits and is reaped) and frees @self.
 */
void
rp_memory_pin_free (RpMemoryPin *self)
{
  if (self == NULL)
    return;
  release (self);
  g_free (self);
}
