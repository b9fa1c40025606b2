package dev.gq.cli;

import static org.junit.jupiter.api.Assertions.*;

import dev.gq.api.WebControl;
import org.junit.jupiter.api.Test;

/** {@code gq web --lab --listen ADDRESS[:PORT]}: the address and port it names, and the ones it refuses. */
class WebListenTest {
  @Test
  void anAddressWithOrWithoutAPortIPv4OrIPv6() {
    assertEquals("0.0.0.0:8080", at("0.0.0.0:8080"));
    assertEquals("127.0.0.1:0", at("127.0.0.1"));
    assertEquals(":::8080", at("[::]:8080"));
    assertEquals("::1:0", at("::1"));
    assertEquals("gpu-box:80", at("gpu-box:80"));
  }

  @Test
  void aBadPortOrNoAddressIsRefusedInOneLine() {
    for (String bad : new String[] {":8080", "0.0.0.0:http", "0.0.0.0:70000", "[::]8080", "[]:80"}) {
      UsageException e = assertThrows(UsageException.class, () -> WebCommand.listening(bad), bad);
      assertEquals("--listen takes ADDRESS[:PORT] (0.0.0.0:8080, 127.0.0.1, [::]:8080), not '" + bad + "'", e.getMessage());
    }
  }

  @Test
  void theLabsAddressesNameNoTokenWhenNoneIsNeeded() {
    WebControl.Serving open = new WebControl.Serving(true, "::", 8080, null, false, null);
    assertEquals("http://[::]:8080/", open.url());
    assertEquals("http://[::]:8080/metrics", open.metricsUrl());
    WebControl.Serving closed = new WebControl.Serving(true, "0.0.0.0", 8080, "ab", false, null);
    assertEquals("http://0.0.0.0:8080/?token=ab", closed.url());
    assertEquals("http://0.0.0.0:8080/metrics?token=ab", closed.metricsUrl());
  }

  private static String at(String listen) {
    WebControl.Options o = WebCommand.listening(listen);
    return o.host() + ":" + o.port();
  }
}
