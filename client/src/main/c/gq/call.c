/*
 * One gq command line as the daemon will see it: the arguments and environment as the bytes Linux
 * gave the process, each checked as strict UTF-8 (an argument that is not is refused with one line,
 * a variable that is not is left out and named), the working directory (the one it was, when it was deleted), which
 * standard streams are terminals and the terminal's width.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "gq.h"

/* Set by what runs the client (a launcher script, gq mcp's JVM server for each tool's command; and
 * GQ_MCP_SERVER, which says how gq mcp runs); never passed on. */
static const char *LAUNCHER_VARS[] = {"GQ_CLIENT_TTY_IN=", "GQ_CLIENT_TTY_OUT=", "GQ_CLIENT_TTY_ERR=",
                                      "GQ_CLIENT_COLUMNS=", "GQ_CLIENT_LINES=", "GQ_CLIENT_CWD_GONE=",
                                      "GQ_CLIENT_STDIN_CLOSED=", "GQ_MCP_SERVER="};

/* A flag from the launcher ("1"/"0"), else whether the descriptor is a terminal. */
static int tty(const char *flag, int fd) {
  if (flag && strcmp(flag, "1") == 0) return 1;
  if (flag && strcmp(flag, "0") == 0) return 0;
  return isatty(fd);
}

/* The value as a width from 1 to 100000, or 0 when it is not one. */
static int positive(const char *s) {
  if (!s || !*s || strlen(s) > 6) return 0;
  int v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return 0;
    v = v * 10 + (*s - '0');
  }
  return v <= 100000 ? v : 0;
}

static int width(int stdout_tty) {
  int w = positive(getenv("GQ_CLIENT_COLUMNS"));
  if (!w) w = positive(getenv("COLUMNS"));
  if (!w && stdout_tty) {
    struct winsize ws;
    int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd >= 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) w = ws.ws_col;
    if (fd >= 0) close(fd);
  }
  return w ? w : 80;
}

/* The terminal's lines when stdout is one (GQ_CLIENT_LINES, LINES, else the terminal's size); 0 otherwise. */
static int height(int stdout_tty) {
  if (!stdout_tty) return 0;
  int h = positive(getenv("GQ_CLIENT_LINES"));
  if (!h) h = positive(getenv("LINES"));
  if (!h) {
    struct winsize ws;
    int fd = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC);
    if (fd >= 0 && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0) h = ws.ws_row;
    if (fd >= 0) close(fd);
  }
  return h;
}

static char *working_directory(void) {
  const char *gone = getenv("GQ_CLIENT_CWD_GONE");
  char *cwd = gone && *gone ? xstrdup(gone) : getcwd(NULL, 0);
  if (!cwd) {
    /* deleted under the shell: the directory it was, which the command then names */
    char link[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/cwd", link, sizeof(link) - 1);
    if (n < 0) n = 0;
    link[n] = 0;
    char *tail = strstr(link, " (deleted)");
    if (tail && tail[10] == 0) *tail = 0;
    cwd = xstrdup(n > 0 && link[0] == '/' ? link : "/");
  }
  if (!utf8_valid((unsigned char *)cwd, strlen(cwd))) {
    struct buf b = {0};
    utf8_shown(&b, (unsigned char *)cwd, strlen(cwd));
    die(2, "the working directory %s cannot be named in UTF-8 (or was removed); gq runs jobs in directories it"
        " can name as UTF-8 text: rename it, or cd to another directory", b.p);
  }
  return cwd;
}

static const char *daemon_cmd_default(void) {
  static char found[PATH_MAX + 32];
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return NULL;
  exe[n] = 0;
  char *slash = strrchr(exe, '/');
  if (!slash) return NULL;
  *slash = 0;
  /* installed: PREFIX/lib/gq/bin/gq beside gq-daemon; in a checkout: client/target/gq */
  const char *tries[] = {"%s/gq-daemon", "%s/../../bin/gq-daemon"};
  for (int i = 0; i < 2; i++) {
    struct buf b = {0};
    buf_fmt(&b, tries[i], exe);
    char *real = realpath(b.p, NULL);
    free(b.p);
    if (real && access(real, X_OK) == 0 && strlen(real) < sizeof(found)) {
      strcpy(found, real);
      free(real);
      return found;
    }
    free(real);
  }
  return NULL;
}

void call_init(struct call *c, int argc, char **argv, char **environ) {
  memset(c, 0, sizeof(*c));
  for (int i = 1; i < argc; i++) {
    size_t n = strlen(argv[i]);
    if (!utf8_valid((unsigned char *)argv[i], n)) {
      struct buf b = {0};
      utf8_shown(&b, (unsigned char *)argv[i], n);
      die(2, "argument %d is not valid UTF-8: %s; gq passes commands to jobs as UTF-8 text only: re-encode it (e.g."
          " with iconv -t UTF-8)", i, b.p);
    }
  }
  c->argc = argc - 1;
  c->argv = argv + 1;
  c->stdin_tty = tty(getenv("GQ_CLIENT_TTY_IN"), 0);
  c->stdout_tty = tty(getenv("GQ_CLIENT_TTY_OUT"), 1);
  c->stderr_tty = tty(getenv("GQ_CLIENT_TTY_ERR"), 2);
  c->width = width(c->stdout_tty);
  c->height = height(c->stdout_tty);
  /* a full screen needs the keys and the screen of one terminal (GQ_CLIENT_* come from a launcher) */
  c->screen = c->stdin_tty && c->stdout_tty && isatty(0) && isatty(1);
  c->cwd = working_directory();
  const char *closed = getenv("GQ_CLIENT_STDIN_CLOSED");
  if (closed && strcmp(closed, "1") == 0) c->stdin_closed = 1;
  size_t count = 0;
  while (environ[count]) count++;
  c->env = xmalloc((count + 2) * sizeof(char *));
  int has_cmd = 0;
  for (size_t i = 0; i < count; i++) {
    const char *e = environ[i];
    const char *eq = strchr(e, '=');
    if (!eq || eq == e) continue;
    int launcher = 0;
    for (size_t k = 0; k < sizeof(LAUNCHER_VARS) / sizeof(*LAUNCHER_VARS); k++) launcher |= starts_with(e, LAUNCHER_VARS[k]);
    if (launcher) continue;
    size_t name = (size_t)(eq - e);
    if (!utf8_valid((const unsigned char *)e, strlen(e))) {
      struct buf b = {0};
      buf_str(&b, "gq: note: environment variable ");
      utf8_shown(&b, (const unsigned char *)e, name);
      buf_str(&b, " is not passed on: it is not valid UTF-8\n");
      say_err(b.p, b.len);
      free(b.p);
      continue;
    }
    int seen = 0; /* the first of two with one name wins, as the C library's getenv */
    for (int k = 0; k < c->nenv && !seen; k++) seen = strncmp(c->env[k], e, name + 1) == 0;
    if (seen) continue;
    has_cmd |= starts_with(e, "GQ_DAEMON_CMD=");
    c->env[c->nenv++] = (char *)e;
  }
  if (!has_cmd) {
    /* as the launcher script does: the daemon beside this program (gq daemon install names it) */
    const char *cmd = daemon_cmd_default();
    if (cmd) {
      struct buf b = {0};
      buf_fmt(&b, "GQ_DAEMON_CMD=%s", cmd);
      c->env[c->nenv++] = b.p;
    }
  }
}

const char *call_getenv(const struct call *c, const char *name) {
  size_t n = strlen(name);
  for (int i = 0; i < c->nenv; i++)
    if (strncmp(c->env[i], name, n) == 0 && c->env[i][n] == '=') return c->env[i] + n + 1;
  return NULL;
}
