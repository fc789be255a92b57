package org.ompprof.unwinder.clock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** A clock times the thread that started it; items counted on other threads (work done ahead for it) are added. */
class StageClockTest {
    @Test
    void otherThreadsCountItemsButDoNotSwitchStages() throws InterruptedException {
        StageClock clock = StageClock.start(Stage.AGGREGATE);
        clock.enter(Stage.DECODE);
        clock.count(Stage.DECODE, 5);
        Thread other = new Thread(() -> {
            for (int i = 0; i < 1000; i++) {
                Stage was = clock.enter(Stage.UNWIND);
                assertEquals(Stage.UNWIND, was, "another thread's enter changes nothing");
                clock.count(Stage.UNWIND, 1);
                clock.count(Stage.DECODE, 2);
            }
        });
        other.start();
        other.join();
        assertEquals(Stage.DECODE, clock.enter(Stage.WRITE), "the owner's stage is still running");
        clock.stop();
        assertEquals(1000, clock.items(Stage.UNWIND));
        assertEquals(2005, clock.items(Stage.DECODE));
        assertEquals(0, clock.ns(Stage.UNWIND), "no time goes to a stage only other threads entered");
        long sum = 0;
        for (Stage s : Stage.values()) sum += clock.ns(s);
        assertEquals(clock.wallNs(), sum);
        assertTrue(clock.ns(Stage.DECODE) > 0);
    }
}
