/*
 * gq: the command users type, in C. It sends its command line to the gq daemon over the unix
 * socket and plays back the daemon's frames, starting the daemon when none answers. It is gq's only
 * client: gq mcp's JVM server runs it for each tool's command. docs/protocol.md describes the wire
 * format; docs/architecture.md the client.
 */
#ifndef GQ_H
#define GQ_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define GQ_PROTOCOL 2
/* The largest line, request or frame, without its newline: 16 MiB (Protocol.MAX_LINE_BYTES). */
#define GQ_MAX_LINE (16u * 1024u * 1024u)
/* sun_path holds 108 bytes including the terminating NUL. */
#define GQ_MAX_SOCKET_PATH 107

/* A growing byte buffer; allocation failure ends the client with a message. */
struct buf {
  char *p;
  size_t len, cap;
};
void buf_add(struct buf *b, const void *data, size_t n);
void buf_str(struct buf *b, const char *s);
void buf_ch(struct buf *b, char c);
void buf_fmt(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *buf_cstr(struct buf *b);

/* Ends the client: "gq: MESSAGE" on stderr (none when fmt is NULL) and exit code `code`. */
_Noreturn void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* What die does after its message instead of exiting (gq mcp's way to its JVM server); NULL: nothing. */
void die_hook(void (*then)(void));
void say_err(const char *text, size_t n);
void *xmalloc(size_t n);
char *xstrdup(const char *s);
long long now_ms(void);
/* Whether s begins with prefix. */
int starts_with(const char *s, const char *prefix);
void sleep_ms(long ms);
/* Whether the process exists and has not ended (a zombie has ended), from /proc/PID/stat. */
int process_running(pid_t pid);

/* --- json.c, frame.c: the wire's JSON, and the daemon's flat frames ----------------------- */
/* Appends bytes as a quoted JSON string; invalid UTF-8 becomes U+FFFD. */
void json_quote(struct buf *b, const char *s, size_t n);
/* A strict reader of one JSON text; functions return 0, or -1 with the first problem in error. */
struct json_reader {
  const char *s;
  size_t n, pos;
  const char *error;
};
void json_space(struct json_reader *r);
int json_fail(struct json_reader *r, const char *why);
/* A string (at its quote) decoded into out (NULL: checked and skipped). */
int json_string(struct json_reader *r, struct buf *out);
/* A number: 1 with *v when an integer that fits, 0 for another number, -1 when invalid. */
int json_number(struct json_reader *r, long long *v);
/* Any value, checked and skipped. */
int json_skip(struct json_reader *r, int depth);
enum frame_type { F_UNKNOWN, F_OUT, F_OUTB, F_ERR, F_PROMPT, F_EXIT, F_PONG, F_STDIN_REQUEST, F_KEEPALIVE, F_SCREEN,
                  F_STDIN_STREAM };
struct frame {
  enum frame_type type;
  struct buf text;  /* out/err/prompt text, outb bytes (decoded), pong version */
  int has_text;     /* s (or b, or version) was present and a string */
  long long code;   /* exit code, pong pid */
  long long protocol;
};
/* Decodes one frame line; returns NULL, or a one-line reason why it is invalid. */
const char *frame_decode(const char *line, size_t n, struct frame *f);
void frame_free(struct frame *f);
/* Whether the bytes are strict UTF-8 (no overlongs, surrogates or code points past U+10FFFF). */
int utf8_valid(const unsigned char *s, size_t n);
/* Appends the bytes for a message: valid UTF-8 as it is, every other byte as \xNN. */
void utf8_shown(struct buf *b, const unsigned char *s, size_t n);

/* --- paths.c: where gq keeps its files, as GqPaths and PrivateDirectory say ----------------- */
struct paths {
  char *data, *run, *sock, *log, *lock;
};
void paths_from_env(struct paths *p, const char *cwd);
/* The first problem with the data and runtime directories in one line, or NULL. */
const char *paths_check_private(const struct paths *p, struct buf *why);

/* --- conn.c: the socket ---------------------------------------------------------------- */
struct conn {
  int fd;
  char *rbuf;
  size_t rpos, rlen;
  struct buf line;
  uid_t peer_uid;
  pid_t peer_pid;
  const struct paths *paths; /* for the watchdog's ping and its message */
};
/* Connects: 0 with c filled, -1 when no daemon listens, -2 with the one-line problem in why. */
int conn_open(const struct paths *p, struct conn *c, int nonblock, struct buf *why);
/* As conn_open, but a problem ends the client. */
int conn_open_or_die(const struct paths *p, struct conn *c);
void conn_close(struct conn *c);
/* Writes all bytes (no SIGPIPE); -1 when the connection is gone. A daemon that reads nothing for
 * GQ_ANSWER_TIMEOUT and answers no ping ends the client, as in conn_read_line. */
int conn_write(struct conn *c, const char *data, size_t n);
/* The next line into c->line (without its newline): 1, or 0 when the connection ended first.
 * While waiting it watches the daemon (the watchdog's rules); a hung daemon ends the client. */
int conn_read_line(struct conn *c, const struct paths *p);
/* GQ_ANSWER_TIMEOUT in milliseconds (whole seconds, default 30 s). */
void conn_set_timeout(const char *seconds);
int conn_answers(const struct paths *p);

/* --- call.c: the command line as the daemon will see it ---------------------------------- */
struct call {
  int argc;
  char **argv;
  char *cwd;
  char **env; /* NAME=VALUE, each name once, UTF-8, without the launcher's GQ_CLIENT_* */
  int nenv;
  int stdin_tty, stdout_tty, stderr_tty, width, height, stdin_closed, screen, stdin_stream;
};
void call_init(struct call *c, int argc, char **argv, char **environ);
const char *call_getenv(const struct call *c, const char *name);
/* words.c: what the command line asks of the client itself */
/* "start", "stop", "" ... for gq daemon ACTION, else NULL (as ClientCall.daemonAction). */
const char *call_daemon_action(const struct call *c);
int call_follows_log(const struct call *c);
/* gq daemon stop: whether to wait until the daemon has exited (the default; not with --no-wait,
 * the last of --wait and --no-wait counting). */
int call_waits_for_exit(const struct call *c);
int call_resumable(const struct call *c);
/* request.c: the lines sent to the daemon */
void call_request(const struct call *c, struct buf *b);
void ping_request(struct buf *b);

/* --- play.c: one connection's conversation ------------------------------------------ */
struct play {
  unsigned long long skip_stdout;  /* bytes of stdout an earlier connection printed */
  unsigned long long stdout_bytes; /* bytes of stdout this connection carried */
};
#define PLAY_CLOSED_EARLY (-1000)
/* Sends the request and plays the frames: the exit frame's code, or PLAY_CLOSED_EARLY. */
int play_frames(struct conn *c, const struct paths *p, const struct call *call, const char *request,
                size_t n, struct play *st);
/* A ping: the daemon's pid (its protocol in *protocol); -1 when it answered with an exit (code in
 * *code; its err frames passed on with pass_errors), -2 when the connection closed first. */
long long ping_pid(struct conn *c, const struct paths *p, int *code, int pass_errors, long long *protocol);

/* --- screen.c: gq top's full screen ------------------------------------------------------ */
struct pollfd;
/* Raw terminal, alternate screen, cursor hidden; sends the size; puts it all back at exit. */
void screen_enter(struct conn *c);
/* Puts the terminal back (also from a signal handler); nothing when not in full screen. */
void screen_leave(void);
int screen_active(void);
/* Adds the descriptors to watch while waiting for a frame in full screen (at most 2); their count. */
int screen_fds(struct pollfd *pf);
/* Forwards what came on them: keys as key frames, a new size as a size frame. */
void screen_pump(struct conn *c, struct pollfd *pf, int n);
/* Shows one line of text (up to its newline) on the screen's last line, in bold. */
void screen_note(const char *text);
/* Waits up to ms for a key in full screen (else sleeps); 1 when it was q or Ctrl-C. */
int screen_pause(int ms);

/* --- mcp.c: gq mcp served inside the daemon ---------------------------------------------- */
/* Relays standard input and output to the daemon's session; falls back to the JVM server. */
_Noreturn void mcp_serve(const struct paths *p, struct call *call, char **argv);
/* As screen_fds and screen_pump: standard input to relay while waiting for a frame (at most 1). */
int relay_fds(struct pollfd *pf, const struct conn *c);
void relay_pump(struct conn *c, struct pollfd *pf, int n);
/* --- inflight.c: gq mcp's requests not answered yet, for a daemon that goes mid-session --- */
/* Bytes of standard input as relayed, and of the server's answers as written. */
void inflight_input(const char *s, size_t n);
void inflight_output(const char *s, size_t n);
/* The input line not ended yet (sent again, whole, to a new session). */
const struct buf *inflight_partial(void);
/* Appends an error answer for each request in flight (it may or may not have been done) and forgets them. */
void inflight_lost(struct buf *answers);
/* Runs argv with the launcher script beside this program (gq-generic, or bin/gq of a checkout);
 * returns only when there is none. */
void hand_to_launcher(char **argv);

/* --- launch.c: starting the daemon ----------------------------------------------------- */
/* Starts the daemon (GQ_DAEMON_CMD) and connects to it; failures end the client. */
void launch_daemon(const struct paths *p, const struct call *call, struct conn *out);
/* Whether some process holds a lock on `file` (by inode, from /proc/locks), without taking it. */
int lock_held(const char *file, const char *proc_locks);
/* The pid holding that lock, 0 when none, -1 when it is no process's own (an OFD lock). */
pid_t lock_holder(const char *file, const char *proc_locks);

#endif
