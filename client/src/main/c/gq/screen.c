/*
 * The full screen of gq top, which the daemon draws: on the daemon's screen frame the terminal goes
 * raw (no echo, no line editing, no signals from keys; output processing kept) and to the alternate
 * screen with the cursor hidden. While the client then waits for frames it forwards what the user
 * types as key frames and the terminal's size, at once and after every SIGWINCH, as size frames.
 * The terminal is put back on every way out: the exit frame, an error (die), a signal that ends
 * the client, and exit() itself. Across a daemon restart the screen stays, with a line at its
 * bottom that says so, and q or Ctrl-C still quits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>
#include <unistd.h>

#include "gq.h"

static const char ENTER[] = "\033[?1049h\033[?25l\033[H\033[2J";
static const char LEAVE[] = "\033[?25h\033[?1049l";
static struct termios saved;
static volatile sig_atomic_t active;
static int winch_pipe[2] = {-1, -1};
static int stdin_open = 1;
static const int ENDING[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGSEGV, SIGBUS, SIGFPE, SIGABRT, SIGILL};

void screen_leave(void) {
  if (!active) return;
  active = 0;
  /* async-signal-safe: write and tcsetattr only */
  ssize_t w = write(1, LEAVE, sizeof(LEAVE) - 1);
  (void)w;
  tcsetattr(0, TCSADRAIN, &saved);
}

static void on_ending(int sig) {
  screen_leave();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void on_winch(int sig) {
  (void)sig;
  int saved_errno = errno;
  if (winch_pipe[1] >= 0) {
    ssize_t w = write(winch_pipe[1], "w", 1);
    (void)w;
  }
  errno = saved_errno;
}

int screen_active(void) { return active; }

static void send_size(struct conn *c) {
  struct winsize ws;
  if (ioctl(1, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0 || ws.ws_row == 0) return;
  struct buf b = {0};
  buf_fmt(&b, "{\"t\":\"size\",\"width\":%d,\"height\":%d}\n", ws.ws_col, ws.ws_row);
  (void)conn_write(c, b.p, b.len);
  free(b.p);
}

void screen_enter(struct conn *c) {
  if (active) { /* a new connection after a daemon restart: the screen stays, the daemon needs its size */
    send_size(c);
    return;
  }
  if (tcgetattr(0, &saved) != 0) return; /* no terminal after all: the frames still come as text */
  struct termios raw = saved;
  raw.c_iflag &= ~(tcflag_t)(BRKINT | ICRNL | INPCK | ISTRIP | IXON);
  raw.c_lflag &= ~(tcflag_t)(ECHO | ICANON | IEXTEN | ISIG);
  raw.c_cflag |= CS8;
  raw.c_cc[VMIN] = 1;
  raw.c_cc[VTIME] = 0;
  if (pipe2(winch_pipe, O_CLOEXEC | O_NONBLOCK) != 0) winch_pipe[0] = winch_pipe[1] = -1;
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_ending;
  for (size_t i = 0; i < sizeof(ENDING) / sizeof(*ENDING); i++) sigaction(ENDING[i], &sa, NULL);
  sa.sa_handler = on_winch;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGWINCH, &sa, NULL);
  atexit(screen_leave);
  active = 1;
  tcsetattr(0, TCSADRAIN, &raw);
  ssize_t w = write(1, ENTER, sizeof(ENTER) - 1);
  (void)w;
  send_size(c);
}

int screen_fds(struct pollfd *pf) {
  if (!active) return 0;
  int n = 0;
  if (stdin_open) pf[n++] = (struct pollfd){0, POLLIN, 0};
  if (winch_pipe[0] >= 0) pf[n++] = (struct pollfd){winch_pipe[0], POLLIN, 0};
  return n;
}

void screen_pump(struct conn *c, struct pollfd *pf, int n) {
  for (int i = 0; i < n; i++) {
    if (!pf[i].revents) continue;
    if (pf[i].fd == 0) {
      char keys[256];
      ssize_t got = read(0, keys, sizeof(keys));
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (got <= 0) {
        /* the terminal went away: nothing more to show on it */
        stdin_open = 0;
        screen_leave();
        shutdown(c->fd, SHUT_RDWR);
        _exit(129);
      }
      struct buf b = {0};
      buf_str(&b, "{\"t\":\"key\",\"s\":");
      json_quote(&b, keys, (size_t)got);
      buf_str(&b, "}\n");
      (void)conn_write(c, b.p, b.len);
      free(b.p);
    } else {
      char drain[64];
      while (read(pf[i].fd, drain, sizeof(drain)) > 0) {
      }
      send_size(c);
    }
  }
}

void screen_note(const char *text) {
  struct winsize ws;
  int row = ioctl(1, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 ? ws.ws_row : 24;
  struct buf b = {0};
  buf_fmt(&b, "\033[%d;1H\033[2K\033[1m", row);
  buf_add(&b, text, strcspn(text, "\n"));
  buf_str(&b, "\033[0m");
  ssize_t w = write(1, b.p, b.len);
  (void)w;
  free(b.p);
}

int screen_pause(int ms) {
  if (!active || !stdin_open) {
    sleep_ms(ms);
    return 0;
  }
  struct pollfd pf = {0, POLLIN, 0};
  if (poll(&pf, 1, ms) <= 0) return 0;
  char keys[256];
  ssize_t got = read(0, keys, sizeof(keys));
  if (got <= 0) return got == 0;
  return memchr(keys, 'q', (size_t)got) != NULL || memchr(keys, 3, (size_t)got) != NULL;
}
