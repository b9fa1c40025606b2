/* The client's small helpers: growing buffers, one-line failures, clocks. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gq.h"

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) die(1, "out of memory (%zu bytes)", n);
  return p;
}

char *xstrdup(const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(xmalloc(n), s, n);
}

static void grow(struct buf *b, size_t more) {
  if (b->cap - b->len > more) return;
  size_t cap = b->cap ? b->cap : 256;
  while (cap - b->len <= more) {
    if (cap > ((size_t)-1) / 2) die(1, "out of memory");
    cap *= 2;
  }
  char *p = realloc(b->p, cap);
  if (!p) die(1, "out of memory (%zu bytes)", cap);
  b->p = p;
  b->cap = cap;
}

void buf_add(struct buf *b, const void *data, size_t n) {
  grow(b, n);
  if (n) memcpy(b->p + b->len, data, n);
  b->len += n;
  b->p[b->len] = 0;
}

void buf_str(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

void buf_ch(struct buf *b, char c) { buf_add(b, &c, 1); }

void buf_fmt(struct buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  grow(b, (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

const char *buf_cstr(struct buf *b) {
  if (!b->p) buf_add(b, "", 0);
  return b->p;
}

void say_err(const char *text, size_t n) {
  while (n > 0) {
    ssize_t w = write(2, text, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return; /* nowhere left to say it */
    text += w;
    n -= (size_t)w;
  }
}

static void (*die_then)(void);

void die_hook(void (*then)(void)) { die_then = then; }

void die(int code, const char *fmt, ...) {
  screen_leave(); /* the message goes to the normal screen, which stays */
  if (fmt) {
    struct buf b = {0};
    buf_str(&b, "gq: ");
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n > 0) {
      char *text = malloc((size_t)n + 1);
      if (text) {
        va_start(ap, fmt);
        vsnprintf(text, (size_t)n + 1, fmt, ap);
        va_end(ap);
        buf_add(&b, text, (size_t)n);
      }
    }
    buf_ch(&b, '\n');
    say_err(b.p, b.len);
  }
  if (die_then) {
    void (*then)(void) = die_then;
    die_then = NULL; /* once: a failure in it ends the client */
    then();
  }
  _exit(code & 0xff);
}

long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void sleep_ms(long ms) {
  struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) < 0 && errno == EINTR) {
  }
}

int process_running(pid_t pid) {
  char path[64], stat[512];
  snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
  FILE *f = fopen(path, "re");
  if (!f) return 0;
  size_t n = fread(stat, 1, sizeof(stat) - 1, f);
  fclose(f);
  stat[n] = 0;
  /* "PID (COMM) S ...": the state follows the last ')', whatever the name holds */
  char *close = strrchr(stat, ')');
  return !close || close[1] != ' ' || close[2] != 'Z';
}

int starts_with(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }
