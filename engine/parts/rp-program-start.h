/* rp-program-start.h: starting a program that exits by itself, timed, and the files it maps. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-part-host.h"
#include "rp-timed-call.h"

G_BEGIN_DECLS

typedef struct _RpProgramStart RpProgramStart;

RpProgramStart *rp_program_start_new               (const char * const *argv,
                                                    GError            **error);
void            rp_program_start_free              (RpProgramStart     *self);
const char     *rp_program_start_get_path          (RpProgramStart     *self);
void            rp_program_start_set_argv          (RpProgramStart     *self,
                                                    const char * const *argv);
GPtrArray      *rp_program_start_list_mapped_files (RpProgramStart     *self,
                                                    GError            **error);
gboolean        rp_program_start_time              (RpProgramStart     *self,
                                                    RpPartHost         *host,
                                                    RpTimedCall        *call,
                                                    const char         *series,
                                                    double             *out_started,
                                                    double             *out_seconds,
                                                    GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpProgramStart, rp_program_start_free)

G_END_DECLS
