/* test-scenario.c: presets, validation naming the field, JSON round trip. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "rp-error.h"
#include "rp-params.h"
#include "rp-scenario.h"
#include "rp-text.h"
#include "rp-units.h"

static void
test_presets (void)
{
  const RpPresetInfo *presets;
  guint n = 0;

  presets = rp_scenario_list_presets (&n);
  g_assert_cmpuint (n, >=, 2);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(RpScenario) scenario = rp_scenario_new_preset (presets[i].id, NULL);

      g_assert_nonnull (scenario);
      g_assert_true (rp_scenario_validate (scenario, NULL));
      g_assert_nonnull (presets[i].title);
    }
}

static void
test_r1_defaults (void)
{
  g_autoptr(RpScenario) r1 = rp_scenario_new_preset ("r1", NULL);

  g_assert_cmpstr (r1->name, ==, "R1");
  g_assert_true (rp_scenario_has_part (r1, "seq-writer"));
  g_assert_true (rp_scenario_has_part (r1, "fsync"));
  /* fsync-tester: 1 MiB at offset 0, sleep 1 s; dd bs=1M */
  g_assert_cmpuint (rp_params_get_size (r1->params, "fsync_size"), ==, RP_MiB);
  g_assert_cmpfloat (rp_params_get_seconds (r1->params, "fsync_interval"), ==, 1.0);
  g_assert_cmpuint (rp_params_get_size (r1->params, "writer_block_size"), ==, RP_MiB);
}

static void
test_unknown_preset (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (rp_scenario_new_preset ("R99", &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "R99"));
}

static void
test_validation_names_field (void)
{
  static const struct { const char *field; } cases[] = {
    { "block-size" }, { "size" }, { "interval" }, { "duration" }, { "fsync-size" }, { "directory" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(RpScenario) s = rp_scenario_new_preset ("R1", NULL);
      g_autoptr(GError) error = NULL;

      if (g_str_equal (cases[i].field, "block-size"))
        rp_params_set_size (s->params, "writer_block_size", 1);
      else if (g_str_equal (cases[i].field, "size"))
        rp_params_set_size (s->params, "writer_total_size", 10);       /* smaller than one block */
      else if (g_str_equal (cases[i].field, "interval"))
        /* Not a sleep: fsync() back to back is a load, not a probe. */
        rp_params_set_seconds (s->params, "fsync_interval", 1e-9);
      else if (g_str_equal (cases[i].field, "duration"))
        s->duration = 1e20;
      else if (g_str_equal (cases[i].field, "fsync-size"))
        rp_params_set_size (s->params, "fsync_size", 0);
      else
        s->directory = g_strdup ("");

      g_assert_false (rp_scenario_validate (s, &error));
      g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, cases[i].field));
    }
}

static void
test_issue4_presets (void)
{
  g_autoptr(RpScenario) r2 = rp_scenario_new_preset ("r2", NULL);
  g_autoptr(RpScenario) r3 = rp_scenario_new_preset ("R3", NULL);
  g_autoptr(RpScenario) r3f = rp_scenario_new_preset ("r3-FSYNC", NULL);
  g_autofree char *description = NULL;

  g_assert_true (rp_scenario_has_part (r2, "copy-loop") && rp_scenario_has_part (r2, "cpu-bench"));
  g_assert_false (rp_scenario_has_part (r2, "seq-writer") || rp_scenario_has_part (r2, "parallel-writers") ||
                  rp_scenario_has_part (r2, "command"));
  g_assert_true (rp_scenario_has_part (r2, "system"));
  g_assert_cmpuint (rp_params_get_size (r2->params, "copy_buffer_size"), ==, 128 * RP_KiB);
  g_assert_true (rp_scenario_has_part (r3, "parallel-writers"));
  g_assert_false (rp_scenario_has_part (r3, "seq-writer") || rp_scenario_has_part (r3, "copy-loop") ||
                  rp_scenario_has_part (r3, "cpu-bench") || rp_scenario_has_part (r3, "command"));
  g_assert_cmpuint (rp_params_get_size (r3->params, "writers_count"), ==, 4);
  g_assert_cmpuint (rp_params_get_size (r3->params, "writers_write_size"), ==, 64 * RP_KiB);
  g_assert_false (rp_params_get_flag (r3->params, "writers_fsync_each"));
  /* The canonical id, whatever the case it was asked in. */
  g_assert_cmpstr (r3f->name, ==, "R3-fsync");
  g_assert_true (rp_params_get_flag (r3f->params, "writers_fsync_each"));

  description = rp_scenario_describe (r2);
  g_assert_nonnull (strstr (description, "copy loop"));
  g_assert_nonnull (strstr (description, "CPU benchmark"));
}

/* Durations: 0 runs until stopped; otherwise a second at least (a run of
 * 1e-9 s gave one sample and a verdict); sizes are said in units. */
static void
test_validation_limits (void)
{
  static const double durations[] = { 0, 1, 30 * 24 * 3600.0, 1e-9, 0.5, -1, 30 * 24 * 3600.0 + 1, NAN };
  g_autoptr(RpScenario) s = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (durations); i++)
    {
      g_autoptr(GError) duration_error = NULL;

      s->duration = durations[i];
      g_assert_cmpint (rp_scenario_validate (s, &duration_error), ==, i < 3);
      if (i >= 3)
        g_assert_nonnull (strstr (duration_error->message, "duration: "));
    }

  s->duration = 10;
  rp_params_set_size (s->params, "writer_block_size", 64 * RP_MiB);
  rp_params_set_size (s->params, "writer_total_size", 16 * RP_MiB);
  g_assert_false (rp_scenario_validate (s, &error));
  g_assert_cmpstr (error->message, ==, "size: 16.0 MiB is less than one block (block-size 64.0 MiB)");
  g_clear_error (&error);
  rp_params_set_size (s->params, "writer_block_size", RP_MiB);
  rp_params_set_size (s->params, "writer_total_size", 3 * RP_MiB / 2);
  g_assert_true (rp_scenario_validate (s, NULL));
  rp_params_set_flag (s->params, "writer_direct", TRUE);
  g_assert_true (rp_scenario_validate (s, NULL));
  rp_params_set_size (s->params, "writer_total_size", rp_params_get_size (s->params, "writer_total_size") + 512);
  g_assert_false (rp_scenario_validate (s, &error));
  g_assert_cmpstr (error->message, ==, "size: O_DIRECT needs a multiple of 4096 bytes, not 1573376");
  g_clear_error (&error);
  rp_params_set_flag (s->params, "writer_direct", FALSE);
  rp_params_set_size (s->params, "writer_block_size", 100);
  g_assert_false (rp_scenario_validate (s, &error));
  g_assert_cmpstr (error->message, ==, "block-size: 100 bytes is out of range (512 bytes to 64.0 MiB)");
}

static const char *
field_value (GPtrArray  *fields,
             const char *key)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const RpScenarioField *field = g_ptr_array_index (fields, i);

      if (g_str_equal (field->key, key))
        return field->value;
    }
  g_assert_not_reached ();
}

/* Every scenario gives the same fields in the same order, so that runs can
 * be compared part by part; the one-line description is built from the
 * same values. */
static void
test_fields (void)
{
  g_autoptr(RpScenario) r1 = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpScenario) r3f = rp_scenario_new_preset ("R3-fsync", NULL);
  g_autoptr(RpScenario) passive = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) r1_fields = NULL;
  g_autoptr(GPtrArray) r3f_fields = NULL;
  g_autoptr(GPtrArray) passive_fields = rp_scenario_get_fields (passive);
  g_autoptr(GPtrArray) sets = g_ptr_array_new ();
  g_autofree char *r1_text = NULL;
  g_autofree char *passive_text = NULL;
  guint fsync_index = 0;

  rp_params_set_size (r1->params, "writer_total_size", 64 * RP_MiB);
  r1->duration = 20;
  r1_fields = rp_scenario_get_fields (r1);
  r3f_fields = rp_scenario_get_fields (r3f);
  g_assert_cmpuint (r1_fields->len, ==, passive_fields->len);
  g_assert_cmpuint (r3f_fields->len, ==, passive_fields->len);
  for (guint i = 0; i < r1_fields->len; i++)
    {
      const RpScenarioField *a = g_ptr_array_index (r1_fields, i);
      const RpScenarioField *b = g_ptr_array_index (passive_fields, i);

      g_assert_cmpstr (a->key, ==, b->key);
      g_assert_cmpstr (a->label, ==, b->label);
      if (g_str_equal (a->key, "fsync"))
        fsync_index = i;
    }

  g_assert_cmpstr (field_value (r1_fields, "name"), ==, "R1");
  g_assert_cmpstr (field_value (r1_fields, "seq-writer"), ==, "bs=1.0 MiB, 64.0 MiB, buffered");
  g_assert_cmpstr (field_value (r1_fields, "fsync"), ==, "1.0 MiB every 1 s");
  g_assert_cmpstr (field_value (r1_fields, "system"), ==, "every 0.5 s");
  g_assert_cmpstr (field_value (r1_fields, "copy-loop"), ==, "none");
  g_assert_cmpstr (field_value (r1_fields, "duration"), ==, "20 s");
  g_assert_cmpstr (field_value (passive_fields, "seq-writer"), ==, "none");
  g_assert_cmpstr (field_value (passive_fields, "duration"), ==, "until stopped");
  /* As dd: without a duration, the writer's size ends the run. */
  r1->duration = 0;
  r1->stop_when_loads_finish = TRUE;
  {
    g_autoptr(GPtrArray) until_done = rp_scenario_get_fields (r1);

    g_assert_cmpstr (field_value (until_done, "duration"), ==, "until the loads are done");
  }
  r1->duration = 20;
  r1->stop_when_loads_finish = FALSE;
  g_assert_cmpstr (field_value (r3f_fields, "parallel-writers"), ==,
                   "4 threads of 64.0 KiB write() calls until stopped, fsync after each write");

  r1_text = rp_scenario_describe (r1);
  g_assert_cmpstr (r1_text, ==, "R1: sequential writer bs=1.0 MiB, 64.0 MiB, buffered; "
                                "kernel events when allowed; fsync probe 1.0 MiB every 1 s; "
                                "system sampler every 0.5 s; stall attribution every 0.01 s; "
                                "disk sampler every 0.5 s; 20 s");
  passive_text = rp_scenario_describe (passive);
  g_assert_cmpstr (passive_text, ==, "passive: no load; kernel events when allowed; "
                                     "fsync probe 1.0 MiB every 1 s; system sampler every 0.5 s; "
                                     "stall attribution every 0.01 s; disk sampler every 0.5 s; "
                                     "until stopped");

  /* R1 and passive differ in their loads, not in the fsync probe. */
  g_ptr_array_add (sets, r1_fields);
  g_ptr_array_add (sets, passive_fields);
  g_assert_true (rp_fields_differ (sets, 0));
  g_assert_false (rp_fields_differ (sets, fsync_index));
  rp_params_set_seconds (passive->params, "fsync_interval", 0.5);
  g_ptr_array_index (sets, 1) = rp_scenario_get_fields (passive);
  g_assert_true (rp_fields_differ (sets, fsync_index));
  g_ptr_array_unref (g_ptr_array_index (sets, 1));
}

static void
test_issue4_validation (void)
{
  static const char *fields[] = {
    "copy-size", "copy-buffer", "writers", "write-size", "file-size", "calibration",
    "cold-read-size", "cold-read-interval", "app-start-interval", "command",
  };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      g_autoptr(RpScenario) s = rp_scenario_new_preset ("custom", NULL);
      g_autoptr(GError) error = NULL;

      rp_scenario_clear_role (s, RP_PART_LOAD);
      rp_scenario_clear_role (s, RP_PART_PROBE);
      rp_scenario_set_part (s, "copy-loop", TRUE);
      rp_scenario_set_part (s, "parallel-writers", TRUE);
      rp_scenario_set_part (s, "cpu-bench", TRUE);
      rp_scenario_set_part (s, "cold-read", TRUE);
      rp_scenario_set_part (s, "app-start", TRUE);
      rp_params_set_argv (s->params, "command_argv", (const char * const[]) { "true", NULL });
      g_assert_true (rp_scenario_validate (s, NULL));

      if (g_str_equal (fields[i], "copy-size"))
        rp_params_set_size (s->params, "copy_source_size", 1024);
      else if (g_str_equal (fields[i], "copy-buffer"))
        rp_params_set_size (s->params, "copy_buffer_size", 0);
      else if (g_str_equal (fields[i], "writers"))
        rp_params_set_size (s->params, "writers_count", 65);
      else if (g_str_equal (fields[i], "write-size"))
        rp_params_set_size (s->params, "writers_write_size", 0);
      else if (g_str_equal (fields[i], "file-size"))
        rp_params_set_size (s->params, "writers_file_size", 1000);       /* smaller than one write */
      else if (g_str_equal (fields[i], "calibration"))
        rp_params_set_seconds (s->params, "cpu_calibration", 0);
      else if (g_str_equal (fields[i], "cold-read-size"))
        rp_params_set_size (s->params, "cold_read_file_size", 4096);
      else if (g_str_equal (fields[i], "cold-read-interval"))
        rp_params_set_seconds (s->params, "cold_read_interval", -1);
      else if (g_str_equal (fields[i], "app-start-interval"))
        rp_params_set_seconds (s->params, "app_start_interval", NAN);
      else
        {
          rp_scenario_set_part (s, "command", TRUE);
          rp_params_set_argv (s->params, "command_argv", NULL);
        }

      g_assert_false (rp_scenario_validate (s, &error));
      g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, fields[i]));
    }
}

static void
test_json_round_trip (void)
{
  g_autoptr(RpScenario) s = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpScenario) back = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  s->directory = g_strdup ("/mnt/test");
  rp_params_set_size (s->params, "writer_total_size", 8 * RP_GiB);
  s->duration = 20;
  rp_params_set_flag (s->params, "writer_direct", TRUE);
  g_assert_true (rp_params_set_choice (s->params, "kernel_events", "off"));
  node = rp_scenario_to_json (s);
  back = rp_scenario_new_from_json (node, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (back->name, ==, "R1");
  g_assert_cmpstr (back->directory, ==, "/mnt/test");
  g_assert_cmpuint (rp_params_get_size (back->params, "writer_total_size"), ==, 8 * RP_GiB);
  g_assert_cmpfloat (back->duration, ==, 20);
  g_assert_true (rp_params_get_flag (back->params, "writer_direct"));
  g_assert_cmpstr (rp_params_get_choice (back->params, "kernel_events"), ==, "off");
  g_assert_cmpuint (back->parts, ==, s->parts);
}

/* Zero seconds where a parameter says what zero means (--baseline 0: no
 * baseline, as --help and the README say; the trial's "0" was refused as
 * "not a duration"); zero stays refused where it means nothing. */
static void
test_zero_seconds (void)
{
  g_autoptr(RpScenario) s = rp_scenario_new_preset ("R1", NULL);
  const RpParamInfo *baseline = rp_params_lookup ("baseline", NULL);
  const RpParamInfo *period = rp_params_lookup ("sample_period", NULL);
  const char *zeros[] = { "0", "0s", "0.0", "0,0" };
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (zeros); i++)
    {
      g_autofree char *text = NULL;

      rp_params_set_seconds (s->params, "baseline", 3.0);
      g_assert_true (rp_params_parse (s->params, baseline, zeros[i], "--baseline", &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (rp_params_get_seconds (s->params, "baseline"), ==, 0.0);
      g_assert_true (rp_params_validate (s->params, baseline, NULL));
      text = rp_params_format (s->params, baseline);
      g_assert_cmpstr (text, ==, "no baseline");
    }
  g_assert_false (rp_params_parse (s->params, baseline, "0x", "--baseline", &error));
  g_clear_error (&error);
  g_assert_false (rp_params_parse (s->params, period, "0", "--sample-period", &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
}

/* A choice (--kernel-events auto|on|off): every preset records kernel
 * events where allowed; a word is typed, stored and shown as it is; any
 * other word is refused naming the option and the choices, from the
 * command line and from a file alike. */
static void
test_choice (void)
{
  g_autoptr(RpScenario) s = rp_scenario_new_preset ("R1", NULL);
  const RpParamInfo *param = rp_params_lookup ("kernel_events", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  g_assert_true (rp_scenario_has_part (s, "kernel-events"));
  g_assert_cmpstr (rp_params_get_choice (s->params, "kernel_events"), ==, "auto");
  g_assert_true (rp_params_parse (s->params, param, "ON", "--kernel-events", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (rp_params_get_choice (s->params, "kernel_events"), ==, "on");
  text = rp_params_format (s->params, param);
  g_assert_cmpstr (text, ==, "on");
  g_assert_true (rp_params_validate (s->params, param, NULL));

  g_assert_false (rp_params_parse (s->params, param, "maybe", "--kernel-events", &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "--kernel-events: “maybe” is not one of auto, on, off");
  g_assert_cmpstr (rp_params_get_choice (s->params, "kernel_events"), ==, "on");
  g_assert_false (rp_params_set_choice (s->params, "kernel_events", "maybe"));
  g_clear_error (&error);

  {
    g_autoptr(JsonNode) node = json_from_string ("{\"kernel_events\": \"sometimes\"}", NULL);
    g_autoptr(RpScenario) bad = rp_scenario_new_from_json (node, &error);

    g_assert_null (bad);
    g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
    g_assert_nonnull (strstr (error->message, "kernel_events"));
  }
}

/* The scenario line of two commands, pasted into a shell, runs the same
 * commands: each argument shell-quoted where a shell would split it (trial:
 * "of=a b" came out as two words). */
static void
test_command_quoting (void)
{
  const char * const first[] = { "dd", "if=/dev/zero", "of=a b.out", "bs=1M", "count=10", NULL };
  const char * const more[] = { "sleep 1", "printf '%s\\n' \"it's\"", NULL };
  const char * const odd[] = { "echo", "", "$HOME", "a;b", "it's", "*", NULL };
  const char * const sleep_words[] = { "sleep", "1", NULL };
  const char * const printf_words[] = { "printf", "%s\\n", "it's", NULL };
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("custom", NULL);
  g_autofree char *description = NULL;
  g_autofree char *line = NULL;
  g_auto(GStrv) words = NULL;
  const char *quoted, *end;
  g_autofree char *inside = NULL;
  g_auto(GStrv) commands = NULL;

  /* Round trip through a shell's splitting, for words it would expand too. */
  line = rp_text_shell_join (odd);
  g_assert_true (g_shell_parse_argv (line, NULL, &words, NULL));
  g_assert_cmpstrv (words, odd);
  g_clear_pointer (&line, g_free);
  g_clear_pointer (&words, g_strfreev);
  /* Plain words stay readable. */
  line = rp_text_shell_join (first);
  g_assert_cmpstr (line, ==, "dd if=/dev/zero 'of=a b.out' bs=1M count=10");

  rp_params_set_argv (scenario->params, "command_argv", first);
  rp_params_set_argv (scenario->params, "more_commands", more);
  rp_scenario_set_part (scenario, "command", TRUE);
  description = rp_scenario_describe (scenario);
  g_test_message ("%s", description);
  quoted = strstr (description, "command “");
  g_assert_nonnull (quoted);
  quoted += strlen ("command “");
  end = strstr (quoted, "”");
  g_assert_nonnull (end);
  /* The commands side by side, as a shell runs them: A & B & C. */
  inside = g_strndup (quoted, end - quoted);
  commands = g_strsplit (inside, " & ", -1);
  g_assert_cmpuint (g_strv_length (commands), ==, 3);
  g_clear_pointer (&words, g_strfreev);
  g_assert_true (g_shell_parse_argv (commands[0], NULL, &words, NULL));
  g_assert_cmpstrv (words, first);
  g_clear_pointer (&words, g_strfreev);
  g_assert_true (g_shell_parse_argv (commands[1], NULL, &words, NULL));
  g_assert_cmpstrv (words, sleep_words);
  g_clear_pointer (&words, g_strfreev);
  g_assert_true (g_shell_parse_argv (commands[2], NULL, &words, NULL));
  g_assert_cmpstrv (words, printf_words);
}

static void
test_json_wrong_types (void)
{
  static const char *cases[] = {
    "[1, 2]",
    "{\"duration\": \"long\"}",
    "{\"writer_direct\": 3}",
    "{\"kernel_events\": 1}",
    "{\"name\": 7}",
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonNode) node = json_from_string (cases[i], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(RpScenario) s = rp_scenario_new_from_json (node, &error);

      g_assert_null (s);
      g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/scenario/presets", test_presets);
  g_test_add_func ("/scenario/r1-defaults", test_r1_defaults);
  g_test_add_func ("/scenario/unknown-preset", test_unknown_preset);
  g_test_add_func ("/scenario/validation-names-field", test_validation_names_field);
  g_test_add_func ("/scenario/issue4-presets", test_issue4_presets);
  g_test_add_func ("/scenario/issue4-validation", test_issue4_validation);
  g_test_add_func ("/scenario/fields", test_fields);
  g_test_add_func ("/scenario/validation-limits", test_validation_limits);
  g_test_add_func ("/scenario/json-round-trip", test_json_round_trip);
  g_test_add_func ("/scenario/json-wrong-types", test_json_wrong_types);
  g_test_add_func ("/scenario/choice", test_choice);
  g_test_add_func ("/scenario/zero-seconds", test_zero_seconds);
  g_test_add_func ("/scenario/command-quoting", test_command_quoting);
  return g_test_run ();
}
