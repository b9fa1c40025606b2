/* The parts of gq-shim, each in a file of its own; gq-shim.c says what the shim does. */
#ifndef GQ_SHIM_H
#define GQ_SHIM_H

#include <stddef.h>

/* signals.c: SIGTERM, SIGINT and SIGHUP, which a stop sends to the job's group */
#define STOP_SIGNAL_COUNT 3
extern const int stop_signals[STOP_SIGNAL_COUNT];
void handle_stop_signals(void);
void block_stop_signals(int how);
void restore_default_signals(void);

/* descriptors.c */
void close_inherited_descriptors(int first);
void mark_leases(int n);

/* exit-file.c */
int write_exit_file(const char *path, const char *line);
void exec_error_line(char *out, size_t size, const char *cmd, int err);

#endif
