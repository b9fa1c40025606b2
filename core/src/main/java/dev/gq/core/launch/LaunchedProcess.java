package dev.gq.core.launch;

import dev.gq.core.proc.ProcessIdentity;
import java.util.concurrent.CompletableFuture;

/** A job that was just started: who its leader (the shim) is, and a future completed when the shim exits. */
public record LaunchedProcess(ProcessIdentity identity, CompletableFuture<Void> shimExited) {}
