package dev.gq.core.report;

import java.time.Instant;

/**
 * One stretch of time GPU {@code uuid} (NVML index {@code index} then) spent in one {@link GpuUse},
 * from {@code start} to {@code end}: the last moment the daemon saw it so (a span ends at the next
 * span's start, at the daemon's stop, or at its last write before a crash).
 */
public record GpuSpan(String uuid, int index, GpuUse use, Instant start, Instant end) {}
