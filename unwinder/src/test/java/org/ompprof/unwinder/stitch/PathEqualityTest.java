package org.ompprof.unwinder.stitch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Code frames and segments (written-out equals and hashCode) are equal exactly when every field is. */
class PathEqualityTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void codeFramesAndSegmentsEqualExactlyWhenEveryFieldIs(long seed) {
        Random rnd = new Random(seed);
        List<PathFrame.Code> codes = new ArrayList<>();
        for (int i = 0; i < 300; i++) codes.add(code(rnd));
        for (PathFrame.Code a : codes) {
            for (PathFrame.Code b : codes) {
                List<Object> fa = Arrays.asList(a.moduleId(), a.modulePath(), a.relativePc(), a.returnAddress());
                List<Object> fb = Arrays.asList(b.moduleId(), b.modulePath(), b.relativePc(), b.returnAddress());
                check(fa.equals(fb), a, b);
            }
        }
        List<Segment> segments = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            List<PathFrame> frames = new ArrayList<>();
            for (int n = rnd.nextInt(3); n > 0; n--) frames.add(rnd.nextBoolean() ? code(rnd) : Placeholder.TRUNCATED);
            segments.add(new Segment(frames, Gap.values()[rnd.nextInt(Gap.values().length)]));
        }
        for (Segment a : segments) {
            for (Segment b : segments) check(a.frames().equals(b.frames()) && a.gap() == b.gap(), a, b);
        }
    }

    private static void check(boolean same, Object a, Object b) {
        assertEquals(same, a.equals(b), a + " / " + b);
        if (same) assertEquals(a.hashCode(), b.hashCode());
    }

    private static PathFrame.Code code(Random rnd) {
        return new PathFrame.Code(
                rnd.nextInt(2), rnd.nextBoolean() ? "/a/lib.so" : "/b/lib.so", rnd.nextInt(3), rnd.nextBoolean());
    }
}
