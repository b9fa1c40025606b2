package dev.gq.core.alloc;

/**
 * What /proc says about one PID that a GPU lists: its session, process group and GQ_JOB_TAG (null
 * when it carries none or its environment is unreadable). A PID /proc cannot show has no facts at
 * all, and is then owned by nobody.
 */
public record ProcessFacts(long pid, long sid, long pgid, String tag) {}
