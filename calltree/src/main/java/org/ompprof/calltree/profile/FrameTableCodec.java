package org.ompprof.calltree.profile;

import java.util.ArrayList;
import java.util.List;
import org.eclipse.collections.impl.map.mutable.primitive.ObjectIntHashMap;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.FrameKind;
import org.ompprof.calltree.FrameTable;
import org.ompprof.sampler.recording.BadSectionException;

/**
 * The FRAMES section: a string table, then each frame by id as kind, module, function, file
 * (string ids + 1, 0 for none), line and offset. Strings repeat a lot (one module path for
 * thousands of frames), so each is stored once.
 *
 * <p>Version 2 of the section (frames with a {@link Frame#symbol() symbol}: a name shown
 * otherwise than the compiler's) starts with the bytes {@code 00 02}, which no version-1 payload
 * can (its first varint counts strings, and without strings there are no frames: {@code 00 00}),
 * and ends with the number of frames that have a symbol and, per such frame, its id and its
 * symbol's string id. Version-1 payloads (no marker, no symbols) still read.
 */
public final class FrameTableCodec {
    private static final FrameKind[] KINDS = FrameKind.values();
    private static final int VERSION = 2;

    private FrameTableCodec() {}

    public static byte[] encode(FrameTable frames) {
        ObjectIntHashMap<String> ids = new ObjectIntHashMap<>();
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.frame(i);
            for (String s : new String[] {f.module(), f.function(), f.file(), f.symbol()}) {
                if (s != null && !ids.containsKey(s)) {
                    ids.put(s, strings.size());
                    strings.add(s);
                }
            }
        }
        ByteSink out = new ByteSink();
        out.u8(0);
        out.u8(VERSION);
        out.varint(strings.size());
        for (String s : strings) out.string(s);
        out.varint(frames.size());
        for (int i = 0; i < frames.size(); i++) {
            Frame f = frames.frame(i);
            out.u8(f.kind().ordinal());
            for (String s : new String[] {f.module(), f.function(), f.file()})
                out.varint(s == null ? 0 : ids.get(s) + 1L);
            out.varint(f.line());
            out.varint(f.offset());
        }
        int symbols = 0;
        for (int i = 0; i < frames.size(); i++) if (frames.frame(i).symbol() != null) symbols++;
        out.varint(symbols);
        for (int i = 0; i < frames.size(); i++) {
            String symbol = frames.frame(i).symbol();
            if (symbol == null) continue;
            out.varint(i);
            out.varint(ids.get(symbol));
        }
        return out.toByteArray();
    }

    public static FrameTable decode(byte[] payload) {
        ByteSource in = new ByteSource(payload);
        boolean withSymbols = payload.length >= 2 && payload[0] == 0 && payload[1] != 0;
        if (withSymbols) {
            in.u8();
            int version = in.u8();
            if (version != VERSION)
                throw new BadSectionException(
                        1, "frame table version " + version + " (this ompprof reads 1 and " + VERSION + ")");
        }
        int stringCount = in.count(1, "strings");
        String[] strings = new String[stringCount];
        for (int i = 0; i < stringCount; i++) strings[i] = in.string();
        int frameCount = in.count(6, "frames");
        Frame[] frames = new Frame[frameCount];
        int[] at = new int[frameCount];
        for (int i = 0; i < frameCount; i++) {
            at[i] = in.position();
            frames[i] = frame(in, strings, at[i]);
        }
        if (withSymbols) {
            int symbols = in.count(2, "symbols");
            for (int k = 0; k < symbols; k++) {
                int pos = in.position();
                int id = in.bounded(frameCount - 1, "frame id");
                String symbol = strings[in.bounded(stringCount - 1, "symbol string id")];
                Frame f = frames[id];
                if (f.function() == null || f.symbol() != null || symbol.equals(f.function())) {
                    throw new BadSectionException(pos, "frame " + id + " cannot take symbol " + symbol);
                }
                frames[id] = new Frame(f.kind(), f.module(), f.function(), f.file(), f.line(), f.offset(), symbol);
            }
        }
        in.end("frame table");
        FrameTable table = new FrameTable();
        for (int i = 0; i < frameCount; i++) {
            int id = table.intern(frames[i]);
            if (id != i) throw new BadSectionException(at[i], "frame " + i + " repeats frame " + id);
        }
        return table;
    }

    private static Frame frame(ByteSource in, String[] strings, int at) {
        int kind = in.u8();
        if (kind >= KINDS.length) throw new BadSectionException(at, "unknown frame kind " + kind);
        String module = string(in, strings), function = string(in, strings), file = string(in, strings);
        int line = in.bounded(Integer.MAX_VALUE, "line");
        long offset = in.varint();
        try {
            return new Frame(KINDS[kind], module, function, file, line, offset);
        } catch (IllegalArgumentException e) {
            throw new BadSectionException(at, "bad frame: " + e.getMessage());
        }
    }

    private static String string(ByteSource in, String[] strings) {
        int id = in.bounded(strings.length, "string id");
        return id == 0 ? null : strings[id - 1];
    }
}
