/*
 * gq mcp: the Model Context Protocol server for AI assistants, served inside the daemon. The client
 * asks for it (`stdin_stream` in its request), and once the daemon says `stdin_stream` it relays
 * its standard input as `inb` frames (then `stdin_end`) and writes the daemon's `out` frames, the
 * server's answers, to standard output, so that no JVM starts for the session. Where that cannot
 * be (no daemon can be reached or started, one that does not answer within MCP_FIRST_MS, or one
 * that ends the request before streaming: another gq version), and only before any input was read,
 * it hands the session to the launcher script's JVM server, which answers the same.
 * When the daemon goes during a session (a restart), the requests it had not answered get an error
 * answer here at once (inflight.c), and the next input opens a session on a daemon again (started
 * when none answers, as for any command), beginning with the line it was in the middle of.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "gq.h"

/* How long a running daemon may take to say stdin_stream; one this client just started, longer. */
#define MCP_FIRST_MS 3000
#define MCP_FIRST_STARTED_MS 10000
#define CHUNK 65536 /* Frame.InBytes.MAX_BYTES */

static char **ARGV;
static int stdin_open = 1;
static struct buf pending; /* frames for the daemon not yet written: stdin is not read meanwhile */
static size_t pending_at;

/* The JVM server of the launcher script, told by GQ_MCP_SERVER=jvm not to come back here. */
static _Noreturn void fall_back(void) {
  setenv("GQ_MCP_SERVER", "jvm", 1);
  hand_to_launcher(ARGV);
  die(1, "gq mcp cannot be served by the daemon, and there is no launcher script beside this program (gq-generic,"
      " or bin/gq of its checkout) to serve it; run 'gq daemon status', or reinstall gq with install.sh");
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void add_base64(struct buf *b, const unsigned char *s, size_t n) {
  for (size_t i = 0; i < n; i += 3) {
    unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) | (i + 2 < n ? s[i + 2] : 0);
    buf_ch(b, B64[v >> 18 & 63]);
    buf_ch(b, B64[v >> 12 & 63]);
    buf_ch(b, i + 1 < n ? B64[v >> 6 & 63] : '=');
    buf_ch(b, i + 2 < n ? B64[v & 63] : '=');
  }
}

static void add_inb(const unsigned char *s, size_t n) {
  for (size_t at = 0; at < n; at += CHUNK) {
    size_t k = n - at < CHUNK ? n - at : CHUNK;
    buf_str(&pending, "{\"t\":\"inb\",\"b\":\"");
    add_base64(&pending, s + at, k);
    buf_str(&pending, "\"}\n");
  }
}

/* Reads what standard input has now into one frame; its end (or an error) into stdin_end. */
static void read_stdin(void) {
  unsigned char chunk[CHUNK];
  ssize_t n = read(0, chunk, sizeof(chunk));
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
  if (n <= 0) {
    stdin_open = 0;
    buf_str(&pending, "{\"t\":\"stdin_end\"}\n");
    return;
  }
  inflight_input((const char *)chunk, (size_t)n);
  add_inb(chunk, (size_t)n);
}

/* Writes what the connection takes now without waiting; the daemon's frames keep being read meanwhile. */
static void flush_pending(struct conn *c) {
  while (pending_at < pending.len) {
    ssize_t w = send(c->fd, pending.p + pending_at, pending.len - pending_at, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) return;
    if (w <= 0) { /* the daemon went: its frames, read next, say how it ended */
      pending_at = pending.len;
      stdin_open = 0;
      break;
    }
    pending_at += (size_t)w;
  }
  pending.len = pending_at = 0;
}

static int relaying;

int relay_fds(struct pollfd *pf, const struct conn *c) {
  if (!relaying) return 0;
  if (pending_at < pending.len) {
    pf[0] = (struct pollfd){c->fd, POLLOUT, 0};
    return 1;
  }
  if (!stdin_open) return 0;
  pf[0] = (struct pollfd){0, POLLIN, 0};
  return 1;
}

void relay_pump(struct conn *c, struct pollfd *pf, int n) {
  if (n == 0 || !pf[0].revents) return;
  if (pf[0].fd == 0) read_stdin();
  flush_pending(c);
}

static void write_out(const char *data, size_t n) {
  while (n > 0) {
    ssize_t w = write(1, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) {
      struct pollfd pf = {1, POLLOUT, 0};
      poll(&pf, 1, -1);
      continue;
    }
    if (w <= 0) {
      /* the assistant closed its end: no one is left to answer; the daemon sees the connection close */
      static const char gone[] = "gq mcp: standard output is closed; stopping\n";
      say_err(gone, sizeof(gone) - 1);
      _exit(0);
    }
    data += w;
    n -= (size_t)w;
  }
}

/* Whether a line is ready on the connection within `ms` (some of it already read counts). */
static int ready(struct conn *c, long long ms) {
  if (c->rlen > c->rpos) return 1;
  long long deadline = now_ms() + ms;
  while (1) {
    long long left = deadline - now_ms();
    if (left <= 0) return 0;
    struct pollfd pf = {c->fd, POLLIN, 0};
    int r = poll(&pf, 1, (int)left);
    if (r > 0) return 1;
    if (r < 0 && errno != EINTR) return 0;
  }
}

/* Opens a session: connects (starting the daemon when none answers), asks for gq mcp and waits until
 * the daemon streams. The first one hands the session to the JVM server where it cannot; a later
 * one, after input was read, can only end the client with the reason. */
static void open_session(const struct paths *p, struct call *call, struct conn *c, int first) {
  int started = 0;
  if (conn_open_or_die(p, c) < 0) {
    launch_daemon(p, call, c);
    started = 1;
  }
  struct buf req = {0}, early = {0};
  call_request(call, &req);
  buf_ch(&req, '\n');
  int sent = conn_write(c, req.p, req.len) == 0;
  free(req.p);
  struct frame f = {0};
  int streaming = 0;
  while (!streaming) {
    const char *why = !sent ? "the daemon closed the connection"
                    : !ready(c, started ? MCP_FIRST_STARTED_MS : MCP_FIRST_MS) ? "the daemon did not answer"
                    : !conn_read_line(c, p) ? "the daemon closed the connection"
                    : frame_decode(c->line.p, c->line.len, &f) ? "the daemon sent an invalid frame" : NULL;
    /* refused before streaming: another gq version, no room for a stream */
    if (!why && f.type == F_EXIT) why = "the daemon refused the session";
    if (why && first) fall_back();
    if (why) {
      if (early.len) say_err(early.p, early.len);
      die(1, "%s when gq mcp opened a session again after the daemon stopped; see %s", why, p->log);
    }
    if (f.type == F_ERR) buf_add(&early, f.text.p, f.text.len);
    if (f.type == F_OUT || f.type == F_OUTB) write_out(f.text.p, f.text.len);
    streaming = f.type == F_STDIN_STREAM;
  }
  frame_free(&f);
  if (early.len) say_err(early.p, early.len);
  free(early.p);
  relaying = 1;
}

/* The daemon went in the middle of a session: its unanswered requests get an error answer now, and
 * the line being read is sent again to the next session. */
static void lost_session(struct conn *c) {
  conn_close(c);
  relaying = 0;
  pending.len = pending_at = 0;
  struct buf answers = {0};
  inflight_lost(&answers);
  if (answers.len) write_out(answers.p, answers.len);
  free(answers.p);
}

/* Until standard input has more (or its end): a new session only when there is something for it. */
static void await_input(void) {
  struct pollfd pf = {0, POLLIN, 0};
  while (poll(&pf, 1, -1) < 0 && errno == EINTR) {
  }
}

_Noreturn void mcp_serve(const struct paths *p, struct call *call, char **argv) {
  ARGV = argv;
  call->stdin_stream = 1;
  die_hook(fall_back); /* until the daemon streams: nothing of standard input is read before */
  struct conn c;
  open_session(p, call, &c, 1);
  die_hook(NULL);
  struct frame f = {0};
  while (1) {
    if (!conn_read_line(&c, p)) {
      lost_session(&c);
      if (!stdin_open) _exit(0); /* every request read had its answer, or the error above */
      await_input();
      open_session(p, call, &c, 0);
      const struct buf *part = inflight_partial();
      if (part->len) add_inb((const unsigned char *)part->p, part->len);
      continue;
    }
    const char *why = frame_decode(c.line.p, c.line.len, &f);
    if (why) die(1, "the daemon sent an %s; see %s", why, p->log);
    switch (f.type) {
    case F_OUT: case F_OUTB:
      write_out(f.text.p, f.text.len);
      inflight_output(f.text.p, f.text.len);
      break;
    case F_ERR: say_err(f.text.p, f.text.len); break;
    case F_EXIT: _exit((int)f.code & 0xff);
    default: break; /* keepalive and frame types of later versions */
    }
  }
}
