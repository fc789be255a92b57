package org.ompprof.calltree.build;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A result worked out on another thread is the one worked out where it is taken, failures included. */
class LaterTest {
    private final ExecutorService thread = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        thread.shutdownNow();
    }

    @Test
    void theSameResultsOnAnotherThreadAsWhereTaken() {
        Random rnd = new Random(14);
        for (int round = 0; round < 50; round++) {
            long seed = rnd.nextLong();
            int n = rnd.nextInt(5000);
            List<Later<Long>> ahead = new ArrayList<>();
            for (int i = 0; i < 3; i++) ahead.add(Later.start(thread, () -> sum(seed, n)));
            Later<Long> here = Later.start(null, () -> sum(seed, n));
            long expected = here.get();
            for (Later<Long> l : ahead) assertEquals(expected, l.get());
            assertEquals(expected, here.get(), "taken twice, the same");
        }
    }

    @Test
    void onOneThreadTheWorkRunsWhereItIsTaken() {
        Thread[] ranOn = {null};
        Later<String> l = Later.start(null, () -> {
            ranOn[0] = Thread.currentThread();
            return "x";
        });
        assertEquals(null, ranOn[0], "nothing runs before it is taken");
        assertEquals("x", l.get());
        assertSame(Thread.currentThread(), ranOn[0]);
    }

    @Test
    void workRunsOnTheOtherThreadWhileTheTakerDoesSomethingElse() throws Exception {
        CountDownLatch taken = new CountDownLatch(1);
        Thread[] ranOn = {null};
        Later<Integer> l = Later.start(thread, () -> {
            ranOn[0] = Thread.currentThread();
            taken.countDown();
            return 7;
        });
        // the other thread begins it without being asked
        assertEquals(true, taken.await(10, TimeUnit.SECONDS));
        assertEquals(7, l.get());
        assertNotEquals(Thread.currentThread(), ranOn[0]);
    }

    @Test
    void aFailureIsThrownUnwrappedWhereTheResultIsTaken() {
        for (ExecutorService on : new ExecutorService[] {thread, null}) {
            IllegalStateException failure = new IllegalStateException("bad section");
            Later<Integer> l = Later.start(on, () -> {
                throw failure;
            });
            assertSame(failure, assertThrows(IllegalStateException.class, l::get));
            Later<Integer> e = Later.start(on, () -> {
                throw new StackOverflowError();
            });
            assertThrows(StackOverflowError.class, e::get);
        }
    }

    @Test
    void workTheOtherThreadHasNotBegunRunsWhereTaken() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        thread.execute(() -> {
            try {
                release.await(); // keeps the other thread busy until the result is taken
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread[] ranOn = {null};
        Later<Integer> l = Later.start(thread, () -> {
            ranOn[0] = Thread.currentThread();
            return 3;
        });
        assertEquals(3, l.get());
        assertSame(Thread.currentThread(), ranOn[0], "not waited for behind the other thread's work");
        release.countDown();
    }

    private static long sum(long seed, int n) {
        Random r = new Random(seed);
        long s = 0;
        for (int i = 0; i < n; i++) s += r.nextInt(1000);
        return s;
    }
}
