/* test-device-profile.c: the matrix's device profiles: names, custom parameters, figures, filter arguments, leftovers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gstdio.h>

#include "rp-device-profile.h"
#include "rp-emulated-device.h"
#include "rp-error.h"

static void
test_named (void)
{
  guint n = 0;
  const RpDeviceProfile *table = rp_device_profile_get_table (&n);
  g_autoptr(GError) error = NULL;
  g_autoptr(RpDeviceChoice) stick = rp_device_choice_parse ("usb2-stick", &error);

  g_assert_no_error (error);
  g_assert_cmpuint (n, >=, 5);
  g_assert_cmpstr (table[0].name, ==, "native");
  g_assert_true (rp_device_profile_is_native (&table[0]));
  for (guint i = 1; i < n; i++)
    {
      /* Every emulated profile says where its figures come from. */
      g_assert_false (rp_device_profile_is_native (&table[i]));
      g_assert_nonnull (table[i].source);
      g_assert_nonnull (table[i].description);
    }
  g_assert_cmpstr (rp_device_choice_get_profile (stick)->name, ==, "usb2-stick");
  g_assert_cmpfloat (rp_device_choice_get_profile (stick)->write_rate, ==, 8 * 1048576.0);
}

static void
test_custom (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpDeviceChoice) choice =
    rp_device_choice_parse ("custom:write=8M,read=30M,latency=2ms,flush=50ms,stripe=192K,rmw=8ms", &error);
  const RpDeviceProfile *profile;
  g_autoptr(GPtrArray) arguments = NULL;
  g_autofree char *joined = NULL;

  g_assert_no_error (error);
  profile = rp_device_choice_get_profile (choice);
  g_assert_cmpstr (profile->name, ==, "custom-write8M-read30M-latency2ms-flush50ms-stripe192K-rmw8ms");
  g_assert_cmpfloat (profile->write_rate, ==, 8 * 1048576.0);
  g_assert_cmpfloat (profile->read_rate, ==, 30 * 1048576.0);
  g_assert_cmpfloat_with_epsilon (profile->latency, 0.002, 1e-12);
  g_assert_cmpfloat_with_epsilon (profile->flush, 0.050, 1e-12);
  g_assert_cmpuint (profile->stripe, ==, 192 * 1024);
  /* A write of 4 KiB: access, transfer and the read-modify-write. */
  g_assert_cmpfloat_with_epsilon (rp_device_profile_random_write_latency (profile),
                                  0.002 + 4096 / (8 * 1048576.0) + 0.008, 1e-9);
  g_assert_cmpfloat_with_epsilon (rp_device_profile_random_read_latency (profile),
                                  0.002 + 4096 / (30 * 1048576.0), 1e-9);

  arguments = rp_device_profile_filter_arguments (profile);
  g_ptr_array_add (arguments, NULL);
  joined = g_strjoinv (" ", (char **) arguments->pdata);
  g_assert_cmpstr (joined, ==, "rp-read=31457280 rp-write=8388608 rp-stripe=196608 "
                               "rp-latency=0.002 rp-flush=0.050000000000000003 rp-rmw=0.0080000000000000002");
}

static void
test_mean_seek (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpDeviceChoice) choice = rp_device_choice_parse ("hdd-laptop", &error);
  const RpDeviceProfile *profile = rp_device_choice_get_profile (choice);

  /* 5.6 ms rotation + 8/15 of a 15 ms seek + 4 KiB at 70 MB/s. */
  g_assert_cmpfloat_with_epsilon (rp_device_profile_random_read_latency (profile),
                                  0.0056 + 0.008 + 4096 / 70e6, 1e-9);
}

/* The disks (a seek time) are rotational, the flash devices and the plain
 * image are not: the matrix marks the cell's loop device by it. */
static void
test_rotational (void)
{
  static const struct {
    const char *text;
    gboolean    rotational;
  } cases[] = {
    { "hdd-laptop", TRUE }, { "raid5-4x7200", TRUE }, { "custom:read=30M,seek=15ms", TRUE },
    { "usb2-stick", FALSE }, { "sd-card", FALSE }, { "native", FALSE },
    { "custom:read=30M,latency=2ms", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(RpDeviceChoice) choice = rp_device_choice_parse (cases[i].text, &error);

      g_assert_no_error (error);
      g_assert_cmpint (rp_device_profile_is_rotational (rp_device_choice_get_profile (choice)), ==,
                       cases[i].rotational);
    }
}

static void
test_invalid (void)
{
  static const struct { const char *text; const char *needle; } cases[] = {
    { "floppy", "floppy" },
    { "custom:speed=3", "speed" },
    { "custom:write=fast", "fast" },
    { "custom:latency", "KEY=VALUE" },
    { "custom:write=", "KEY=VALUE" },
    { "custom:", "slows nothing down" },
    { "custom:latency=-2ms", "-2ms" },
    /* Issue 20: a key given twice, whichever value; the first was dropped. */
    { "custom:write=5M,write=6M", "twice" },
    { "custom:flush=10ms,read=20M,flush=10ms", "flush" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(RpDeviceChoice) choice = rp_device_choice_parse (cases[i].text, &error);

      g_assert_null (choice);
      g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, cases[i].needle));
    }
}

/* Run directories of live processes (ours) are left alone; names that are
 * not run directories are never touched. */
static void
test_leftovers_leave_live_runs (void)
{
  g_autofree char *work = g_dir_make_tmp ("device-profile-XXXXXX", NULL);
  g_autofree char *ours = g_strdup_printf ("%s/resprobe-device-%d-AAAAAA", work, (int) getpid ());
  g_autofree char *other = g_strdup_printf ("%s/resprobe-devices-x", work);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir (ours, 0700), ==, 0);
  g_assert_cmpint (g_mkdir (other, 0700), ==, 0);
  g_assert_cmpuint (rp_emulated_device_remove_leftovers (work, &error), ==, 0);
  g_assert_no_error (error);
  g_assert_true (g_file_test (ours, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (other, G_FILE_TEST_IS_DIR));
  g_rmdir (ours);
  g_rmdir (other);
  g_rmdir (work);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/device-profile/named", test_named);
  g_test_add_func ("/device-profile/custom", test_custom);
  g_test_add_func ("/device-profile/mean-seek", test_mean_seek);
  g_test_add_func ("/device-profile/invalid", test_invalid);
  g_test_add_func ("/device-profile/rotational", test_rotational);
  g_test_add_func ("/device-profile/leftovers-leave-live-runs", test_leftovers_leave_live_runs);
  return g_test_run ();
}
