/*
 * What a gq command line asks of the client itself, read from its words before the daemon sees
 * them (the Java client's ClientCall): gq daemon ACTION, a log followed to its end, a command that
 * a new daemon may answer again after a restart, and whether gq daemon stop waits.
 */
#include <string.h>

#include "gq.h"

const char *call_daemon_action(const struct call *c) {
  for (int i = 0; i < c->argc; i++) {
    if (strcmp(c->argv[i], "--") == 0) break;
    if (strcmp(c->argv[i], "-h") == 0 || strcmp(c->argv[i], "--help") == 0) return NULL;
  }
  const char *first = NULL;
  for (int i = 0; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (a[0] == '-') {
      if (strcmp(a, "--") == 0) return NULL;
      continue;
    }
    if (first) return a;
    if (strcmp(a, "daemon") != 0) return NULL;
    first = a;
  }
  return first ? "" : NULL;
}

/* The index of the first word that is not an option (the subcommand), or -1. */
static int command(const struct call *c) {
  for (int i = 0; i < c->argc; i++) {
    if (strcmp(c->argv[i], "--") == 0) return -1;
    if (c->argv[i][0] != '-') return i;
  }
  return -1;
}

int call_follows_log(const struct call *c) {
  int at = command(c);
  if (at < 0 || (strcmp(c->argv[at], "logs") != 0 && strcmp(c->argv[at], "log") != 0)) return 0;
  int follow = 0, job = 0, lines = 0;
  for (int i = at + 1; i < c->argc; i++) {
    const char *a = c->argv[i];
    if (strcmp(a, "-f") == 0 || strcmp(a, "--follow") == 0) follow = 1;
    else if (strcmp(a, "-n") == 0 || strcmp(a, "--lines") == 0) {
      lines = 1;
      i++;
    } else if (starts_with(a, "--lines=") || (a[0] == '-' && a[1] != '-' && strchr(a, 'n'))) lines = 1;
    else if (a[0] != '-') job = 1;
  }
  return follow && job && !lines;
}

int call_waits_for_exit(const struct call *c) {
  int wait = 1;
  for (int i = 0; i < c->argc; i++) {
    if (strcmp(c->argv[i], "--") == 0) break;
    if (strcmp(c->argv[i], "--wait") == 0) wait = 1;
    else if (strcmp(c->argv[i], "--no-wait") == 0) wait = 0;
  }
  return wait;
}

int call_resumable(const struct call *c) {
  int at = command(c);
  if (at >= 0 && strcmp(c->argv[at], "top") == 0) return c->screen;
  return (at >= 0 && strcmp(c->argv[at], "wait") == 0) || call_follows_log(c);
}
