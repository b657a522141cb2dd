/* rp-scenario-text.c: a scenario as text, one sentence or one field per load and probe. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-scenario.h"
#include "rp-units.h"

/* The parts of a scenario, in the order a description names them. */
typedef enum {
  PART_PRESET,
  PART_SEQ_WRITER,
  PART_COPY_LOOP,
  PART_PARALLEL_WRITERS,
  PART_CPU_BENCH,
  PART_COMMAND,
  PART_FSYNC,
  PART_SYSTEM,
  PART_COLD_READ,
  PART_APP_START,
  PART_DURATION,
  N_PARTS
} Part;

/* Each part's key and its label in a table. */
static const struct {
  const char *key;
  const char *label;
} parts[N_PARTS] = {
  [PART_PRESET] = { "name", N_("Preset") },
  [PART_SEQ_WRITER] = { "seq-writer", N_("Sequential writer") },
  [PART_COPY_LOOP] = { "copy-loop", N_("Copy loop") },
  [PART_PARALLEL_WRITERS] = { "parallel-writers", N_("Parallel writers") },
  [PART_CPU_BENCH] = { "cpu-bench", N_("CPU benchmark") },
  [PART_COMMAND] = { "command", N_("Command") },
  [PART_FSYNC] = { "fsync", N_("fsync probe") },
  [PART_SYSTEM] = { "system", N_("System sampler") },
  [PART_COLD_READ] = { "cold-read", N_("Cold-read probe") },
  [PART_APP_START] = { "app-start", N_("App-start probe") },
  [PART_DURATION] = { "duration", N_("Planned duration") },
};

static char *
seq_writer_text (const RpScenario *self)
{
  g_autofree char *bs = rp_format_size (self->writer_block_size);
  g_autofree char *total = self->writer_total_size ? rp_format_size (self->writer_total_size)
                                                   : g_strdup (_("default size"));

  /* TRANSLATORS: block size, total size, "O_DIRECT" or "buffered", and ", conv=fdatasync" or nothing */
  return g_strdup_printf (_("bs=%s, %s, %s%s"), bs, total,
                          self->writer_direct ? "O_DIRECT" : _("buffered"),
                          self->writer_fdatasync ? ", conv=fdatasync" : "");
}

static char *
parallel_writers_text (const RpScenario *self)
{
  g_autofree char *write_size = rp_format_size (self->writers_write_size);
  g_autofree char *file_size = rp_format_size (self->writers_file_size);
  g_autofree char *text = NULL;

  if (self->writers_file_size != 0)
    /* TRANSLATORS: "4 threads of 64.0 KiB write() calls, 1.0 GiB each": threads, write size, file size */
    text = g_strdup_printf (ngettext ("%u thread of %s write() calls, %s each",
                                      "%u threads of %s write() calls, %s each", self->writers_count),
                            self->writers_count, write_size, file_size);
  else
    /* TRANSLATORS: "4 threads of 64.0 KiB write() calls until stopped": threads, write size */
    text = g_strdup_printf (ngettext ("%u thread of %s write() calls until stopped",
                                      "%u threads of %s write() calls until stopped", self->writers_count),
                            self->writers_count, write_size);
  if (self->writers_fsync_each)
    /* TRANSLATORS: %s is the text above */
    return g_strdup_printf (_("%s, fsync after each write"), text);
  return g_steal_pointer (&text);
}

/* The value of @part, or NULL where the scenario does not run it. */
static char *
part_text (const RpScenario *self,
           Part              part)
{
  g_autofree char *size = NULL;
  g_autofree char *buffer = NULL;

  switch (part)
    {
    case PART_PRESET:
      return g_strdup (self->name);
    case PART_SEQ_WRITER:
      return self->loads & RP_LOAD_SEQ_WRITER ? seq_writer_text (self) : NULL;
    case PART_COPY_LOOP:
      if (!(self->loads & RP_LOAD_COPY_LOOP))
        return NULL;
      size = rp_format_size (self->copy_source_size);
      buffer = rp_format_size (self->copy_buffer_size);
      /* TRANSLATORS: "1.0 GiB file, 128.0 KiB buffer" */
      return g_strdup_printf (_("%s file, %s buffer"), size, buffer);
    case PART_PARALLEL_WRITERS:
      return self->loads & RP_LOAD_PARALLEL_WRITERS ? parallel_writers_text (self) : NULL;
    case PART_CPU_BENCH:
      if (!(self->loads & RP_LOAD_CPU_BENCH))
        return NULL;
      /* TRANSLATORS: "every CPU, calibrated for 3 s" or "one thread, calibrated for 3 s" */
      return g_strdup_printf (_("%s, calibrated for %g s"),
                              self->cpu_single_thread ? _("one thread") : _("every CPU"),
                              self->cpu_calibration);
    case PART_COMMAND:
      if (!(self->loads & RP_LOAD_COMMAND) || self->command_argv == NULL)
        return NULL;
      return g_strjoinv (" ", self->command_argv);
    case PART_FSYNC:
      if (!(self->probes & RP_PROBE_FSYNC))
        return NULL;
      size = rp_format_size (self->fsync_size);
      if (self->fsync_use_fdatasync)
        /* TRANSLATORS: "1.0 MiB every 1 s, with fdatasync()" */
        return g_strdup_printf (_("%s every %g s, with fdatasync()"), size, self->fsync_interval);
      /* TRANSLATORS: "1.0 MiB every 1 s" */
      return g_strdup_printf (_("%s every %g s"), size, self->fsync_interval);
    case PART_SYSTEM:
      if (!(self->probes & RP_PROBE_SYSTEM))
        return NULL;
      /* TRANSLATORS: "every 0.5 s" */
      return g_strdup_printf (_("every %g s"), self->sample_period);
    case PART_COLD_READ:
      if (!(self->probes & RP_PROBE_COLD_READ))
        return NULL;
      size = rp_format_size (self->cold_read_file_size);
      /* TRANSLATORS: "4 KiB of a 64.0 MiB file every 0.5 s" */
      return g_strdup_printf (_("4 KiB of a %s file every %g s"), size, self->cold_read_interval);
    case PART_APP_START:
      if (!(self->probes & RP_PROBE_APP_START))
        return NULL;
      /* TRANSLATORS: "“true” every 2 s": the program started, and how often */
      return g_strdup_printf (_("“true” every %g s"), self->app_start_interval);
    case PART_DURATION:
      if (self->duration > 0)
        return g_strdup_printf (_("%g s"), self->duration);
      /* As dd does: a writer with a size ends the run when it is done. */
      if (self->stop_when_loads_finish && self->loads != 0)
        return g_strdup (_("until the loads are done"));
      return g_strdup (_("until stopped"));
    case N_PARTS:
    default:
      g_return_val_if_reached (NULL);
    }
}

/* The clause of a one-line description that carries @text, the value of
 * @part (neither the preset nor the duration). */
static char *
part_sentence (Part        part,
               const char *text)
{
  switch (part)
    {
    case PART_SEQ_WRITER:
      /* TRANSLATORS: %s is e.g. "bs=1.0 MiB, 64.0 MiB, buffered" */
      return g_strdup_printf (_("sequential writer %s"), text);
    case PART_COPY_LOOP:
      /* TRANSLATORS: %s is e.g. "1.0 GiB file, 128.0 KiB buffer" */
      return g_strdup_printf (_("copy loop of a %s"), text);
    case PART_PARALLEL_WRITERS:
      /* TRANSLATORS: %s is e.g. "4 threads of 64.0 KiB write() calls until stopped" */
      return g_strdup_printf (_("parallel writers, %s"), text);
    case PART_CPU_BENCH:
      /* TRANSLATORS: %s is e.g. "every CPU, calibrated for 3 s" */
      return g_strdup_printf (_("CPU benchmark on %s"), text);
    case PART_COMMAND:
      /* TRANSLATORS: %s is a command line */
      return g_strdup_printf (_("command “%s”"), text);
    case PART_FSYNC:
      /* TRANSLATORS: %s is e.g. "1.0 MiB every 1 s" */
      return g_strdup_printf (_("fsync probe %s"), text);
    case PART_SYSTEM:
      /* TRANSLATORS: %s is e.g. "every 0.5 s" */
      return g_strdup_printf (_("system sampler %s"), text);
    case PART_COLD_READ:
      /* TRANSLATORS: %s is e.g. "4 KiB of a 64.0 MiB file every 0.5 s" */
      return g_strdup_printf (_("cold read %s"), text);
    case PART_APP_START:
      /* TRANSLATORS: %s is e.g. "“true” every 2 s" */
      return g_strdup_printf (_("app start %s"), text);
    case PART_PRESET:
    case PART_DURATION:
    case N_PARTS:
    default:
      g_return_val_if_reached (g_strdup (text));
    }
}

/**
 * rp_scenario_describe:
 *
 * A one-paragraph, translated description of what runs, for headers and reports,
 * e.g. "R1: sequential writer bs=1.0 MiB, 15000 MiB, buffered; fsync probe
 * 1.0 MiB every 1 s; system sampler every 0.5 s; 20 s". The values are those
 * of rp_scenario_get_fields().
 *
 * Returns: (transfer full): the text
 */
char *
rp_scenario_describe (const RpScenario *self)
{
  GString *s;

  g_return_val_if_fail (self != NULL, NULL);

  s = g_string_new (NULL);
  for (Part part = 0; part < N_PARTS; part++)
    {
      g_autofree char *text = part_text (self, part);

      if (part == PART_PRESET)
        g_string_append_printf (s, "%s:", text);
      else if (part == PART_DURATION)
        g_string_append_printf (s, " %s", text);
      else if (text != NULL)
        {
          g_autofree char *sentence = part_sentence (part, text);

          g_string_append_printf (s, " %s;", sentence);
        }
      if (part == PART_PRESET && self->loads == 0)
        g_string_append_printf (s, " %s;", _("no load"));
    }
  return g_string_free (s, FALSE);
}

/**
 * rp_scenario_get_fields:
 *
 * Every part of the scenario for a table, so that runs can be compared part
 * by part: the preset, each load, each probe (value "none" where it does not
 * run) and the duration, always the same keys in the same order. Labels are
 * translated; values are short texts, e.g. "1.0 MiB every 1 s" for the fsync
 * probe.
 *
 * Returns: (transfer container) (element-type RpScenarioField): the fields,
 *   freeing the array frees them
 */
GPtrArray *
rp_scenario_get_fields (const RpScenario *self)
{
  GPtrArray *fields;

  g_return_val_if_fail (self != NULL, NULL);

  fields = g_ptr_array_new_full (N_PARTS, (GDestroyNotify) rp_field_free);
  for (Part part = 0; part < N_PARTS; part++)
    {
      char *value = part_text (self, part);

      g_ptr_array_add (fields, rp_field_new (parts[part].key, _(parts[part].label),
                                             value != NULL ? value : g_strdup (_("none"))));
    }
  return fields;
}

