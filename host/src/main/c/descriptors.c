/* gq-shim's descriptors: what the job inherits, and the read locks that name the shim on /proc/locks. */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "gq-shim.h"

/*
 * The job gets stdin, stdout and stderr, and its GPUs' leases as descriptors 3 to first - 1 (held
 * until its last process has ended): nothing else the daemon had open reaches it.
 */
void close_inherited_descriptors(int first)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, (unsigned) first, ~0U, 0U) == 0)
        return;
#endif
    /* Older kernels: close what /proc lists (collected first: closing changes the listing). */
    int fds[1024];
    size_t n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (d == NULL)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < sizeof fds / sizeof fds[0]) {
        int fd = atoi(e->d_name);
        if (fd >= first && fd != dirfd(d))
            fds[n++] = fd;
    }
    closedir(d);
    for (size_t i = 0; i < n; i++)
        close(fds[i]);
}

/*
 * A POSIX read lock on each of the job's lease and share files (descriptors 3 to 3 + n - 1), held by
 * the shim for the job's life and dropped by the kernel when the shim ends: /proc/locks then names
 * the shim's pid, so every user's gq learns from the kernel whose job holds a GPU (the flock's pid
 * is the daemon's that took it, which may have ended since). Read locks never conflict with each
 * other or with the flock(2) locks that decide who holds a GPU. The shim never closes these.
 */
void mark_leases(int n)
{
    for (int fd = 3; fd < 3 + n; fd++) {
        struct flock l = { .l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = 0, .l_len = 0 };
        fcntl(fd, F_SETLK, &l);
    }
}
