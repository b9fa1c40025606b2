package dev.gq.cli;

import java.nio.file.Path;
import java.util.List;

/** Runs one command line against a fake terminal and daemon and keeps what came out. */
final class Cli {
  final FakeIo io;
  final FakeApi api = new FakeApi();

  Cli(Path cwd) {
    io = new FakeIo(cwd);
  }

  /** Exit code, stdout and stderr of one run. */
  record Result(int code, String out, String err) {}

  Result run(String... argv) {
    int before = io.stdout().length();
    int beforeErr = io.stderr().length();
    int code = Gq.run(List.of(argv), io, api);
    return new Result(code, io.stdout().substring(before), io.stderr().substring(beforeErr));
  }
}
