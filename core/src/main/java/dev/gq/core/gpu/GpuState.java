package dev.gq.core.gpu;

/**
 * What a GPU is now, computed from a reading and the reservations; never stored. Only FREE is
 * allocatable; DRAINED is a GPU that would be FREE but that the user keeps from new jobs.
 */
public enum GpuState { FREE, RESERVED, RUNNING, EXTERNAL, UNKNOWN, DRAINED }
