package dev.gq.actors.scheduler;

import com.typesafe.config.Config;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.pekko.pattern.CircuitBreakerOpenException;
import org.apache.pekko.persistence.AtomicWrite;
import org.apache.pekko.persistence.PersistentRepr;
import org.apache.pekko.persistence.jdbc.journal.JdbcAsyncWriteJournal;
import org.apache.pekko.persistence.journal.Tagged;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import scala.collection.immutable.Seq;
import scala.concurrent.Future;
import scala.jdk.javaapi.CollectionConverters;
import scala.jdk.javaapi.FutureConverters;
import scala.runtime.BoxedUnit;
import scala.util.Try;

/**
 * The JDBC journal, writing each batch of events itself: serialized as the plugin does (Pekko
 * serialization: the serializer's id, its manifest, its bytes; the write time; the writer), and
 * inserted into {@code event_journal} and committed on the plugin's own connection (its pool holds
 * one), on a thread of its own. The plugin's write goes through a stream, a queue and Slick's
 * executor, several hand-overs between threads that cost a lone write more than its fsync; replay,
 * the highest sequence number, deletes and snapshots stay the plugin's. A write the plugin must
 * make (a tagged event, an event that cannot be serialized, to say which) goes its way.
 *
 * <p>The cause of each write that fails is noted in {@link JournalWrites} before the writer hears of
 * it, so that the refusal the failure causes can say why (a full disk, a read-only file). A write
 * refused because earlier ones failed (the journal's circuit breaker) keeps the cause already known.
 * Configured as {@code jdbc-journal.class}.
 */
public final class CheckedJournal extends JdbcAsyncWriteJournal {
  private static final String INSERT = "INSERT INTO event_journal (deleted, persistence_id, sequence_number, writer,"
      + " write_timestamp, adapter_manifest, event_payload, event_ser_id, event_ser_manifest, meta_payload, meta_ser_id,"
      + " meta_ser_manifest) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)";

  /** One serialized event, as its row holds it. */
  private record Row(PersistentRepr repr, byte[] payload, int serId, String serManifest) {}

  private final Serialization serialization = SerializationExtension.get(context().system());
  private final ExecutorService writer = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "gq-journal-writer");
    t.setDaemon(true);
    return t;
  });
  /** The write under way for each persistence id: its highest sequence number is read after it. */
  private final Map<String, CompletableFuture<?>> writing = new ConcurrentHashMap<>();

  public CheckedJournal(Config config) {
    super(config);
  }

  @Override
  public Future<Seq<Try<BoxedUnit>>> asyncWriteMessages(Seq<AtomicWrite> messages) {
    List<Row> rows = rows(messages, System.currentTimeMillis());
    CompletableFuture<Seq<Try<BoxedUnit>>> written;
    if (rows == null) {
      written = FutureConverters.asJava(super.asyncWriteMessages(messages)).toCompletableFuture();
    } else {
      written = CompletableFuture.supplyAsync(() -> {
        insert(rows);
        return CollectionConverters.asScala(List.<Try<BoxedUnit>>of()).toList();
      }, writer);
      String pid = rows.get(0).repr().persistenceId();
      writing.put(pid, written);
      written.whenComplete((ok, err) -> writing.remove(pid, written));
    }
    // A success is the Scheduler's to note (it then says that the journal takes writes again).
    return FutureConverters.asScala(written.whenComplete((ok, err) -> {
      if (err != null) JournalWrites.failed(err instanceof CircuitBreakerOpenException ? null : JournalWrites.cause(err));
    }));
  }

  @Override
  public Future<Object> asyncReadHighestSequenceNr(String persistenceId, long fromSequenceNr) {
    CompletableFuture<?> w = writing.get(persistenceId);
    if (w == null) return super.asyncReadHighestSequenceNr(persistenceId, fromSequenceNr);
    // after the write under way, failed or not, as the plugin does for its own
    return FutureConverters.asScala(w.handle((ok, err) -> null)
        .thenCompose(x -> FutureConverters.asJava(super.asyncReadHighestSequenceNr(persistenceId, fromSequenceNr))));
  }

  /** Every event of {@code messages} serialized and stamped {@code now}; null when the plugin must write them. */
  private List<Row> rows(Seq<AtomicWrite> messages, long now) {
    List<Row> rows = new ArrayList<>();
    for (AtomicWrite w : CollectionConverters.asJava(messages))
      for (PersistentRepr p : CollectionConverters.asJava(w.payload())) {
        Object event = p.payload();
        if (event instanceof Tagged || p.metadata().isDefined()) return null;
        try {
          var serializer = serialization.findSerializerFor(event);
          rows.add(new Row(p.withTimestamp(now), serializer.toBinary(event), serializer.identifier(),
              Serializers.manifestFor(serializer, event)));
        } catch (RuntimeException e) {
          return null; // the plugin rejects that write alone and says why
        }
      }
    return rows.isEmpty() ? null : rows;
  }

  /** Inserts {@code rows} in one transaction on the plugin's connection. Blocks; throws when the write failed. */
  private void insert(List<Row> rows) {
    try (Connection c = db().source().createConnection()) {
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(INSERT)) {
        for (Row r : rows) {
          PersistentRepr p = r.repr();
          ps.setBoolean(1, p.deleted());
          ps.setString(2, p.persistenceId());
          ps.setLong(3, p.sequenceNr());
          ps.setString(4, p.writerUuid());
          ps.setLong(5, p.timestamp());
          ps.setString(6, p.manifest());
          ps.setBytes(7, r.payload());
          ps.setInt(8, r.serId());
          ps.setString(9, r.serManifest());
          ps.setNull(10, Types.BLOB);
          ps.setNull(11, Types.INTEGER);
          ps.setNull(12, Types.VARCHAR);
          ps.addBatch();
        }
        ps.executeBatch();
        c.commit();
      } catch (SQLException | RuntimeException e) {
        try {
          c.rollback();
        } catch (SQLException rollback) {
          e.addSuppressed(rollback);
        }
        throw e;
      } finally {
        c.setAutoCommit(true);
      }
    } catch (SQLException e) {
      throw new CompletionException(e);
    }
  }

  @Override
  public void postStop() {
    writer.shutdown();
    super.postStop();
  }
}
