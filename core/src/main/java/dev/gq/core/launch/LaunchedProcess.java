package dev.gq.core.launch;

import dev.gq.core.proc.ProcessIdentity;
import java.util.concurrent.CompletableFuture;

/**
 * A job that was just started: who its leader (the shim) is, and a future completed when the shim
 * exits, with the status it exited with (the job's, as the shim passes it on), or null when it was
 * killed or its status could not be read. The exit record stays the source of a job's status; this
 * one only stands in when the record could not be written.
 */
public record LaunchedProcess(ProcessIdentity identity, CompletableFuture<Integer> shimExited) {}
