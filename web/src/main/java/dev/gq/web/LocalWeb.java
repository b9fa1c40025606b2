package dev.gq.web;

import dev.gq.api.ApiException;
import dev.gq.api.GqApi;
import dev.gq.api.WebControl;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The daemon's {@link WebControl}: one page server at a time, this user's page on 127.0.0.1 only
 * with a token, or the lab's page on the address asked for, with a token only when asked; a token
 * is made afresh at each start and kept nowhere but in memory. Reads everything through the
 * daemon's own {@link GqApi}, the one the commands use. Thread-safe.
 */
public final class LocalWeb implements WebControl {
  private final GqApi api;
  private final String user;
  private PageServer server;
  private MappingFeed mapping;
  private Serving serving;

  public LocalWeb(GqApi api, String user) {
    this.api = api;
    this.user = user;
  }

  @Override
  public synchronized Serving start(Options options) throws ApiException {
    if (serving != null) {
      if (same(options, serving)) return serving;
      throw new ApiException("the page is already served at " + serving.url() + "; stop it first with 'gq web --stop'");
    }
    boolean lab = options.lab();
    String token = !lab || options.token() ? Token.fresh() : null;
    InetSocketAddress at = lab ? new InetSocketAddress(options.host(), options.port())
        : new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port());
    String where = lab ? options.host() : "127.0.0.1";
    if (at.isUnresolved()) throw new ApiException("cannot serve the page on " + where + ": no such address on this machine; name one of its addresses in --listen");
    try {
      server = new PageServer(api, at, new PageServer.Site(lab, token, options.metricsOpen()), user);
    } catch (BindException e) {
      throw new ApiException("port " + options.port() + " of " + where + " is taken or not this machine's; choose another with " + (lab ? "--listen" : "--port") + ", or leave the port out");
    } catch (IOException e) {
      throw new ApiException("cannot serve the page on " + where + ": " + e.getMessage());
    }
    if (options.jobMappingDir() != null) {
      try {
        mapping = MappingFeed.start(JobMapping.in(Path.of(options.jobMappingDir())), api, PageServer.TICK);
      } catch (IllegalArgumentException | ApiException | IOException e) {
        stop();
        throw new ApiException(e instanceof IOException ? "cannot write the job mapping in " + options.jobMappingDir() + ": " + e.getMessage() : e.getMessage());
      }
    }
    serving = new Serving(lab, where, server.port(), token, options.metricsOpen(), options.jobMappingDir());
    return serving;
  }

  private static boolean same(Options o, Serving s) {
    boolean port = o.port() == 0 || o.port() == s.port();
    if (!Objects.equals(o.jobMappingDir(), s.jobMappingDir())) return false;
    if (!o.lab()) return !s.lab() && port && o.metricsOpen() == s.metricsOpen();
    return s.lab() && port && o.host().equals(s.host()) && o.token() == (s.token() != null) && o.metricsOpen() == s.metricsOpen();
  }

  @Override
  public synchronized boolean stop() {
    if (server == null) return false;
    if (mapping != null) mapping.close();
    mapping = null;
    server.close();
    server = null;
    serving = null;
    return true;
  }

  @Override
  public synchronized Serving serving() {
    return serving;
  }
}
