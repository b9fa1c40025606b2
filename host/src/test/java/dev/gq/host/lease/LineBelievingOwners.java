package dev.gq.host.lease;

import dev.gq.core.lease.LeaseHolder;
import dev.gq.core.lease.LeaseShare;
import dev.gq.core.lease.LockWitness;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * For tests that play several users' gq from one process (one uid): names as each lock's holder the
 * user its own line names, as the kernel would if each line's user had taken it. Tests of who the
 * kernel names use {@link LeaseFiles}' real reading instead.
 */
final class LineBelievingOwners extends LockOwners {
  LineBelievingOwners() {
    super(Path.of("/proc"));
  }

  static LeaseFiles leases(Path dir) {
    return new LeaseFiles(dir, new LineBelievingOwners());
  }

  @Override
  Reading reading() {
    return fd -> {
      Optional<LeaseHolder> h = LeaseLibc.holder(fd).or(() -> LeaseLibc.share(fd).map(LeaseShare::holder));
      return h.map(x -> new LockWitness(List.of(new LockWitness.Person(x.instance().uid(), x.instance().user())), null))
          .orElse(LockWitness.NONE);
    };
  }
}
