/* gq-shim's exit file: written atomically (temp file, fsync, rename, fsync of the directory). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gq-shim.h"

static int write_all(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, buf, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return -1;
        buf += n;
        len -= (size_t)n;
    }
    return 0;
}

static void fsync_parent_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (slash == NULL)
        snprintf(dir, sizeof dir, ".");
    else if (slash == path)
        snprintf(dir, sizeof dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int write_exit_file(const char *path, const char *line)
{
    char tmp[4096];
    int len = snprintf(tmp, sizeof tmp, "%s.%ld.tmp", path, (long)getpid());
    if (len < 0 || (size_t)len >= sizeof tmp) {
        errno = ENAMETOOLONG;
        return -1;
    }
    /* A file or link planted under the temp name is removed, never written through. */
    if (unlink(tmp) < 0 && errno != ENOENT)
        return -1;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0)
        return -1;
    if (write_all(fd, line, strlen(line)) < 0 || fsync(fd) < 0) {
        int saved = errno;
        close(fd);
        unlink(tmp);
        errno = saved;
        return -1;
    }
    if (close(fd) < 0 || rename(tmp, path) < 0) {
        int saved = errno;
        unlink(tmp);
        errno = saved;
        return -1;
    }
    fsync_parent_dir(path);
    return 0;
}

/* The exit file holds one line: control characters in the command name become '?'. */
void exec_error_line(char *out, size_t size, const char *cmd, int err)
{
    int len = snprintf(out, size, "exec-error cannot run '%s': %s", cmd, strerror(err));
    size_t end = len < 0 ? 0 : (size_t)len >= size - 1 ? size - 2 : (size_t)len;
    for (size_t i = 0; i < end; i++)
        if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
            out[i] = '?';
    out[end] = '\n';
    out[end + 1] = '\0';
}
