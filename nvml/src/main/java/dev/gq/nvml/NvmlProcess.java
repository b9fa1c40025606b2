package dev.gq.nvml;

/**
 * A compute process on a device as NVML reports it. {@code usedBytes} is -1 when the driver does
 * not say (NVML_VALUE_NOT_AVAILABLE). The pid is in the driver's view, which may be another PID
 * namespace than gq's.
 */
public record NvmlProcess(long pid, long usedBytes) {}
