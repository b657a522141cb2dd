/* test-memory-pin-judge.c: what `--memory` accepts and refuses, on given figures rather than this machine's. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <string.h>

#include "rp-error.h"
#include "rp-memory-pin.h"
#include "rp-units.h"

/* A machine of 24 GiB with 23 GiB available, as root (no lock limit). */
#define TOTAL (24 * RP_GiB)
#define AVAILABLE (23 * RP_GiB)

static void
test_accepted (void)
{
  guint64 pinned = 0;

  g_assert_true (rp_memory_pin_judge (4 * RP_GiB, TOTAL, AVAILABLE, G_MAXUINT64, &pinned, NULL));
  g_assert_cmpuint (pinned, ==, 20 * RP_GiB);
  /* Exactly the margin left beside the pin: still accepted. */
  g_assert_true (rp_memory_pin_judge (TOTAL - (AVAILABLE - RP_MEMORY_PIN_MARGIN), TOTAL, AVAILABLE,
                                      G_MAXUINT64, NULL, NULL));
}

/* Each refusal with its code and a message naming --memory. */
static void
assert_refused (guint64     machine_memory,
                guint64     available,
                guint64     lock_limit,
                RpError     code,
                const char *words)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (rp_memory_pin_judge (machine_memory, TOTAL, available, lock_limit, NULL, &error));
  g_assert_error (error, RP_ERROR, code);
  g_assert_true (g_str_has_prefix (error->message, "--memory: "));
  if (strstr (error->message, words) == NULL)
    g_error ("“%s” does not say “%s”", error->message, words);
}

static void
test_refused (void)
{
  assert_refused (512 * RP_MiB, AVAILABLE, G_MAXUINT64, RP_ERROR_INVALID_ARGUMENT, "less than 1 GiB");
  assert_refused (TOTAL, AVAILABLE, G_MAXUINT64, RP_ERROR_INVALID_ARGUMENT, "is not less than this machine");
  assert_refused (25 * RP_GiB, AVAILABLE, G_MAXUINT64, RP_ERROR_INVALID_ARGUMENT, "is not less than this machine");
  /* A user who may lock 64 KiB (the usual ulimit -l). */
  assert_refused (4 * RP_GiB, AVAILABLE, 64 * 1024, RP_ERROR_PERMISSION, "ulimit -l");
  /* One byte short of the margin beside the pin: other programs hold the
   * rest, and the run must not push them into the OOM killer. */
  assert_refused (TOTAL - (AVAILABLE - RP_MEMORY_PIN_MARGIN) - 1, AVAILABLE, G_MAXUINT64,
                  RP_ERROR_NO_SPACE, "must stay so");
  assert_refused (2 * RP_GiB, 8 * RP_GiB, G_MAXUINT64, RP_ERROR_NO_SPACE, "only 8.0 GiB is available");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/memory-pin/judge/accepted", test_accepted);
  g_test_add_func ("/memory-pin/judge/refused", test_refused);
  return g_test_run ();
}
