package dev.gq.core.gpu;

/** What a GPU is now, computed from a reading and the reservations; never stored. Only FREE is allocatable. */
public enum GpuState { FREE, RESERVED, RUNNING, EXTERNAL, UNKNOWN }
