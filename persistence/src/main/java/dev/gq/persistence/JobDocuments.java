package dev.gq.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.Optional;

/**
 * A job's row in the history holds it as a JSON document: written and read here. The jobs of a
 * batch share one environment (one map): its JSON, most of each document, is made once and written
 * as made ({@link EnvJson}).
 */
final class JobDocuments {
  /** How documents are read, and how an environment is written. */
  private static final ObjectMapper JSON = mapper();
  /** How documents are written: the same, but a spec's environment through {@link EnvJson}. */
  private static final ObjectMapper WRITER = mapper().addMixIn(JobSpec.class, EnvJson.Mixin.class);

  private JobDocuments() {}

  private static ObjectMapper mapper() {
    return new ObjectMapper()
        .registerModule(new JavaTimeModule())
        .registerModule(new Jdk8Module())
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
  }

  /** An environment's JSON, as the document would hold it. */
  static String envJson(Map<String, String> env) {
    try {
      return JSON.writeValueAsString(env);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode an environment", e);
    }
  }

  static String write(Job j) {
    try {
      return WRITER.writeValueAsString(j);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot encode job " + j.id(), e);
    }
  }

  static Job readOrNull(String doc) {
    try {
      return doc == null ? null : JSON.readValue(doc, Job.class);
    } catch (JsonProcessingException | RuntimeException e) {
      return null;
    }
  }

  static Job read(String doc) throws SQLException {
    try {
      return JSON.readValue(doc, Job.class);
    } catch (JsonProcessingException e) {
      throw new SQLException("unreadable job record in the history: " + e.getOriginalMessage());
    }
  }

  /** The job stored under {@code id}, read through {@code c}; empty when there is none. */
  static Optional<Job> jobOn(Connection c, long id) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT doc FROM jobs WHERE id = ?")) {
      ps.setLong(1, id);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(read(rs.getString(1))) : Optional.empty();
      }
    }
  }
}
