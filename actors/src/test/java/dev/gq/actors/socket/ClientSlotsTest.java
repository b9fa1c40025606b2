package dev.gq.actors.socket;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ClientSlotsTest {
  private final ClientSlots slots = new ClientSlots(new ClientLimit(3, 2, 1024));

  @Test
  void connectionsTakeTheRequestSlotsThenTheFreeStreamSlotsThenNone() {
    for (int i = 0; i < 5; i++) assertNotNull(slots.take(), "connection " + i);
    assertNull(slots.take());
  }

  @Test
  void streamsGiveTheirRequestSlotsBackSoShortCommandsAlwaysFindRoom() {
    List<ClientSlots.Slot> followers = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      ClientSlots.Slot s = slots.take();
      assertTrue(s.toStream());
      assertTrue(s.stream());
      followers.add(s);
    }
    assertEquals(3, slots.freeRequests(), "two streams open, every request slot free");
    assertEquals(0, slots.freeStreams());
    ClientSlots.Slot third = slots.take();
    assertFalse(third.toStream(), "no third stream");
    assertFalse(third.stream(), "still a request");
    third.release();
    assertEquals(3, slots.freeRequests());
  }

  @Test
  void aBurstOfFollowersIsServedUpToTheStreamsBudgetWhateverOrderTheyTurnIn() {
    List<ClientSlots.Slot> burst = new ArrayList<>();
    for (int i = 0; i < 5; i++) burst.add(slots.take());
    int streaming = 0;
    for (ClientSlots.Slot s : burst) {
      if (s.toStream()) streaming++;
      else s.release();
    }
    assertEquals(2, streaming);
    assertEquals(3, slots.freeRequests(), "the refused ones gave their request slots back");
  }

  @Test
  void aSlotGoesBackOnceToTheBudgetItIsIn() {
    ClientSlots.Slot s = slots.take();
    assertTrue(s.toStream());
    assertTrue(s.toStream(), "already a stream");
    s.release();
    s.release();
    assertEquals(3, slots.freeRequests());
    assertEquals(2, slots.freeStreams());
    ClientSlots.Slot r = slots.take();
    r.release();
    assertFalse(r.toStream(), "a released slot does not come back as a stream");
    assertEquals(2, slots.freeStreams());
    assertEquals(3, slots.freeRequests());
  }
}
