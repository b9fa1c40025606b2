package dev.gq.core.job;

/** One GPU given to a job: its UUID (the GPU's identity) and its NVML index at reservation (for display and CUDA_VISIBLE_DEVICES). */
public record GpuSlot(String uuid, int index) {}
