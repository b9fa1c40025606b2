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
 * The JDBC journal, noting the outcome of each write in {@link JournalWrites} before the writer
 * hears it, so that the refusal a failed write causes can say why (a full disk, a read-only file).
 * A write refused because earlier ones failed (the journal's circuit breaker) keeps the cause already
 * known. Configured as {@code jdbc-journal.class}.
 */
public final class CheckedJournal extends JdbcAsyncWriteJournal {
  public CheckedJournal(Config config) {
    super(config);
  }

  @Override
  public Future<Seq<Try<BoxedUnit>>> asyncWriteMessages(Seq<AtomicWrite> messages) {
    return FutureConverters.asScala(FutureConverters.asJava(super.asyncWriteMessages(messages)).whenComplete((ok, err) -> {
      if (err == null) JournalWrites.stored();
      else JournalWrites.failed(err instanceof CircuitBreakerOpenException ? null : JournalWrites.cause(err));
    }));
  }
}
