/* rp-report-stalls-json.c: the report's "stalls" member, written and read back defensively. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-error.h"
#include "rp-report-private.h"

/* A stranger's report may claim anything: at most as many stalls as a run
 * keeps, and as many wait sites per stall as a breakdown of 100 Hz samples
 * plausibly names. */
#define MAX_SITES 256

/**
 * rp_report_stalls_to_json:
 *
 * Returns: (transfer full): the "stalls" array of docs/REPORT-FORMAT.md
 */
/* What the judgement made of the stall's breakdown (rp-report-causes.c):
 * written for readers of the file (the ground-truth suite, scripts); a
 * reader of ours decides anew from the breakdown and the series. */
static JsonArray *
causes_to_json (RpReport      *self,
                const RpStall *stall)
{
  JsonArray *array = json_array_new ();
  RpCauseEvidence evidence;
  g_autoptr(GArray) causes = NULL;

  rp_report_stall_evidence (self, stall, &evidence);
  causes = rp_stall_get_causes (stall, &evidence);
  for (guint k = 0; k < causes->len; k++)
    {
      const RpCauseShare *share = &g_array_index (causes, RpCauseShare, k);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "cause", rp_cause_get_id (share->cause));
      json_object_set_string_member (object, "site", share->site);
      json_object_set_double_member (object, "seconds", share->seconds);
      json_array_add_object_element (array, object);
    }
  return array;
}

JsonArray *
rp_report_stalls_to_json (RpReport *self)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < self->stalls->len; i++)
    {
      const RpStall *stall = g_ptr_array_index (self->stalls, i);
      JsonObject *object = json_object_new ();
      JsonArray *breakdown = json_array_new ();

      json_object_set_string_member (object, "series", stall->series);
      json_object_set_double_member (object, "start", stall->start);
      json_object_set_double_member (object, "duration", stall->duration);
      json_object_set_string_member (object, "source", stall->source);
      if (stall->blkio_delay >= 0)
        json_object_set_double_member (object, "blkio_delay", stall->blkio_delay);
      else
        json_object_set_null_member (object, "blkio_delay");
      for (guint k = 0; k < stall->breakdown->len; k++)
        {
          const RpWaitShare *share = &g_array_index (stall->breakdown, RpWaitShare, k);
          JsonObject *site = json_object_new ();

          json_object_set_string_member (site, "site", share->site);
          json_object_set_double_member (site, "seconds", share->seconds);
          json_array_add_object_element (breakdown, site);
        }
      json_object_set_array_member (object, "breakdown", breakdown);
      json_object_set_array_member (object, "causes", causes_to_json (self, stall));
      json_array_add_object_element (array, object);
    }
  return array;
}

static gboolean
stall_error (GError    **error,
             guint       index,
             const char *what)
{
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               /* TRANSLATORS: "Key “stalls”, stall 3: “duration” is missing or not a number of seconds" */
               _("Key “stalls”, stall %u: %s"), index + 1, what);
  return FALSE;
}

static gboolean
get_seconds (JsonObject *object,
             const char *key,
             gboolean    nullable,
             double     *out)
{
  JsonNode *node = json_object_get_member (object, key);

  if (nullable && (node == NULL || JSON_NODE_HOLDS_NULL (node)))
    {
      *out = -1;
      return TRUE;
    }
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_INT64))
    return FALSE;
  *out = json_node_get_double (node);
  return isfinite (*out) && *out >= 0 && *out <= RP_REPORT_MAX_SECONDS;
}

static const char *
get_text (JsonObject *object,
          const char *key)
{
  JsonNode *node = json_object_get_member (object, key);
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  text = json_node_get_string (node);
  return text != NULL && *text != '\0' && strlen (text) <= RP_REPORT_JSON_MAX_NAME_BYTES ? text : NULL;
}

static RpStall *
read_stall (JsonNode  *node,
            guint      index,
            GError   **error)
{
  g_autoptr(RpStall) stall = NULL;
  JsonObject *object;
  JsonNode *breakdown;
  const char *series, *source;
  double start, duration, blkio;

  if (!JSON_NODE_HOLDS_OBJECT (node))
    return stall_error (error, index, _("not an object")), NULL;
  object = json_node_get_object (node);
  series = get_text (object, "series");
  if (series == NULL)
    return stall_error (error, index, _("“series” is missing or not a name")), NULL;
  if (!get_seconds (object, "start", FALSE, &start) ||
      !get_seconds (object, "duration", FALSE, &duration) ||
      !get_seconds (object, "blkio_delay", TRUE, &blkio))
    return stall_error (error, index, _("“start”, “duration” or “blkio_delay” is not a number of seconds")), NULL;

  stall = rp_stall_new (series, start, duration);
  g_clear_pointer (&stall->series, g_free);
  stall->series = rp_text_clean (series, FALSE);
  stall->blkio_delay = blkio;
  source = get_text (object, "source");
  stall->source = source != NULL ? rp_text_clean (source, FALSE) : NULL;
  breakdown = json_object_get_member (object, "breakdown");
  if (breakdown == NULL || !JSON_NODE_HOLDS_ARRAY (breakdown) ||
      json_array_get_length (json_node_get_array (breakdown)) > MAX_SITES)
    return stall_error (error, index, _("“breakdown” is missing or not a short list")), NULL;
  for (guint k = 0; k < json_array_get_length (json_node_get_array (breakdown)); k++)
    {
      JsonNode *element = json_array_get_element (json_node_get_array (breakdown), k);
      const char *site = JSON_NODE_HOLDS_OBJECT (element) ? get_text (json_node_get_object (element), "site") : NULL;
      double seconds;
      g_autofree char *clean = NULL;

      if (site == NULL || !get_seconds (json_node_get_object (element), "seconds", FALSE, &seconds))
        return stall_error (error, index, _("a wait site of “breakdown” has no name or no seconds")), NULL;
      clean = rp_text_clean (site, FALSE);
      rp_stall_add_wait (stall, clean, seconds);
    }
  rp_stall_sort (stall);
  return g_steal_pointer (&stall);
}

/**
 * rp_report_read_stalls:
 * @root: the report's object
 * @out: (element-type RpStall): receives the stalls
 * @error: %RP_ERROR_REPORT naming the stall and the key
 *
 * "stalls" is optional: reports of format version 1 have none.
 *
 * Returns: %FALSE with @error set when the member is there but wrong
 */
gboolean
rp_report_read_stalls (JsonObject  *root,
                       GPtrArray   *out,
                       GError     **error)
{
  JsonNode *node = json_object_get_member (root, "stalls");
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node) ||
      json_array_get_length (json_node_get_array (node)) > RP_CALL_REGISTRY_MAX_STALLS)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   g_dngettext (GETTEXT_PACKAGE, "Key “stalls”: expected a list of at most %u stall",
                                "Key “stalls”: expected a list of at most %u stalls", RP_CALL_REGISTRY_MAX_STALLS),
                   RP_CALL_REGISTRY_MAX_STALLS);
      return FALSE;
    }
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      RpStall *stall = read_stall (json_array_get_element (array, i), i, error);

      if (stall == NULL)
        return FALSE;
      g_ptr_array_add (out, stall);
    }
  return TRUE;
}
