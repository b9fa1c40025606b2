package dev.gq.actors.scheduler;

import com.typesafe.config.Config;
import org.apache.pekko.pattern.CircuitBreakerOpenException;
import org.apache.pekko.persistence.AtomicWrite;
import org.apache.pekko.persistence.jdbc.journal.JdbcAsyncWriteJournal;
import scala.collection.immutable.Seq;
import scala.concurrent.Future;
import scala.jdk.javaapi.FutureConverters;
import scala.runtime.BoxedUnit;
import scala.util.Try;

/**
 * The JDBC journal, noting the cause of each write that fails in {@link JournalWrites} before the
 * writer hears of it, so that the refusal the failure causes can say why (a full disk, a read-only file).
 * A write refused because earlier ones failed (the journal's circuit breaker) keeps the cause already
 * known. Configured as {@code jdbc-journal.class}.
 */
public final class CheckedJournal extends JdbcAsyncWriteJournal {
  public CheckedJournal(Config config) {
    super(config);
  }

  @Override
  public Future<Seq<Try<BoxedUnit>>> asyncWriteMessages(Seq<AtomicWrite> messages) {
    // A success is the Scheduler's to note (it then says that the journal takes writes again).
    return FutureConverters.asScala(FutureConverters.asJava(super.asyncWriteMessages(messages)).whenComplete((ok, err) -> {
      if (err != null) JournalWrites.failed(err instanceof CircuitBreakerOpenException ? null : JournalWrites.cause(err));
    }));
  }
}
