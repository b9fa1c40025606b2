package dev.gq.core.job;

import java.util.Objects;

/**
 * Why a waiting job does not start now, in two lengths: {@code brief}, a few words for a table
 * column ("GPUs busy", "after 12", "group held", "queue held"), and {@code text}, the whole sentence
 * with what to do ({@code gq show}). The Ledger and the Allocator write both where they decide;
 * the CLI only chooses which to print. It reads as its whole sentence.
 */
public record WaitReason(String brief, String text) {
  public WaitReason {
    Objects.requireNonNull(brief, "brief");
    Objects.requireNonNull(text, "text");
  }

  @Override
  public String toString() {
    return text;
  }
}
