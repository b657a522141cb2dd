/* rp-test-fixture.c: a real target directory and a main loop, shared by the tests that run sessions. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gstdio.h>

#include "rp-clock.h"
#include "rp-test-fixture.h"

/**
 * rp_test_fixture_set_up:
 *
 * Makes an empty directory under the build dir, not /tmp: /tmp may be tmpfs,
 * where neither fsync nor evicting a page means anything.
 */
void
rp_test_fixture_set_up (RpTestFixture *f,
                        gconstpointer  data)
{
  f->directory = g_test_build_filename (G_TEST_BUILT, "run-XXXXXX", NULL);
  g_assert_nonnull (g_mkdtemp (f->directory));
  f->loop = g_main_loop_new (NULL, FALSE);
  f->updates = 0;
  f->finished_at = 0;
}

guint
rp_test_count_entries (const char *directory)
{
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/**
 * rp_test_fixture_tear_down:
 *
 * Asserts the safety rule, that the run left the directory empty, then
 * removes it.
 */
void
rp_test_fixture_tear_down (RpTestFixture *f,
                           gconstpointer  data)
{
  g_assert_cmpuint (rp_test_count_entries (f->directory), ==, 0);
  g_rmdir (f->directory);
  g_free (f->directory);
  g_main_loop_unref (f->loop);
}

static void
on_updated (RpSession     *session,
            RpTestFixture *f)
{
  f->updates++;
}

static void
on_finished (RpSession     *session,
             RpTestFixture *f)
{
  f->finished_at = rp_clock_now ();
  g_main_loop_quit (f->loop);
}

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError **error = user_data;

  rp_session_start_finish (RP_SESSION (object), result, error);
}

/**
 * rp_test_start_session:
 * @scenario: what to run; its directory is set to the fixture's
 * @error: (out): where the start error lands once the main loop ran
 *
 * Starts a session whose "finished" quits the fixture's loop and whose
 * "updated" signals are counted.
 *
 * Returns: (transfer full): the session
 */
RpSession *
rp_test_start_session (RpTestFixture  *f,
                       RpScenario     *scenario,
                       GError        **error)
{
  RpSession *session;

  g_free (scenario->directory);
  scenario->directory = g_strdup (f->directory);
  session = rp_session_new (scenario);
  /* No bound on the stop: these tests check that the run left its
   * directory empty, which a stop that gave up on a part slowed by a busy
   * machine (20 s: in a CI run beside other work the small-files load's
   * syncfs took longer) does not promise. The bound has tests of its own;
   * meson's timeout is the hang guard here. */
  rp_session_set_stop_bound (session, -1);
  g_signal_connect (session, "updated", G_CALLBACK (on_updated), f);
  g_signal_connect (session, "finished", G_CALLBACK (on_finished), f);
  rp_session_start_async (session, NULL, on_started, error);
  return session;
}

/**
 * rp_test_new_scenario:
 * @load: (nullable): the one load, e.g. "copy-loop"
 * @probe: (nullable): the one probe, e.g. "save"
 * @duration: seconds
 *
 * Returns: (transfer full): a scenario of just @load and @probe in the
 *   fixture's directory
 */
RpScenario *
rp_test_new_scenario (RpTestFixture *f,
                      const char    *load,
                      const char    *probe,
                      double         duration)
{
  RpScenario *scenario = rp_scenario_new_preset ("custom", NULL);

  scenario->directory = g_strdup (f->directory);
  rp_scenario_clear_role (scenario, RP_PART_LOAD);
  rp_scenario_clear_role (scenario, RP_PART_PROBE);
  if (load != NULL)
    rp_scenario_set_part (scenario, load, TRUE);
  if (probe != NULL)
    rp_scenario_set_part (scenario, probe, TRUE);
  scenario->duration = duration;
  return scenario;
}

/**
 * rp_test_run_to_end:
 * @start_error: (out): where a start error lands
 *
 * Runs @scenario until it finishes or fails to start.
 *
 * Returns: (transfer full): the session
 */
RpSession *
rp_test_run_to_end (RpTestFixture  *f,
                    RpScenario     *scenario,
                    GError        **start_error)
{
  RpSession *session = rp_test_start_session (f, scenario, start_error);

  while (*start_error == NULL && rp_session_get_state (session) != RP_SESSION_FINISHED)
    g_main_context_iteration (NULL, TRUE);
  return session;
}

/**
 * rp_test_run_session:
 *
 * Runs @scenario to its end; the run must start and end without error.
 *
 * Returns: (transfer full): the session
 */
RpSession *
rp_test_run_session (RpTestFixture *f,
                     RpScenario    *scenario)
{
  g_autoptr(GError) error = NULL;
  RpSession *session = rp_test_run_to_end (f, scenario, &error);

  g_assert_no_error (error);
  g_assert_null (rp_session_get_error (session));
  return session;
}

/**
 * rp_test_run_until_finished:
 *
 * Runs @scenario with rp_test_start_session() and the fixture's main loop
 * until the session's "finished" signal quits it; the run must start and
 * end without error.
 *
 * Returns: (transfer full): the session
 */
RpSession *
rp_test_run_until_finished (RpTestFixture *f,
                            RpScenario    *scenario)
{
  g_autoptr(GError) error = NULL;
  RpSession *session = rp_test_start_session (f, scenario, &error);

  g_main_loop_run (f->loop);
  g_assert_no_error (error);
  g_assert_null (rp_session_get_error (session));
  return session;
}

/**
 * rp_test_get_note:
 *
 * Returns: (transfer none): the session's note @key, which must be there;
 *   interned, since the copy of the notes dies with this function
 */
const char *
rp_test_get_note (RpSession  *session,
                  const char *key)
{
  g_autoptr(GHashTable) notes = rp_session_get_notes (session);
  const char *value = g_hash_table_lookup (notes, key);

  g_assert_nonnull (value);
  return g_intern_string (value);
}

/**
 * rp_test_get_number_note:
 *
 * Returns: the session's note @key read as a whole number
 */
guint64
rp_test_get_number_note (RpSession  *session,
                         const char *key)
{
  return g_ascii_strtoull (rp_test_get_note (session, key), NULL, 10);
}
