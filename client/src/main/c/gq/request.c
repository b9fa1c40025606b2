/*
 * The lines the client sends (the Java client's ClientCall): the run request with the command
 * line, its environment and terminal, under a random request id; and the ping.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "gq.h"

/* A random (version 4) UUID. */
static void request_id(struct buf *b) {
  unsigned char r[16] = {0};
  int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  ssize_t got = fd >= 0 ? read(fd, r, 16) : -1;
  if (fd >= 0) close(fd);
  if (got != 16) {
    long long t = now_ms() ^ ((long long)getpid() << 20);
    for (int i = 0; i < 16; i++) r[i] ^= (unsigned char)(t >> (i % 8 * 8));
  }
  r[6] = (unsigned char)((r[6] & 0x0f) | 0x40);
  r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
  buf_ch(b, '"');
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) buf_ch(b, '-');
    buf_fmt(b, "%02x", r[i]);
  }
  buf_ch(b, '"');
}

void call_request(const struct call *c, struct buf *b) {
  buf_fmt(b, "{\"protocol\":%d,\"type\":\"run\",\"request_id\":", GQ_PROTOCOL);
  request_id(b);
  buf_str(b, ",\"argv\":[");
  for (int i = 0; i < c->argc; i++) {
    if (i) buf_ch(b, ',');
    json_quote(b, c->argv[i], strlen(c->argv[i]));
  }
  buf_str(b, "],\"cwd\":");
  json_quote(b, c->cwd, strlen(c->cwd));
  buf_str(b, ",\"env\":{");
  for (int i = 0; i < c->nenv; i++) {
    const char *eq = strchr(c->env[i], '=');
    if (i) buf_ch(b, ',');
    json_quote(b, c->env[i], (size_t)(eq - c->env[i]));
    buf_ch(b, ':');
    json_quote(b, eq + 1, strlen(eq + 1));
  }
  buf_fmt(b, "},\"stdin_tty\":%s,\"stdout_tty\":%s,\"stderr_tty\":%s,\"width\":%d,\"height\":%d%s%s}",
          c->stdin_tty ? "true" : "false", c->stdout_tty ? "true" : "false", c->stderr_tty ? "true" : "false", c->width,
          c->height, c->screen ? ",\"screen\":true" : "", c->stdin_stream ? ",\"stdin_stream\":true" : "");
}

void ping_request(struct buf *b) { buf_fmt(b, "{\"protocol\":%d,\"type\":\"ping\"}", GQ_PROTOCOL); }
