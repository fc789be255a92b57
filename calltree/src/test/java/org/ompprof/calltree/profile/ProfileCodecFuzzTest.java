package org.ompprof.calltree.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;
import org.ompprof.calltree.MetricRegistry;
import org.ompprof.calltree.TreeCodec;
import org.ompprof.sampler.recording.BadSectionException;

/**
 * Coverage-guided fuzzing of the profile's section codecs (with Jazzer), below the container:
 * there every section is checksummed, so mutated bytes would rarely get past the checksum to
 * the codecs. The first byte picks the codec (frames, metrics, tree, timeline, regions,
 * mutexes), the rest is its payload. Each either decodes into something every query answers
 * on, or throws a {@link BadSectionException} with an offset and a message; anything else,
 * an OutOfMemoryError or a hang is a finding.
 */
class ProfileCodecFuzzTest {
    /** The tables a tree payload refers to, as in the committed inputs. */
    private static final FrameTable FRAMES = frames();

    private static final int NODES = 4;

    @FuzzTest(maxDuration = "60s")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void profileCodecs(byte[] input) {
        if (input.length == 0) return;
        byte[] payload = Arrays.copyOfRange(input, 1, input.length);
        try {
            switch ((input[0] & 0xFF) % 7) {
                case 0 -> FrameTableCodec.decode(payload).size();
                case 1 -> MetricCodec.decode(payload).names();
                case 2 -> query(TreeCodec.decode(payload, FRAMES, MetricRegistry.standard()));
                case 3 -> TimelineCodec.decode(payload, NODES, new Timeline.Builder(1));
                case 4 -> RegionTableCodec.decode(payload, NODES).rows().forEach(r -> r.totalNs());
                case 5 -> MutexTableCodec.decode(payload, NODES).rows().size();
                default -> MpiCallTableCodec.decode(payload).rankClocks();
            }
        } catch (BadSectionException e) {
            assertFalse(e.getMessage() == null || e.getMessage().isBlank(), "an error that says what is wrong");
        }
    }

    /** What views of a loaded tree ask of it. */
    private static void query(CallingContextTree tree) {
        for (int m = 0; m < tree.metrics().size(); m++) {
            long total = tree.total(m);
            long[] inclusive = tree.inclusiveByNode(m);
            assertEquals(total, inclusive[CallingContextTree.ROOT]);
            for (int t : tree.threads()) tree.total(m, t);
        }
        for (int node = 0; node < tree.size(); node++) {
            tree.children(node);
            // a forged file may repeat a (parent, frame) pair: the loader keeps both nodes rather
            // than pay a hash probe per node, so a look-up by path may end in the other one's
            // subtree and find nothing; what it does find must have that path
            int[] path = tree.framePath(node);
            int found = tree.find(path);
            if (found >= 0 && !Arrays.equals(path, tree.framePath(found)))
                throw new AssertionError("node " + found + " found for the path of " + node);
        }
    }

    private static FrameTable frames() {
        FrameTable t = new FrameTable();
        t.intern(Frame.of(FrameKind.USER, "app", "main", "m.c", 3));
        t.intern(Frame.of(FrameKind.RUNTIME, "libomp.so", "__kmpc_barrier", null, 0));
        t.intern(Frame.unresolved(FrameKind.USER, "libm.so", 0x40));
        t.intern(Frame.OMP_IDLE);
        return t;
    }
}
