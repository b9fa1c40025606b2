/*
 * The wire's JSON from the client's side: strict UTF-8, quoting for the request and the answers
 * the client writes, and the pieces of a strict reader (strings, numbers, literals, and any value
 * skipped whole, checked, nested up to 64 deep) that frame.c reads the daemon's frames with.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gq.h"

static const char HEX[] = "0123456789abcdef";

/* The length of the UTF-8 sequence at s (1-4), or 0 when it is not strict UTF-8. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned c = s[0];
  if (c < 0x80) return 1;
  size_t len;
  unsigned min, cp;
  if (c >= 0xc2 && c <= 0xdf) len = 2, min = 0x80, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef) len = 3, min = 0x800, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4) len = 4, min = 0x10000, cp = c & 0x07;
  else return 0;
  if (n < len) return 0;
  for (size_t i = 1; i < len; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = (cp << 6) | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return len;
}

int utf8_valid(const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t l = utf8_len(s + i, n - i);
    if (l == 0) return 0;
    i += l;
  }
  return 1;
}

void utf8_shown(struct buf *b, const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    size_t l = utf8_len(s + i, n - i);
    if (l == 0) {
      buf_fmt(b, "\\x%02x", s[i]);
      i++;
    } else {
      buf_add(b, s + i, l);
      i += l;
    }
  }
}

void json_quote(struct buf *b, const char *str, size_t n) {
  const unsigned char *s = (const unsigned char *)str;
  buf_ch(b, '"');
  for (size_t i = 0; i < n;) {
    unsigned c = s[i];
    if (c == '"' || c == '\\') {
      buf_ch(b, '\\');
      buf_ch(b, (char)c);
    } else if (c == '\n') buf_str(b, "\\n");
    else if (c == '\r') buf_str(b, "\\r");
    else if (c == '\t') buf_str(b, "\\t");
    else if (c < 0x20) {
      char e[6] = {'\\', 'u', '0', '0', HEX[c >> 4], HEX[c & 15]};
      buf_add(b, e, 6);
    } else if (c < 0x80) buf_ch(b, (char)c);
    else {
      size_t l = utf8_len(s + i, n - i);
      if (l == 0) buf_str(b, "\\ufffd");
      else buf_add(b, s + i, l);
      i += l ? l : 1;
      continue;
    }
    i++;
  }
  buf_ch(b, '"');
}

/* --- the reader ------------------------------------------------------------------------- */

void json_space(struct json_reader *r) {
  while (r->pos < r->n && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\n' ||
                           r->s[r->pos] == '\r'))
    r->pos++;
}

int json_fail(struct json_reader *r, const char *why) {
  if (!r->error) r->error = why;
  return -1;
}

static int hex4(struct json_reader *r, unsigned *out) {
  if (r->n - r->pos < 4) return json_fail(r, "invalid frame: an invalid \\u escape");
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = r->s[r->pos++];
    const char *h = strchr(HEX, c >= 'A' && c <= 'F' ? c + 32 : c);
    if (c == 0 || !h) return json_fail(r, "invalid frame: an invalid \\u escape");
    v = v * 16 + (unsigned)(h - HEX);
  }
  *out = v;
  return 0;
}

static void put_code_point(struct buf *b, unsigned cp) {
  char u[4];
  if (cp < 0x80) u[0] = (char)cp, buf_add(b, u, 1);
  else if (cp < 0x800) {
    u[0] = (char)(0xc0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3f));
    buf_add(b, u, 2);
  } else if (cp < 0x10000) {
    u[0] = (char)(0xe0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
    u[2] = (char)(0x80 | (cp & 0x3f));
    buf_add(b, u, 3);
  } else {
    u[0] = (char)(0xf0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3f)), u[3] = (char)(0x80 | (cp & 0x3f));
    buf_add(b, u, 4);
  }
}

/* A string at r->pos (its quote) into out (may be NULL to skip); a lone surrogate becomes '?', as
 * the protocol's Java encoder writes it. */
int json_string(struct json_reader *r, struct buf *out) {
  struct buf sink = {0};
  if (!out) out = &sink;
  r->pos++;
  while (1) {
    if (r->pos >= r->n) return json_fail(r, "invalid frame: unexpected end of input in a string");
    unsigned char c = (unsigned char)r->s[r->pos++];
    if (c == '"') break;
    if (c < 0x20) return json_fail(r, "invalid frame: a control character in a string");
    if (c != '\\') {
      buf_ch(out, (char)c);
      continue;
    }
    if (r->pos >= r->n) return json_fail(r, "invalid frame: unexpected end of input in a string");
    char e = r->s[r->pos++];
    unsigned cp;
    switch (e) {
    case '"': case '\\': case '/': buf_ch(out, e); break;
    case 'b': buf_ch(out, '\b'); break;
    case 'f': buf_ch(out, '\f'); break;
    case 'n': buf_ch(out, '\n'); break;
    case 'r': buf_ch(out, '\r'); break;
    case 't': buf_ch(out, '\t'); break;
    case 'u':
      if (hex4(r, &cp) < 0) return -1;
      if (cp >= 0xd800 && cp <= 0xdbff && r->n - r->pos >= 6 && r->s[r->pos] == '\\' &&
          r->s[r->pos + 1] == 'u') {
        size_t back = r->pos;
        unsigned lo;
        r->pos += 2;
        if (hex4(r, &lo) < 0) return -1;
        if (lo >= 0xdc00 && lo <= 0xdfff) cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
        else r->pos = back;
      }
      if (cp >= 0xd800 && cp <= 0xdfff) buf_ch(out, '?');
      else put_code_point(out, cp);
      break;
    default: return json_fail(r, "invalid frame: an invalid escape in a string");
    }
  }
  free(sink.p);
  return 0;
}

/* An integer into *v (1), or another number, checked and skipped (0). */
int json_number(struct json_reader *r, long long *v) {
  size_t start = r->pos;
  int neg = r->s[r->pos] == '-', integral = 1, overflow = 0;
  if (neg) r->pos++;
  unsigned long long acc = 0;
  size_t digits = 0;
  while (r->pos < r->n && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') {
    unsigned d = (unsigned)(r->s[r->pos++] - '0');
    if (acc > (ULLONG_MAX - d) / 10) overflow = 1;
    else acc = acc * 10 + d;
    digits++;
  }
  if (digits == 0 || (digits > 1 && r->s[start + neg] == '0')) return json_fail(r, "invalid frame: an invalid number");
  if (r->pos < r->n && r->s[r->pos] == '.') {
    integral = 0;
    r->pos++;
    size_t f = r->pos;
    while (r->pos < r->n && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') r->pos++;
    if (f == r->pos) return json_fail(r, "invalid frame: an invalid number");
  }
  if (r->pos < r->n && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
    integral = 0;
    r->pos++;
    if (r->pos < r->n && (r->s[r->pos] == '+' || r->s[r->pos] == '-')) r->pos++;
    size_t f = r->pos;
    while (r->pos < r->n && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') r->pos++;
    if (f == r->pos) return json_fail(r, "invalid frame: an invalid number");
  }
  if (!integral || overflow || acc > (neg ? 9223372036854775808ull : 9223372036854775807ull)) return 0;
  *v = neg ? (long long)(0 - acc) : (long long)acc;
  return 1;
}

static int literal(struct json_reader *r, const char *word) {
  size_t l = strlen(word);
  if (r->n - r->pos < l || memcmp(r->s + r->pos, word, l) != 0) return json_fail(r, "invalid frame: unexpected character");
  r->pos += l;
  return 0;
}

/* Skips any value, nested up to 64 deep, checking it. */
int json_skip(struct json_reader *r, int depth) {
  if (depth > 64) return json_fail(r, "invalid frame: nested deeper than 64");
  json_space(r);
  if (r->pos >= r->n) return json_fail(r, "invalid frame: unexpected end of input");
  char c = r->s[r->pos];
  long long ignored;
  if (c == '"') return json_string(r, NULL);
  if (c == 't') return literal(r, "true");
  if (c == 'f') return literal(r, "false");
  if (c == 'n') return literal(r, "null");
  if (c == '-' || (c >= '0' && c <= '9')) return json_number(r, &ignored) < 0 ? -1 : 0;
  if (c != '{' && c != '[') return json_fail(r, "invalid frame: unexpected character");
  char close = c == '{' ? '}' : ']';
  r->pos++;
  json_space(r);
  if (r->pos < r->n && r->s[r->pos] == close) return r->pos++, 0;
  while (1) {
    if (c == '{') {
      json_space(r);
      if (r->pos >= r->n || r->s[r->pos] != '"') return json_fail(r, "invalid frame: a key must be a string");
      if (json_string(r, NULL) < 0) return -1;
      json_space(r);
      if (r->pos >= r->n || r->s[r->pos++] != ':') return json_fail(r, "invalid frame: ':' expected");
    }
    if (json_skip(r, depth + 1) < 0) return -1;
    json_space(r);
    if (r->pos >= r->n) return json_fail(r, "invalid frame: unexpected end of input");
    char d = r->s[r->pos++];
    if (d == close) return 0;
    if (d != ',') return json_fail(r, "invalid frame: ',' expected");
  }
}

