package dev.gq.actors.scheduler;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gq.persistence.JournalConfig;
import dev.gq.persistence.LedgerSnapshot;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import java.util.zip.GZIPInputStream;
import net.jpountz.lz4.LZ4BlockInputStream;
import net.jpountz.lz4.LZ4BlockOutputStream;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.serialization.SerializerWithStringManifest;
import org.apache.pekko.serialization.jackson.JacksonObjectMapperProvider;

/**
 * Stores the Scheduler's snapshots ({@link LedgerSnapshot}): the JSON that Pekko's Jackson
 * serializer makes of them (its mapper, as configured for this binding), streamed through LZ4
 * block compression as it is written and read, so that the JSON of a long queue is never in memory
 * whole. Pekko's own serializer made the JSON, then a copy of it, then the compressed bytes: 60 MiB
 * at once for 200,000 waiting jobs, more than a daemon started on an empty queue has. Reads plain
 * and gzipped JSON too. Snapshots stored earlier by the events' binding ({@code jackson-json}) are
 * read by that binding.
 */
public final class SnapshotSerializer extends SerializerWithStringManifest {
  private static final byte[] LZ4_BLOCKS = "LZ4Block".getBytes(StandardCharsets.US_ASCII);
  private final ObjectMapper json;

  public SnapshotSerializer(ExtendedActorSystem system) {
    this.json = JacksonObjectMapperProvider.get(system).getOrCreate(JournalConfig.SNAPSHOT_BINDING, Optional.empty());
  }

  @Override
  public int identifier() {
    return JournalConfig.SNAPSHOT_SERIALIZER_ID;
  }

  @Override
  public String manifest(Object o) {
    return o.getClass().getName();
  }

  @Override
  public byte[] toBinary(Object o) {
    if (!(o instanceof LedgerSnapshot)) throw new IllegalArgumentException("not a snapshot of the ledger: " + o.getClass());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
    try (LZ4BlockOutputStream out = new LZ4BlockOutputStream(bytes)) {
      json.writeValue(out, o);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a snapshot of the ledger", e);
    }
    return bytes.toByteArray();
  }

  @Override
  public Object fromBinary(byte[] bytes, String manifest) {
    try (InputStream in = input(bytes)) {
      return json.readValue(in, LedgerSnapshot.class);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read a snapshot of the ledger", e);
    }
  }

  private static InputStream input(byte[] bytes) throws IOException {
    InputStream in = new ByteArrayInputStream(bytes);
    if (bytes.length >= LZ4_BLOCKS.length && Arrays.equals(bytes, 0, LZ4_BLOCKS.length, LZ4_BLOCKS, 0, LZ4_BLOCKS.length))
      return new LZ4BlockInputStream(in);
    if (bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b) return new GZIPInputStream(in);
    return in;
  }
}
