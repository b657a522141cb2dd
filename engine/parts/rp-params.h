/* rp-params.h: the values of every part's parameters, read and written by key. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <json-glib/json-glib.h>

#include "rp-part.h"

G_BEGIN_DECLS

RpParams          *rp_params_new             (void);
RpParams          *rp_params_copy            (const RpParams     *self);
void               rp_params_free            (RpParams           *self);
gboolean           rp_params_equal           (const RpParams     *a,
                                              const RpParams     *b);

const RpParamInfo *rp_params_lookup          (const char         *key,
                                              const RpPartInfo  **out_part);

guint64            rp_params_get_size        (const RpParams     *self,
                                              const char         *key);
double             rp_params_get_seconds     (const RpParams     *self,
                                              const char         *key);
gboolean           rp_params_get_flag        (const RpParams     *self,
                                              const char         *key);
const char * const *rp_params_get_argv       (const RpParams     *self,
                                              const char         *key);
void               rp_params_set_size        (RpParams           *self,
                                              const char         *key,
                                              guint64             value);
void               rp_params_set_seconds     (RpParams           *self,
                                              const char         *key,
                                              double              value);
void               rp_params_set_flag        (RpParams           *self,
                                              const char         *key,
                                              gboolean            value);
const char        *rp_params_get_choice      (const RpParams     *self,
                                              const char         *key);
gboolean           rp_params_set_choice      (RpParams           *self,
                                              const char         *key,
                                              const char         *choice);
void               rp_params_set_argv        (RpParams           *self,
                                              const char         *key,
                                              const char * const *argv);

gboolean           rp_params_parse           (RpParams           *self,
                                              const RpParamInfo  *param,
                                              const char         *text,
                                              const char         *name,
                                              GError            **error);
gboolean           rp_params_validate        (const RpParams     *self,
                                              const RpParamInfo  *param,
                                              GError            **error);
gboolean           rp_params_check_size      (guint64             value,
                                              guint64             min,
                                              guint64             max,
                                              const char         *name,
                                              GError            **error);
gboolean           rp_params_check_range     (double              value,
                                              double              min,
                                              double              max,
                                              const char         *name,
                                              GError            **error);
char             **rp_params_split_command   (const char         *text,
                                              const char         *name,
                                              GError            **error);
char              *rp_params_format          (const RpParams     *self,
                                              const RpParamInfo  *param);

void               rp_params_to_json         (const RpParams     *self,
                                              JsonBuilder        *builder);
gboolean           rp_params_read_json       (RpParams           *self,
                                              JsonObject         *object,
                                              GError            **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpParams, rp_params_free)

G_END_DECLS
