/* rp-test-fixture.h: a real target directory and a main loop, shared by the tests that run sessions. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-session.h"

G_BEGIN_DECLS

typedef struct {
  char      *directory;
  GMainLoop *loop;
  guint      updates;
  double     finished_at;
} RpTestFixture;

void       rp_test_fixture_set_up    (RpTestFixture  *f,
                                      gconstpointer   data);
void       rp_test_fixture_tear_down (RpTestFixture  *f,
                                      gconstpointer   data);
guint      rp_test_count_entries     (const char     *directory);
RpSession *rp_test_start_session     (RpTestFixture  *f,
                                      RpScenario     *scenario,
                                      GError        **error);

RpScenario *rp_test_new_scenario      (RpTestFixture  *f,
                                      const char     *load,
                                      const char     *probe,
                                      double          duration);
RpSession  *rp_test_run_to_end        (RpTestFixture  *f,
                                      RpScenario     *scenario,
                                      GError        **start_error);
RpSession  *rp_test_run_session       (RpTestFixture  *f,
                                      RpScenario     *scenario);
RpSession  *rp_test_run_until_finished (RpTestFixture *f,
                                       RpScenario    *scenario);
const char *rp_test_get_note          (RpSession      *session,
                                      const char     *key);
guint64     rp_test_get_number_note   (RpSession      *session,
                                      const char     *key);

G_END_DECLS
