/* gq-shim's signals: the stops it survives and records, and the job's clean start. */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>

#include "gq-shim.h"

static volatile sig_atomic_t last_signal;

static void note_signal(int sig)
{
    last_signal = sig;
}

/* The signals a stop sends to the job's group, which the shim survives and records. */
const int stop_signals[STOP_SIGNAL_COUNT] = { SIGTERM, SIGINT, SIGHUP };

void handle_stop_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++)
        sigaction(stop_signals[i], &sa, NULL);
    /* An inherited SIG_IGN for SIGCHLD would make the kernel reap the child behind our back. */
    signal(SIGCHLD, SIG_DFL);
}

void block_stop_signals(int how)
{
    sigset_t set;
    sigemptyset(&set);
    for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++)
        sigaddset(&set, stop_signals[i]);
    sigprocmask(how, &set, NULL);
}

/* The job starts with every disposition at its default and nothing blocked. */
void restore_default_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            sigaction(sig, &sa, NULL); /* EINVAL for the C library's reserved signals: fine */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}
