/*
 * gq-shim: runs one job's command in a new session and records how it ended.
 *
 * usage: gq-shim [--leases=N] EXITFILE CMD [ARGS...]
 *
 * The shim becomes a session (and process group) leader unless it was started as one, closes every
 * descriptor but 0, 1 and 2 that its starter left open (and 3 to N+2 with --leases=N: the job's
 * GPU leases, which it and the job keep open until they end, the shim with a read lock on each),
 * forks, and the child execs CMD with the
 * given arguments (searched on the PATH of the environment the shim was given; never a shell).
 * The shim survives SIGTERM, SIGINT and SIGHUP sent to the whole group: it handles them by only
 * noting them (a handler, not SIG_IGN, because ignored dispositions would be inherited across
 * exec by the job). It is the job's child subreaper: a process of the job whose parent ends is
 * re-parented to the shim (which reaps it when it ends) rather than to init, so when the child ends
 * the shim can tell whether any process the job started is still alive. It then writes EXITFILE
 * atomically (temp file in the same directory, fsync, rename, fsync of the directory): one line
 *   exit N | signal N | exec-error TEXT
 * then a line "pid N" with the shim's own pid (the job's session and group leader: the daemon shows
 * it for a job whose launch it never recorded), then a line "alone" when no process the job started was left (then none of its session
 * or process group can be either) followed by "ended SECONDS.NANOSECONDS" (the clock then: the job's
 * end), and exits with the child's status (128+N for a signal, 127 when
 * CMD could not be run).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gq-shim.h"

static void run_child(char **argv, int report_fd)
{
    restore_default_signals();
    execvp(argv[0], argv);
    int err = errno;
    while (write(report_fd, &err, sizeof err) < 0 && errno == EINTR)
        ;
    _exit(127);
}

/* Returns the errno the child reported for a failed exec, or 0 when the exec succeeded. */
static int read_exec_error(int fd)
{
    int err = 0;
    ssize_t n;
    do
        n = read(fd, &err, sizeof err);
    while (n < 0 && errno == EINTR);
    close(fd);
    return n == (ssize_t)sizeof err ? err : 0;
}

/* Waits for the child; orphans of the job re-parented to the shim meanwhile are reaped as they end. */
static int wait_child(pid_t child, int *status)
{
    for (;;) {
        pid_t pid = waitpid(-1, status, 0);
        if (pid == child)
            return 0;
        if (pid < 0 && errno != EINTR)
            return -1;
    }
}

/*
 * Whether no process the job started is left: as the job's subreaper, the shim has every one of
 * them in its subtree while it lives, so none left is no child left. Reaps ended ones on the way.
 */
static int nothing_left(void)
{
    for (;;) {
        siginfo_t info;
        memset(&info, 0, sizeof info);
        if (waitid(P_ALL, 0, &info, WEXITED | WNOHANG) < 0) {
            if (errno == EINTR)
                continue;
            return errno == ECHILD;
        }
        if (info.si_pid == 0)
            return 0; /* a child lives */
    }
}

static int subreaper;

static int finish(const char *exit_file, const char *record, int code)
{
    char line[1200];
    int alone = subreaper && nothing_left();
    /* When nothing the job started is left, this is when its last process had ended. */
    struct timespec now;
    char ended[64] = "";
    if (alone && clock_gettime(CLOCK_REALTIME, &now) == 0)
        snprintf(ended, sizeof ended, "ended %lld.%09ld\n", (long long)now.tv_sec, now.tv_nsec);
    snprintf(line, sizeof line, "%spid %ld\n%s%s", record, (long)getpid(), alone ? "alone\n" : "", ended);
    if (write_exit_file(exit_file, line) < 0)
        fprintf(stderr, "gq: cannot write the exit status to '%s': %s\n", exit_file, strerror(errno));
    return code;
}

static int report_exec_error(const char *exit_file, const char *cmd, int err)
{
    char line[1024];
    exec_error_line(line, sizeof line, cmd, err);
    fprintf(stderr, "gq: %s", line + strlen("exec-error "));
    return finish(exit_file, line, 127);
}

/* Forks the job; returns its pid and the read end of the exec-error pipe, or -1 with errno. */
static pid_t start_child(char **cmd, int *report_fd)
{
    int report[2];
    if (pipe2(report, O_CLOEXEC) < 0)
        return -1;
    /* Blocked across fork: a stop signal sent in the gap stays pending in the child until it
     * has restored the default action, so the job still receives it. */
    block_stop_signals(SIG_BLOCK);
    /* A stop signal that came before the fork (the daemon starts the shim with them blocked, so a
     * cancel right after the launch waits here) reached only the shim: pass it on to the job. */
    sigset_t early;
    if (sigpending(&early) < 0)
        sigemptyset(&early);
    pid_t child = fork();
    if (child == 0) {
        close(report[0]);
        run_child(cmd, report[1]);
    }
    int saved = errno;
    if (child > 0)
        for (size_t i = 0; i < STOP_SIGNAL_COUNT; i++)
            if (sigismember(&early, stop_signals[i]) == 1)
                kill(child, stop_signals[i]);
    block_stop_signals(SIG_UNBLOCK);
    close(report[1]);
    if (child < 0)
        close(report[0]);
    *report_fd = report[0];
    errno = saved;
    return child;
}

int main(int argc, char **argv)
{
    int leases = 0;
    if (argc > 1 && strncmp(argv[1], "--leases=", 9) == 0) {
        char *end;
        long n = strtol(argv[1] + 9, &end, 10);
        if (*end != '\0' || n < 0 || n > 1024) {
            fprintf(stderr, "gq-shim: bad %s\n", argv[1]);
            return 2;
        }
        leases = (int) n;
        argv++;
        argc--;
    }
    if (argc < 3) {
        fprintf(stderr, "usage: gq-shim [--leases=N] EXITFILE CMD [ARGS...]\n");
        return 2;
    }
    const char *exit_file = argv[1];
    char **cmd = argv + 2;
    handle_stop_signals();
    close_inherited_descriptors(3 + leases);
    mark_leases(leases);
    if (getsid(0) != getpid() && setsid() < 0)
        fprintf(stderr, "gq: setsid: %s\n", strerror(errno));
    subreaper = prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0;
    int report_fd;
    pid_t child = start_child(cmd, &report_fd);
    if (child < 0)
        return report_exec_error(exit_file, cmd[0], errno);
    int exec_errno = read_exec_error(report_fd);
    int status;
    if (wait_child(child, &status) < 0) {
        /* No record is better than a wrong one: the job then counts as interrupted. */
        fprintf(stderr, "gq: waitpid: %s\n", strerror(errno));
        return 127;
    }
    if (exec_errno != 0)
        return report_exec_error(exit_file, cmd[0], exec_errno);
    char line[64];
    if (WIFSIGNALED(status)) {
        snprintf(line, sizeof line, "signal %d\n", WTERMSIG(status));
        return finish(exit_file, line, 128 + WTERMSIG(status));
    }
    snprintf(line, sizeof line, "exit %d\n", WEXITSTATUS(status));
    return finish(exit_file, line, WEXITSTATUS(status));
}
