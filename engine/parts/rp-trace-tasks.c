/* rp-trace-tasks.c: which tasks are the run's own (its threads, the processes it started), even after they ended. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <unistd.h>

#include "rp-command-scope.h"
#include "rp-trace-private.h"

/* A kernel event names its task by the thread's id (common_pid is the
 * kernel's task->pid, a TID), and the reader sees it up to half a second
 * later, at its end after every load was joined: by then a writer thread
 * or a command's dd may have ended, and /proc no longer tells whose it was
 * (trial: a run's own writer credited to "? 28940", every pause of the run
 * counted as another program's). So the run's tasks are known from their
 * start: the threads of this process when the instance is made, then every
 * task created by one of them, from task:task_newtask (kernel/fork.c: in the
 * creating task's context, so common_pid is the parent; clone_flags tells
 * a thread from a process). A task made by another program with the number
 * of one of ours that ended is that number reused (pid_max may be 32768):
 * it is forgotten. /proc is asked only about a task never seen created,
 * while it lives. */

/* include/uapi/linux/sched.h */
#define RP_CLONE_THREAD 0x00010000

typedef struct {
  RpTraceTaskKind kind;
  char            comm[16];   /* the name it was created with, then its
                               * latest (task:task_rename: an exec, a
                               * thread naming itself) */
} OwnTask;

static void
add_task (RpTraceSink     *sink,
          int              tid,
          RpTraceTaskKind  kind,
          const char      *comm)
{
  OwnTask *task = g_new0 (OwnTask, 1);

  task->kind = kind;
  g_strlcpy (task->comm, comm != NULL ? comm : "", sizeof task->comm);
  g_hash_table_insert (sink->own_tasks, GINT_TO_POINTER (tid), task);
}

/**
 * rp_trace_tasks_init:
 * @sink: a sink whose own_tasks table is to be made
 *
 * Takes the threads this process has now (/proc/self/task) as the run's:
 * call it when the instance's events are on, so that each task made later
 * comes as an event.
 */
void
rp_trace_tasks_init (RpTraceSink *sink)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  const char *name;

  sink->own_tasks = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  add_task (sink, (int) getpid (), RP_TRACE_TASK_THREAD, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    add_task (sink, (int) g_ascii_strtoll (name, NULL, 10), RP_TRACE_TASK_THREAD, NULL);
}

/**
 * rp_trace_task_kind:
 * @tid: a task id as a kernel event carries it (common_pid)
 * @out_comm: (out) (optional) (transfer none): the name it was created
 *   with or its latest since (an exec's program), "" when unknown
 *
 * Whose @tid is: a thread of this process, a process of the run's command
 * load or another process the run started, or another program's. A task
 * never seen created (it began before the instance) is looked up in /proc,
 * which knows it only while it lives.
 *
 * Returns: its kind
 */
RpTraceTaskKind
rp_trace_task_kind (RpTraceSink  *sink,
                    int           tid,
                    const char  **out_comm)
{
  OwnTask *task = g_hash_table_lookup (sink->own_tasks, GINT_TO_POINTER (tid));
  g_autofree char *own = NULL;

  if (out_comm != NULL)
    *out_comm = task != NULL ? task->comm : "";
  /* A process of the command may be seen created before it entered the
   * command's cgroup or exec'd with its variable: asked again when it is
   * first paused, as it most likely lives then. */
  if (task != NULL && task->kind == RP_TRACE_TASK_CHILD && rp_command_scope_owns_pid (tid))
    task->kind = RP_TRACE_TASK_COMMAND;
  if (task != NULL)
    return task->kind;
  own = g_strdup_printf ("/proc/self/task/%d", tid);
  if (g_file_test (own, G_FILE_TEST_IS_DIR))
    return RP_TRACE_TASK_THREAD;
  if (rp_command_scope_owns_pid (tid))
    return RP_TRACE_TASK_COMMAND;
  return RP_TRACE_TASK_OTHER;
}

static void
on_new_task (RpTraceSink       *sink,
             struct tep_event  *event,
             struct tep_record *record)
{
  int parent = (int) rp_trace_field_s64 (event, record, "common_pid");
  int child = (int) rp_trace_field_s64 (event, record, "pid");
  guint64 flags = rp_trace_field_u64 (event, record, "clone_flags");
  OwnTask *by = g_hash_table_lookup (sink->own_tasks, GINT_TO_POINTER (parent));
  RpTraceTaskKind kind;
  char comm[16] = "";

  if (by == NULL)
    {
      /* Another program's task: a number of ours, ended, given again. */
      g_hash_table_remove (sink->own_tasks, GINT_TO_POINTER (child));
      return;
    }
  rp_trace_field_text (event, record, "comm", comm, sizeof comm);
  if (flags & RP_CLONE_THREAD)
    kind = by->kind;
  else if (by->kind != RP_TRACE_TASK_THREAD)
    kind = by->kind;    /* a process of a command's, or of a child's */
  else
    /* A process this one started: the command load's when its scope
     * holds it (looked up now, while it most likely lives; it is put into
     * its cgroup or given its variable before it runs the command). */
    kind = rp_command_scope_owns_pid (child) ? RP_TRACE_TASK_COMMAND : RP_TRACE_TASK_CHILD;
  add_task (sink, child, kind, comm);
}

/* A task of ours took a new name: the program its exec ran, or a name
 * it was given (fs/exec.c's __set_task_comm(): exec, prctl(PR_SET_NAME),
 * a write to /proc/PID/comm by another task, so the event's "pid", not
 * its common_pid). */
static void
on_rename (RpTraceSink       *sink,
           struct tep_event  *event,
           struct tep_record *record)
{
  int tid = (int) rp_trace_field_s64 (event, record, "pid");
  OwnTask *task = g_hash_table_lookup (sink->own_tasks, GINT_TO_POINTER (tid));

  if (task != NULL)
    rp_trace_field_text (event, record, "newcomm", task->comm, sizeof task->comm);
}

static const RpTraceEventInfo events[] = {
  /* Every task's, unfiltered (rp-trace-events.c) */
  { "task", "task_newtask", on_new_task },
  { "task", "task_rename", on_rename },
};

/**
 * rp_trace_task_events:
 * @out_n: (out): how many
 *
 * Returns: (transfer none): the events that tell which tasks are the run's
 */
const RpTraceEventInfo *
rp_trace_task_events (guint *out_n)
{
  *out_n = G_N_ELEMENTS (events);
  return events;
}
