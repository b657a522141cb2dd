/* rp-text.c: plain text in lines of 80 for terminals, mail and bug trackers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>

#include "rp-text.h"

/* Two measures of a text. Its width is what a terminal shows: the columns
 * that align a table. Its length is what it takes of a line's 80: people
 * check a report they paste with byte-counting tools (mawk's length(),
 * `wc -L` in the C locale), so a character of the Latin script or a common
 * symbol ("µs", "…", "“", "ä") counts its UTF-8 bytes, and a Latin-script
 * line of length 80 is at most 80 bytes. Letters of other scripts count
 * their columns, or a Russian line would hold only 40 of them. */

static gsize
char_width (gunichar c)
{
  if (g_unichar_iszerowidth (c))
    return 0;
  return g_unichar_iswide (c) ? 2 : 1;
}

static gsize
char_length (gunichar c)
{
  GUnicodeScript script;
  gsize bytes;

  if (c < 0x80)
    return 1;
  script = g_unichar_get_script (c);
  if (script != G_UNICODE_SCRIPT_LATIN && script != G_UNICODE_SCRIPT_COMMON &&
      script != G_UNICODE_SCRIPT_INHERITED)
    return char_width (c);
  bytes = (gsize) g_unichar_to_utf8 (c, NULL);
  return MAX (bytes, char_width (c));
}

/**
 * rp_text_width:
 * @text: UTF-8 text without newlines
 *
 * Returns: the columns a terminal shows @text in (wide characters 2,
 *   combining marks 0), for aligning columns
 */
gsize
rp_text_width (const char *text)
{
  gsize width = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    width += char_width (g_utf8_get_char (p));
  return width;
}

/**
 * rp_text_length:
 * @text: UTF-8 text without newlines
 *
 * Returns: how much of a line of %RP_TEXT_WIDTH @text takes: its width,
 *   except that Latin-script and common characters outside ASCII count
 *   their bytes (see above); never less than rp_text_width()
 */
gsize
rp_text_length (const char *text)
{
  gsize length = 0;

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    length += char_length (g_utf8_get_char (p));
  return length;
}

/* How much more of a line @text takes than its columns show. */
static gsize
text_extra (const char *text)
{
  return rp_text_length (text) - rp_text_width (text);
}

/**
 * rp_text_is_control:
 * @c: a character
 *
 * Characters that must not reach a terminal, a label or a PDF from a
 * stranger's report: C0 and C1 controls (ESC starts terminal escapes, and
 * GTK draws a missing-glyph box for them), the bidirectional controls of
 * Unicode (Bidi_Control: U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069), with which "…evil · x86_64" shows as "46_68x · live", and
 * the line and paragraph separators U+2028 and U+2029, which start new
 * lines in a label.
 *
 * Returns: whether @c is one of them
 */
gboolean
rp_text_is_control (gunichar c)
{
  return g_unichar_iscntrl (c) || c == 0x061c || c == 0x200e || c == 0x200f ||
         (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) ||
         c == 0x2028 || c == 0x2029;
}

/**
 * rp_text_clean:
 * @text: (nullable): a string of a report from anywhere
 * @multiline: whether @text may have lines (notes, messages): line feeds
 *   and tabs stay
 *
 * Every rp_text_is_control() character becomes a plain space, all else
 * stays as it is (accents, CJK, emoji, no-break spaces): the one rule for
 * the strings of a loaded report. Invalid UTF-8 is replaced as by
 * g_utf8_make_valid().
 *
 * Returns: (transfer full) (nullable): the clean text, %NULL for %NULL
 */
char *
rp_text_clean (const char *text,
               gboolean    multiline)
{
  g_autofree char *valid = NULL;
  GString *out;

  if (text == NULL)
    return NULL;
  valid = g_utf8_make_valid (text, -1);
  out = g_string_sized_new (strlen (valid));
  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (rp_text_is_control (c) && !(multiline && (c == '\n' || c == '\t')))
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

/**
 * rp_text_sanitize:
 * @text: (nullable): any text, e.g. from a stranger's report
 *
 * Control characters (ANSI escapes, tabs, carriage returns, bidirectional
 * controls: rp_text_is_control()) must not reach a terminal or break the
 * layout; newlines stay. Every other space (the no-break space of
 * g_format_size(), a translation's narrow no-break space) becomes a plain
 * one: `grep '1.0 MiB'` must find "1.0 MiB".
 *
 * Returns: (transfer full): valid UTF-8
 */
char *
rp_text_sanitize (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  GString *out = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n')
        g_string_append_c (out, '\n');
      else if (rp_text_is_control (c) || g_unichar_type (c) == G_UNICODE_SPACE_SEPARATOR)
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

/**
 * rp_text_shell_join:
 * @argv: (array zero-terminated=1): a program and its arguments
 *
 * @argv as a shell command line that runs it again when pasted: each
 * argument that a shell would split or expand quoted with g_shell_quote(),
 * the others as they are (dd if=/dev/zero of='a b' bs=1M stays readable).
 *
 * Returns: (transfer full): the command line
 */
char *
rp_text_shell_join (const char * const *argv)
{
  GString *line = g_string_new (NULL);

  for (guint i = 0; argv != NULL && argv[i] != NULL; i++)
    {
      const char *arg = argv[i];
      /* POSIX shells treat none of these specially within a word. */
      gboolean plain = *arg != '\0' &&
                       arg[strspn (arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                        "0123456789_@%+=:,./-")] == '\0';

      if (i > 0)
        g_string_append_c (line, ' ');
      if (plain)
        g_string_append (line, arg);
      else
        {
          g_autofree char *quoted = g_shell_quote (arg);

          g_string_append (line, quoted);
        }
    }
  return g_string_free (line, FALSE);
}

/**
 * rp_text_file_name:
 * @file: a file someone named, e.g. on the command line
 *
 * The file's name for a message or a label: its parse name (a path, or a
 * URI for a remote file), rp_text_clean()ed, since a file name is a
 * stranger's string too: "evil\u202Enosj.exe" must not show as
 * "evilexe.json".
 *
 * Returns: (transfer full): the name
 */
char *
rp_text_file_name (GFile *file)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  name = g_file_get_parse_name (file);
  return rp_text_clean (name, FALSE);
}

/**
 * rp_text_shorten:
 * @text: (nullable): a long or hostile string to quote in an error message
 *
 * Returns: (transfer full): @text sanitized and cut to 40 characters
 */
char *
rp_text_shorten (const char *text)
{
  g_autofree char *clean = rp_text_sanitize (text);

  if (g_utf8_strlen (clean, -1) <= 40)
    return g_steal_pointer (&clean);
  return g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (clean, 40) - clean), clean);
}

/* Where a line may end, worst first. A line ends at the best kind of break
 * it has room for, the last of that kind. */
typedef enum {
  BREAK_NONE,
  BREAK_IN_WORD,    /* after a '/' or a hyphen: only in a word longer than a line */
  BREAK_NUMBER,     /* the space after a number, which keeps its unit */
  BREAK_SPACE,      /* a space, or a ',' or ';' before a letter (mount options) */
  N_BREAKS
} BreakKind;

static gboolean
is_hyphen (gunichar c)
{
  return c == '-' || c == 0x2010;
}

/* The break after @c, between @previous and @next (0 at either end). A
 * comma before a digit is a decimal comma ("bs=1,0 MiB"), never a break; a
 * '-' before a digit is a minus sign. */
static BreakKind
break_after (gunichar previous,
             gunichar c,
             gunichar next)
{
  if (c == ' ')
    return g_unichar_isdigit (previous) ? BREAK_NUMBER : BREAK_SPACE;
  if ((c == ',' || c == ';') && g_unichar_isalpha (next))
    return BREAK_SPACE;
  if (c == '/' && next != 0 && next != ' ')
    return BREAK_IN_WORD;
  if (is_hyphen (c) && (g_unichar_isalnum (previous) || previous == ')') && g_unichar_isalpha (next))
    return BREAK_IN_WORD;
  return BREAK_NONE;
}

/* The end of the line that starts at @p: as far as @width lets it go, back
 * to its best break (see BreakKind), or cut where no break is. */
static const char *
line_end (const char *p,
          gsize       width)
{
  const char *breaks[N_BREAKS] = { NULL };
  gunichar previous = 0;
  gsize length = 0;
  gboolean text = FALSE;

  while (*p != '\0' && *p != '\n')
    {
      gunichar c = g_utf8_get_char (p);
      const char *next = g_utf8_next_char (p);

      if (length + char_length (c) > width)
        {
          /* A space that does not fit still ends the line before it. */
          if (c == ' ' && text)
            breaks[break_after (previous, c, 0)] = p;
          break;
        }
      length += char_length (c);
      /* No empty first line before leading blanks. */
      if (text)
        breaks[break_after (previous, c, g_utf8_get_char (next))] = next;
      text = text || c != ' ';
      previous = c;
      p = next;
    }
  if (*p == '\0' || *p == '\n')
    return p;
  for (guint kind = N_BREAKS - 1; kind > BREAK_NONE; kind--)
    if (breaks[kind] != NULL)
      return breaks[kind];
  return p;
}

/**
 * rp_text_wrap_lines:
 * @text: (nullable): text, sanitized here
 * @width: the longest line, as rp_text_length() counts (at least 8)
 *
 * Splits @text into lines at spaces, and after a comma or semicolon
 * followed by a letter (mount options have no spaces), never between a
 * number and its unit unless no other space is left ("every 0.5 s"), never
 * at a decimal comma ("1,0 MiB"). Only a word longer than a line is split
 * inside: after a '/' or a hyphen before a letter (paths,
 * "write()-Aufrufen"), else where the line is full.
 * Newlines in @text start new lines.
 *
 * Returns: (transfer container) (element-type utf8): the lines, without
 *   trailing blanks
 */
GPtrArray *
rp_text_wrap_lines (const char *text,
                    gsize       width)
{
  g_autofree char *clean = rp_text_sanitize (text);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  const char *p = clean;

  width = MAX (width, 8);
  for (;;)
    {
      const char *end = line_end (p, width);
      char *line = g_strndup (p, (gsize) (end - p));

      g_strchomp (line);
      g_ptr_array_add (lines, line);

      p = end;
      if (*p == '\n')
        p++;
      else
        while (*p == ' ')
          p++;
      if (*p == '\0')
        break;
    }
  return lines;
}

/**
 * rp_text_append_wrapped:
 * @out: where
 * @first_prefix: put before the first line
 * @next_prefix: put before the others
 * @text: (nullable): the text, wrapped to %RP_TEXT_WIDTH with its prefix
 *
 * Every line ends with a newline and has no trailing blanks.
 */
void
rp_text_append_wrapped (GString    *out,
                        const char *first_prefix,
                        const char *next_prefix,
                        const char *text)
{
  gsize prefix = MAX (rp_text_length (first_prefix), rp_text_length (next_prefix));
  g_autoptr(GPtrArray) lines = rp_text_wrap_lines (text, RP_TEXT_WIDTH > prefix + 20 ? RP_TEXT_WIDTH - prefix : 20);

  for (guint i = 0; i < lines->len; i++)
    {
      gsize start = out->len;

      g_string_append (out, i == 0 ? first_prefix : next_prefix);
      g_string_append (out, g_ptr_array_index (lines, i));
      /* No trailing blanks when a line (or the value) is empty. */
      while (out->len > start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
}

/**
 * rp_text_append_padded:
 * @out: where
 * @text: a cell
 * @width: the columns to fill (aligned as a terminal shows them)
 * @right: align right rather than left
 */
void
rp_text_append_padded (GString    *out,
                       const char *text,
                       gsize       width,
                       gboolean    right)
{
  gsize w = rp_text_width (text);

  if (right)
    for (gsize i = w; i < width; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, text);
  if (!right)
    for (gsize i = w; i < width; i++)
      g_string_append_c (out, ' ');
}

/**
 * rp_text_append_heading:
 * @out: where
 * @title: the heading, wrapped if longer than a line
 * @underline: the character of the line below it, e.g. '=' or '-'
 */
void
rp_text_append_heading (GString    *out,
                        const char *title,
                        char        underline)
{
  g_autoptr(GPtrArray) lines = rp_text_wrap_lines (title, RP_TEXT_WIDTH);
  gsize width = 0;

  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (lines, i));
      width = MAX (width, rp_text_width (g_ptr_array_index (lines, i)));
    }
  for (gsize i = 0; i < MIN (width, RP_TEXT_WIDTH); i++)
    g_string_append_c (out, underline);
  g_string_append_c (out, '\n');
}

/* ------------------------------------------------------------------------ */
/* Tables                                                                    */
/* ------------------------------------------------------------------------ */

#define MAX_COLUMNS 16

typedef struct {
  guint              n_columns;
  const char *const *header;
  GPtrArray         *rows;      /* char ** of n_columns cells */
  gsize              widths[MAX_COLUMNS];
  gsize              values;    /* columns of the value cells with their gaps */
  gsize              extra;     /* the most any row's value cells take beyond their columns */
} Table;

static const char *const *
table_row (const Table *table,
           guint        r)
{
  return r == 0 ? table->header : g_ptr_array_index (table->rows, r - 1);
}

static gsize
row_values_extra (const Table       *table,
                  const char *const *cells)
{
  gsize extra = 0;

  for (guint c = 1; c < table->n_columns; c++)
    extra += text_extra (cells[c]);
  return extra;
}

static void
measure_table (Table *table)
{
  for (guint c = 0; c < table->n_columns; c++)
    table->widths[c] = 0;
  table->values = 0;
  table->extra = 0;
  for (guint r = 0; r <= table->rows->len; r++)
    {
      const char *const *cells = table_row (table, r);

      for (guint c = 0; c < table->n_columns; c++)
        table->widths[c] = MAX (table->widths[c], rp_text_width (cells[c]));
      table->extra = MAX (table->extra, row_values_extra (table, cells));
    }
  for (guint c = 1; c < table->n_columns; c++)
    table->values += 2 + table->widths[c];
}

static void
append_table_row (GString           *out,
                  const Table       *table,
                  const char *const *cells,
                  const char        *name)
{
  gsize start = out->len;

  rp_text_append_padded (out, name, table->widths[0], FALSE);
  for (guint c = 1; c < table->n_columns; c++)
    {
      g_string_append (out, "  ");
      rp_text_append_padded (out, cells[c], table->widths[c], TRUE);
    }
  while (out->len > start && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  g_string_append_c (out, '\n');
}

/* Too wide even with names on their own lines (long translations, huge
 * counts): each row gets a name line and a wrapped "key value" line. */
static void
append_table_blocks (GString     *out,
                     const Table *table)
{
  for (guint r = 0; r < table->rows->len; r++)
    {
      const char *const *cells = table_row (table, r + 1);
      g_autoptr(GString) values = g_string_new (NULL);

      rp_text_append_wrapped (out, "", "  ", cells[0]);
      for (guint c = 1; c < table->n_columns; c++)
        g_string_append_printf (values, "%s%s %s", c > 1 ? ", " : "", table->header[c], cells[c]);
      rp_text_append_wrapped (out, "  ", "  ", values->str);
    }
}

/**
 * rp_text_append_table:
 * @out: where
 * @n_columns: columns of the table, at most 16
 * @header: (array length=n_columns): the heading of each column
 * @rows: (element-type GStrv): the rows, @n_columns cells each
 *
 * A name column, then right-aligned value columns two spaces apart. The
 * name column gets what the values leave of %RP_TEXT_WIDTH; a longer name
 * goes on a line of its own above its values. Values too wide for a line
 * make a block per row instead. No line is longer than %RP_TEXT_WIDTH (as
 * rp_text_length() counts).
 */
void
rp_text_append_table (GString           *out,
                      guint              n_columns,
                      const char *const *header,
                      GPtrArray         *rows)
{
  Table table = { n_columns, header, rows, { 0 }, 0, 0 };

  g_return_if_fail (out != NULL);
  g_return_if_fail (n_columns >= 2 && n_columns <= MAX_COLUMNS);
  g_return_if_fail (header != NULL && rows != NULL);

  if (rows->len == 0)
    return;
  measure_table (&table);
  if (table.values + table.extra + 8 > RP_TEXT_WIDTH)
    {
      append_table_blocks (out, &table);
      return;
    }
  table.widths[0] = MIN (table.widths[0], RP_TEXT_WIDTH - table.values - table.extra);
  for (guint r = 0; r <= rows->len; r++)
    {
      const char *const *cells = table_row (&table, r);
      gsize length = table.widths[0] + text_extra (cells[0]) + table.values +
                     row_values_extra (&table, cells);

      if (rp_text_width (cells[0]) <= table.widths[0] && length <= RP_TEXT_WIDTH)
        {
          append_table_row (out, &table, cells, cells[0]);
          continue;
        }
      rp_text_append_wrapped (out, "", "  ", cells[0]);
      append_table_row (out, &table, cells, "");
    }
}
