/*
 * gq mcp's requests in flight, as the client relays them (mcp.c): the ids of the JSON-RPC requests
 * read from standard input (a method and an id) until the server's answer to each (a result or an
 * error with that id) has been written, and the bytes of the input line not yet ended. When the
 * daemon goes in the middle of a session, each request still in flight gets an error answer (it may
 * or may not have been done), and the line being read is sent again, whole, to the next session.
 * Ids are matched by their JSON text as sent, which the server writes back as it read it.
 */
#include <stdlib.h>
#include <string.h>

#include "gq.h"

static const char LOST[] = "the gq daemon stopped while this request was in flight, so it may or may not have"
                           " been done; check with the ps tool before calling it again";
static struct buf line;    /* standard input since its last newline */
static int line_whole = 1; /* 0 once that line is longer than the daemon reads */
static struct buf answer_line;
static char **ids;         /* the ids (as sent) of the requests read and not answered yet */
static size_t nids, capids;

/* The raw id of a JSON-RPC message (its text as sent, in out), whether it has a method, and whether it
 * is an answer (a result or an error); -1 when the line is no JSON object. */
static int message(const char *s, size_t n, struct buf *id, int *method, int *answer) {
  struct json_reader r = {s, n, 0, NULL};
  struct buf key = {0};
  *method = *answer = 0;
  json_space(&r);
  if (r.pos >= n || s[r.pos] != '{') return -1;
  r.pos++;
  json_space(&r);
  if (r.pos < n && s[r.pos] == '}') return 0;
  while (1) {
    json_space(&r);
    key.len = 0;
    if (r.pos >= n || s[r.pos] != '"' || json_string(&r, &key) < 0) break;
    json_space(&r);
    if (r.pos >= n || s[r.pos++] != ':') break;
    json_space(&r);
    size_t start = r.pos;
    if (json_skip(&r, 1) < 0) break;
    const char *k = buf_cstr(&key);
    if (strcmp(k, "id") == 0) id->len = 0, buf_add(id, s + start, r.pos - start);
    else if (strcmp(k, "method") == 0) *method = 1;
    else if (strcmp(k, "result") == 0 || strcmp(k, "error") == 0) *answer = 1;
    json_space(&r);
    if (r.pos < n && s[r.pos] == ',') { r.pos++; continue; }
    if (r.pos < n && s[r.pos] == '}') { free(key.p); return 0; }
    break;
  }
  free(key.p);
  return -1;
}

/* A whole line of standard input: a request (a method and an id) is in flight until answered. */
static void line_read(const char *s, size_t n) {
  struct buf id = {0};
  int method, answer;
  if (message(s, n, &id, &method, &answer) == 0 && method && id.len && strcmp(buf_cstr(&id), "null") != 0) {
    if (nids == capids) {
      capids = capids ? capids * 2 : 16;
      char **grown = realloc(ids, capids * sizeof(*ids));
      if (!grown) die(1, "out of memory");
      ids = grown;
    }
    ids[nids++] = xstrdup(id.p);
  }
  free(id.p);
}

/* A line of the server's: an answer takes its request out of flight. */
static void answer_read(const char *s, size_t n) {
  struct buf id = {0};
  int method, answer;
  if (message(s, n, &id, &method, &answer) == 0 && answer && id.len) {
    for (size_t i = 0; i < nids; i++) {
      if (strcmp(ids[i], buf_cstr(&id)) != 0) continue;
      free(ids[i]);
      ids[i] = ids[--nids];
      break;
    }
  }
  free(id.p);
}

void inflight_input(const char *s, size_t n) {
  while (n > 0) {
    const char *nl = memchr(s, '\n', n);
    size_t take = nl ? (size_t)(nl - s) : n;
    if (line_whole && line.len + take <= GQ_MAX_LINE) buf_add(&line, s, take);
    else line_whole = 0, line.len = 0;
    if (!nl) return;
    if (line_whole) line_read(line.p ? line.p : "", line.len);
    line.len = 0;
    line_whole = 1;
    s = nl + 1;
    n -= take + 1;
  }
}


void inflight_output(const char *s, size_t n) {
  while (n > 0) {
    const char *nl = memchr(s, '\n', n);
    size_t take = nl ? (size_t)(nl - s) : n;
    if (answer_line.len + take <= GQ_MAX_LINE) buf_add(&answer_line, s, take);
    if (!nl) return;
    answer_read(answer_line.p ? answer_line.p : "", answer_line.len);
    answer_line.len = 0;
    s = nl + 1;
    n -= take + 1;
  }
}

const struct buf *inflight_partial(void) { return &line; }

void inflight_lost(struct buf *answers) {
  answer_line.len = 0; /* the rest of an answer cut off with its connection never comes */
  for (size_t i = 0; i < nids; i++) {
    buf_fmt(answers, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"error\":{\"code\":-32603,\"message\":", ids[i]);
    json_quote(answers, LOST, sizeof(LOST) - 1);
    buf_str(answers, "}}\n");
    free(ids[i]);
  }
  nids = 0;
}
