/*
 * main: one gq command. Sends the command line to the daemon and plays back its frames,
 * starting the daemon first when none answers; answers gq daemon status|stop|start itself when
 * no daemon runs, and waits for a stopped daemon to have exited; follows gq wait, gq logs -f and
 * gq top across a daemon restart. gq mcp relays its standard input and output to a session inside the
 * daemon (mcp.c); gq daemon run is a JVM program: it goes to the launcher script (bin/gq) beside
 * this program.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gq.h"

#define STOP_TIMEOUT_MS 10000
/* How long gq daemon stop and restart wait for a stopped daemon's process to exit. */
#define EXIT_TIMEOUT_MS 30000
#define NOT_RESTARTED "; no new daemon was started: run 'gq daemon start' once it has exited"
/* How long gq wait, gq logs -f and gq top wait for a restarting daemon to answer again. */
#define RECONNECT_MS 60000
/* Restarts within one reconnect window after which the client stops following a crashing daemon. */
#define MAX_QUICK_RECONNECTS 5

static struct paths P;
static struct call CALL;

static _Noreturn void say_out(const char *text, int code) {
  size_t n = strlen(text);
  while (n > 0) {
    ssize_t w = write(1, text, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    text += w;
    n -= (size_t)w;
  }
  _exit(code);
}

/* gq daemon run, and gq mcp where the daemon cannot serve it: the launcher script beside this
 * program runs them on the JVM. */
void hand_to_launcher(char **argv) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return;
  exe[n] = 0;
  *strrchr(exe, '/') = 0;
  const char *tries[] = {"%s/gq-generic", "%s/../../bin/gq"}; /* installed; a checkout's client/target */
  for (int i = 0; i < 2; i++) {
    struct buf b = {0};
    buf_fmt(&b, tries[i], exe);
    if (access(b.p, X_OK) == 0) {
      argv[0] = b.p;
      execv(b.p, argv);
    }
    free(b.p);
  }
}

/* After a stop: wait until the socket refuses, so that a start right after works. */
static void await_stopped(void) {
  long long deadline = now_ms() + STOP_TIMEOUT_MS;
  while (conn_answers(&P)) {
    if (now_ms() > deadline)
      die(1, "the daemon still accepts connections %d s after stopping; see %s", STOP_TIMEOUT_MS / 1000, P.log);
    sleep_ms(20);
  }
}

/* Whether the stopping daemon still holds its lock: the process `pid` that held it before the
 * stop, or any process when that was not known. */
static int holds_lock(pid_t pid) {
  pid_t now = lock_holder(P.lock, "/proc/locks");
  return pid > 0 ? now == pid : now != 0;
}

/* After a stop: wait until the socket refuses, the daemon has let go of its lock (its database is
 * closed by then) and its process `pid` (the lock's holder before the stop) has exited; a new
 * daemon started earlier would find the lock taken and refuse to start. `then` ends the one line
 * said when that takes longer than EXIT_TIMEOUT_MS. */
static void await_exited(pid_t pid, const char *then) {
  await_stopped();
  long long deadline = now_ms() + EXIT_TIMEOUT_MS;
  while (holds_lock(pid) || (pid > 0 && process_running(pid))) {
    if (now_ms() > deadline) {
      if (pid > 0)
        die(1, "the daemon (pid %d) has not exited %d s after it was asked to stop%s; see %s", (int)pid,
            EXIT_TIMEOUT_MS / 1000, then, P.log);
      die(1, "the daemon has not exited %d s after it was asked to stop%s; see %s", EXIT_TIMEOUT_MS / 1000, then, P.log);
    }
    sleep_ms(20);
  }
}

static int play(struct conn *c) {
  struct buf req = {0};
  struct play st = {0, 0};
  call_request(&CALL, &req);
  int code = play_frames(c, &P, &CALL, req.p, req.len, &st);
  conn_close(c);
  free(req.p);
  if (code == PLAY_CLOSED_EARLY) die(1, "the daemon closed the connection before answering; see %s", P.log);
  return code;
}

static void reconnect(struct conn *c) {
  static const char note[] = "gq: the daemon closed the connection; reconnecting (it may be restarting)\n";
  if (screen_active()) screen_note(note); /* gq top: on its screen, which stays */
  else say_err(note, sizeof(note) - 1);
  long long deadline = now_ms() + RECONNECT_MS;
  while (conn_open_or_die(&P, c) < 0) {
    if (now_ms() > deadline)
      die(1, "the daemon stopped and did not come back within %d s; start it with 'gq daemon start' and run the"
          " command again (see %s)", RECONNECT_MS / 1000, P.log);
    if (screen_pause(100)) exit(0); /* q or Ctrl-C while gq top waits */
  }
}

/* gq wait, gq logs -f and gq top's full screen: sent again when the daemon restarts under them;
 * logs -f does not print again what it printed. A daemon that keeps closing the connection ends it with one line. */
static int play_resuming(struct conn *c) {
  unsigned long long printed = 0;
  int quick = 0;
  int follows = call_follows_log(&CALL);
  while (1) {
    struct buf req = {0};
    struct play st = {follows ? printed : 0, 0};
    call_request(&CALL, &req);
    long long opened = now_ms();
    int code = play_frames(c, &P, &CALL, req.p, req.len, &st);
    conn_close(c);
    free(req.p);
    if (code != PLAY_CLOSED_EARLY) return code;
    if (st.stdout_bytes > printed) printed = st.stdout_bytes;
    quick = now_ms() - opened < RECONNECT_MS ? quick + 1 : 1;
    if (quick > MAX_QUICK_RECONNECTS)
      die(1, "the daemon closed the connection %d times in a row; see %s", quick, P.log);
    reconnect(c);
  }
}

static _Noreturn void daemon_start(struct conn *c, int connected) {
  const char *verb = "is already running";
  if (!connected) {
    launch_daemon(&P, &CALL, c);
    verb = "started";
  }
  int code = 1;
  long long protocol;
  long long pid = ping_pid(c, &P, &code, 1, &protocol);
  if (pid == -2) die(1, "the daemon closed the connection before answering; see %s", P.log);
  if (pid < 0) die(code == 0 ? 1 : code, NULL);
  struct buf b = {0};
  buf_fmt(&b, "gq daemon %s (pid %lld)\n", verb, pid);
  say_out(b.p, 0);
}

/*
 * Whether the daemon speaks this client's protocol: a daemon of another version refuses every
 * request of this one, a ping too. Such a daemon (an older gq still running after an upgrade) is
 * stopped as gq daemon stop would stop it, with SIGTERM, once it is proven to be this user's gq
 * daemon: the process listening on this user's socket (SO_PEERCRED) is the one holding the
 * daemon's lock file. Returns 0 when the daemon speaks this protocol, or when nothing proves it is
 * a gq daemon (the request then goes to it, and it says why it refuses).
 */
static int stopped_other_version(const char *then) {
  struct conn probe;
  if (conn_open_or_die(&P, &probe) < 0) return 0;
  int code = 0;
  long long protocol = GQ_PROTOCOL;
  long long pid = ping_pid(&probe, &P, &code, 0, &protocol);
  int other = (pid == -1 && code != 0) || (pid >= 0 && protocol != GQ_PROTOCOL);
  pid_t peer = probe.peer_pid;
  conn_close(&probe);
  if (!other || peer <= 1 || lock_holder(P.lock, "/proc/locks") != peer) return 0;
  if (kill(peer, SIGTERM) < 0)
    die(1, "the daemon (pid %d) speaks another protocol version and cannot be stopped: %s; see %s", (int)peer,
        strerror(errno), P.log);
  struct buf b = {0};
  buf_fmt(&b, "daemon stopping (pid %d, another gq version); running jobs keep running\n", (int)peer);
  if (write(1, b.p, b.len) < 0) {
    /* said or not, it stops */
  }
  await_exited(peer, then);
  return 1;
}

int main(int argc, char **argv) {
  /* A closed descriptor 0-2 would be taken by the socket; /dev/null stands in, and a closed
   * standard input is refused as closed when a command asks for it. */
  int stdin_closed = fcntl(0, F_GETFD) < 0;
  for (int fd = 0; fd < 3; fd++)
    if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd) return 1;
  signal(SIGPIPE, SIG_IGN);
  if (argc > 2 && strcmp(argv[1], "daemon") == 0 && strcmp(argv[2], "run") == 0) hand_to_launcher(argv);
  int mcp = argc == 2 && strcmp(argv[1], "mcp") == 0;
  const char *server = getenv("GQ_MCP_SERVER");
  if (mcp && server && strcmp(server, "jvm") == 0) {
    hand_to_launcher(argv);
    die(1, "GQ_MCP_SERVER=jvm asks for gq mcp's JVM server, and there is no launcher script beside this program"
        " (gq-generic, or bin/gq of its checkout); unset GQ_MCP_SERVER, or reinstall gq with install.sh");
  }
  call_init(&CALL, argc, argv, environ);
  if (stdin_closed) CALL.stdin_closed = 1;
  char *here = getcwd(NULL, 0);
  paths_from_env(&P, here ? here : "/");
  struct buf why = {0};
  if (paths_check_private(&P, &why)) die(1, "%s", why.p);
  conn_set_timeout(getenv("GQ_ANSWER_TIMEOUT"));
  if (mcp) mcp_serve(&P, &CALL, argv);
  const char *action = call_daemon_action(&CALL);
  if (action && strcmp(action, "run") == 0)
    die(2, "'gq daemon run' is done by the launcher script, which runs the daemon in the foreground; run it through"
        " bin/gq, or run bin/gq-daemon");
#define ACTION(word) (action && strcmp(action, word) == 0)
  struct conn c;
  int connected = conn_open_or_die(&P, &c) == 0;
  if (ACTION("start")) daemon_start(&c, connected);
  if (ACTION("restart")) {
    if (connected) {
      conn_close(&c);
      if (!stopped_other_version(NOT_RESTARTED)) {
        /* the process holding the lock now is the one asked to stop */
        pid_t old = lock_holder(P.lock, "/proc/locks");
        if (conn_open_or_die(&P, &c) == 0) {
          int code = play(&c);
          if (code != 0) return code & 0xff;
        }
        await_exited(old, NOT_RESTARTED);
      }
    }
    daemon_start(&c, 0);
  }
  if (ACTION("stop") && connected) {
    conn_close(&c);
    if (stopped_other_version("")) return 0;
    connected = conn_open_or_die(&P, &c) == 0;
  }
  if (!connected) {
    if (ACTION("status")) say_out("gq daemon is not running\n", 1);
    if (ACTION("stop")) say_out("gq daemon is not running\n", 0);
    launch_daemon(&P, &CALL, &c);
  }
  pid_t stopping = ACTION("stop") ? lock_holder(P.lock, "/proc/locks") : 0;
  int code = call_resumable(&CALL) ? play_resuming(&c) : play(&c);
  if (ACTION("stop") && code == 0 && call_waits_for_exit(&CALL)) await_exited(stopping, "");
#undef ACTION
  return code & 0xff;
}
