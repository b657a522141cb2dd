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

G_END_DECLS
