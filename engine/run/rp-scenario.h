/* rp-scenario.h: what a session runs: loads, probes, their parameters, presets. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "rp-field.h"
#include "rp-params.h"
#include "rp-parts.h"

G_BEGIN_DECLS

/**
 * RpScenario:
 * @name: preset id ("R1", …) or "custom"
 * @directory: target directory; %NULL: rp_scenario_default_directory()
 * @load_directory: where the loads write, when not in @directory (the
 *   probes stay in @directory): a second file system, such as a USB stick's,
 *   whose writeback stalls the first one's writers; %NULL: in @directory
 * @duration: seconds; 0: until stopped (or the loads finish)
 * @stop_when_loads_finish: end the run when the last load is done
 * @parts: the parts that run, a bit per index of rp_parts_get_table();
 *   use rp_scenario_has_part() and rp_scenario_set_part()
 * @params: every part's parameters (rp-params.h), read and written by key,
 *   e.g. rp_params_get_size (scenario->params, "fsync_size"); a parameter
 *   of a part that does not run is ignored
 *
 * What a session runs: which loads and probes, with which parameters. Sizes
 * are bytes, durations seconds. Create with rp_scenario_new_preset(), check
 * with rp_scenario_validate().
 */
typedef struct {
  char     *name;
  char     *directory;
  char     *load_directory;
  double    duration;
  gboolean  stop_when_loads_finish;
  guint64   parts;
  RpParams *params;
} RpScenario;

/**
 * RpPresetInfo:
 * @id: the preset's id, e.g. "R1"
 * @title: a translatable one-line description
 */
typedef struct {
  const char *id;
  const char *title;
} RpPresetInfo;

/**
 * RpScenarioField:
 *
 * An #RpField of a scenario: @key names a part ("fsync", "seq-writer"),
 * @value is "none" where the part does not run.
 */
typedef RpField RpScenarioField;

#define RP_TYPE_SCENARIO (rp_scenario_get_type ())
GType              rp_scenario_get_type            (void) G_GNUC_CONST;

const RpPresetInfo *rp_scenario_list_presets       (guint            *out_n_presets);
RpScenario        *rp_scenario_new_preset          (const char       *id,
                                                    GError          **error);
RpScenario        *rp_scenario_copy                (const RpScenario *self);
void               rp_scenario_free                (RpScenario       *self);
gboolean           rp_scenario_validate            (const RpScenario *self,
                                                    GError          **error);
char              *rp_scenario_default_directory   (void);
const char        *rp_scenario_get_directory       (const RpScenario *self);
const char        *rp_scenario_get_load_directory  (const RpScenario *self);
JsonNode          *rp_scenario_to_json             (const RpScenario *self);
RpScenario        *rp_scenario_new_from_json       (JsonNode         *node,
                                                    GError          **error);
gboolean           rp_scenario_has_part            (const RpScenario *self,
                                                    const char       *id);
void               rp_scenario_set_part            (RpScenario       *self,
                                                    const char       *id,
                                                    gboolean          enabled);
gboolean           rp_scenario_has_role            (const RpScenario *self,
                                                    RpPartRole        role);
void               rp_scenario_clear_role          (RpScenario       *self,
                                                    RpPartRole        role);
const char        *rp_scenario_get_size_key        (const RpScenario *self);
char              *rp_scenario_describe            (const RpScenario *self);
GPtrArray         *rp_scenario_get_fields          (const RpScenario *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpScenario, rp_scenario_free)

G_END_DECLS
