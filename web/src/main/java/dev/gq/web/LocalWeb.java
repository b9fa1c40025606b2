package dev.gq.web;

import dev.gq.cli.ApiException;
import dev.gq.cli.GqApi;
import dev.gq.cli.WebControl;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The daemon's {@link WebControl}: one page server at a time on 127.0.0.1 only, with a token made
 * afresh at each start and kept nowhere but in memory. Reads everything through the daemon's own
 * {@link GqApi}, the one the commands use. Thread-safe.
 */
public final class LocalWeb implements WebControl {
  private final GqApi api;
  private final String user;
  private PageServer server;
  private Serving serving;

  public LocalWeb(GqApi api, String user) {
    this.api = api;
    this.user = user;
  }

  @Override
  public synchronized Serving start(Options options) throws ApiException {
    if (serving != null) {
      boolean same = (options.port() == 0 || options.port() == serving.port()) && options.metricsOpen() == serving.metricsOpen();
      if (same) return serving;
      throw new ApiException("the page is already served at " + serving.url() + "; stop it first with 'gq web --stop'");
    }
    String token = Token.fresh();
    InetSocketAddress at = new InetSocketAddress(InetAddress.getLoopbackAddress(), options.port());
    try {
      server = new PageServer(api, at, token, options.metricsOpen(), user);
    } catch (BindException e) {
      throw new ApiException("port " + options.port() + " of 127.0.0.1 is taken; choose another with --port, or leave --port out");
    } catch (IOException e) {
      throw new ApiException("cannot serve the page on 127.0.0.1: " + e.getMessage());
    }
    serving = new Serving(server.port(), token, options.metricsOpen());
    return serving;
  }

  @Override
  public synchronized boolean stop() {
    if (server == null) return false;
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
