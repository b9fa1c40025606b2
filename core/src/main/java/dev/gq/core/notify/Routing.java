package dev.gq.core.notify;

import java.time.Duration;
import java.util.Set;

/**
 * Whether a target gets a notice. A job's own choice ({@code --notify=EVENTS}) replaces the
 * target's for the messages about that job; otherwise the target's {@code on} list decides, and its
 * minimum run time keeps the {@code end} message of a shorter job quiet (a failure still comes when
 * the target asks for {@code failed}). A quick failure in a group ({@link Notice#byGroup}) reaches a
 * target's {@code failed} only through its group's messages (the fail-fast hold, the group's end);
 * the job's own {@code --notify} or a target's {@code end} still hears it. A group's message comes
 * when the target or the job that closed the group asks for {@code group}; an idle job's when the job's
 * choice, else the target's, names {@code idle}. Test messages always go. Pure.
 */
public final class Routing {
  private Routing() {}

  public static boolean wants(Notice n, Set<NoticeKind> on, Duration minRuntime) {
    Set<NoticeKind> choice = n.jobChoice();
    Set<NoticeKind> kinds = choice != null ? choice : on;
    boolean longEnough = choice != null || minRuntime == null || minRuntime.isZero()
        || (n.runtime() != null && n.runtime().compareTo(minRuntime) >= 0);
    return switch (n.kind()) {
      case TEST -> true;
      case FAILED -> (kinds.contains(NoticeKind.FAILED) && (choice != null || !n.byGroup()))
          || (kinds.contains(NoticeKind.END) && longEnough);
      case END -> kinds.contains(NoticeKind.END) && longEnough;
      case GROUP -> on.contains(NoticeKind.GROUP) || (choice != null && choice.contains(NoticeKind.GROUP));
      case HELD, DRAINED, UNHEALTHY -> on.contains(n.kind());
      case OVER_MEMORY -> on.contains(NoticeKind.OVER_MEMORY) || (choice != null && choice.contains(NoticeKind.OVER_MEMORY));
      case IDLE -> kinds.contains(NoticeKind.IDLE);
    };
  }
}
