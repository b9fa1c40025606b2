/*
 * The connection to the daemon. Connecting checks who listens before anything is sent (the
 * request carries the whole environment): the peer must run as this user (SO_PEERCRED) and the
 * socket file must be a socket this user owns. Reading watches the daemon: silence is normal (gq
 * wait hears nothing until its job ends), but after half of GQ_ANSWER_TIMEOUT of it a ping goes out on a second connection; a pong (or a frame on the first
 * one) restarts the count, and no answer within the other half ends the client with one line.
 * Writing is watched the same way (a daemon that reads nothing more), and a connection its full
 * queue does not take within GQ_ANSWER_TIMEOUT ends the client too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "gq.h"

#define RBUF 65536

static long half_ms = 15000;

void conn_set_timeout(const char *seconds) {
  long v = 0;
  size_t n = seconds ? strlen(seconds) : 0;
  for (size_t i = 0; i < n && v >= 0; i++) v = seconds[i] >= '0' && seconds[i] <= '9' ? v * 10 + seconds[i] - '0' : -1;
  long ms = n == 0 || n > 6 || v <= 0 ? 30000 : v * 1000;
  half_ms = ms / 2 > 0 ? ms / 2 : 1;
}

#define HUNG "; it may be stopped (see 'gq daemon status' and %s; 'kill -CONT PID' resumes a stopped one); raise" \
             " GQ_ANSWER_TIMEOUT (seconds) to wait longer"

static const char *own_it = "remove it, or set GQ_RUNTIME_DIR to a directory of your own";

/* Why not to talk to the listener on fd, or NULL. */
static const char *peer_problem(const struct paths *p, struct conn *c, struct buf *why) {
  struct ucred cred;
  socklen_t len = sizeof(cred);
  struct stat st;
  uid_t me = geteuid();
  if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || lstat(p->sock, &st) < 0) {
    buf_fmt(why, "cannot tell who serves the socket %s: %s; nothing was sent; set GQ_RUNTIME_DIR to a"
            " directory of your own", p->sock, strerror(errno));
    return why->p;
  }
  c->peer_uid = cred.uid;
  c->peer_pid = cred.pid;
  if (cred.uid != me)
    buf_fmt(why, "the socket %s is served by uid %u, not by you (uid %u); nothing was sent; %s", p->sock,
            (unsigned)cred.uid, (unsigned)me, own_it);
  else if (!S_ISSOCK(st.st_mode))
    buf_fmt(why, "%s is not a socket; nothing was sent; %s", p->sock, own_it);
  else if (st.st_uid != me)
    buf_fmt(why, "the socket %s belongs to uid %u, not to you (uid %u); nothing was sent; %s", p->sock,
            (unsigned)st.st_uid, (unsigned)me, own_it);
  else return NULL;
  return why->p;
}

int conn_open(const struct paths *p, struct conn *c, int nonblock, struct buf *why) {
  memset(c, 0, sizeof(*c));
  c->fd = -1;
  size_t n = strlen(p->sock);
  if (n > GQ_MAX_SOCKET_PATH) {
    buf_fmt(why, "the socket path %s is %zu bytes, over the %d-byte limit of unix sockets; set GQ_RUNTIME_DIR"
            " to a shorter directory", p->sock, n, GQ_MAX_SOCKET_PATH);
    return -2;
  }
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof(addr));
  addr.sun_family = AF_UNIX;
  memcpy(addr.sun_path, p->sock, n);
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);
  if (fd < 0) {
    buf_fmt(why, "cannot open a unix socket: %s", strerror(errno));
    return -2;
  }
  /* a daemon that takes no connections (stopped) and whose queue is full: connect waits this long */
  struct timeval limit = {2 * half_ms / 1000, 2 * half_ms % 1000 * 1000};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof(limit));
  int rc;
  do rc = connect(fd, (struct sockaddr *)&addr, sizeof(addr));
  while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    int e = errno;
    close(fd);
    if (e == ENOENT || e == ECONNREFUSED) return -1;
    if (e == EACCES)
      buf_fmt(why, "cannot connect to %s: permission denied (is it another user's daemon? set GQ_RUNTIME_DIR)", p->sock);
    else if (e == EAGAIN)
      buf_fmt(why, "the daemon at %s took no connection for %ld s (its queue of waiting connections is full)" HUNG,
              p->sock, (2 * half_ms + 500) / 1000, p->log);
    else
      buf_fmt(why, "cannot connect to %s: %s; check the socket path or set GQ_RUNTIME_DIR", p->sock, strerror(e));
    return -2;
  }
  c->fd = fd;
  c->paths = p;
  if (peer_problem(p, c, why)) {
    struct stat gone;
    close(fd);
    c->fd = -1;
    /* a stopping daemon removes its socket just before it closes: a connection it accepted
       meanwhile leads nowhere, as a refused one */
    if (lstat(p->sock, &gone) < 0 && errno == ENOENT) return -1;
    return -2;
  }
  c->rbuf = xmalloc(RBUF);
  return 0;
}

int conn_open_or_die(const struct paths *p, struct conn *c) {
  struct buf why = {0};
  int rc = conn_open(p, c, 0, &why);
  if (rc == -2) die(1, "%s", why.p);
  return rc;
}

void conn_close(struct conn *c) {
  if (c->fd >= 0) close(c->fd);
  c->fd = -1;
  free(c->rbuf);
  free(c->line.p);
  memset(c, 0, sizeof(*c));
  c->fd = -1;
}

int conn_answers(const struct paths *p) {
  struct conn c;
  if (conn_open_or_die(p, &c) < 0) return 0;
  conn_close(&c);
  return 1;
}

/* Whether a ping on a new connection is answered within half the timeout; a frame arriving on
 * `main_fd` (when not -1) meanwhile counts as an answer too (the daemon is alive). */
static int answers_ping(const struct paths *p, int main_fd) {
  struct conn probe;
  struct buf why = {0};
  int alive = 0;
  if (conn_open(p, &probe, 1, &why) == 0) {
    struct buf ping = {0};
    ping_request(&ping);
    buf_ch(&ping, '\n');
    long long deadline = now_ms() + half_ms;
    if (send(probe.fd, ping.p, ping.len, MSG_NOSIGNAL | MSG_DONTWAIT) == (ssize_t)ping.len) {
      while (!alive) {
        long long left = deadline - now_ms();
        if (left <= 0) break;
        struct pollfd pf[2] = {{probe.fd, POLLIN, 0}, {main_fd, POLLIN, 0}};
        int r = poll(pf, 2, (int)left);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        if (pf[1].revents) alive = 1;
        else if (pf[0].revents) {
          char tmp[512];
          ssize_t got = recv(probe.fd, tmp, sizeof(tmp), MSG_DONTWAIT);
          if (got > 0 && memchr(tmp, '\n', (size_t)got)) alive = 1;
          else if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) break;
        }
      }
    }
    free(ping.p);
    conn_close(&probe);
  }
  free(why.p);
  return alive;
}

/* Writes all bytes; no progress for half the timeout sends a ping, as fill does. */
int conn_write(struct conn *c, const char *data, size_t n) {
  long long since = now_ms();
  while (n > 0) {
    ssize_t w = send(c->fd, data, n, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && errno == EAGAIN) {
      struct pollfd pf = {c->fd, POLLOUT, 0};
      long long left = since + half_ms - now_ms();
      if (poll(&pf, 1, left > 0 ? (int)left : 0) != 0) continue;
      if (!answers_ping(c->paths, -1))
        die(1, "the daemon read nothing gq sent for %ld s, nor answered a ping on a second connection" HUNG,
            (2 * half_ms + 500) / 1000, c->paths->log);
      since = now_ms();
      continue;
    }
    if (w <= 0) return -1;
    since = now_ms();
    data += w;
    n -= (size_t)w;
  }
  return 0;
}

/* Fills the read buffer: the bytes read, 0 at the end of the stream. */
static ssize_t fill(struct conn *c, const struct paths *p) {
  long long since = now_ms();
  while (1) {
    struct pollfd pf[4] = {{c->fd, POLLIN, 0}};
    int keys = screen_fds(pf + 1); /* gq top: the keys and size changes to forward meanwhile */
    int input = relay_fds(pf + 1 + keys, c); /* gq mcp: standard input to relay meanwhile */
    int extra = keys + input;
    long long left = since + half_ms - now_ms();
    int r = poll(pf, (nfds_t)(1 + extra), left > 0 ? (int)left : 0);
    if (r < 0 && errno == EINTR) continue;
    if (r > 0 && keys) screen_pump(c, pf + 1, keys);
    if (r > 0 && input) relay_pump(c, pf + 1 + keys, input);
    if (r > 0 && !pf[0].revents) continue;
    if (r == 0) {
      if (answers_ping(p, c->fd)) {
        since = now_ms();
        continue;
      }
      shutdown(c->fd, SHUT_RDWR);
      die(1, "the daemon did not answer for %ld s, nor a ping on a second connection" HUNG, (2 * half_ms + 500) / 1000,
          p->log);
    }
    ssize_t n = read(c->fd, c->rbuf, RBUF);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    return n < 0 ? 0 : n;
  }
}

int conn_read_line(struct conn *c, const struct paths *p) {
  c->line.len = 0;
  while (1) {
    char *nl = c->rlen > c->rpos ? memchr(c->rbuf + c->rpos, '\n', c->rlen - c->rpos) : NULL;
    size_t take = nl ? (size_t)(nl - (c->rbuf + c->rpos)) : c->rlen - c->rpos;
    if (take > GQ_MAX_LINE - c->line.len)
      die(1, "the daemon sent a frame larger than 16 MiB; see %s", p->log);
    buf_add(&c->line, c->rbuf + c->rpos, take);
    c->rpos += take;
    if (nl) {
      c->rpos++;
      return 1;
    }
    ssize_t n = fill(c, p);
    c->rpos = 0;
    c->rlen = n > 0 ? (size_t)n : 0;
    if (n <= 0) return 0; /* closed, between lines or in the middle of one */
  }
}
