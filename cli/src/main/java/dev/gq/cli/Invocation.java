package dev.gq.cli;

/**
 * What one command run works with: the caller's terminal and the daemon's API. Built once per
 * request by {@link Gq#run} and handed to every command object of that request's tree.
 */
record Invocation(Io io, GqApi api) {}
