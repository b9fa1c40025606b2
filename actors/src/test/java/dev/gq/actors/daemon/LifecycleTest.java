package dev.gq.actors.daemon;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LifecycleTest {
  @TempDir Path tmp;

  @Test
  void loginSessionScopeIsWarnedAbout() throws Exception {
    Path f = Files.writeString(tmp.resolve("cgroup"), "0::/user.slice/user-1000.slice/session-3.scope\n");
    String w = Lifecycle.warning(f);
    assertNotNull(w);
    assertTrue(w.contains("session-3.scope"), w);
  }

  @Test
  void userServiceOrContainerIsFine() throws Exception {
    assertNull(Lifecycle.warning(Files.writeString(tmp.resolve("a"), "0::/user.slice/user-1000.slice/user@1000.service/app.slice/gq.service\n")));
    assertNull(Lifecycle.warning(Files.writeString(tmp.resolve("b"), "0::/\n")));
    assertNull(Lifecycle.warning(tmp.resolve("missing")));
  }
}
