package org.ompprof.calltree.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.ompprof.unwinder.clock.Stage;
import org.ompprof.unwinder.clock.StageClock;

/** Items produced on another thread arrive in their order, each batch prepared first; a failure arrives in place. */
class SamplesAheadTest {
    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    @Test
    void everyItemInOrderEachPreparedOnTheOtherThread() {
        Random rnd = new Random(14);
        for (int round = 0; round < 20; round++) {
            int n = rnd.nextInt(5000); // several batches
            int oneByOne = rnd.nextInt(n + 1); // then the rest by forEachRemaining
            List<Integer> source = IntStream.range(0, n).boxed().toList();
            List<Integer> prepared = new ArrayList<>();
            Thread[] preparer = {null};
            StageClock clock = StageClock.start(Stage.AGGREGATE);
            Iterator<Integer> it = SamplesAhead.start(
                    thread,
                    source.iterator(),
                    batch -> {
                        synchronized (prepared) {
                            prepared.addAll(batch);
                        }
                        preparer[0] = Thread.currentThread();
                    },
                    clock);
            List<Integer> got = new ArrayList<>();
            Consumer<Integer> take = i -> {
                synchronized (prepared) {
                    assertTrue(prepared.contains(i), "item " + i + " handed over before its batch was prepared");
                }
                got.add(i);
            };
            while (got.size() < oneByOne && it.hasNext()) take.accept(it.next());
            it.forEachRemaining(take);
            assertFalse(it.hasNext());
            assertEquals(source, got, "round " + round + ", " + oneByOne + " one by one");
            assertTrue(preparer[0] != Thread.currentThread());
        }
    }

    @Test
    void aFailureArrivesAfterTheItemsBeforeIt() {
        Iterator<Integer> it = SamplesAhead.start(thread, failingAt300(), b -> {}, StageClock.off());
        int seen = 0;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            while (it.hasNext()) it.next();
        });
        assertEquals("bad sample 300", e.getMessage());
        Iterator<Integer> all = SamplesAhead.start(thread, failingAt300(), b -> {}, StageClock.off());
        e = assertThrows(IllegalStateException.class, () -> all.forEachRemaining(i -> {}));
        assertEquals("bad sample 300", e.getMessage(), "rethrown by forEachRemaining too");
        for (Iterator<Integer> again = SamplesAhead.start(thread, List.of(1, 2).iterator(), b -> {}, StageClock.off());
                again.hasNext(); ) {
            seen += again.next();
        }
        assertEquals(3, seen);
    }

    private static Iterator<Integer> failingAt300() {
        return new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Integer next() {
                if (i == 300) throw new IllegalStateException("bad sample 300");
                return i++;
            }
        };
    }
}
