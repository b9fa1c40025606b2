package dev.gq.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.gq.core.job.Job;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/** A job's row in the history holds it as a JSON document: written and read here. */
final class JobDocuments {
  private static final ObjectMapper JSON = new ObjectMapper()
      .registerModule(new JavaTimeModule())
      .registerModule(new Jdk8Module())
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private JobDocuments() {}

  static String write(Job j) {
    try {
      return JSON.writeValueAsString(j);
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
