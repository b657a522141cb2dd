/* rp-params.c: the values of every part's parameters, read and written by key. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-error.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-text.h"
#include "rp-units.h"

/* One slot per parameter of the parts table, in its order: sizes and counts
 * in @u, seconds in @d, flags in @b, programs in @argv. */
typedef struct {
  guint64   u;
  double    d;
  gboolean  b;
  char    **argv;
} Value;

struct _RpParams {
  guint n;
  Value values[];
};

/**
 * rp_params_new:
 *
 * Returns: (transfer full): every parameter of every part at its default;
 *   free with rp_params_free()
 */
RpParams *
rp_params_new (void)
{
  guint n;
  const RpParamEntry *entries = rp_parts_get_params (&n);
  RpParams *self = g_malloc0 (sizeof *self + n * sizeof (Value));

  self->n = n;
  for (guint i = 0; i < n; i++)
    {
      const RpParamInfo *p = entries[i].param;

      self->values[i].u = (guint64) p->default_value;
      self->values[i].d = p->default_value;
      self->values[i].b = p->default_value != 0;
    }
  return self;
}

/**
 * rp_params_copy:
 *
 * Returns: (transfer full): a deep copy
 */
RpParams *
rp_params_copy (const RpParams *self)
{
  RpParams *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = g_memdup2 (self, sizeof *self + self->n * sizeof (Value));
  for (guint i = 0; i < self->n; i++)
    copy->values[i].argv = g_strdupv (self->values[i].argv);
  return copy;
}

void
rp_params_free (RpParams *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n; i++)
    g_strfreev (self->values[i].argv);
  g_free (self);
}

static gboolean
strv_equal0 (char **a,
             char **b)
{
  if (a == NULL || b == NULL)
    return a == b;
  return g_strv_equal ((const char * const *) a, (const char * const *) b);
}

/**
 * rp_params_equal:
 *
 * Returns: whether every parameter has the same value in @a and @b
 */
gboolean
rp_params_equal (const RpParams *a,
                 const RpParams *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  for (guint i = 0; i < a->n; i++)
    if (a->values[i].u != b->values[i].u || a->values[i].d != b->values[i].d ||
        a->values[i].b != b->values[i].b || !strv_equal0 (a->values[i].argv, b->values[i].argv))
      return FALSE;
  return TRUE;
}

/**
 * rp_params_lookup:
 * @key: a parameter's JSON key, e.g. "fsync_interval"
 * @out_part: (out) (optional): the part it belongs to
 *
 * Returns: (transfer none) (nullable): the parameter, %NULL when no part has it
 */
const RpParamInfo *
rp_params_lookup (const char        *key,
                  const RpPartInfo **out_part)
{
  const RpParamEntry *entry = rp_parts_lookup_param (key);

  if (out_part != NULL)
    *out_part = entry ? entry->part : NULL;
  return entry ? entry->param : NULL;
}

/* The slot of @key, which must be of @kind: asking for another is a bug. */
static Value *
slot (const RpParams *self,
      const char     *key,
      RpParamKind     kind)
{
  const RpParamEntry *entry = rp_parts_lookup_param (key);

  if (entry == NULL)
    g_error ("no part has a parameter “%s”", key);
  g_assert (entry->param->kind == kind ||
            (kind == RP_PARAM_SIZE && entry->param->kind == RP_PARAM_COUNT));
  return (Value *) &self->values[entry->index];
}

/**
 * rp_params_get_size:
 * @key: a %RP_PARAM_SIZE (bytes) or %RP_PARAM_COUNT parameter
 *
 * Returns: its value
 */
guint64
rp_params_get_size (const RpParams *self,
                    const char     *key)
{
  g_return_val_if_fail (self != NULL, 0);
  return slot (self, key, RP_PARAM_SIZE)->u;
}

/**
 * rp_params_get_seconds:
 * @key: a %RP_PARAM_SECONDS parameter
 *
 * Returns: its value, seconds
 */
double
rp_params_get_seconds (const RpParams *self,
                       const char     *key)
{
  g_return_val_if_fail (self != NULL, 0);
  return slot (self, key, RP_PARAM_SECONDS)->d;
}

/**
 * rp_params_get_flag:
 * @key: a %RP_PARAM_FLAG parameter
 *
 * Returns: its value
 */
gboolean
rp_params_get_flag (const RpParams *self,
                    const char     *key)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return slot (self, key, RP_PARAM_FLAG)->b;
}

/**
 * rp_params_get_argv:
 * @key: a %RP_PARAM_ARGV parameter
 *
 * Returns: (transfer none) (nullable) (array zero-terminated=1): the program
 *   and its arguments, %NULL when unset
 */
const char * const *
rp_params_get_argv (const RpParams *self,
                    const char     *key)
{
  g_return_val_if_fail (self != NULL, NULL);
  return (const char * const *) slot (self, key, RP_PARAM_ARGV)->argv;
}

void
rp_params_set_size (RpParams   *self,
                    const char *key,
                    guint64     value)
{
  g_return_if_fail (self != NULL);
  slot (self, key, RP_PARAM_SIZE)->u = value;
}

void
rp_params_set_seconds (RpParams   *self,
                       const char *key,
                       double      value)
{
  g_return_if_fail (self != NULL);
  slot (self, key, RP_PARAM_SECONDS)->d = value;
}

void
rp_params_set_flag (RpParams   *self,
                    const char *key,
                    gboolean    value)
{
  g_return_if_fail (self != NULL);
  slot (self, key, RP_PARAM_FLAG)->b = value != FALSE;
}

/**
 * rp_params_set_argv:
 * @argv: (nullable) (array zero-terminated=1): copied
 */
void
rp_params_set_argv (RpParams           *self,
                    const char         *key,
                    const char * const *argv)
{
  Value *v;

  g_return_if_fail (self != NULL);
  v = slot (self, key, RP_PARAM_ARGV);
  g_strfreev (v->argv);
  v->argv = g_strdupv ((char **) argv);
}

/* The index of @word among @param's choices, or -1. */
static int
choice_index (const RpParamInfo *param,
              const char        *word)
{
  for (guint i = 0; word != NULL && param->choices != NULL && param->choices[i] != NULL; i++)
    if (g_ascii_strcasecmp (param->choices[i], word) == 0)
      return (int) i;
  return -1;
}

static guint
n_choices (const RpParamInfo *param)
{
  return param->choices != NULL ? g_strv_length ((char **) param->choices) : 0;
}

/**
 * rp_params_get_choice:
 * @key: a %RP_PARAM_CHOICE parameter
 *
 * Returns: (transfer none): its word, e.g. "auto"
 */
const char *
rp_params_get_choice (const RpParams *self,
                      const char     *key)
{
  const RpParamEntry *entry;
  guint64 index;

  g_return_val_if_fail (self != NULL, NULL);
  index = slot (self, key, RP_PARAM_CHOICE)->u;
  entry = rp_parts_lookup_param (key);
  return index < n_choices (entry->param) ? entry->param->choices[index] : entry->param->choices[0];
}

/**
 * rp_params_set_choice:
 * @key: a %RP_PARAM_CHOICE parameter
 * @choice: one of its words
 *
 * Returns: %FALSE (nothing changed) when @choice is not one of them
 */
gboolean
rp_params_set_choice (RpParams   *self,
                      const char *key,
                      const char *choice)
{
  Value *v;
  int index;

  g_return_val_if_fail (self != NULL, FALSE);
  v = slot (self, key, RP_PARAM_CHOICE);
  index = choice_index (rp_parts_lookup_param (key)->param, choice);
  if (index < 0)
    return FALSE;
  v->u = (guint64) index;
  return TRUE;
}

static Value *
slot_of (const RpParams    *self,
         const RpParamInfo *param)
{
  return slot (self, param->key, param->kind == RP_PARAM_COUNT ? RP_PARAM_SIZE : param->kind);
}

/* "0", "0s", "0.0", "0,0" (a German zero): zero seconds as one types them. */
static gboolean
is_zero_seconds (const char *text)
{
  for (const char *c = text; *c != '\0'; c++)
    if (*c != '0' && *c != '.' && *c != ',' && !(*c == 's' && c[1] == '\0'))
      return FALSE;
  return text[0] == '0';
}

/**
 * rp_params_parse:
 * @param: one of the table's parameters
 * @text: as typed: "64K", "0.5", "2m", "4"; for a program, a command line
 *   split like a shell's (but run without one)
 * @name: (nullable): what an error names, e.g. "--writers"; %NULL: the
 *   parameter's own name
 * @error: %RP_ERROR_INVALID_ARGUMENT naming @param
 *
 * Sets @param from text. The range is checked by rp_params_validate(), so
 * that a value from a file and one typed are judged alike.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_params_parse (RpParams           *self,
                 const RpParamInfo  *param,
                 const char         *text,
                 const char         *name,
                 GError            **error)
{
  Value *v;
  guint count;

  g_return_val_if_fail (self != NULL && param != NULL && text != NULL, FALSE);

  if (name == NULL)
    name = param->name;
  v = slot_of (self, param);
  switch (param->kind)
    {
    case RP_PARAM_SIZE:
      return rp_parse_size (text, name, &v->u, error);
    case RP_PARAM_SECONDS:
      /* Zero is no duration, but where the parameter says what it means
       * (--baseline 0: none) it is a value of its own. */
      if (param->zero_means != NULL && is_zero_seconds (text))
        {
          v->d = 0;
          return TRUE;
        }
      return rp_parse_duration (text, name, &v->d, error);
    case RP_PARAM_COUNT:
      if (!rp_parse_count (text, name, (guint) MIN (param->max, G_MAXUINT), &count, error))
        return FALSE;
      v->u = count;
      return TRUE;
    case RP_PARAM_FLAG:
      v->b = TRUE;
      return TRUE;
    case RP_PARAM_ARGV:
      {
        g_auto(GStrv) argv = rp_params_split_command (text, name, error);

        if (argv == NULL)
          return FALSE;
        g_strfreev (v->argv);
        v->argv = g_steal_pointer (&argv);
        return TRUE;
      }
    case RP_PARAM_CHOICE:
      {
        int index = choice_index (param, text);

        if (index < 0)
          {
            g_autofree char *words = g_strjoinv (", ", (char **) param->choices);

            g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                         /* TRANSLATORS: "kernel-events: “maybe” is not one of auto, on, off" */
                         _("%s: “%s” is not one of %s"), name, text, words);
            return FALSE;
          }
        v->u = (guint64) index;
        return TRUE;
      }
    default:
      g_return_val_if_reached (FALSE);
    }
}

/**
 * rp_params_check_size:
 * @value: bytes
 * @min: smallest allowed, bytes
 * @max: largest allowed, bytes
 * @name: what the message names, e.g. "block-size"
 * @error: %RP_ERROR_INVALID_ARGUMENT with the sizes in units
 *
 * Returns: whether @value is within @min..@max
 */
gboolean
rp_params_check_size (guint64      value,
                      guint64      min,
                      guint64      max,
                      const char  *name,
                      GError     **error)
{
  g_autofree char *value_text = NULL;
  g_autofree char *min_text = NULL;
  g_autofree char *max_text = NULL;

  if (value >= min && value <= max)
    return TRUE;
  /* In the units the user typed them in ("16.0 MiB", not 16777216). */
  value_text = rp_format_size (value);
  min_text = rp_format_size (min);
  max_text = rp_format_size (max);
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               /* TRANSLATORS: e.g. "block-size: 100 bytes is out of range (512 bytes to 64.0 MiB)" */
               _("%s: %s is out of range (%s to %s)"),
               name, value_text, min_text, max_text);
  return FALSE;
}

/**
 * rp_params_check_range:
 * @value: seconds or a count
 * @min: smallest allowed
 * @max: largest allowed
 * @name: what the message names, e.g. "interval"
 * @error: %RP_ERROR_INVALID_ARGUMENT
 *
 * Returns: whether @value is finite and within @min..@max
 */
gboolean
rp_params_check_range (double       value,
                       double       min,
                       double       max,
                       const char  *name,
                       GError     **error)
{
  if (isfinite (value) && value >= min && value <= max)
    return TRUE;
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("%s: %g is out of range (%g to %g)"), name, value, min, max);
  return FALSE;
}

/* A double bound as bytes, saturating: G_MAXUINT64 / 2 as a double rounds up
 * past what a guint64 holds. */
static guint64
bound_bytes (double bound)
{
  return bound >= 18446744073709551615.0 ? G_MAXUINT64 : (guint64) bound;
}

/**
 * rp_params_validate:
 * @param: one of the table's parameters
 * @error: %RP_ERROR_INVALID_ARGUMENT naming @param
 *
 * Checks @param against its range (0 is allowed where the parameter gives 0
 * a meaning). Rules between parameters are the part's own validate().
 *
 * Returns: %TRUE when the value is allowed
 */
gboolean
rp_params_validate (const RpParams     *self,
                    const RpParamInfo  *param,
                    GError            **error)
{
  const Value *v;

  g_return_val_if_fail (self != NULL && param != NULL, FALSE);

  v = slot_of (self, param);
  switch (param->kind)
    {
    case RP_PARAM_SIZE:
      if (v->u == 0 && param->zero_means != NULL)
        return TRUE;
      return rp_params_check_size (v->u, bound_bytes (param->min), bound_bytes (param->max),
                                   param->name, error);
    case RP_PARAM_COUNT:
      if (v->u == 0 && param->zero_means != NULL)
        return TRUE;
      return rp_params_check_range ((double) v->u, param->min, param->max, param->name, error);
    case RP_PARAM_SECONDS:
      if (v->d == 0 && param->zero_means != NULL)
        return TRUE;
      return rp_params_check_range (v->d, param->min, param->max, param->name, error);
    case RP_PARAM_CHOICE:
      if (v->u < n_choices (param))
        return TRUE;
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("%s: %g is out of range (%g to %g)"), param->name, (double) v->u,
                   0.0, (double) n_choices (param) - 1);
      return FALSE;
    case RP_PARAM_FLAG:
    case RP_PARAM_ARGV:
    default:
      return TRUE;
    }
}

/**
 * rp_params_format:
 * @param: one of the table's parameters
 *
 * Returns: (transfer full): the value as a short text in units ("1.0 MiB",
 *   "0.5 s", "4", "yes", a command line), or its @zero_means, translated
 */
char *
rp_params_format (const RpParams    *self,
                  const RpParamInfo *param)
{
  const Value *v;

  g_return_val_if_fail (self != NULL && param != NULL, NULL);

  v = slot_of (self, param);
  if (param->zero_means != NULL &&
      ((param->kind == RP_PARAM_SECONDS && v->d == 0) ||
       ((param->kind == RP_PARAM_SIZE || param->kind == RP_PARAM_COUNT) && v->u == 0)))
    return g_strdup (_(param->zero_means));
  switch (param->kind)
    {
    case RP_PARAM_SIZE:
      return rp_format_size (v->u);
    case RP_PARAM_SECONDS:
      return g_strdup_printf (_("%g s"), v->d);
    case RP_PARAM_COUNT:
      return g_strdup_printf ("%" G_GUINT64_FORMAT, v->u);
    case RP_PARAM_FLAG:
      return g_strdup (v->b ? _("yes") : _("no"));
    case RP_PARAM_ARGV:
      /* Quoted as a shell needs it: "of=a b" is one argument. */
      return rp_text_shell_join ((const char * const *) v->argv);
    case RP_PARAM_CHOICE:
      return g_strdup (v->u < n_choices (param) ? param->choices[v->u] : "?");
    default:
      g_return_val_if_reached (NULL);
    }
}

/**
 * rp_params_to_json:
 * @builder: a builder inside an object
 *
 * Adds every parameter as a member under its key: sizes and counts as
 * integers (bytes), seconds as numbers, flags as booleans, choices as their
 * word, programs as an array of strings or null. Numbers are JSON numbers, never locale text.
 */
void
rp_params_to_json (const RpParams *self,
                   JsonBuilder    *b)
{
  guint n;
  const RpParamEntry *entries = rp_parts_get_params (&n);

  g_return_if_fail (self != NULL && JSON_IS_BUILDER (b));

  for (guint i = 0; i < n; i++)
    {
      const RpParamInfo *p = entries[i].param;
      const Value *v = &self->values[i];

      json_builder_set_member_name (b, p->key);
      switch (p->kind)
        {
        case RP_PARAM_SIZE:
        case RP_PARAM_COUNT:
          json_builder_add_int_value (b, (gint64) v->u);
          break;
        case RP_PARAM_SECONDS:
          json_builder_add_double_value (b, v->d);
          break;
        case RP_PARAM_FLAG:
          json_builder_add_boolean_value (b, v->b);
          break;
        case RP_PARAM_CHOICE:
          json_builder_add_string_value (b, v->u < n_choices (p) ? p->choices[v->u] : p->choices[0]);
          break;
        case RP_PARAM_ARGV:
        default:
          if (v->argv == NULL)
            {
              json_builder_add_null_value (b);
              break;
            }
          json_builder_begin_array (b);
          for (guint k = 0; v->argv[k] != NULL; k++)
            json_builder_add_string_value (b, v->argv[k]);
          json_builder_end_array (b);
          break;
        }
    }
}

static gboolean
wrong_type (const char  *key,
            GError     **error)
{
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               _("Scenario field “%s” has the wrong type"), key);
  return FALSE;
}

/* Strings of a JSON array; other elements are skipped (files come from
 * strangers, and a program's argument is a string or nothing). */
static char **
strv_from_array (JsonArray *array)
{
  GStrvBuilder *builder = g_strv_builder_new ();
  char **strv;

  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      const char *arg = json_node_get_string (json_array_get_element (array, i));

      if (arg != NULL)
        g_strv_builder_add (builder, arg);
    }
  strv = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);
  return strv;
}

/**
 * rp_params_split_command:
 * @text: a command line, e.g. `sh -c "sleep 5"`
 * @name: what gave it, for the message: the option as typed, e.g.
 *   "--command"
 * @error: %RP_ERROR_INVALID_ARGUMENT when @text is empty (or only spaces)
 *   or a quotation mark in it is not closed, the message naming @name,
 *   @text and the problem in words (GLib's own, "Text was empty (or
 *   contained only whitespace)", names neither)
 *
 * Splits @text into a program and its arguments as a shell would
 * (g_shell_parse_argv()), to be run without one.
 *
 * Returns: (transfer full) (nullable): the arguments, or %NULL with
 *   @error set
 */
char **
rp_params_split_command (const char  *text,
                         const char  *name,
                         GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *problem = NULL;
  char **argv = NULL;

  g_return_val_if_fail (text != NULL && name != NULL, NULL);

  if (g_shell_parse_argv (text, NULL, &argv, &local_error))
    return argv;
  if (g_error_matches (local_error, G_SHELL_ERROR, G_SHELL_ERROR_EMPTY_STRING))
    problem = g_strdup (_("the command is empty: give a program and its arguments"));
  else if (g_error_matches (local_error, G_SHELL_ERROR, G_SHELL_ERROR_BAD_QUOTING))
    problem = g_strdup (_("a quotation mark is not closed"));
  else
    problem = g_strdup (local_error->message);
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               /* TRANSLATORS: the option, the command line as given, what is wrong with it,
                * e.g. "--command “sh -c "exit”: a quotation mark is not closed" */
               _("%s “%s”: %s"), name, text, problem);
  return NULL;
}

static gboolean
read_value (Value             *v,
            const RpParamInfo *p,
            JsonNode          *node,
            GError           **error)
{
  GType held;

  if (p->kind == RP_PARAM_ARGV)
    {
      if (!JSON_NODE_HOLDS_ARRAY (node))
        return TRUE;  /* as before: anything but an array leaves it unset */
      g_strfreev (v->argv);
      v->argv = strv_from_array (json_node_get_array (node));
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_VALUE (node))
    return wrong_type (p->key, error);

  held = json_node_get_value_type (node);
  if (p->kind == RP_PARAM_CHOICE)
    {
      int index;

      if (held != G_TYPE_STRING)
        return wrong_type (p->key, error);
      index = choice_index (p, json_node_get_string (node));
      if (index < 0)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       _("Scenario field “%s” has an unknown value “%s”"), p->key,
                       json_node_get_string (node));
          return FALSE;
        }
      v->u = (guint64) index;
      return TRUE;
    }
  if (p->kind == RP_PARAM_FLAG)
    {
      if (held != G_TYPE_BOOLEAN)
        return wrong_type (p->key, error);
      v->b = json_node_get_boolean (node);
      return TRUE;
    }
  if (held != G_TYPE_INT64 && held != G_TYPE_DOUBLE)
    return wrong_type (p->key, error);
  if (p->kind == RP_PARAM_SECONDS)
    v->d = json_node_get_double (node);
  else
    {
      /* Negative or fractional sizes from a file: clamped here, refused by
       * validation; never a wrapped-around huge number. */
      gint64 i = held == G_TYPE_INT64 ? json_node_get_int (node)
                                      : (gint64) CLAMP (json_node_get_double (node), -9e18, 9e18);
      v->u = (guint64) i;
    }
  return TRUE;
}

/**
 * rp_params_read_json:
 * @object: a scenario object written by rp_params_to_json() (possibly by a
 *   stranger)
 * @error: %RP_ERROR_REPORT naming a member of the wrong type
 *
 * Reads every parameter present; absent and null members keep their value.
 *
 * Returns: %TRUE unless a member has the wrong type
 */
gboolean
rp_params_read_json (RpParams    *self,
                     JsonObject  *object,
                     GError     **error)
{
  guint n;
  const RpParamEntry *entries = rp_parts_get_params (&n);

  g_return_val_if_fail (self != NULL && object != NULL, FALSE);

  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_object_get_member (object, entries[i].param->key);

      if (node == NULL || JSON_NODE_HOLDS_NULL (node))
        continue;
      if (!read_value (&self->values[i], entries[i].param, node, error))
        return FALSE;
    }
  return TRUE;
}
