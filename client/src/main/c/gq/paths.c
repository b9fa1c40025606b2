/*
 * Where gq keeps its files, from the environment, as GqPaths says (the daemon reads the same
 * rule), and whether the data and runtime directories are private, as PrivateDirectory says.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gq.h"

static const char *nonempty(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

/* The home directory from /etc/passwd when HOME is unset (no getpwuid: it needs NSS, which a
 * static program cannot load). */
static char *passwd_home(void) {
  FILE *f = fopen("/etc/passwd", "re");
  char line[4096];
  char *home = NULL;
  uid_t me = getuid();
  while (f && !home && fgets(line, sizeof(line), f)) {
    char *field[7];
    int n = 0;
    char *s = line;
    for (; n < 7; n++) {
      field[n] = s;
      char *c = strchr(s, n == 6 ? '\n' : ':');
      if (!c) { if (n == 6) n++; break; }
      *c = 0;
      s = c + 1;
    }
    if (n == 7 && strtoul(field[2], NULL, 10) == me && *field[5]) home = xstrdup(field[5]);
  }
  if (f) fclose(f);
  return home ? home : xstrdup("/");
}

/* The path absolute (against cwd) with redundant and trailing slashes gone, as Java's Path. */
static char *absolute(const char *cwd, const char *path) {
  struct buf b = {0};
  if (path[0] != '/') {
    buf_str(&b, cwd);
    buf_ch(&b, '/');
  }
  buf_str(&b, path);
  char *s = b.p, *o = b.p;
  for (char *i = s; *i; i++)
    if (!(*i == '/' && o > s && o[-1] == '/')) *o++ = *i;
  if (o - s > 1 && o[-1] == '/') o--;
  *o = 0;
  return s;
}

static char *join(const char *a, const char *b) {
  struct buf r = {0};
  buf_fmt(&r, "%s/%s", a, b);
  return r.p;
}

void paths_from_env(struct paths *p, const char *cwd) {
  char *data;
  const char *v;
  if ((v = nonempty("GQ_DATA_DIR"))) data = xstrdup(v);
  else if ((v = nonempty("XDG_DATA_HOME"))) data = join(v, "gq");
  else {
    char *home = nonempty("HOME") ? xstrdup(getenv("HOME")) : passwd_home();
    data = join(home, ".local/share/gq");
    free(home);
  }
  char *run;
  if ((v = nonempty("GQ_RUNTIME_DIR"))) run = xstrdup(v);
  else if ((v = nonempty("XDG_RUNTIME_DIR"))) run = join(v, "gq");
  else run = join(data, "runtime");
  p->data = absolute(cwd, data);
  p->run = absolute(cwd, run);
  free(data);
  free(run);
  p->sock = join(p->run, "gq.sock");
  p->log = join(p->data, "gq-daemon.log");
  p->lock = join(p->run, "gq.lock");
}

static const char *check(const char *what, const char *setting, const char *dir, struct buf *why) {
  struct stat st;
  why->len = 0;
  if (stat(dir, &st) < 0) {
    if (errno == ENOENT) return NULL;
    buf_fmt(why, "cannot check %s %s: %s; set %s to a directory of your own", what, dir, strerror(errno), setting);
    return buf_cstr(why);
  }
  uid_t me = geteuid();
  unsigned mode = st.st_mode & 07777;
  if (!S_ISDIR(st.st_mode))
    buf_fmt(why, "%s %s is not a directory; remove it, or set %s to a directory of your own", what, dir, setting);
  else if (st.st_uid != me)
    buf_fmt(why, "%s %s belongs to uid %u, not to you (uid %u), and its owner could read what gq keeps there;"
            " set %s to a directory of your own", what, dir, (unsigned)st.st_uid, (unsigned)me, setting);
  else if (mode & 022)
    buf_fmt(why, "%s %s can be written by other users (mode %04o); run 'chmod go-w %s', or set %s to a"
            " private directory", what, dir, mode, dir, setting);
  else return NULL;
  return buf_cstr(why);
}

const char *paths_check_private(const struct paths *p, struct buf *why) {
  const char *problem = check("the data directory", "GQ_DATA_DIR", p->data, why);
  return problem ? problem : check("the runtime directory", "GQ_RUNTIME_DIR", p->run, why);
}
