/* rp-command-scope.h: every process a command load starts, found and stopped at the end. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

typedef struct _RpCommandScope RpCommandScope;

/* What keeps the command's processes together (the `command_containment` note). */
#define RP_COMMAND_SCOPE_CGROUP "cgroup"
#define RP_COMMAND_SCOPE_ENVIRONMENT "environment"

RpCommandScope *rp_command_scope_new         (void);
void            rp_command_scope_free        (RpCommandScope *scope);
const char     *rp_command_scope_get_kind    (RpCommandScope *scope);
char          **rp_command_scope_get_envp    (RpCommandScope *scope);
void            rp_command_scope_enter       (RpCommandScope *scope);
void            rp_command_scope_confirm     (RpCommandScope *scope,
                                              pid_t           pid);
gboolean        rp_command_scope_is_alive    (RpCommandScope *scope);
gboolean        rp_command_scope_owns_pid    (pid_t           pid);
guint           rp_command_scope_count_escaped (RpCommandScope *scope,
                                                pid_t           pgid);
void            rp_command_scope_kill        (RpCommandScope *scope,
                                              int             signal_number,
                                              pid_t           except_group);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpCommandScope, rp_command_scope_free)

G_END_DECLS
