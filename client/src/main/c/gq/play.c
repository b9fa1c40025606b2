/*
 * One connection's conversation: sends the request once, then copies out/outb/err frames to
 * stdout/stderr as they come, answers prompts from the terminal and a stdin request with the whole
 * of standard input, and returns the exit frame's code.
 * Stdout closed by its reader (gq ps | head) ends the client quietly with 141, as SIGPIPE ends
 * other tools; any other failure to write it ends the client with 1 and the reason.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gq.h"

#define CLOSED_PIPE 141
static const char *TOO_LARGE = "standard input is larger than 16 MiB; split the input into several parts";
static const char *CLOSED = "standard input is closed, so there is nothing to read; pipe the input in, or name a file";

static void write_stdout(struct play *st, const char *data, size_t n) {
  st->stdout_bytes += n;
  size_t skip = st->skip_stdout < n ? (size_t)st->skip_stdout : n;
  st->skip_stdout -= skip;
  data += skip;
  n -= skip;
  while (n > 0) {
    ssize_t w = write(1, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) { /* a non-blocking stdout (another program set it so): wait for room */
      struct pollfd pf = {1, POLLOUT, 0};
      poll(&pf, 1, -1);
      continue;
    }
    if (w < 0 && errno == EPIPE) die(CLOSED_PIPE, NULL);
    if (w < 0) die(1, "cannot write to standard output: %s", strerror(errno));
    data += w;
    n -= (size_t)w;
  }
}

/* Reads one line byte by byte (nothing after it is consumed), without its newline or a last \r;
 * 0 at the end of input with nothing read. */
static int read_line(int fd, struct buf *line) {
  char c;
  ssize_t n;
  int any = 0;
  while ((n = read(fd, &c, 1)) != 0) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return any;
    any = 1;
    if (c == '\n') break;
    buf_ch(line, c);
  }
  if (line->len && line->p[line->len - 1] == '\r') line->len--;
  return any;
}

/* The terminal's answer to a question: stdin when it is a terminal, else the controlling one. */
static int ask(const struct call *call, const struct buf *question, struct buf *answer) {
  if (call->stdin_tty) {
    say_err(question->p, question->len);
    return read_line(0, answer);
  }
  int tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (tty < 0) return 0;
  if (call->stderr_tty) say_err(question->p, question->len);
  else if (write(tty, question->p, question->len) < 0) {
    /* the answer is read anyway */
  }
  int got = read_line(tty, answer);
  close(tty);
  return got;
}

static void send_or_closed(struct conn *c, struct buf *b, int *closed) {
  buf_ch(b, '\n');
  if (conn_write(c, b->p, b->len) < 0) *closed = 1;
}

/* Answers a stdin request with the whole of standard input, or with why it cannot be sent. */
static void send_stdin(struct conn *c, const struct call *call, int *closed) {
  struct buf in = {0}, frame = {0};
  const char *error = NULL;
  char chunk[65536];
  if (call->stdin_closed) error = CLOSED;
  while (!error) {
    ssize_t n = read(0, chunk, sizeof(chunk));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      buf_fmt(&frame, "cannot read standard input: %s", strerror(errno));
      error = frame.p;
    } else if (n == 0) break;
    else if (in.len + (size_t)n > GQ_MAX_LINE) error = TOO_LARGE;
    else buf_add(&in, chunk, (size_t)n);
  }
  struct buf line = {0};
  if (!error) {
    /* bytes as they were read, escaped for JSON: the daemon refuses input that is not UTF-8 */
    buf_str(&line, "{\"t\":\"stdin\",\"s\":\"");
    for (size_t i = 0; i < in.len; i++) {
      unsigned char b = (unsigned char)in.p[i];
      if (b == '"' || b == '\\') buf_ch(&line, '\\'), buf_ch(&line, (char)b);
      else if (b == '\n') buf_str(&line, "\\n");
      else if (b == '\r') buf_str(&line, "\\r");
      else if (b == '\t') buf_str(&line, "\\t");
      else if (b < 0x20) buf_fmt(&line, "\\u%04x", b);
      else buf_ch(&line, (char)b);
    }
    buf_str(&line, "\"}");
    if (line.len > GQ_MAX_LINE) error = TOO_LARGE;
  }
  if (error) {
    line.len = 0;
    buf_str(&line, "{\"t\":\"stdin\",\"s\":null,\"error\":");
    json_quote(&line, error, strlen(error));
    buf_ch(&line, '}');
  }
  send_or_closed(c, &line, closed);
  free(in.p);
  free(line.p);
  free(frame.p);
}

static void invalid(const struct paths *p, const char *why) {
  die(1, "the daemon sent an %s; see %s", why, p->log);
}

int play_frames(struct conn *c, const struct paths *p, const struct call *call, const char *request, size_t n,
                struct play *st) {
  struct frame f = {0};
  struct buf line = {0};
  int closed = 0;
  buf_add(&line, request, n);
  buf_ch(&line, '\n');
  /* a failed write: the daemon may have refused the request and closed; its frames say why */
  (void)conn_write(c, line.p, line.len);
  while (1) {
    if (!conn_read_line(c, p)) return PLAY_CLOSED_EARLY;
    const char *why = frame_decode(c->line.p, c->line.len, &f);
    if (why) invalid(p, why);
    switch (f.type) {
    case F_OUT: case F_OUTB: write_stdout(st, f.text.p, f.text.len); break;
    case F_ERR: say_err(f.text.p, f.text.len); break;
    case F_PROMPT: {
      struct buf answer = {0}, reply = {0};
      buf_str(&reply, "{\"t\":\"answer\",\"s\":");
      if (ask(call, &f.text, &answer)) json_quote(&reply, answer.p ? answer.p : "", answer.len);
      else buf_str(&reply, "null");
      buf_ch(&reply, '}');
      send_or_closed(c, &reply, &closed);
      free(answer.p);
      free(reply.p);
      break;
    }
    case F_STDIN_REQUEST: send_stdin(c, call, &closed); break;
    case F_SCREEN: if (call->screen) screen_enter(c); break;
    case F_EXIT: {
      int code = (int)f.code;
      screen_leave();
      frame_free(&f);
      free(line.p);
      return code;
    }
    default: break; /* pong, keepalive and frame types of later versions: nothing to do */
    }
    if (closed) die(1, "the daemon closed the connection before answering; see %s", p->log);
  }
}

long long ping_pid(struct conn *c, const struct paths *p, int *code, int pass_errors, long long *protocol) {
  struct buf req = {0};
  struct frame f = {0};
  ping_request(&req);
  buf_ch(&req, '\n');
  if (conn_write(c, req.p, req.len) < 0) return -2;
  free(req.p);
  while (1) {
    if (!conn_read_line(c, p)) return -2;
    const char *why = frame_decode(c->line.p, c->line.len, &f);
    if (why) invalid(p, why);
    if (f.type == F_PONG) {
      *protocol = f.protocol;
      return f.code;
    }
    if (f.type == F_ERR && pass_errors) say_err(f.text.p, f.text.len);
    if (f.type == F_EXIT) {
      *code = (int)f.code;
      return -1;
    }
  }
}
