package dev.gq.persistence;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import dev.gq.core.job.Job;
import dev.gq.core.job.JobSpec;
import dev.gq.core.job.JobState;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A job's history document is the JSON a plain mapper makes of it, although the environment of the
 * jobs that share one (a batch's) is encoded once; documents read back as the jobs written.
 */
class JobDocumentsTest {
  private static final ObjectMapper PLAIN = new ObjectMapper().registerModule(new JavaTimeModule())
      .registerModule(new Jdk8Module()).disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  private static Job job(long id, Map<String, String> env) {
    return new Job(id, new JobSpec(List.of("python", "cell.py", "" + id), "/w", env, 1, null, "g", null), JobState.WAITING,
        Instant.parse("2026-01-01T00:00:00Z"), null, null, List.of(), null, null, "/l/" + id, null, "t" + id, null);
  }

  @Test
  void documentsAreWhatAPlainMapperWritesWhicheverEnvironmentCameBefore() throws Exception {
    Map<String, String> shared = Map.of("PATH", "/usr/bin", "QUOTE", "a \"b\" \\ c\n\u00e9\u0001", "EMPTY", "");
    Map<String, String> other = new HashMap<>(shared);
    other.put("PATH", "/opt/bin");
    List<Job> jobs = List.of(job(1, shared), job(2, shared), job(3, Map.of()), job(4, shared), job(5, Map.copyOf(other)),
        job(6, Map.copyOf(shared)));
    for (Job j : jobs) {
      String doc = JobDocuments.write(j);
      assertEquals(PLAIN.writeValueAsString(j), doc, "job " + j.id());
      assertEquals(j, JobDocuments.read(doc));
      assertTrue(EnvJson.kept(j.spec().env()), "its environment's JSON is kept for the next job");
    }
  }
}
