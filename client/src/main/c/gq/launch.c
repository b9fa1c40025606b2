/*
 * Starts the daemon when none answers: makes the data and runtime directories (0700), runs
 * GQ_DAEMON_CMD in a session of its own with stdin from /dev/null, output appended to the daemon log and the environment less a surrounding job's
 * identity, then connects every 20 ms until it answers. When it exits first (and no other daemon
 * holds the lock) or does not answer in time, the failure quotes the last lines of the daemon log.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gq.h"

#define START_TIMEOUT_MS 15000
#define POLL_MS 20
static const char *REASON = "gq daemon: ";
/* A process with a job's identity counts as the job's own: the daemon must not carry it. */
static const char *JOB_IDENTITY[] = {"GQ_JOB_ID=", "GQ_JOB_TAG=", "GQ_GPU_UUIDS=", "GQ_KEY=", "GQ_DATA_DIR=",
                                     "GQ_RUNTIME_DIR="};

static void make_dir(const char *dir) {
  struct buf b = {0};
  buf_str(&b, dir);
  for (char *s = b.p + 1;; s++) {
    char c = *s;
    if (c != '/' && c != 0) continue;
    *s = 0;
    if (mkdir(b.p, 0700) < 0 && errno != EEXIST)
      die(1, "cannot create %s: %s; check GQ_DATA_DIR and GQ_RUNTIME_DIR", b.p, strerror(errno));
    *s = c;
    if (!c) break;
  }
  free(b.p);
}

static int lock_field(const char *field, const char *suffix) {
  size_t fl = strlen(field), sl = strlen(suffix);
  const char *first = strchr(field, ':');
  return fl >= sl && strcmp(field + fl - sl, suffix) == 0 && first && first < field + fl - sl;
}

/* The pid that holds a lock on `file` (by inode, from /proc/locks), 0 when none does; -1 when one
 * is held by no process in particular (an open file description's lock). */
pid_t lock_holder(const char *file, const char *proc_locks) {
  struct stat st;
  if (stat(file, &st) < 0) return 0;
  char suffix[32];
  snprintf(suffix, sizeof(suffix), ":%llu", (unsigned long long)st.st_ino);
  FILE *f = fopen(proc_locks, "re");
  if (!f) return 0;
  char line[512];
  pid_t holder = 0;
  /* "1: POSIX  ADVISORY  WRITE 4242 08:01:1234567 0 EOF"; a waiter's line has "->" after the number */
  while (!holder && fgets(line, sizeof(line), f)) {
    char *field[6] = {0};
    int n = 0;
    for (char *save = NULL, *w = strtok_r(line, " \t\n", &save); w && n < 6; w = strtok_r(NULL, " \t\n", &save))
      field[n++] = w;
    if (n == 6 && strcmp(field[1], "->") != 0 && lock_field(field[5], suffix)) {
      long pid = strtol(field[4], NULL, 10);
      holder = pid > 0 ? (pid_t)pid : -1;
    }
  }
  fclose(f);
  return holder;
}

int lock_held(const char *file, const char *proc_locks) { return lock_holder(file, proc_locks) != 0; }

static pid_t launch(const struct paths *p, const struct call *call, const char *cmd) {
  char **env = xmalloc(((size_t)call->nenv + 3) * sizeof(char *));
  int n = 0;
  for (int i = 0; i < call->nenv; i++) {
    int drop = 0;
    for (size_t k = 0; k < sizeof(JOB_IDENTITY) / sizeof(*JOB_IDENTITY); k++)
      drop |= strncmp(call->env[i], JOB_IDENTITY[k], strlen(JOB_IDENTITY[k])) == 0;
    if (!drop) env[n++] = call->env[i];
  }
  struct buf data = {0}, run = {0};
  buf_fmt(&data, "GQ_DATA_DIR=%s", p->data); /* absolute: the same files whatever its directory */
  buf_fmt(&run, "GQ_RUNTIME_DIR=%s", p->run);
  env[n++] = data.p;
  env[n++] = run.p;
  env[n] = NULL;
  int report[2];
  if (pipe2(report, O_CLOEXEC) < 0) die(1, "cannot start the daemon: %s", strerror(errno));
  pid_t pid = fork();
  if (pid < 0) die(1, "cannot start the daemon: %s", strerror(errno));
  if (pid == 0) {
    int e = 0;
    int in = open("/dev/null", O_RDONLY);
    int out = open(p->log, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0 || chdir(p->data) < 0) e = errno;
    if (!e) {
      setsid();
      signal(SIGPIPE, SIG_DFL);
      char *argv[] = {(char *)cmd, NULL};
      execve(cmd, argv, env);
      e = errno;
    }
    if (write(report[1], &e, sizeof(e)) < 0) _exit(127);
    _exit(127);
  }
  close(report[1]);
  int e = 0;
  ssize_t got;
  do got = read(report[0], &e, sizeof(e));
  while (got < 0 && errno == EINTR);
  close(report[0]);
  if (got == (ssize_t)sizeof(e)) {
    waitpid(pid, NULL, 0);
    die(1, "cannot start the daemon with GQ_DAEMON_CMD=%s: %s; check that it is an executable file", cmd, strerror(e));
  }
  free(env);
  return pid;
}

/* The last `max` lines (up to 10) of the log written after offset `from`, read from its last 64 KiB. */
static void tail(const char *file, off_t from, struct buf *text, const char *lines[], int *count) {
  *count = 0;
  int fd = open(file, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) < 0) {
    buf_fmt(text, "(cannot read it: %s)", strerror(errno));
    lines[(*count)++] = text->p;
    if (fd >= 0) close(fd);
    return;
  }
  off_t begin = st.st_size < from ? 0 : from;
  off_t start = st.st_size - 65536 > begin ? st.st_size - 65536 : begin;
  size_t want = (size_t)(st.st_size - start);
  char *raw = xmalloc(want + 1);
  ssize_t got = pread(fd, raw, want, start);
  close(fd);
  size_t end = got > 0 ? (size_t)got : 0;
  buf_add(text, raw, end);
  free(raw);
  if (end > 0 && text->p[end - 1] == '\n') end--;
  while (*count < 10 && end > 0) {
    size_t nl = end;
    while (nl > 0 && text->p[nl - 1] != '\n') nl--;
    if (nl == 0 && start > begin) break; /* the first, partial line */
    text->p[end] = 0;
    for (int i = *count; i > 0; i--) lines[i] = lines[i - 1];
    lines[0] = text->p + nl;
    (*count)++;
    end = nl > 0 ? nl - 1 : 0;
    if (nl == 0) break;
  }
}

static _Noreturn void not_started(const struct paths *p, off_t log_start, const char *why) {
  struct statvfs vfs;
  if (statvfs(p->data, &vfs) == 0) {
    unsigned long long free_bytes = (unsigned long long)vfs.f_bavail * vfs.f_frsize;
    if (free_bytes < (2ull << 20))
      die(1, "the daemon did not start: the disk holding %s is full (%llu KiB free); free some space there and try"
          " again", p->data, free_bytes / 1024);
  }
  struct buf text = {0}, msg = {0};
  const char *lines[11];
  int count;
  tail(p->log, log_start, &text, lines, &count);
  buf_str(&msg, "the daemon did not start");
  for (int i = count - 1; i >= 0; i--) {
    if (strncmp(lines[i], REASON, strlen(REASON)) == 0) {
      buf_fmt(&msg, ": %s", lines[i] + strlen(REASON));
      break;
    }
  }
  buf_fmt(&msg, "; last lines of %s:", p->log);
  if (count == 0) buf_fmt(&msg, "\n(nothing new in it%s)", why);
  for (int i = 0; i < count; i++) buf_fmt(&msg, "\n%s", lines[i]);
  die(1, "%s", msg.p);
}

void launch_daemon(const struct paths *p, const struct call *call, struct conn *out) {
  const char *cmd = call_getenv(call, "GQ_DAEMON_CMD");
  if (!cmd || !*cmd)
    die(1, "no daemon is running and GQ_DAEMON_CMD is not set, so gq cannot start one; run gq through its"
        " launcher script bin/gq");
  make_dir(p->data);
  make_dir(p->run);
  int fd = open(p->log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd < 0) die(1, "cannot create %s: %s; check GQ_DATA_DIR and GQ_RUNTIME_DIR", p->log, strerror(errno));
  struct stat st;
  off_t log_start = fstat(fd, &st) == 0 ? st.st_size : 0;
  close(fd);
  pid_t daemon = launch(p, call, cmd);
  long long deadline = now_ms() + START_TIMEOUT_MS;
  int exited = 0, status = 0;
  while (1) {
    if (conn_open_or_die(p, out) == 0) return;
    /* two clients may start a daemon at once: the loser exits, the lock holder is still starting */
    if (!exited && waitpid(daemon, &status, WNOHANG) == daemon) exited = 1;
    if (exited && !lock_held(p->lock, "/proc/locks")) {
      if (conn_open_or_die(p, out) == 0) return;
      struct buf why = {0};
      buf_fmt(&why, "; it exited with code %d", WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
      not_started(p, log_start, why.p);
    }
    if (now_ms() > deadline) {
      struct buf why = {0};
      buf_fmt(&why, "; no answer in %d ms", START_TIMEOUT_MS);
      not_started(p, log_start, why.p);
    }
    sleep_ms(POLL_MS);
  }
}
