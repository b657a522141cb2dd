/* rp-run-settings.h: the settings of the next run, typed, and the one place they become a scenario. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-scenario.h"

G_BEGIN_DECLS

/* The system sampler's default "baseline" (rp-system-sampler.c): seconds
 * its samplers run before the loads start. */
#define RP_RUN_SETTINGS_DEFAULT_BASELINE 3.0

/**
 * RpSizeMeaning:
 * @RP_SIZE_MEANING_NONE: the scenario writes nothing
 * @RP_SIZE_MEANING_WRITER_TOTAL: dd's total (R1)
 * @RP_SIZE_MEANING_COPY_SOURCE: the file the copy loop copies (R2)
 * @RP_SIZE_MEANING_WRITER_SHARE: each parallel writer's share (R3)
 *
 * What the size of the form means for a scenario.
 */
typedef enum {
  RP_SIZE_MEANING_NONE,
  RP_SIZE_MEANING_WRITER_TOTAL,
  RP_SIZE_MEANING_COPY_SOURCE,
  RP_SIZE_MEANING_WRITER_SHARE,
} RpSizeMeaning;

#define RP_TYPE_RUN_SETTINGS (rp_run_settings_get_type ())
G_DECLARE_FINAL_TYPE (RpRunSettings, rp_run_settings, RP, RUN_SETTINGS, GObject)

RpRunSettings *rp_run_settings_new               (void);
const char    *rp_run_settings_get_scenario      (RpRunSettings     *self);
gboolean       rp_run_settings_set_scenario      (RpRunSettings     *self,
                                                  const char        *id);
const char    *rp_run_settings_get_directory     (RpRunSettings     *self);
void           rp_run_settings_set_directory     (RpRunSettings     *self,
                                                  const char        *directory);
const char    *rp_run_settings_get_load_directory (RpRunSettings    *self);
void           rp_run_settings_set_load_directory (RpRunSettings    *self,
                                                   const char       *directory);
guint64        rp_run_settings_get_size          (RpRunSettings     *self);
void           rp_run_settings_set_size          (RpRunSettings     *self,
                                                  guint64            bytes);
double         rp_run_settings_get_duration      (RpRunSettings     *self);
double         rp_run_settings_get_baseline      (RpRunSettings     *self);
void           rp_run_settings_set_baseline      (RpRunSettings     *self,
                                                  double             seconds);
gboolean       rp_run_settings_parse_baseline    (const char        *text,
                                                  double            *out_seconds,
                                                  GError           **error);
void           rp_run_settings_set_duration      (RpRunSettings     *self,
                                                  double             seconds);
gboolean       rp_run_settings_get_simulate_save (RpRunSettings     *self);
void           rp_run_settings_set_simulate_save (RpRunSettings     *self,
                                                  gboolean           simulate_save);

void           rp_run_settings_bind              (RpRunSettings     *self,
                                                  GSettings         *settings,
                                                  GSettingsBindFlags flags);
void           rp_run_settings_store_form        (RpRunSettings     *self,
                                                  GSettings         *settings);

RpScenario    *rp_run_settings_build_scenario    (RpRunSettings     *self,
                                                  GError           **error);
gboolean       rp_run_settings_load_scenario     (RpRunSettings     *self,
                                                  const RpScenario  *scenario);
RpSizeMeaning  rp_run_settings_get_size_meaning  (RpRunSettings     *self);

gboolean       rp_run_settings_parse_size        (const char        *text,
                                                  guint64           *out_bytes,
                                                  GError           **error);
gboolean       rp_run_settings_parse_duration    (const char        *text,
                                                  double            *out_seconds,
                                                  GError           **error);
char          *rp_run_settings_format_size       (guint64            bytes);
char          *rp_run_settings_format_duration   (double             seconds);

G_END_DECLS
