package org.ompprof.calltree.export;

import com.google.protobuf.CodedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.eclipse.collections.impl.map.mutable.primitive.LongObjectHashMap;
import org.eclipse.collections.impl.map.mutable.primitive.ObjectIntHashMap;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.MetricUnit;

/**
 * The calling-context tree as pprof's profile.proto, gzipped, which {@code go tool pprof} and
 * Grafana Pyroscope read: one sample type per metric that has values, one sample per (context,
 * thread) with its exclusive values and a {@code thread} label, locations leaf first. Each
 * frame is one function and one location (inlined frames are frames of their own here, so a
 * location never folds two); each module one mapping. Written with protobuf's wire-format
 * API: no generated classes.
 */
public final class PprofWriter {
    // profile.proto's field numbers
    private static final int SAMPLE_TYPE = 1,
            SAMPLE = 2,
            MAPPING = 3,
            LOCATION = 4,
            FUNCTION = 5,
            STRING_TABLE = 6,
            TIME_NANOS = 9,
            DURATION_NANOS = 10,
            PERIOD_TYPE = 11,
            PERIOD = 12,
            COMMENT = 13,
            DEFAULT_SAMPLE_TYPE = 14;

    private final ObjectIntHashMap<String> stringIds = new ObjectIntHashMap<>();
    private final List<String> strings = new ArrayList<>();

    private PprofWriter() {
        id(""); // string 0 is the empty string
    }

    /**
     * @param metrics the metrics to write as sample types, the first the default (those without values are left out)
     * @param startNs wall-clock start of the recording, ns since the epoch (0 if unknown)
     */
    public static void write(
            CallingContextTree tree,
            List<Metric> metrics,
            long startNs,
            long durationNs,
            String comment,
            OutputStream out)
            throws IOException {
        List<Metric> types =
                metrics.stream().filter(m -> tree.total(m.index()) != 0).toList();
        if (types.isEmpty()) throw new IllegalArgumentException("no metric has values");
        GZIPOutputStream gz = new GZIPOutputStream(out, 1 << 16);
        CodedOutputStream o = CodedOutputStream.newInstance(gz, 1 << 16);
        new PprofWriter().profile(tree, types, startNs, durationNs, comment, o);
        o.flush();
        gz.finish();
    }

    private void profile(
            CallingContextTree tree,
            List<Metric> types,
            long startNs,
            long durationNs,
            String comment,
            CodedOutputStream o)
            throws IOException {
        for (Metric m : types) o.writeByteArray(SAMPLE_TYPE, valueType(m));
        samples(tree, types, o);
        List<String> modules = new ArrayList<>();
        for (int f = 0; f < tree.frames().size(); f++) {
            String m = tree.frames().frame(f).module();
            if (m != null && !modules.contains(m)) modules.add(m);
        }
        for (int i = 0; i < modules.size(); i++) {
            long id = i + 1L, file = id(modules.get(i));
            o.writeByteArray(MAPPING, message(s -> {
                s.writeUInt64(1, id);
                s.writeInt64(5, file);
                s.writeBool(7, true); // has_functions
            }));
        }
        for (int f = 0; f < tree.frames().size(); f++) {
            Frame frame = tree.frames().frame(f);
            o.writeByteArray(LOCATION, location(f, modules.indexOf(frame.module()) + 1, frame));
            o.writeByteArray(FUNCTION, function(f, frame));
        }
        long commentId = id(comment), defaultType = id(types.getFirst().name());
        byte[] period = valueType(types.getFirst());
        for (String s : strings) o.writeString(STRING_TABLE, s);
        if (startNs != 0) o.writeInt64(TIME_NANOS, startNs);
        o.writeInt64(DURATION_NANOS, durationNs);
        o.writeByteArray(PERIOD_TYPE, period);
        o.writeInt64(PERIOD, 1);
        o.writeInt64(COMMENT, commentId);
        o.writeInt64(DEFAULT_SAMPLE_TYPE, defaultType);
    }

    /** One sample per (node, thread): its exclusive values, one per type. */
    private void samples(CallingContextTree tree, List<Metric> types, CodedOutputStream o) throws IOException {
        LongObjectHashMap<long[]> byPair = new LongObjectHashMap<>();
        for (int t = 0; t < types.size(); t++) {
            int k = t;
            tree.forEachExclusive(types.get(t).index(), (node, thread, value) -> {
                byPair.getIfAbsentPut((long) node << 32 | thread, () -> new long[types.size()])[k] +=
                        value; // at ROOT: no locations
            });
        }
        long threadKey = id("thread");
        for (long key : byPair.keySet().toSortedArray()) {
            int node = (int) (key >>> 32), thread = (int) key;
            int[] path = tree.pathToRoot(node); // leaf first, as pprof lists locations
            long[] locations = new long[path.length];
            for (int i = 0; i < path.length; i++) locations[i] = tree.frame(path[i]) + 1L;
            long[] values = byPair.get(key);
            byte[] label = message(s -> {
                s.writeInt64(1, threadKey);
                s.writeInt64(3, thread);
            });
            o.writeByteArray(SAMPLE, message(s -> {
                packed(s, 1, locations, false);
                packed(s, 2, values, true);
                s.writeByteArray(3, label);
            }));
        }
    }

    private static void packed(CodedOutputStream s, int field, long[] values, boolean signed) throws IOException {
        int size = 0;
        for (long v : values)
            size += signed ? CodedOutputStream.computeInt64SizeNoTag(v) : CodedOutputStream.computeUInt64SizeNoTag(v);
        s.writeTag(field, 2); // length-delimited
        s.writeUInt32NoTag(size);
        for (long v : values) {
            if (signed) s.writeInt64NoTag(v);
            else s.writeUInt64NoTag(v);
        }
    }

    private byte[] location(int frameId, int mapping, Frame f) throws IOException {
        byte[] line = message(s -> {
            s.writeUInt64(1, frameId + 1L);
            if (f.line() > 0) s.writeInt64(2, f.line());
        });
        return message(s -> {
            s.writeUInt64(1, frameId + 1L);
            if (mapping > 0) s.writeUInt64(2, mapping);
            if (f.function() == null) s.writeUInt64(3, f.offset());
            s.writeByteArray(4, line);
        });
    }

    private byte[] function(int frameId, Frame f) throws IOException {
        // system_name: the compiler's symbol where the name is made for people (demangled, a construct)
        long name = id(name(f)), system = f.symbol() == null ? name : id(f.symbol());
        long file = f.file() == null || f.file().isEmpty() ? 0 : id(f.file());
        return message(s -> {
            s.writeUInt64(1, frameId + 1L);
            s.writeInt64(2, name);
            s.writeInt64(3, system);
            if (file != 0) s.writeInt64(4, file);
        });
    }

    /**
     * pprof drops what is between angle brackets when it shortens names (C++ template arguments),
     * which would leave a placeholder such as {@code <omp barrier>} nameless: it gets brackets.
     */
    private static String name(Frame f) {
        String n = f.name();
        return n.startsWith("<") && n.endsWith(">") ? "[" + n.substring(1, n.length() - 1) + "]" : n;
    }

    private byte[] valueType(Metric m) throws IOException {
        long type = id(m.name()), unit = id(m.unit() == MetricUnit.NANOSECONDS ? "nanoseconds" : "count");
        return message(s -> {
            s.writeInt64(1, type);
            s.writeInt64(2, unit);
        });
    }

    private interface Fields {
        void write(CodedOutputStream s) throws IOException;
    }

    private static byte[] message(Fields fields) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        CodedOutputStream s = CodedOutputStream.newInstance(b);
        fields.write(s);
        s.flush();
        return b.toByteArray();
    }

    private long id(String s) {
        int next = strings.size();
        int id = stringIds.getIfAbsentPut(s, next);
        if (id == next) strings.add(s);
        return id;
    }
}
