/* rp-command-process.h: one command of the command load: started, watched, stopped, its notes. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-part-host.h"

G_BEGIN_DECLS

typedef struct _RpCommandProcess RpCommandProcess;

RpCommandProcess *rp_command_process_spawn        (const char * const  *argv,
                                                   const char          *directory,
                                                   GError             **error);
int               rp_command_process_get_fd       (RpCommandProcess    *self);
gboolean          rp_command_process_is_finished  (RpCommandProcess    *self);
gboolean          rp_command_process_check        (RpCommandProcess    *self);
void              rp_command_process_stop_all     (GPtrArray           *processes);
void              rp_command_process_set_notes    (RpCommandProcess    *self,
                                                   RpPartHost          *host,
                                                   const char          *prefix);
void              rp_command_process_free         (RpCommandProcess    *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpCommandProcess, rp_command_process_free)

G_END_DECLS
