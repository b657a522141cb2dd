/* rp-cli-run-options.h: the options of `resprobe-cli run`, from the parts table. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-scenario.h"

G_BEGIN_DECLS

/**
 * RpRunOptions:
 *
 * What `run` was given. The common options are fields; every parameter of
 * the parts table that has a CLI option gets a slot of its own, indexed as
 * rp_parts_get_params() lists them.
 */
typedef struct {
  char     *scenario;
  char     *directory;
  char     *load_directory;      /* --load-dir: the loads' folder, when not --dir */
  char     *memory;              /* --memory: the machine memory to emulate (rp-memory-pin.h) */
  char     *size;
  char     *duration;
  char     *report;
  gboolean  force;
  int       repeat;              /* --repeat: runs of the scenario, 1 when not given */
  char    **loads;
  char    **probes;
  char    **command_args;        /* after "--" */
  char    **param_texts;         /* one per parameter, NULL when not given (sparse) */
  char   ***param_lists;         /* the same for a program (given once at most) */
  gboolean *param_flags;         /* one per parameter, for flags */
  GArray   *entries;             /* GOptionEntry, for GOption */
} RpRunOptions;

void          rp_run_options_init          (RpRunOptions  *options);
void          rp_run_options_clear         (RpRunOptions  *options);
GOptionEntry *rp_run_options_get_entries   (RpRunOptions  *options);
RpScenario   *rp_run_options_to_scenario   (const RpRunOptions *options,
                                            GError       **error);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RpRunOptions, rp_run_options_clear)

G_END_DECLS
