/*
 * The daemon's frames ({"t":"out","s":"..."}), read strictly: one object whose members are
 * strings, numbers, booleans or null; a member of another kind (a later version's list) is skipped
 * whole, checked as JSON; a key given twice, text after the object or a member of the wrong type
 * is an invalid frame, said in one line. Frame types this version does not know are F_UNKNOWN.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "gq.h"

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

static int member(struct json_reader *r, struct members *m) {
  struct buf key = {0};
  json_space(r);
  if (r->pos >= r->n || r->s[r->pos] != '"') return json_fail(r, "invalid frame: a key must be a string");
  int rc = json_string(r, &key);
  unsigned k = rc < 0 ? 0 : key_of(&key);
  free(key.p);
  if (rc < 0) return -1;
  if (k & m->seen) return json_fail(r, "invalid frame: a key given twice");
  m->seen |= k;
  json_space(r);
  if (r->pos >= r->n || r->s[r->pos++] != ':') return json_fail(r, "invalid frame: ':' expected");
  json_space(r);
  if (r->pos >= r->n) return json_fail(r, "invalid frame: unexpected end of input");
  char c = r->s[r->pos];
  struct buf *text = text_of(m, k);
  if (c == '"' && text) {
    m->strings |= k;
    return json_string(r, text);
  }
  long long *num = k == K_CODE ? &m->code : k == K_PID ? &m->pid : k == K_PROTOCOL ? &m->protocol : NULL;
  if ((c == '-' || (c >= '0' && c <= '9')) && num) {
    int got = json_number(r, num);
    if (got > 0) m->ints |= k;
    return got < 0 ? -1 : 0;
  }
  if (c == 'n' && k) m->seen &= ~k; /* null counts as absent */
  return json_skip(r, 1);
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
  struct json_reader r = {line, n, 0, NULL};
  struct members m;
  memset(&m, 0, sizeof(m));
  f->type = F_UNKNOWN;
  f->has_text = 0;
  f->text.len = 0;
  json_space(&r);
  if (r.pos >= n || line[r.pos] != '{') {
    if (json_skip(&r, 0) == 0) r.error = "invalid frame: not a JSON object";
  } else {
    r.pos++;
    json_space(&r);
    if (r.pos < n && line[r.pos] == '}') r.pos++;
    else
      while (member(&r, &m) == 0) {
        json_space(&r);
        if (r.pos >= n) { json_fail(&r, "invalid frame: unexpected end of input"); break; }
        char d = line[r.pos++];
        if (d == '}') break;
        if (d != ',') { json_fail(&r, "invalid frame: ',' expected"); break; }
      }
    json_space(&r);
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
    else if (IS("screen")) f->type = F_SCREEN;
    else if (IS("stdin_stream")) f->type = F_STDIN_STREAM;
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
