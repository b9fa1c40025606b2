package dev.gq.core.gpu;

/**
 * What a GPU is now, computed from a reading and the reservations; never stored. FREE is
 * allocatable to any job; SHARED (only gq's own shared jobs on it, every process on it theirs) is
 * allocatable to shared jobs only, while their declared memory fits; DRAINED is a GPU that would be
 * FREE but that the user keeps from new jobs.
 */
public enum GpuState { FREE, RESERVED, RUNNING, EXTERNAL, UNKNOWN, DRAINED, SHARED }
