package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.collections.impl.map.mutable.primitive.ObjectIntHashMap;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;

/**
 * The FRAMES section: a string table, then each frame by id as kind, module, function, file
 * (string ids + 1, 0 for none), line and offset. Strings repeat a lot (one module path for
 * thousands of frames), so each is stored once.
 */
public final class FrameTableCodec {
    private static final FrameKind[] KINDS = FrameKind.values();

    private FrameTableCodec() {}

    public static byte[] encode(FrameTable frames) {
        ObjectIntHashMap<String> ids = new ObjectIntHashMap<>();
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.frame(i);
            for (String s : new String[] {f.module(), f.function(), f.file()}) {
                if (s != null && !ids.containsKey(s)) {
                    ids.put(s, strings.size());
                    strings.add(s);
                }
            }
        }
        ByteSink out = new ByteSink();
        out.varint(strings.size());
        for (String s : strings) out.string(s);
        out.varint(frames.size());
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.frame(i);
            out.u8(f.kind().ordinal());
            for (String s : new String[] {f.module(), f.function(), f.file()}) out.varint(s == null ? 0 : ids.get(s) + 1L);
            out.varint(f.line());
            out.varint(f.offset());
        }
        return out.toByteArray();
    }

    public static FrameTable decode(byte[] payload) {
        ByteSource in = new ByteSource(payload);
        int stringCount = in.count(1, "strings");
        String[] strings = new String[stringCount];
        for (int i = 0; i < stringCount; i++) strings[i] = in.string();
        int frameCount = in.count(6, "frames");
        FrameTable table = new FrameTable();
        for (int i = 0; i < frameCount; i++) {
            int at = in.position();
            Frame f = frame(in, strings, at);
            int id = table.intern(f);
            if (id != i) throw new ProfileFormatException(at, "frame " + i + " repeats frame " + id);
        }
        in.end("frame table");
        return table;
    }

    private static Frame frame(ByteSource in, String[] strings, int at) {
        int kind = in.u8();
        if (kind >= KINDS.length) throw new ProfileFormatException(at, "unknown frame kind " + kind);
        String module = string(in, strings), function = string(in, strings), file = string(in, strings);
        int line = in.bounded(Integer.MAX_VALUE, "line");
        long offset = in.varint();
        try {
            return new Frame(KINDS[kind], module, function, file, line, offset);
        } catch (IllegalArgumentException e) {
            throw new ProfileFormatException(at, "bad frame: " + e.getMessage());
        }
    }

    private static String string(ByteSource in, String[] strings) {
        int id = in.bounded(strings.length, "string id");
        return id == 0 ? null : strings[id - 1];
    }
}
