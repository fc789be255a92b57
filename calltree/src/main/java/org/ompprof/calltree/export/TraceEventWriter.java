package org.ompprof.calltree.export;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.ompprof.calltree.CallingContextTree;
import org.ompprof.calltree.Frame;
import org.ompprof.calltree.profile.DeviceTable;
import org.ompprof.calltree.profile.Timeline;
import org.ompprof.sampler.omp.OmpState;

/**
 * A recording as Chrome trace-event JSON, which Perfetto and chrome://tracing open. Process 1
 * holds the host threads: each thread's calling contexts as nested slices (consecutive samples
 * that share frames share their slices) and, on a track of its own, its OpenMP states as
 * slices. Each device is a process with tracks for target regions, kernels and transfers, and
 * a flow arrow runs from the launching thread to each kernel and transfer. Times are
 * microseconds from the first event.
 */
public final class TraceEventWriter {
    static final int HOST_PID = 1;
    /** A thread's states go on a track of their own: states and call stacks do not nest. */
    static final int STATE_TID_BASE = 1_000_000;

    private final CallingContextTree tree;
    private final JsonWriter json;
    private final long origin;
    private long flowId;

    private TraceEventWriter(CallingContextTree tree, JsonWriter json, long origin) {
        this.tree = tree;
        this.json = json;
        this.origin = origin;
    }

    /**
     * @param threadName the name of a thread's lanes, by its number in the timelines
     * @param process what the host process is called (the program)
     */
    public static void write(
            CallingContextTree tree,
            List<Timeline> timelines,
            DeviceTable devices,
            IntFunction<String> threadName,
            String process,
            Writer out)
            throws IOException {
        JsonWriter json = new JsonWriter(out);
        TraceEventWriter w = new TraceEventWriter(tree, json, origin(timelines, devices));
        json.beginObject().field("displayTimeUnit", "ms").name("traceEvents").beginArray();
        w.metadata("process_name", HOST_PID, 0, process);
        for (Timeline t : timelines) {
            w.metadata("thread_name", HOST_PID, t.thread(), threadName.apply(t.thread()));
            w.metadata("thread_name", HOST_PID, STATE_TID_BASE + t.thread(), threadName.apply(t.thread()) + " states");
            w.stacks(t);
            w.states(t);
        }
        w.devices(devices);
        json.endArray().endObject();
        out.flush();
    }

    private static long origin(List<Timeline> timelines, DeviceTable devices) {
        long o = Long.MAX_VALUE;
        for (Timeline t : timelines) if (t.size() > 0) o = Math.min(o, covers(t, 0));
        for (DeviceTable.Activity a : devices.activities()) o = Math.min(o, a.startNs());
        return o == Long.MAX_VALUE ? 0 : o;
    }

    private void metadata(String what, int pid, int tid, String name) throws IOException {
        json.beginObject()
                .field("ph", "M")
                .field("name", what)
                .field("pid", pid)
                .field("tid", tid);
        json.name("args").beginObject().field("name", name).endObject().endObject();
    }

    /**
     * Sampled stacks to slices. A sample stands for the time before it (since the thread's
     * previous one, in wall mode exactly): a frame's slice opens where the first sample that has it
     * begins and closes where the first that does not begins; more than a sample's weight left
     * unsampled before a sample (the thread was not running, in cpu mode) closes everything.
     */
    private void stacks(Timeline t) throws IOException {
        List<Integer> open = new ArrayList<>(); // nodes, outermost first
        List<Long> since = new ArrayList<>();
        long end = 0;
        for (int i = 0; i < t.size(); i++) {
            long at = t.timeNs(i), from = covers(t, i);
            if (!open.isEmpty() && from > end + t.weightNs(i)) closeFrom(t.thread(), open, since, 0, end);
            long edge = open.isEmpty() ? from : Math.min(at, Math.max(from, end));
            int[] path = tree.pathToRoot(t.node(i)); // leaf first
            int common = 0;
            while (common < open.size() && common < path.length && open.get(common) == path[path.length - 1 - common])
                common++;
            closeFrom(t.thread(), open, since, common, edge);
            for (int k = path.length - 1 - common; k >= 0; k--) {
                open.add(path[k]);
                since.add(edge);
            }
            end = at;
        }
        closeFrom(t.thread(), open, since, 0, end);
    }

    /** Where sample i's time begins: it stands for the time before it. */
    private static long covers(Timeline t, int i) {
        return t.timeNs(i) - Math.max(1, t.weightNs(i));
    }

    private void closeFrom(int thread, List<Integer> open, List<Long> since, int keep, long at) throws IOException {
        for (int k = open.size() - 1; k >= keep; k--) {
            slice(HOST_PID, thread, tree.frameOf(open.get(k)), since.get(k), at, open.get(k));
            open.remove(k);
            since.remove(k);
        }
    }

    private void slice(int pid, int tid, Frame f, long from, long to, int node) throws IOException {
        json.beginObject()
                .field("ph", "X")
                .field("name", f.name())
                .field("cat", f.kind().name().toLowerCase(java.util.Locale.ROOT));
        json.field("pid", pid)
                .field("tid", tid)
                .name("ts")
                .micros(from - origin)
                .name("dur")
                .micros(to - from);
        json.name("args").beginObject();
        if (f.file() != null && !f.file().isEmpty()) json.field("file", f.file());
        if (f.module() != null) json.field("module", f.module());
        json.field("depth", tree.depth(node)).endObject().endObject();
    }

    /** Consecutive samples in the same state make one slice, from where the first one's time begins. */
    private void states(Timeline t) throws IOException {
        int from = 0;
        for (int i = 1; i <= t.size(); i++) {
            boolean gap = i < t.size() && covers(t, i) > t.timeNs(i - 1) + Math.max(1, t.weightNs(i));
            if (i < t.size() && t.state(i) == t.state(from) && !gap) continue;
            long start = from == 0 ? covers(t, 0) : Math.max(covers(t, from), t.timeNs(from - 1));
            long stop = t.timeNs(i - 1);
            json.beginObject()
                    .field("ph", "X")
                    .field("name", OmpState.nameOf(t.state(from)))
                    .field("cat", "omp_state");
            json.field("pid", HOST_PID)
                    .field("tid", STATE_TID_BASE + t.thread())
                    .name("ts")
                    .micros(start - origin)
                    .name("dur")
                    .micros(stop - start)
                    .name("args")
                    .beginObject()
                    .field("samples", i - from)
                    .endObject()
                    .endObject();
            from = i;
        }
    }

    private void devices(DeviceTable devices) throws IOException {
        for (DeviceTable.Device d : devices.devices()) {
            int pid = devicePid(d.number());
            metadata(
                    "process_name",
                    pid,
                    0,
                    "device " + d.number() + (d.type() == null || d.type().isEmpty() ? "" : " (" + d.type() + ")"));
            for (DeviceTable.Kind k : DeviceTable.Kind.values()) metadata("thread_name", pid, k.ordinal() + 1, lane(k));
        }
        for (DeviceTable.Activity a : devices.activities()) activity(a);
    }

    static int devicePid(int device) {
        return 100 + device;
    }

    private static String lane(DeviceTable.Kind k) {
        return switch (k) {
            case REGION -> "target regions";
            case KERNEL -> "kernels";
            case TRANSFER -> "transfers";
            case MEMORY -> "allocations";
        };
    }

    private void activity(DeviceTable.Activity a) throws IOException {
        int pid = devicePid(a.device()), tid = a.kind().ordinal() + 1;
        String name = switch (a.kind()) {
            case REGION -> "target";
            case KERNEL -> "kernel";
            case TRANSFER -> (a.destDevice() == a.device() ? "to device " : "from device ") + a.bytes() + " B";
            case MEMORY -> "memory " + a.bytes() + " B";
        };
        long dur = Math.max(1, a.durationNs());
        json.beginObject()
                .field("ph", "X")
                .field("name", name)
                .field("cat", "device")
                .field("pid", pid)
                .field("tid", tid)
                .name("ts")
                .micros(a.startNs() - origin)
                .name("dur")
                .micros(dur)
                .name("args")
                .beginObject()
                .field("bytes", a.bytes())
                .field("host_op_id", a.hostOpId())
                .field("launching_thread", a.thread());
        if (a.launchNode() > 0) json.field("launched_from", pathOf(a.launchNode()));
        json.endObject().endObject();
        if (a.kind() != DeviceTable.Kind.REGION && a.thread() > 0) flow(a, pid, tid);
    }

    /** An arrow from the launching thread's slice at the start to the device's slice. */
    private void flow(DeviceTable.Activity a, int pid, int tid) throws IOException {
        long id = ++flowId;
        json.beginObject()
                .field("ph", "s")
                .field("name", "launch")
                .field("cat", "launch")
                .field("id", id)
                .field("pid", HOST_PID)
                .field("tid", a.thread())
                .name("ts")
                .micros(a.startNs() - origin)
                .endObject();
        json.beginObject()
                .field("ph", "f")
                .field("bp", "e")
                .field("name", "launch")
                .field("cat", "launch")
                .field("id", id)
                .field("pid", pid)
                .field("tid", tid)
                .name("ts")
                .micros(a.startNs() - origin)
                .endObject();
    }

    private String pathOf(int node) {
        StringBuilder s = new StringBuilder();
        for (int f : tree.framePath(node))
            s.append(s.length() == 0 ? "" : ";").append(tree.frames().frame(f).name());
        return s.toString();
    }
}
