package org.ompprof.calltree.export;

import java.io.IOException;
import java.io.Writer;
import java.util.List;
import java.util.function.IntFunction;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.profile.Timeline;

/**
 * A recording in speedscope's file format (https://www.speedscope.app/file-format-schema.json):
 * the frame table shared, one "sampled" profile per thread whose samples are the thread's
 * timeline in time order (each a stack of frame indexes, outermost first) weighted by the time
 * each sample stands for, in nanoseconds.
 */
public final class SpeedscopeWriter {
    static final String SCHEMA = "https://www.speedscope.app/file-format-schema.json";

    private SpeedscopeWriter() {}

    public static void write(
            CallingContextTree tree,
            List<Timeline> timelines,
            IntFunction<String> threadName,
            String name,
            String exporter,
            Writer out)
            throws IOException {
        JsonWriter json = new JsonWriter(out);
        json.beginObject()
                .field("$schema", SCHEMA)
                .field("name", name)
                .field("exporter", exporter)
                .field("activeProfileIndex", 0);
        json.name("shared").beginObject().name("frames").beginArray();
        for (int id = 0; id < tree.frames().size(); id++)
            frame(json, tree.frames().frame(id));
        json.endArray().endObject();
        json.name("profiles").beginArray();
        for (Timeline t : timelines) profile(json, tree, t, threadName.apply(t.thread()));
        json.endArray().endObject();
        out.flush();
    }

    private static void frame(JsonWriter json, Frame f) throws IOException {
        json.beginObject().field("name", f.name());
        if (f.file() != null && !f.file().isEmpty()) json.field("file", f.file());
        if (f.line() > 0) json.field("line", f.line());
        json.endObject();
    }

    private static void profile(JsonWriter json, CallingContextTree tree, Timeline t, String name) throws IOException {
        long total = 0;
        for (int i = 0; i < t.size(); i++) total += t.weightNs(i);
        json.beginObject()
                .field("type", "sampled")
                .field("name", name)
                .field("unit", "nanoseconds")
                .field("startValue", 0)
                .field("endValue", total)
                .name("samples")
                .beginArray();
        for (int i = 0; i < t.size(); i++) {
            json.beginArray();
            for (int f : tree.framePath(t.node(i))) json.value(f);
            json.endArray();
        }
        json.endArray().name("weights").beginArray();
        for (int i = 0; i < t.size(); i++) json.value(t.weightNs(i));
        json.endArray().endObject();
    }
}
