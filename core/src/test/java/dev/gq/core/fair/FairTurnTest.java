package dev.gq.core.fair;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The fair-turn rule: who starts next on a shared machine. */
class FairTurnTest {
  static final Instant T0 = Instant.parse("2026-03-02T09:00:00Z");
  static final Policy CAP_2 = new Policy(2, Policy.UNLIMITED, List.of(), null, Set.of(), Duration.ofSeconds(30));

  @Test
  void aSweepHoldsTheMachineUntilBobSubmitsThenBobGetsTheNextTwoGpusAndAliceDoesNotTakeThemBack() {
    SharedBox box = new SharedBox(4, CAP_2, T0);
    for (int i = 0; i < 10; i++) box.submit("alice", 1, Duration.ofMinutes(10 + i), T0);
    box.round(T0, List.of("alice", "bob"));
    assertEquals(4, box.held("alice"), "alone, alice's sweep uses all 4 GPUs");

    Instant bobSubmits = T0.plus(Duration.ofMinutes(5));
    box.submit("bob", 1, Duration.ofHours(1), bobSubmits);
    box.submit("bob", 1, Duration.ofHours(1), bobSubmits);
    box.round(bobSubmits, List.of("alice", "bob"));
    assertEquals(4, box.held("alice"), "gq stops nobody's job: bob waits for the next GPU that frees up");
    var reason = FairTurn.decide(new FairTurn.Situation("alice", 4, box.loads(), CAP_2, bobSubmits), 1,
        List.of(new FairTurn.FreeGpu("0", bobSubmits))).reason();
    assertTrue(reason.text().startsWith("fair share: bob waits for 2 GPUs;"), reason.text());

    // alice's jobs end at 10 and 11 minutes; her daemon sees each GPU first and still leaves it to bob
    for (int m = 10; m <= 11; m++) box.round(T0.plus(Duration.ofMinutes(m)), List.of("alice", "bob"));
    assertEquals(2, box.held("bob"), "bob got the next 2 GPUs that freed up");
    assertEquals(2, box.held("alice"));
    for (int m = 12; m <= 40; m++) {
      box.round(T0.plus(Duration.ofMinutes(m)), List.of("alice", "bob"));
      assertEquals(2, box.held("bob"), "alice does not take bob's GPUs back while his jobs run (minute " + m + ")");
    }
    assertEquals(2, box.held("alice"), "alice keeps her fair share, and goes on with her sweep on it");

    for (int m = 41; m < 24 * 60 && !box.idle(); m++) box.round(T0.plus(Duration.ofMinutes(m)), List.of("alice", "bob"));
    assertTrue(box.idle(), "everyone's jobs ran");
  }

  @Test
  void aLoneUserGetsTheWholeMachineWhateverTheCap() {
    var s = new FairTurn.Situation("alice", 4, Map.of("alice", new UserLoad("alice", 3, 5, 1, T0)), CAP_2, T0);
    assertEquals(List.of("3"), FairTurn.decide(s, 1, List.of(new FairTurn.FreeGpu("3", T0))).take());
  }

  @Test
  void anOverShareUserLeavesAFreeGpuForTheTurnThenTakesIt() {
    Map<String, UserLoad> loads = new LinkedHashMap<>();
    loads.put("alice", new UserLoad("alice", 3, 4, 1, T0));
    loads.put("bob", new UserLoad("bob", 0, 2, 2, T0));
    List<FairTurn.FreeGpu> free = List.of(new FairTurn.FreeGpu("1", T0.plusSeconds(10)));
    var early = FairTurn.decide(new FairTurn.Situation("alice", 4, loads, CAP_2, T0.plusSeconds(20)), 1, free);
    assertFalse(early.taken());
    assertEquals("fair share", early.reason().brief());
    assertEquals(T0.plusSeconds(40), early.decideAgainAt(), "decide again when the turn ends");
    var late = FairTurn.decide(new FairTurn.Situation("alice", 4, loads, CAP_2, T0.plusSeconds(40)), 1, free);
    assertEquals(List.of("1"), late.take(), "bob's daemon did not take it in its turn: no GPU idles beyond it");
  }

  @Test
  void aUserBelowTheShareTakesAtOnceAndAUserAtTheShareBlocksNobody() {
    Map<String, UserLoad> loads = new LinkedHashMap<>();
    loads.put("alice", new UserLoad("alice", 2, 4, 1, T0));
    loads.put("bob", new UserLoad("bob", 1, 2, 1, T0));
    List<FairTurn.FreeGpu> free = List.of(new FairTurn.FreeGpu("3", T0));
    assertTrue(FairTurn.decide(new FairTurn.Situation("bob", 4, loads, CAP_2, T0), 1, free).taken(), "bob is below his share");
    loads.put("bob", new UserLoad("bob", 2, 2, 1, T0));
    assertTrue(FairTurn.decide(new FairTurn.Situation("alice", 4, loads, CAP_2, T0), 1, free).taken(),
        "bob has his share: nobody below theirs waits, so the GPU does not idle");
  }

  @Test
  void theShareIsTheMachineOverTheUsersWithDemandCappedByThePolicy() {
    Map<String, UserLoad> loads = new LinkedHashMap<>();
    loads.put("a", new UserLoad("a", 8, 0, 0, null));
    loads.put("b", new UserLoad("b", 0, 1, 1, T0));
    loads.put("c", new UserLoad("c", 0, 0, 0, null));
    assertEquals(4, FairTurn.share(new FairTurn.Situation("a", 8, loads, Policy.NONE, T0)), "c has no demand");
    assertEquals(2, FairTurn.share(new FairTurn.Situation("a", 8, loads, CAP_2, T0)));
    loads.put("c", new UserLoad("c", 0, 3, 1, T0));
    loads.put("d", new UserLoad("d", 0, 3, 1, T0));
    assertEquals(1, FairTurn.share(new FairTurn.Situation("a", 3, loads, Policy.NONE, T0)), "at least one GPU each");
  }

  @Test
  void theAlwaysLimitIsHardEvenForALoneUser() {
    Policy p = new Policy(Policy.UNLIMITED, 2, List.of(), null, Set.of(), null);
    var s = new FairTurn.Situation("alice", 4, Map.of("alice", new UserLoad("alice", 2, 1, 1, T0)), p, T0.plusSeconds(3600));
    var t = FairTurn.decide(s, 1, List.of(new FairTurn.FreeGpu("2", T0)));
    assertFalse(t.taken());
    assertNull(t.decideAgainAt(), "a limit, not a turn: it waits for one of her jobs to end");
    assertTrue(t.reason().text().startsWith("user limit: alice holds 2 GPUs and this machine allows 2 per user"), t.reason().text());
  }

  @Test
  void aMultiGpuJobOverItsShareWaitsUntilEnoughGpusHavePassedTheirTurn() {
    Map<String, UserLoad> loads = new LinkedHashMap<>();
    loads.put("alice", new UserLoad("alice", 2, 2, 2, T0));
    loads.put("bob", new UserLoad("bob", 0, 4, 4, T0));
    List<FairTurn.FreeGpu> free = List.of(new FairTurn.FreeGpu("2", T0.plusSeconds(20)), new FairTurn.FreeGpu("3", T0));
    var t = FairTurn.decide(new FairTurn.Situation("alice", 4, loads, CAP_2, T0.plusSeconds(35)), 2, free);
    assertFalse(t.taken(), "GPU 2 is still in bob's turn");
    assertEquals(T0.plusSeconds(50), t.decideAgainAt());
    assertEquals(List.of("3", "2"), FairTurn.decide(new FairTurn.Situation("alice", 4, loads, CAP_2, T0.plusSeconds(50)), 2, free).take());
  }
}
