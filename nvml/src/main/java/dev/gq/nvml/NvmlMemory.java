package dev.gq.nvml;

/** Memory of one device as NVML reports it, in bytes. */
public record NvmlMemory(long totalBytes, long freeBytes, long usedBytes) {}
