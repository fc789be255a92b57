package org.ompprof.calltree.export;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Label;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto.Type;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.DynamicMessage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Metric;
import org.ompprof.calltree.RandomProfile;

/**
 * The pprof export read back through an independent path: pprof's profile.proto schema,
 * declared here from its published field list, and protobuf's dynamic parser. Totals per
 * metric, location references, string indexes and leaf-first order are checked.
 */
public class PprofWriterTest {
    private static FieldDescriptorProto field(String name, int number, Type type, boolean repeated, String typeName) {
        FieldDescriptorProto.Builder f = FieldDescriptorProto.newBuilder()
                .setName(name)
                .setNumber(number)
                .setType(type)
                .setLabel(repeated ? Label.LABEL_REPEATED : Label.LABEL_OPTIONAL);
        if (typeName != null) f.setTypeName(typeName);
        return f.build();
    }

    private static FieldDescriptorProto scalar(String name, int number, Type type) {
        return field(name, number, type, false, null);
    }

    private static DescriptorProto message(String name, FieldDescriptorProto... fields) {
        return DescriptorProto.newBuilder()
                .setName(name)
                .addAllField(List.of(fields))
                .build();
    }

    /** perftools.profiles.Profile as github.com/google/pprof/proto/profile.proto declares it. */
    public static Descriptor profileSchema() throws Exception {
        Type i64 = Type.TYPE_INT64, u64 = Type.TYPE_UINT64;
        FileDescriptorProto file = FileDescriptorProto.newBuilder()
                .setName("profile.proto")
                .setPackage("perftools.profiles")
                .setSyntax("proto3")
                .addMessageType(message("ValueType", scalar("type", 1, i64), scalar("unit", 2, i64)))
                .addMessageType(message(
                        "Label",
                        scalar("key", 1, i64),
                        scalar("str", 2, i64),
                        scalar("num", 3, i64),
                        scalar("num_unit", 4, i64)))
                .addMessageType(message(
                        "Sample",
                        field("location_id", 1, u64, true, null),
                        field("value", 2, i64, true, null),
                        field("label", 3, Type.TYPE_MESSAGE, true, ".perftools.profiles.Label")))
                .addMessageType(message(
                        "Mapping",
                        scalar("id", 1, u64),
                        scalar("memory_start", 2, u64),
                        scalar("memory_limit", 3, u64),
                        scalar("file_offset", 4, u64),
                        scalar("filename", 5, i64),
                        scalar("build_id", 6, i64),
                        scalar("has_functions", 7, Type.TYPE_BOOL)))
                .addMessageType(message(
                        "Line", scalar("function_id", 1, u64), scalar("line", 2, i64), scalar("column", 3, i64)))
                .addMessageType(message(
                        "Location",
                        scalar("id", 1, u64),
                        scalar("mapping_id", 2, u64),
                        scalar("address", 3, u64),
                        field("line", 4, Type.TYPE_MESSAGE, true, ".perftools.profiles.Line"),
                        scalar("is_folded", 5, Type.TYPE_BOOL)))
                .addMessageType(message(
                        "Function",
                        scalar("id", 1, u64),
                        scalar("name", 2, i64),
                        scalar("system_name", 3, i64),
                        scalar("filename", 4, i64),
                        scalar("start_line", 5, i64)))
                .addMessageType(message(
                        "Profile",
                        field("sample_type", 1, Type.TYPE_MESSAGE, true, ".perftools.profiles.ValueType"),
                        field("sample", 2, Type.TYPE_MESSAGE, true, ".perftools.profiles.Sample"),
                        field("mapping", 3, Type.TYPE_MESSAGE, true, ".perftools.profiles.Mapping"),
                        field("location", 4, Type.TYPE_MESSAGE, true, ".perftools.profiles.Location"),
                        field("function", 5, Type.TYPE_MESSAGE, true, ".perftools.profiles.Function"),
                        field("string_table", 6, Type.TYPE_STRING, true, null),
                        scalar("drop_frames", 7, i64),
                        scalar("keep_frames", 8, i64),
                        scalar("time_nanos", 9, i64),
                        scalar("duration_nanos", 10, i64),
                        field("period_type", 11, Type.TYPE_MESSAGE, false, ".perftools.profiles.ValueType"),
                        scalar("period", 12, i64),
                        field("comment", 13, i64, true, null),
                        scalar("default_sample_type", 14, i64)))
                .build();
        return FileDescriptor.buildFrom(file, new FileDescriptor[0]).findMessageTypeByName("Profile");
    }

    private static Object get(DynamicMessage m, String field) {
        return m.getField(m.getDescriptorForType().findFieldByName(field));
    }

    @SuppressWarnings("unchecked")
    private static List<DynamicMessage> list(DynamicMessage m, String field) {
        return (List<DynamicMessage>) get(m, field);
    }

    private static long num(DynamicMessage m, String field) {
        return ((Number) get(m, field)).longValue();
    }

    @ParameterizedTest
    @ValueSource(longs = {4, 9})
    @SuppressWarnings("unchecked")
    void readsBackWithTheTreesTotals(long seed) throws Exception {
        CallingContextTree tree = CallingContextTree.create();
        new RandomProfile(seed, 1500).buildInto(tree);
        // some frames shown otherwise than their compiler named them: the symbol is pprof's system_name
        for (int i = 0; i < tree.frames().size(); i += 3) {
            var f = tree.frames().frame(i);
            if (f.function() != null) tree.frames().replace(i, f.named("shown " + i));
        }
        List<Metric> metrics = tree.metrics().all();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PprofWriter.write(tree, metrics, 1_700_000_000_000_000_000L, 5_000_000_000L, "test", out);
        byte[] raw = new GZIPInputStream(new ByteArrayInputStream(out.toByteArray())).readAllBytes();
        DynamicMessage p = DynamicMessage.parseFrom(profileSchema(), raw);
        List<String> strings = (List<String>) get(p, "string_table");
        assertEquals("", strings.getFirst(), "string 0 is empty");
        List<DynamicMessage> types = list(p, "sample_type");
        List<Metric> withValues =
                metrics.stream().filter(m -> tree.total(m.index()) != 0).toList();
        assertEquals(withValues.size(), types.size());
        for (int t = 0; t < types.size(); t++)
            assertEquals(withValues.get(t).name(), strings.get((int) num(types.get(t), "type")));
        Map<Long, DynamicMessage> locations = new HashMap<>();
        for (DynamicMessage l : list(p, "location")) locations.put(num(l, "id"), l);
        Map<Long, DynamicMessage> functions = new HashMap<>();
        for (DynamicMessage f : list(p, "function")) {
            functions.put(num(f, "id"), f);
            assertTrue(num(f, "name") > 0 && num(f, "name") < strings.size(), "name index in range");
            var frame = tree.frames().frame((int) num(f, "id") - 1);
            if (frame.symbol() != null) {
                assertEquals(frame.function(), strings.get((int) num(f, "name")));
                assertEquals(frame.symbol(), strings.get((int) num(f, "system_name")));
            }
        }
        long[] sums = new long[types.size()];
        for (DynamicMessage s : list(p, "sample")) {
            List<Long> ids = (List<Long>) get(s, "location_id");
            List<Long> values = (List<Long>) get(s, "value");
            assertEquals(types.size(), values.size());
            for (int t = 0; t < sums.length; t++) sums[t] += values.get(t);
            for (long id : ids) {
                DynamicMessage loc = locations.get(id);
                assertTrue(loc != null, "location " + id + " exists");
                long fn = num(list(loc, "line").getFirst(), "function_id");
                assertTrue(functions.containsKey(fn), "function " + fn + " exists");
            }
            DynamicMessage label = list(s, "label").getFirst();
            assertEquals("thread", strings.get((int) num(label, "key")));
            if (ids.isEmpty()) continue; // samples with no frames at all sit at the root
            // leaf first: the last location is an outermost frame, a child of the root
            long outermost = ids.getLast() - 1;
            boolean isRootChild = false;
            for (int r : tree.roots()) if (tree.frame(r) == outermost) isRootChild = true;
            assertTrue(isRootChild, "the last location is an outermost frame");
        }
        for (int t = 0; t < sums.length; t++)
            assertEquals(
                    tree.total(withValues.get(t).index()),
                    sums[t],
                    withValues.get(t).name());
        assertEquals(5_000_000_000L, num(p, "duration_nanos"));
        assertEquals(withValues.getFirst().name(), strings.get((int) num(p, "default_sample_type")));
    }
}
