package org.ompprof.sampler.recording;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ompprof.sampler.record.ModuleSegment;
import org.ompprof.sampler.recording.PayloadReader.BadPayload;
import org.ompprof.sampler.wire.Wire;

/**
 * Payloads of the table sections. Tables start with a row count; STATS is a list of named
 * counters so that a newer writer can add counters an older reader skips.
 */
final class SectionCodec {
    private SectionCodec() {}

    // METADATA: u32 n, n x (string key, string value)
    static byte[] metadata(Metadata m) {
        PayloadWriter w = new PayloadWriter().u32(m.entries().size());
        m.entries().forEach((k, v) -> w.string(k).string(v));
        return w.toByteArray();
    }

    static Metadata metadata(byte[] payload) throws BadPayload {
        PayloadReader r = new PayloadReader(payload);
        int n = r.count(8, "metadata entries");
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) m.put(r.string(), r.string());
        r.end("metadata");
        return new Metadata(m);
    }

    // THREADS: u32 n, n x (u32 seq, u32 tid, u32 type, u32 slot, u64 begin, end, first, last,
    //          samples, events, samples_dropped, events_dropped, u32 states, states x (u32 state, u64 count))
    private static final int THREAD_MIN = 16 + 8 * 8 + 4;

    static byte[] threads(List<ThreadInfo> threads) {
        PayloadWriter w = new PayloadWriter().u32(threads.size());
        for (ThreadInfo t : threads) {
            w.u32(t.seq()).u32(t.osTid()).u32(t.threadType()).u32(t.slot());
            w.u64(t.beginNs()).u64(t.endNs()).u64(t.firstNs()).u64(t.lastNs());
            w.u64(t.samples()).u64(t.events()).u64(t.samplesDropped()).u64(t.eventsDropped());
            w.u32(t.samplesByState().size());
            t.samplesByState().forEach((state, count) -> w.u32(state).u64(count));
        }
        return w.toByteArray();
    }

    static List<ThreadInfo> threads(byte[] payload) throws BadPayload {
        PayloadReader r = new PayloadReader(payload);
        int n = r.count(THREAD_MIN, "threads");
        List<ThreadInfo> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int seq = r.u32(), tid = r.u32(), type = r.u32(), slot = r.u32();
            long begin = r.u64(), end = r.u64(), first = r.u64(), last = r.u64();
            long samples = r.u64(), events = r.u64(), sDropped = r.u64(), eDropped = r.u64();
            int states = r.count(12, "thread states");
            Map<Integer, Long> byState = new LinkedHashMap<>();
            for (int s = 0; s < states; s++) byState.put(r.u32(), r.u64());
            out.add(new ThreadInfo(
                    seq, tid, type, slot, begin, end, first, last, samples, events, sDropped, eDropped, byState));
        }
        r.end("thread table");
        return out;
    }

    // MODULES: u32 n, n x (u64 id, string path, u32 flags, u64 bias, eh_frame_hdr, dev, ino, size, mtime,
    //          string build_id, u32 segs, segs x (u64 vaddr, memsz, offset, filesz, u32 flags),
    //          u64 load_ns, unload_ns, u8 image_source, string image_path, u64 image_length, string note)
    private static final int MODULE_MIN = 8 + 4 + 4 + 6 * 8 + 4 + 4 + 16 + 1 + 4 + 8 + 4;

    static byte[] modules(List<ModuleInfo> modules) {
        PayloadWriter w = new PayloadWriter().u32(modules.size());
        for (ModuleInfo m : modules) {
            w.u64(m.moduleId()).string(m.path()).u32(m.flags());
            w.u64(m.loadBias())
                    .u64(m.ehFrameHdr())
                    .u64(m.dev())
                    .u64(m.ino())
                    .u64(m.fileSize())
                    .u64(m.mtimeNs());
            w.string(m.buildId()).u32(m.segments().size());
            for (ModuleSegment s : m.segments())
                w.u64(s.vaddr())
                        .u64(s.memSize())
                        .u64(s.offset())
                        .u64(s.fileSize())
                        .u32(s.flags());
            w.u64(m.loadNs())
                    .u64(m.unloadNs())
                    .u8(m.image().ordinal())
                    .string(m.imagePath())
                    .u64(m.imageLength())
                    .string(m.note());
        }
        return w.toByteArray();
    }

    static List<ModuleInfo> modules(byte[] payload) throws BadPayload {
        PayloadReader r = new PayloadReader(payload);
        int n = r.count(MODULE_MIN, "modules");
        List<ModuleInfo> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(module(r));
        r.end("module table");
        return out;
    }

    private static ModuleInfo module(PayloadReader r) throws BadPayload {
        long id = r.u64();
        String path = r.string();
        int flags = r.u32();
        long bias = r.u64(), eh = r.u64(), dev = r.u64(), ino = r.u64(), size = r.u64(), mtime = r.u64();
        String buildId = r.string();
        int segs = r.count(36, "segments");
        if (segs > Wire.MAX_SEGMENTS) throw new BadPayload(segs + " segments (max " + Wire.MAX_SEGMENTS + ")");
        List<ModuleSegment> segments = new ArrayList<>(segs);
        for (int s = 0; s < segs; s++) segments.add(new ModuleSegment(r.u64(), r.u64(), r.u64(), r.u64(), r.u32()));
        long load = r.u64(), unload = r.u64();
        int source = r.u8();
        if (source >= ImageSource.values().length) throw new BadPayload("image source " + source);
        String imagePath = r.string();
        long imageLength = r.u64();
        String note = r.string();
        return new ModuleInfo(
                id,
                path,
                flags,
                bias,
                eh,
                dev,
                ino,
                size,
                mtime,
                buildId,
                segments,
                load,
                unload,
                ImageSource.values()[source],
                imagePath,
                imageLength,
                note);
    }

    // STATS: u32 n, n x (string name, u64 value); u32 buckets, buckets x u64;
    //        u32 rings, rings x (u32 slot, 6 x u64); u32 n, n x string (malformed examples);
    //        u32 n, n x string (modules not captured)
    static byte[] stats(Stats s) {
        PayloadWriter w = new PayloadWriter();
        counters(w, counters(s));
        long[] hist = s.histogram().counts();
        w.u32(hist.length);
        for (long c : hist) w.u64(c);
        w.u32(s.rings().size());
        for (RingStats r : s.rings()) {
            w.u32(r.slot())
                    .u64(r.sampleRecords())
                    .u64(r.sampleDropped())
                    .u64(r.sampleDroppedBytes())
                    .u64(r.eventRecords())
                    .u64(r.eventDropped())
                    .u64(r.eventDroppedBytes());
        }
        strings(w, s.malformedExamples());
        strings(w, s.modulesNotCaptured());
        return w.toByteArray();
    }

    private static Map<String, Long> counters(Stats s) {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("handler_calls", s.handlerCalls());
        m.put("handler_ns", s.handlerNs());
        m.put("reentered", s.reentered());
        m.put("no_slot_drops", s.noSlotDrops());
        m.put("disabled_signals", s.disabledSignals());
        m.put("malformed", s.malformed());
        m.put("sample_ring_peak_bytes", s.sampleRingPeak());
        m.put("event_ring_peak_bytes", s.eventRingPeak());
        m.put("mutex_skipped", s.mutexSkipped());
        m.put("mutex_marked", s.mutexMarked());
        m.put("mutex_table_full", s.mutexTableFull());
        m.put("sample_ring_bytes", s.sampleBytes());
        return m;
    }

    static Stats stats(byte[] payload) throws BadPayload {
        PayloadReader r = new PayloadReader(payload);
        Map<String, Long> c = counters(r);
        int buckets = r.count(8, "histogram buckets");
        if (buckets != Wire.HIST_BUCKETS)
            throw new BadPayload(buckets + " histogram buckets, expected " + Wire.HIST_BUCKETS);
        long[] hist = new long[buckets];
        for (int i = 0; i < buckets; i++) hist[i] = r.u64();
        int rings = r.count(52, "ring stats");
        List<RingStats> ringStats = new ArrayList<>(rings);
        for (int i = 0; i < rings; i++)
            ringStats.add(new RingStats(r.u32(), r.u64(), r.u64(), r.u64(), r.u64(), r.u64(), r.u64()));
        List<String> malformed = strings(r);
        List<String> notCaptured = strings(r);
        r.end("stats");
        return new Stats(
                new HandlerHistogram(hist),
                c.getOrDefault("handler_calls", 0L),
                c.getOrDefault("handler_ns", 0L),
                c.getOrDefault("reentered", 0L),
                c.getOrDefault("no_slot_drops", 0L),
                c.getOrDefault("disabled_signals", 0L),
                c.getOrDefault("malformed", 0L),
                malformed,
                ringStats,
                notCaptured,
                c.getOrDefault("sample_ring_peak_bytes", 0L),
                c.getOrDefault("event_ring_peak_bytes", 0L),
                c.getOrDefault("mutex_skipped", 0L),
                c.getOrDefault("mutex_marked", 0L),
                c.getOrDefault("mutex_table_full", 0L),
                c.getOrDefault("sample_ring_bytes", 0L));
    }

    // counter table (STITCH, and the start of STATS): u32 n, n x (string name, u64 value)
    static byte[] counters(Map<String, Long> counters) {
        PayloadWriter w = new PayloadWriter();
        counters(w, counters);
        return w.toByteArray();
    }

    static Map<String, Long> counters(byte[] payload) throws BadPayload {
        PayloadReader r = new PayloadReader(payload);
        Map<String, Long> c = counters(r);
        r.end("counters");
        return c;
    }

    private static void counters(PayloadWriter w, Map<String, Long> counters) {
        w.u32(counters.size());
        counters.forEach((k, v) -> w.string(k).u64(v));
    }

    private static Map<String, Long> counters(PayloadReader r) throws BadPayload {
        int n = r.count(12, "counters");
        Map<String, Long> c = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) c.put(r.string(), r.u64());
        return c;
    }

    private static void strings(PayloadWriter w, List<String> list) {
        w.u32(list.size());
        for (String s : list) w.string(s);
    }

    private static List<String> strings(PayloadReader r) throws BadPayload {
        int n = r.count(4, "strings");
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) out.add(r.string());
        return out;
    }
}
