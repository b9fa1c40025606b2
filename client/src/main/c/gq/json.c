/*
 * The wire's JSON from the client's side: quoting for the request and the answers it writes, and
 * a strict reader of the flat frames the daemon sends ({"t":"out","s":"..."}): one object whose
 * members are strings, numbers, booleans or null; a member of another kind (a later version's
 * list) is skipped whole, checked as JSON. Anything else is an invalid frame, said in one line.
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

struct reader {
  const char *s;
  size_t n, pos;
  const char *error;
};

static void space(struct reader *r) {
  while (r->pos < r->n && (r->s[r->pos] == ' ' || r->s[r->pos] == '\t' || r->s[r->pos] == '\n' ||
                           r->s[r->pos] == '\r'))
    r->pos++;
}

static int fail(struct reader *r, const char *why) {
  if (!r->error) r->error = why;
  return -1;
}

static int hex4(struct reader *r, unsigned *out) {
  if (r->n - r->pos < 4) return fail(r, "invalid frame: an invalid \\u escape");
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = r->s[r->pos++];
    const char *h = strchr(HEX, c >= 'A' && c <= 'F' ? c + 32 : c);
    if (c == 0 || !h) return fail(r, "invalid frame: an invalid \\u escape");
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
 * the Java client's encoder writes it. */
static int string(struct reader *r, struct buf *out) {
  struct buf sink = {0};
  if (!out) out = &sink;
  r->pos++;
  while (1) {
    if (r->pos >= r->n) return fail(r, "invalid frame: unexpected end of input in a string");
    unsigned char c = (unsigned char)r->s[r->pos++];
    if (c == '"') break;
    if (c < 0x20) return fail(r, "invalid frame: a control character in a string");
    if (c != '\\') {
      buf_ch(out, (char)c);
      continue;
    }
    if (r->pos >= r->n) return fail(r, "invalid frame: unexpected end of input in a string");
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
    default: return fail(r, "invalid frame: an invalid escape in a string");
    }
  }
  free(sink.p);
  return 0;
}

/* An integer into *v (1), or another number, checked and skipped (0). */
static int number(struct reader *r, long long *v) {
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
  if (digits == 0 || (digits > 1 && r->s[start + neg] == '0')) return fail(r, "invalid frame: an invalid number");
  if (r->pos < r->n && r->s[r->pos] == '.') {
    integral = 0;
    r->pos++;
    size_t f = r->pos;
    while (r->pos < r->n && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') r->pos++;
    if (f == r->pos) return fail(r, "invalid frame: an invalid number");
  }
  if (r->pos < r->n && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
    integral = 0;
    r->pos++;
    if (r->pos < r->n && (r->s[r->pos] == '+' || r->s[r->pos] == '-')) r->pos++;
    size_t f = r->pos;
    while (r->pos < r->n && r->s[r->pos] >= '0' && r->s[r->pos] <= '9') r->pos++;
    if (f == r->pos) return fail(r, "invalid frame: an invalid number");
  }
  if (!integral || overflow || acc > (neg ? 9223372036854775808ull : 9223372036854775807ull)) return 0;
  *v = neg ? (long long)(0 - acc) : (long long)acc;
  return 1;
}

static int literal(struct reader *r, const char *word) {
  size_t l = strlen(word);
  if (r->n - r->pos < l || memcmp(r->s + r->pos, word, l) != 0) return fail(r, "invalid frame: unexpected character");
  r->pos += l;
  return 0;
}

/* Skips any value, nested up to 64 deep, checking it. */
static int skip(struct reader *r, int depth) {
  if (depth > 64) return fail(r, "invalid frame: nested deeper than 64");
  space(r);
  if (r->pos >= r->n) return fail(r, "invalid frame: unexpected end of input");
  char c = r->s[r->pos];
  long long ignored;
  if (c == '"') return string(r, NULL);
  if (c == 't') return literal(r, "true");
  if (c == 'f') return literal(r, "false");
  if (c == 'n') return literal(r, "null");
  if (c == '-' || (c >= '0' && c <= '9')) return number(r, &ignored) < 0 ? -1 : 0;
  if (c != '{' && c != '[') return fail(r, "invalid frame: unexpected character");
  char close = c == '{' ? '}' : ']';
  r->pos++;
  space(r);
  if (r->pos < r->n && r->s[r->pos] == close) return r->pos++, 0;
  while (1) {
    if (c == '{') {
      space(r);
      if (r->pos >= r->n || r->s[r->pos] != '"') return fail(r, "invalid frame: a key must be a string");
      if (string(r, NULL) < 0) return -1;
      space(r);
      if (r->pos >= r->n || r->s[r->pos++] != ':') return fail(r, "invalid frame: ':' expected");
    }
    if (skip(r, depth + 1) < 0) return -1;
    space(r);
    if (r->pos >= r->n) return fail(r, "invalid frame: unexpected end of input");
    char d = r->s[r->pos++];
    if (d == close) return 0;
    if (d != ',') return fail(r, "invalid frame: ',' expected");
  }
}

/* Standard base64 with or without its padding, as the Java decoder reads it; -1 when invalid. */
static int base64(const char *s, size_t n, struct buf *out) {
  unsigned acc = 0;
  int bits = 0;
  size_t i = 0;
  for (; i < n && s[i] != '='; i++) {
    char c = s[i];
    int v = c >= 'A' && c <= 'Z' ? c - 'A' : c >= 'a' && c <= 'z' ? c - 'a' + 26
          : c >= '0' && c <= '9' ? c - '0' + 52 : c == '+' ? 62 : c == '/' ? 63 : -1;
    if (v < 0) return -1;
    acc = (acc << 6) | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      buf_ch(out, (char)((acc >> bits) & 0xff));
    }
  }
  if (bits == 6) return -1; /* one character alone holds no byte */
  size_t pad = n - i;
  if (pad > 0) {
    for (size_t k = i; k < n; k++) if (s[k] != '=') return -1;
    if ((i + pad) % 4 != 0 || pad > 2) return -1;
  }
  return 0;
}

enum { K_T = 1, K_S = 2, K_B = 4, K_CODE = 8, K_PID = 16, K_VERSION = 32, K_PROTOCOL = 64 };

struct members {
  unsigned seen, strings, ints; /* which keys came, and which of them as a string / an integer */
  struct buf t, s, b, version;
  long long code, pid, protocol;
};

static unsigned key_of(const struct buf *k) {
  static const char *names[] = {"t", "s", "b", "code", "pid", "version", "protocol"};
  for (unsigned i = 0; i < 7; i++)
    if (k->len == strlen(names[i]) && memcmp(k->p, names[i], k->len) == 0) return 1u << i;
  return 0;
}

static struct buf *text_of(struct members *m, unsigned key) {
  return key == K_T ? &m->t : key == K_S ? &m->s : key == K_B ? &m->b : key == K_VERSION ? &m->version : NULL;
}

static int member(struct reader *r, struct members *m) {
  struct buf key = {0};
  space(r);
  if (r->pos >= r->n || r->s[r->pos] != '"') return fail(r, "invalid frame: a key must be a string");
  int rc = string(r, &key);
  unsigned k = rc < 0 ? 0 : key_of(&key);
  free(key.p);
  if (rc < 0) return -1;
  if (k & m->seen) return fail(r, "invalid frame: a key given twice");
  m->seen |= k;
  space(r);
  if (r->pos >= r->n || r->s[r->pos++] != ':') return fail(r, "invalid frame: ':' expected");
  space(r);
  if (r->pos >= r->n) return fail(r, "invalid frame: unexpected end of input");
  char c = r->s[r->pos];
  struct buf *text = text_of(m, k);
  if (c == '"' && text) {
    m->strings |= k;
    return string(r, text);
  }
  long long *num = k == K_CODE ? &m->code : k == K_PID ? &m->pid : k == K_PROTOCOL ? &m->protocol : NULL;
  if ((c == '-' || (c >= '0' && c <= '9')) && num) {
    int got = number(r, num);
    if (got > 0) m->ints |= k;
    return got < 0 ? -1 : 0;
  }
  if (c == 'n' && k) m->seen &= ~k; /* null counts as absent */
  return skip(r, 1);
}

static const char *want(struct buf *why, unsigned seen, const char *name, const char *kind) {
  why->len = 0;
  buf_fmt(why, "invalid frame: '%s'%s%s", name, seen ? " must be " : " is missing; it must be ", kind);
  return buf_cstr(why);
}

static void take(struct buf *to, struct buf *from) {
  free(to->p);
  *to = *from;
  memset(from, 0, sizeof(*from));
}

const char *frame_decode(const char *line, size_t n, struct frame *f) {
  static struct buf why;
  struct reader r = {line, n, 0, NULL};
  struct members m;
  memset(&m, 0, sizeof(m));
  f->type = F_UNKNOWN;
  f->has_text = 0;
  f->text.len = 0;
  space(&r);
  if (r.pos >= n || line[r.pos] != '{') {
    if (skip(&r, 0) == 0) r.error = "invalid frame: not a JSON object";
  } else {
    r.pos++;
    space(&r);
    if (r.pos < n && line[r.pos] == '}') r.pos++;
    else
      while (member(&r, &m) == 0) {
        space(&r);
        if (r.pos >= n) { fail(&r, "invalid frame: unexpected end of input"); break; }
        char d = line[r.pos++];
        if (d == '}') break;
        if (d != ',') { fail(&r, "invalid frame: ',' expected"); break; }
      }
    space(&r);
    if (!r.error && r.pos < n) r.error = "invalid frame: unexpected text after the JSON value";
  }
  const char *err = r.error;
  if (!err && !(m.strings & K_T)) err = want(&why, m.seen & K_T, "t", "a string");
  if (!err) {
    const char *t = buf_cstr(&m.t);
    size_t tl = m.t.len;
#define IS(word) (tl == sizeof(word) - 1 && memcmp(t, word, tl) == 0)
    if (IS("out") || IS("err") || IS("prompt")) {
      f->type = IS("out") ? F_OUT : IS("err") ? F_ERR : F_PROMPT;
      if (!(m.strings & K_S)) err = want(&why, m.seen & K_S, "s", "a string");
      else take(&f->text, &m.s), f->has_text = 1;
    } else if (IS("outb")) {
      f->type = F_OUTB;
      if (!(m.strings & K_B)) err = want(&why, m.seen & K_B, "b", "a string");
      else if (base64(m.b.p ? m.b.p : "", m.b.len, &f->text) < 0) err = "invalid frame: 'b' is not base64";
      else f->has_text = 1;
    } else if (IS("exit")) {
      f->type = F_EXIT;
      if (!(m.ints & K_CODE) || m.code < INT_MIN || m.code > INT_MAX)
        err = want(&why, m.seen & K_CODE, "code", "an integer from -2147483648 to 2147483647");
      f->code = m.code;
    } else if (IS("pong")) {
      f->type = F_PONG;
      if (!(m.ints & K_PID)) err = want(&why, m.seen & K_PID, "pid", "an integer");
      else if (!(m.strings & K_VERSION)) err = want(&why, m.seen & K_VERSION, "version", "a string");
      else if (!(m.ints & K_PROTOCOL) || m.protocol < 0 || m.protocol > INT_MAX)
        err = want(&why, m.seen & K_PROTOCOL, "protocol", "an integer from 0 to 2147483647");
      f->code = m.pid;
      f->protocol = m.protocol;
      take(&f->text, &m.version);
      f->has_text = 1;
    } else if (IS("stdin_request")) f->type = F_STDIN_REQUEST;
    else if (IS("keepalive")) f->type = F_KEEPALIVE;
#undef IS
  }
  free(m.t.p);
  free(m.s.p);
  free(m.b.p);
  free(m.version.p);
  return err;
}

void frame_free(struct frame *f) {
  free(f->text.p);
  memset(f, 0, sizeof(*f));
}
